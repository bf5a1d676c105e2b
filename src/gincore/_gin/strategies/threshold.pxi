# threshold:K: plays like greedy but knocks only with deadwood K or less (gin is threshold:0).

cdef struct ThresholdParams:
    int knock_at             # the most deadwood it knocks with (0: gin only)


cdef bint _threshold_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    return left <= (<ThresholdParams*>who.params).knock_at


cdef int KIND_THRESHOLD = register_strategy("threshold", greedy_takes, greedy_discard, _threshold_knocks,
                                            always_big_gin, takes_back_discards=False)
