# Card facts shared by the native modules: card values, the meld test and the shuffled deck (the
# bits of masks are in _bits.pxd). Everything is inline, so each module that
# cimports it compiles its own copy and no module depends on another at import.
from libc.stdint cimport uint8_t, uint64_t

from gincore._bits cimport lowest_card, popcount64, rank_cards
from gincore._random cimport Rng, shuffle_cards

cdef enum:
    NO_CARD = 255      # "no card" in a uint8 card slot (events, choices)
    NO_PLAYER = 255    # "no player" in events that belong to nobody (the stock runs out)


cdef inline int card_value(int card) noexcept nogil:
    """Points of a card: ace 1, number cards their rank, faces 10."""
    return min(card % 13 + 1, 10)


cdef inline int mask_value(uint64_t cards) noexcept nogil:
    cdef int total = 0
    while cards:
        total += card_value(lowest_card(cards))
        cards &= cards - 1
    return total


cdef inline bint is_set(uint64_t meld) noexcept nogil:
    """All cards of one rank (any size)."""
    return meld & ~rank_cards(lowest_card(meld) % 13) == 0


cdef inline bint is_meld(uint64_t meld) noexcept nogil:
    """A set of 3 or 4 cards of a rank, or a run of 3 or more consecutive cards of a suit."""
    cdef int size = popcount64(meld), low
    if size < 3:
        return False
    if is_set(meld):
        return size <= 4
    low = lowest_card(meld)
    return (meld >> low) == ((<uint64_t>1 << size) - 1) and low % 13 + size <= 13


cdef inline void shuffled_deck(Rng* rng, uint8_t* deck) noexcept nogil:
    """The 52 cards in a random order drawn from ``rng`` (the top of the deck first)."""
    cdef int i
    for i in range(52):
        deck[i] = i
    shuffle_cards(rng, deck, 52)
