# simple: the EAAI competition's baseline. Takes a face-up card iff it melds; discards at random
# among the least-deadwood choices, never repeating a (drawn, discarded) pair if it can help it;
# knocks at once.

cdef inline bint _pair_played(State* state, int player, int drawn, int discard) noexcept nogil:
    cdef int index = drawn * 52 + discard
    return (state.pairs[player][index >> 6] >> (index & 63)) & 1


cdef inline void _remember_pair(State* state, int player, int drawn, int discard) noexcept nogil:
    cdef int index = drawn * 52 + discard
    state.pairs[player][index >> 6] |= (<uint64_t>1) << (index & 63)


cdef bint _simple_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    return in_some_meld(state.held[state.player] | card_bit(card), card)


cdef int _simple_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    cdef int player = state.player, drawn = state.drawn, card, least
    cdef uint64_t fresh = 0, rest = candidates, discard
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        if not _pair_played(state, player, drawn, card):
            fresh |= card_bit(card)
    discard = pick(rng, least_deadwood_among(state.held[player], fresh if fresh else candidates, &least))
    _remember_pair(state, player, drawn, lowest_card(discard))
    return lowest_card(discard)


cdef int KIND_SIMPLE = register_strategy("simple", _simple_takes, _simple_discard, always_knocks, always_big_gin,
                                         takes_back_discards=True)
