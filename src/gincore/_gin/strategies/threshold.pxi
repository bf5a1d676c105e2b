# threshold:K: plays like greedy but knocks only with deadwood K or less (gin is threshold:0).

cdef struct ThresholdParams:
    int knock_at             # the most deadwood it knocks with (0: gin only)


cdef bint _threshold_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    return left <= (<ThresholdParams*>who.params).knock_at


cdef ThresholdParams _THRESHOLD_FIELDS  # zeroed: read as a dict, its field names in order
cdef int KIND_THRESHOLD = register_strategy("threshold", greedy_takes, greedy_discard, _threshold_knocks,
                                            always_big_gin, takes_back_discards=False, values_matches=False,
                                            parameters=_THRESHOLD_FIELDS, parameters_size=sizeof(ThresholdParams))
