# Classic Rummy's hand: the turns, going out, the scores, and games of hands to the target.

cdef enum TurnEnd:
    TURN_CONTINUES = 0
    TURN_OUT = 1
    TURN_DRAWN = 2


cdef TurnEnd _turn(Table* table, Config* config, int player, int kind, Rng* rng) noexcept nogil:
    cdef bint fresh = not table.has_laid[player], from_pile
    cdef int card, discard
    table.taken = 0
    if table.pile_size == 0:
        from_pile = False
    elif kind == STRATEGY_RANDOM:
        from_pile = below(rng, 2) == 1
    else:
        from_pile = _greedy_takes(table, player, table.pile[table.pile_size - 1])
    if from_pile:
        table.pile_size -= 1
        card = table.pile[table.pile_size]
        table.taken = (<uint64_t>1) << card
        table.held[player] |= table.taken
        _note(table, EVENT_DRAW_DISCARD, player, card, NO_MELD, 0)
    else:
        card = table.stock[table.stock_top]
        table.stock_top += 1
        table.held[player] |= (<uint64_t>1) << card
        _note(table, EVENT_DRAW_STOCK, player, card, NO_MELD, 0)
    table.turns += 1
    if kind == STRATEGY_RANDOM:
        discard = _random_play(table, player, rng)
    else:
        discard = _greedy_play(table, player, rng)
    if discard != NO_CARD:
        table.held[player] &= ~((<uint64_t>1) << discard)
        table.pile[table.pile_size] = discard
        table.pile_size += 1
        _note(table, EVENT_DISCARD, player, discard, NO_MELD, 0)
    table.taken = 0
    if table.held[player] == 0:
        table.rummy = fresh
        _note(table, EVENT_GO_OUT, player, NO_CARD, NO_MELD, fresh)
        return TURN_OUT
    if table.stock_top == table.stock_end:
        if table.turnovers >= config.max_turnovers:
            _note(table, EVENT_DRAWN, NO_PLAYER, NO_CARD, NO_MELD, 0)
            return TURN_DRAWN
        _turnover(table)
    if table.turns >= MAX_TURNS:
        _note(table, EVENT_DRAWN, NO_PLAYER, NO_CARD, NO_MELD, 0)
        return TURN_DRAWN
    return TURN_CONTINUES


cdef inline void _untraced(Table* table, bint audit) noexcept nogil:
    """Set up a table for play without a trace (the batch and single-record entry points)."""
    table.trace = NULL
    table.trace_capacity = 0
    table.audit = audit


cdef void _deal(Table* table, Config* config, uint8_t* deck, int dealer) noexcept nogil:
    """One card at a time round the table from the dealer's left; then the upcard; the rest is stock."""
    cdef Event* trace = table.trace
    cdef int capacity = table.trace_capacity, i
    cdef bint audit = table.audit
    cdef int dealt = config.players * config.hand_size
    memset(table, 0, sizeof(Table))
    table.trace = trace
    table.trace_capacity = capacity
    table.audit = audit
    table.players = config.players
    table.dealer = dealer
    for i in range(dealt):
        table.held[(dealer + 1 + i) % config.players] |= (<uint64_t>1) << deck[i]
    table.pile[0] = deck[dealt]
    table.pile_size = 1
    for i in range(dealt + 1, 52):
        table.stock[i - dealt - 1] = deck[i]
    table.stock_top = 0
    table.stock_end = 52 - dealt - 1
    if table.audit:
        table.audit_failures += _audit(table, -1, 0, NO_CARD)


cdef void _play(Table* table, Config* config, int* kinds, Rng* rng, Record* record) noexcept nogil:
    cdef int player = (table.dealer + 1) % config.players, seat
    cdef TurnEnd end = TURN_CONTINUES
    while True:
        end = _turn(table, config, player, kinds[player], rng)
        if end != TURN_CONTINUES:
            break
        player = (player + 1) % config.players
    memset(record, 0, sizeof(Record))
    record.players = config.players
    record.dealer = table.dealer
    record.turns = table.turns
    record.turnovers = table.turnovers
    record.melds = table.meld_count
    record.table_cards = popcount64(table.table_cards)
    record.stock_left = table.stock_end - table.stock_top
    record.pile_left = table.pile_size
    record.audit_failures = table.audit_failures
    record.table = table.table_cards
    record.stock = _stock_cards(table)
    record.pile = _pile_cards(table)
    for seat in range(MAX_PLAYERS):
        record.held[seat] = table.held[seat]
        record.cards_left[seat] = popcount64(table.held[seat]) if seat < config.players else -1
    if end == TURN_DRAWN:
        record.winner = -1
        return
    record.winner = player
    record.rummy = table.rummy
    for seat in range(config.players):
        if seat != player:
            record.points += mask_value(table.held[seat])
    if table.rummy and config.rummy_doubles:
        record.points *= 2


cdef inline int _next_dealer(int players, int dealer, int winner) noexcept nogil:
    """Round the table to the left; with two players the winner deals (the same dealer after a draw)."""
    if players == 2:
        return winner if winner >= 0 else dealer
    return (dealer + 1) % players
