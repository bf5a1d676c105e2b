# Bit facts of card masks, shared by every native module: the deck, one card's bit, a rank's four
# cards, counting and finding cards. All inline, so each module that cimports them compiles its own
# copy (a cross-module call costs more than the work) and no module depends on another at import.
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #ifndef GC_BITS
    #define GC_BITS
    #define GC_FULL_DECK 0xFFFFFFFFFFFFFULL
    #define GC_RANK_ZERO 0x0008004002001ULL  /* the four aces: bits 0, 13, 26 and 39 */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int gc_popcount64(unsigned long long x) { return (int)__popcnt64(x); }
    static __inline int gc_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int gc_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int gc_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    #endif
    """
    const uint64_t FULL_DECK "GC_FULL_DECK"
    const uint64_t RANK_ZERO "GC_RANK_ZERO"
    int popcount64 "gc_popcount64"(uint64_t x) noexcept nogil
    int lowest_card "gc_ctz64"(uint64_t x) noexcept nogil  # the lowest card of a non-empty mask


cdef inline uint64_t card_bit(int card) noexcept nogil:
    return (<uint64_t>1) << card


cdef inline uint64_t rank_cards(int rank) noexcept nogil:
    """The four cards of a rank (0 = ace)."""
    return RANK_ZERO << rank


cdef inline uint64_t suit_cards(int suit) noexcept nogil:
    """The thirteen cards of a suit (0 = clubs)."""
    return (<uint64_t>0x1FFF) << (13 * suit)
