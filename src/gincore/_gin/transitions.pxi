# The rules' transitions: the deal, one move of each phase, the showdown and the score. The only copy
# of the rules: the whole-hand loop, the play-outs and GameState all move a State through these.

cdef inline int top_card(State* state) noexcept nogil:
    return state.pile[state.pile_size - 1]


cdef inline int stock_size(State* state) noexcept nogil:
    return state.stock_end - state.stock_top


cdef inline void note(State* state, int kind, int player, int card) noexcept nogil:
    """Add an event to the trace, if the hand keeps one (a GameState's own trace grows)."""
    if state.context.trace != NULL:  # inline: most hands keep no trace
        _add_event(state.context, kind, player, card)


cdef void _add_event(Context* context, int kind, int player, int card) noexcept nogil:
    cdef Event* grown
    if context.trace_size == context.trace_capacity:
        if not context.trace_grows:
            return
        grown = <Event*>realloc(context.trace, 2 * context.trace_capacity * sizeof(Event))
        if grown == NULL:
            return
        context.trace = grown
        context.trace_capacity *= 2
    context.trace[context.trace_size].kind = kind
    context.trace[context.trace_size].player = player
    context.trace[context.trace_size].card = card
    context.trace_size += 1


cdef void deal_cards(State* state, const uint8_t* deck, int dealer, HandRules* rules,
                     Context* context) noexcept nogil:
    """Ten cards each, alternately from the non-dealer; the 21st card is the upcard; the upcard is
    offered to the non-dealer first."""
    cdef int i
    cdef uint64_t first = 0, second = 0
    memset(state, 0, sizeof(State))
    state.rules = rules
    state.context = context
    state.dealer = dealer
    for i in range(0, 20, 2):
        first |= card_bit(deck[i])
        second |= card_bit(deck[i + 1])
    state.held[1 - dealer] = first
    state.held[dealer] = second
    state.upcard = deck[20]
    state.pile[0] = deck[20]
    state.pile_by[0] = NO_PLAYER
    state.pile_size = 1
    state.in_pile = card_bit(deck[20])
    state.face_up = card_bit(deck[20])
    memcpy(state.stock, deck + 21, 31)
    state.stock_top = 0
    state.stock_end = 31
    state.knock_limit = rules.knock_limit[state.upcard]
    state.multiplier = rules.multiplier[state.upcard]
    state.phase = PHASE_OFFER
    state.player = 1 - dealer
    state.drawn = NO_CARD
    state.record.dealer = dealer
    state.record.upcard = state.upcard
    state.record.knock_limit = state.knock_limit
    state.record.multiplier = state.multiplier
    state.record.upcard_taken_by = -1


cdef void new_stock(State* state, uint8_t* cards, int count, Rng* rng) noexcept nogil:
    """Shuffle ``cards`` and make them the stock, top first."""
    cdef int i
    shuffle_cards(rng, cards, count)
    for i in range(count):
        state.stock[i] = cards[i]
    state.stock_top = 0
    state.stock_end = count


cdef void _reshuffle(State* state, Rng* rng) noexcept nogil:
    """Shuffle the pile (all but its top card) into the stock, and note the new stock's order."""
    cdef int size = 0, i
    cdef uint8_t cards[52]
    for i in range(state.stock_top, state.stock_end):
        cards[size] = state.stock[i]
        size += 1
    for i in range(state.pile_size - 1):
        cards[size] = state.pile[i]
        size += 1
    new_stock(state, cards, size, rng)
    state.pile[0] = state.pile[state.pile_size - 1]
    state.pile_by[0] = state.pile_by[state.pile_size - 1]
    state.pile_size = 1
    state.in_pile = card_bit(state.pile[0])
    state.reshuffles += 1
    note(state, EVENT_RESHUFFLE, NO_PLAYER, NO_CARD)
    for i in range(state.stock_top, state.stock_end):
        note(state, EVENT_RESTOCK, NO_PLAYER, state.stock[i])


cdef int _draw(State* state, bint from_pile) noexcept nogil:
    """The player to move draws; the hand goes to the discard phase."""
    cdef int card, player = state.player
    if from_pile:
        state.pile_size -= 1
        card = state.pile[state.pile_size]
        state.in_pile &= ~card_bit(card)
        state.from_pile[player] |= card_bit(card)
        state.took[player] |= card_bit(card)
    else:
        card = state.stock[state.stock_top]
        state.stock_top += 1
        note(state, EVENT_DRAW_STOCK, player, card)
    state.held[player] |= card_bit(card)
    state.turns += 1
    state.phase = PHASE_DISCARD
    state.drawn = card
    state.drawn_from_pile = from_pile
    return card


cdef void take_face_up(State* state) noexcept nogil:
    """The player to move takes the face-up card (the upcard in the offer, else the pile's top)."""
    cdef int player = state.player
    if state.phase == PHASE_OFFER:
        note(state, EVENT_TAKE_UPCARD, player, state.upcard)
        state.record.upcard_taken_by = player
    else:
        note(state, EVENT_DRAW_DISCARD, player, top_card(state))
    _draw(state, True)


cdef void refuse_face_up(State* state) noexcept nogil:
    """The player to move refuses the face-up card: in the offer the dealer is asked next, and when
    both refuse, the non-dealer draws from the stock; otherwise the player draws from the stock."""
    cdef int player = state.player
    state.passed[player] |= card_bit(top_card(state))
    if state.phase == PHASE_OFFER:
        note(state, EVENT_PASS_UPCARD, player, state.upcard)
        state.player = 1 - player
        if player != state.dealer:
            return
    _draw(state, False)


cdef void _finish(State* state, TurnEnd end) noexcept nogil:
    cdef Record* record = &state.record
    record.turns = state.turns
    state.phase = PHASE_DONE
    state.drawn = NO_CARD
    if end == TURN_DRAWN or end == TURN_ABORTED:
        record.outcome = OUTCOME_DRAW
        record.winner = -1
        record.knocker = -1
        record.knocker_deadwood = -1
        record.defender_deadwood = -1
    else:
        _showdown(state, state.player, end)


cdef void abort_hand(State* state) noexcept nogil:
    """End the hand without a score at once (a Python strategy failed)."""
    _finish(state, TURN_ABORTED)


cdef void go_big_gin(State* state) noexcept nogil:
    """The player to move goes out with all eleven cards melded."""
    note(state, EVENT_BIG_GIN, state.player, NO_CARD)
    _finish(state, TURN_BIG_GIN)


cdef void discard_card(State* state, int card, bint goes_out, Rng* rng) noexcept nogil:
    """The player to move discards ``card``: face down when going out (the hand ends), else face up;
    then the hand is drawn when the stock is spent (unless the pile is reshuffled into a new stock),
    or the other player moves."""
    cdef int player = state.player
    state.held[player] &= ~card_bit(card)
    state.from_pile[player] &= ~card_bit(card)
    if goes_out:
        state.face_down = card_bit(card)
        if state.context.trace != NULL:  # only a trace needs to know here which it is
            note(state, EVENT_GIN if deadwood_of(state.held[player]) == 0 else EVENT_KNOCK, player, card)
        _finish(state, TURN_WENT_OUT)
        return
    note(state, EVENT_DISCARD, player, card)
    state.pile[state.pile_size] = card
    state.pile_by[state.pile_size] = player
    state.pile_size += 1
    state.in_pile |= card_bit(card)
    state.discarded[player] |= card_bit(card)
    state.face_up |= card_bit(card)
    if state.turns >= MAX_TURNS:
        note(state, EVENT_DRAWN, NO_PLAYER, NO_CARD)
        _finish(state, TURN_DRAWN)
        return
    if stock_size(state) <= state.rules.stock_floor:
        if state.reshuffles < state.rules.max_reshuffles and state.pile_size > 1:
            _reshuffle(state, rng)
        if stock_size(state) <= state.rules.stock_floor:
            note(state, EVENT_DRAWN, NO_PLAYER, NO_CARD)
            _finish(state, TURN_DRAWN)
            return
    state.player = 1 - player
    state.phase = PHASE_DRAW
    state.drawn = NO_CARD


cdef inline bint big_gin_possible(State* state) noexcept nogil:
    return state.rules.big_gin_bonus >= 0 and all_melded(state.held[state.player])


cdef inline uint64_t discard_candidates(State* state) noexcept nogil:
    """The cards the player to move may discard: all held but a card just taken from the pile."""
    cdef uint64_t hand = state.held[state.player]
    return hand & ~card_bit(state.drawn) if state.drawn_from_pile else hand


cdef uint64_t shown_sets(uint64_t hand, uint64_t unseen, int* deadwood) noexcept nogil:
    """The knocker's choice among its best arrangements: the one exposing fewest unseen cards; and
    (in ``deadwood``) the hand's deadwood."""
    cdef uint64_t leaves[MAX_LEAVES]
    cdef int count = 0, i, exposure, best = 1 << 30
    cdef uint64_t chosen = 0
    deadwood[0] = min_set_choices(hand, leaves, MAX_LEAVES, &count)
    if count == 1:
        return leaves[0]  # nothing to choose between
    for i in range(min(count, <int>MAX_LEAVES)):
        exposure = meld_exposure(hand, leaves[i], unseen)
        if exposure < best:
            best = exposure
            chosen = leaves[i]
    return chosen


cdef void _showdown(State* state, int knocker, TurnEnd end) noexcept nogil:
    cdef int defender = 1 - knocker, rank
    cdef uint64_t sets, free_cards = 0, laid = 0, group
    cdef uint64_t hand = state.held[knocker]
    cdef HandRules* rules = state.rules
    cdef Record* record = &state.record
    cdef int deadwood
    record.knocker = knocker
    record.knocker_sets = shown_sets(hand, FULL_DECK & ~(hand | state.face_up | state.face_down), &deadwood)
    record.knocker_deadwood = deadwood
    if end == TURN_BIG_GIN or record.knocker_deadwood == 0:
        record.outcome = OUTCOME_BIG_GIN if end == TURN_BIG_GIN else OUTCOME_GIN
        record.winner = knocker
        record.defender_deadwood = deadwood_of(state.held[defender])
        record.points = record.defender_deadwood + (
            rules.big_gin_bonus if end == TURN_BIG_GIN else rules.gin_bonus)
    else:
        sets = record.knocker_sets
        for rank in range(13):  # a defender card completing a knocker's 3-set lays off for free
            group = sets & rank_cards(rank)
            if group and popcount64(group) == 3:
                free_cards |= state.held[defender] & rank_cards(rank)
        record.defender_deadwood = layoff_of(state.held[defender], run_cards(hand & ~sets), free_cards,
                                             &laid)
        record.laid_off_cards = laid
        record.laid_off = popcount64(laid)
        if record.defender_deadwood <= record.knocker_deadwood:
            record.outcome = OUTCOME_UNDERCUT
            record.winner = defender
            record.points = record.knocker_deadwood - record.defender_deadwood + rules.undercut_bonus
        else:
            record.outcome = OUTCOME_KNOCK
            record.winner = knocker
            record.points = record.defender_deadwood - record.knocker_deadwood
    record.points *= record.multiplier


# --- actions: the numbered moves of GameState and the environments ------------------------------------

cdef bint action_legal(State* state, int action) noexcept nogil:
    cdef uint64_t candidates
    if state.phase == PHASE_OFFER or state.phase == PHASE_DRAW:
        return action == ACTION_TAKE or action == ACTION_REFUSE
    if state.phase != PHASE_DISCARD or action < 0 or action >= ACTION_COUNT:
        return False
    if action == ACTION_BIG_GIN:
        return big_gin_possible(state)
    candidates = discard_candidates(state)
    if action < ACTION_KNOCK:
        return (candidates >> action) & 1
    if action < ACTION_TAKE:
        return ((candidates >> (action - ACTION_KNOCK)) & 1
                and deadwood_of(state.held[state.player] ^ card_bit(action - ACTION_KNOCK)) <= state.knock_limit)
    return False


cdef uint64_t legal_discards(State* state, uint64_t* knocks) noexcept nogil:
    """The cards the player to move may discard, and (in ``knocks``) those it may knock with."""
    cdef uint64_t candidates = discard_candidates(state), rest, hand = state.held[state.player]
    cdef int card
    knocks[0] = 0
    rest = candidates
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        if deadwood_of(hand ^ card_bit(card)) <= state.knock_limit:
            knocks[0] |= card_bit(card)
    return candidates


cdef inline void apply_action(State* state, int action, Rng* rng) noexcept nogil:
    """Make a legal move (``action_legal``) for the player to move."""
    if action == ACTION_TAKE:
        take_face_up(state)
    elif action == ACTION_REFUSE:
        refuse_face_up(state)
    elif action == ACTION_BIG_GIN:
        go_big_gin(state)
    elif action >= ACTION_KNOCK:
        discard_card(state, action - ACTION_KNOCK, True, rng)
    else:
        discard_card(state, action, False, rng)
