# The solver kernels other native modules (the hand loop) cimport. All are exact, nogil and noexcept.
from libc.stdint cimport uint64_t

cdef enum:
    MAX_LEAVES = 128  # set choices of a hand of at most 11 cards (at most 72 exist)

cdef struct DiscardChoice:
    int deadwood         # minimum deadwood after discarding one card
    uint64_t discards    # every card whose discard reaches that minimum

cdef int popcount64(uint64_t x) noexcept nogil
cdef int lowest_card(uint64_t x) noexcept nogil
cdef uint64_t rank_cards(int rank) noexcept nogil
cdef int deadwood_of(uint64_t hand) noexcept nogil
cdef DiscardChoice best_discards(uint64_t hand) noexcept nogil
cdef uint64_t run_cards(uint64_t hand) noexcept nogil
cdef int min_set_choices(uint64_t hand, uint64_t* leaves, int capacity, int* count) noexcept nogil
cdef int layoff_of(uint64_t defender, uint64_t knocker_runs, uint64_t free_cards,
                   uint64_t* laid_off) noexcept nogil
cdef int meld_exposure(uint64_t hand, uint64_t in_sets, uint64_t unseen) noexcept nogil
