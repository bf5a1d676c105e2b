# Classic Rummy's table and trace: the stock, the pile, its turnovers and the events of a hand.

cdef uint64_t _stock_cards(Table* table) noexcept nogil:
    cdef uint64_t cards = 0
    cdef int i
    for i in range(table.stock_top, table.stock_end):
        cards |= (<uint64_t>1) << table.stock[i]
    return cards


cdef uint64_t _pile_cards(Table* table) noexcept nogil:
    cdef uint64_t cards = 0
    cdef int i
    for i in range(table.pile_size):
        cards |= (<uint64_t>1) << table.pile[i]
    return cards


cdef int _audit(Table* table, int kind, int player, int card) noexcept nogil:
    """1 if the table breaks an invariant after this event: every card in exactly one place, every
    table meld valid, no discard of the card just taken from the pile, a discard left after melding."""
    cdef uint64_t places[MAX_PLAYERS + 3]
    cdef uint64_t seen = 0, melded = 0
    cdef int count = 0, i, total = 0
    for i in range(MAX_PLAYERS):
        if i >= table.players and table.held[i]:
            return 1
    for i in range(table.players):
        places[count] = table.held[i]
        count += 1
    places[count] = table.table_cards
    places[count + 1] = _stock_cards(table)
    places[count + 2] = _pile_cards(table)
    count += 3
    for i in range(count):
        if seen & places[i]:
            return 1
        seen |= places[i]
        total += popcount64(places[i])
    if seen != FULL_DECK or total != 52:
        return 1
    if table.stock_end - table.stock_top != popcount64(places[count - 2]):
        return 1
    if table.pile_size != popcount64(places[count - 1]):
        return 1
    for i in range(table.meld_count):
        if not is_meld(table.melds[i]) or melded & table.melds[i]:
            return 1
        melded |= table.melds[i]
    if melded != table.table_cards:
        return 1
    if kind == EVENT_DISCARD and ((<uint64_t>1) << card) & table.taken:
        return 1
    if (kind == EVENT_MELD or kind == EVENT_LAY_OFF) and not _keeps_a_discard(table, table.held[player]):
        return 1
    return 0


cdef inline void _note(Table* table, int kind, int player, int card, int meld, uint64_t cards) noexcept nogil:
    if table.trace != NULL and table.trace_size < table.trace_capacity:
        table.trace[table.trace_size].kind = kind
        table.trace[table.trace_size].player = player
        table.trace[table.trace_size].card = card
        table.trace[table.trace_size].meld = meld
        table.trace[table.trace_size].cards = cards
        table.trace_size += 1
    if table.audit:
        table.audit_failures += _audit(table, kind, player, card)


cdef void _lay_meld(Table* table, int player, uint64_t meld) noexcept nogil:
    cdef int index = table.meld_count
    table.held[player] &= ~meld
    table.melds[index] = meld
    table.meld_owner[index] = player
    table.meld_count += 1
    table.table_cards |= meld
    if not is_set(meld):
        table.table_runs |= meld
    elif popcount64(meld) == 3:
        table.set_gaps |= rank_cards(lowest_card(meld) % 13) & ~meld
    table.has_laid[player] = True
    _note(table, EVENT_MELD, player, NO_CARD, index, meld)


cdef void _lay_off(Table* table, int player, int card, int target) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << card
    table.held[player] &= ~bit
    table.melds[target] |= bit
    table.table_cards |= bit
    if is_set(table.melds[target]):
        table.set_gaps &= ~bit
    else:
        table.table_runs |= bit
    table.has_laid[player] = True
    _note(table, EVENT_LAY_OFF, player, card, target, bit)


cdef void _turnover(Table* table) noexcept nogil:
    """The pile, turned face down, is the new stock: its bottom card is the stock's top card."""
    cdef int i
    for i in range(table.pile_size):
        table.stock[i] = table.pile[i]
    table.stock_top = 0
    table.stock_end = table.pile_size
    table.pile_size = 0
    table.turnovers += 1
    _note(table, EVENT_TURNOVER, NO_PLAYER, NO_CARD, NO_MELD, _stock_cards(table))
