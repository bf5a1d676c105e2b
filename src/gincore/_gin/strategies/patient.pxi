# patient: search's own policy in its play-outs (not a player of its own): greedy, knocking at
# ``knock_at`` or less, or as marjj does in its first SEARCH_PATIENT_DRAWS draws, else only for gin.

cdef struct PatientParams:
    int knock_at

cdef enum:
    SEARCH_PATIENT_DRAWS = 8     # own draws within which its play-outs knock; 8 beat 3, 5, 12, 30


cdef bint _patient_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    return left <= (<PatientParams*>who.params).knock_at or marjj_knocks_early(state, SEARCH_PATIENT_DRAWS, left)


cdef PatientParams _PATIENT_FIELDS  # zeroed: read as a dict, its field names in order
cdef int KIND_PATIENT = register_strategy("patient", greedy_takes, greedy_discard, _patient_knocks,
                                          always_big_gin, takes_back_discards=False, values_matches=False,
                                          parameters=_PATIENT_FIELDS, parameters_size=sizeof(PatientParams))
