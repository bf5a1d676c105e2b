# simple: the EAAI competition's baseline. Takes a face-up card iff it melds; discards at random
# among the least-deadwood choices, never repeating a (drawn, discarded) pair if it can help it;
# knocks at once.

cdef bint _simple_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    return in_some_meld(state.held[state.player] | card_bit(card), card)


cdef int _simple_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    cdef int player = state.player
    cdef bint known = state.drawn != NO_CARD  # a position dealt again may hide the card drawn: no pair then
    cdef uint64_t fresh = candidates & ~state.played[player][state.drawn] if known else candidates
    cdef uint64_t discard = pick(rng, least_deadwood_among(state.held[player], fresh if fresh else candidates,
                                                           &state.discard_deadwood))
    if known:
        state.played[player][state.drawn] |= discard
    return lowest_card(discard)


cdef int KIND_SIMPLE = register_strategy("simple", _simple_takes, _simple_discard, always_knocks, always_big_gin,
                                         takes_back_discards=True)
