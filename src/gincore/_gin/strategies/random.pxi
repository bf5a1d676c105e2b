# random: a coin decides every draw, the discard is any legal card, a coin takes a legal knock.

cdef bint _random_coin(State* state, Player* who, Rng* rng) noexcept nogil:
    return below(rng, 2) == 1


cdef bint _random_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    return _random_coin(state, who, rng)


cdef int _random_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    return lowest_card(pick(rng, candidates))


cdef bint _random_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    return _random_coin(state, who, rng)


cdef int KIND_RANDOM = register_strategy("random", _random_takes, _random_discard, _random_knocks, _random_coin,
                                         takes_back_discards=True)
