# The solver kernels other native modules (the hand loop) cimport. All are exact, nogil and noexcept.
from libc.stdint cimport uint64_t

from gincore._bits cimport RANK_ZERO, lowest_card, popcount64, rank_cards

cdef enum:
    MAX_LEAVES = 128  # set choices of a hand of at most 11 cards (at most 72 exist)

cdef extern from *:
    """
    #define GC_RUN_STARTS 0x3FF9FFCFFE7FFULL  /* ranks ace to jack of every suit: where a run of 3 can start */
    """
    const uint64_t RUN_STARTS "GC_RUN_STARTS"

cdef struct DiscardChoice:
    int deadwood         # minimum deadwood after discarding one card
    uint64_t discards    # every card whose discard reaches that minimum

cdef int deadwood_of(uint64_t hand) noexcept nogil
cdef void deadwood_after_each(uint64_t hand, int* deadwood) noexcept nogil
cdef DiscardChoice best_discards(uint64_t hand) noexcept nogil
cdef uint64_t least_deadwood_each(uint64_t hand, uint64_t candidates, int* least) noexcept nogil
cdef int min_set_choices(uint64_t hand, uint64_t* leaves, int capacity, int* count) noexcept nogil
cdef int layoff_of(uint64_t defender, uint64_t knocker_runs, uint64_t free_cards,
                   uint64_t* laid_off) noexcept nogil
cdef int meld_exposure(uint64_t hand, uint64_t in_sets, uint64_t unseen) noexcept nogil


cdef inline uint64_t least_deadwood_among(uint64_t hand, uint64_t candidates, int* least) noexcept nogil:
    """``least_deadwood_each``, from the hand's best discards when one of them is a candidate."""
    cdef DiscardChoice choice = best_discards(hand)
    if choice.discards & candidates:
        least[0] = choice.deadwood
        return choice.discards & candidates
    return least_deadwood_each(hand, candidates, least)


# --- the few-instruction facts, inline in every module that asks them ---------------------------------

cdef inline uint64_t run_cards(uint64_t hand) noexcept nogil:
    """The cards of ``hand`` that are in runs when no card is in a set: those in a block of 3 or more
    consecutive ranks of a suit."""
    cdef uint64_t starts = hand & (hand >> 1) & (hand >> 2) & RUN_STARTS
    return starts | (starts << 1) | (starts << 2)


cdef inline uint64_t set_ranks(uint64_t hand) noexcept nogil:
    """Bit r set when rank r holds 3 or 4 cards of the hand."""
    cdef uint64_t c = hand & 0x1FFF, d = (hand >> 13) & 0x1FFF
    cdef uint64_t h = (hand >> 26) & 0x1FFF, s = (hand >> 39) & 0x1FFF
    return (c & d & (h | s)) | ((c | d) & h & s)


cdef inline bint in_some_meld(uint64_t hand, int card) noexcept nogil:
    """Whether ``card`` is part of some meld of ``hand`` (which holds it)."""
    return popcount64(hand & rank_cards(card % 13)) >= 3 or (run_cards(hand) >> card) & 1


cdef inline bint all_melded(uint64_t hand) noexcept nogil:
    """Whether the hand has no deadwood (gin). Most hands fail at once: every card must be in a run or
    hold a rank with 3 or more cards, and the search runs only for those that pass."""
    cdef uint64_t ranks = set_ranks(hand)
    if hand & ~(ranks * RANK_ZERO) & ~run_cards(hand):
        return False
    return ranks == 0 or deadwood_of(hand) == 0
