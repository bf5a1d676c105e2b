# The per-hand random stream shared by the native game loops: xoshiro256** seeded by splitmix64 from
# a 64-bit key, with (run key, hand index) mixed into that key so that every hand of a run has a stream
# of its own. The functions are inline, so each module that cimports them compiles its own copy and no
# module depends on another at import.
from libc.stdint cimport uint8_t, uint32_t, uint64_t

from gincore._bits cimport popcount64

cdef extern from *:
    """
    #ifndef GC_RANDOM_CONSTANTS
    #define GC_RANDOM_CONSTANTS
    #define GC_RANDOM_GOLDEN 0x9E3779B97F4A7C15ULL
    #define GC_RANDOM_MIX1 0xBF58476D1CE4E5B9ULL
    #define GC_RANDOM_MIX2 0x94D049BB133111EBULL
    #endif
    """
    const uint64_t GC_RANDOM_GOLDEN
    const uint64_t GC_RANDOM_MIX1
    const uint64_t GC_RANDOM_MIX2


cdef struct Rng:
    uint64_t s0, s1, s2, s3


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * GC_RANDOM_MIX1
    z = (z ^ (z >> 27)) * GC_RANDOM_MIX2
    return z ^ (z >> 31)


cdef inline uint64_t hand_key(uint64_t key0, uint64_t key1, uint64_t index) noexcept nogil:
    """The stream key of hand ``index`` of the run keyed by (key0, key1)."""
    return mix64(key0 ^ mix64(index + key1))


cdef inline void seed_rng(Rng* rng, uint64_t key) noexcept nogil:
    rng.s0 = mix64(key + GC_RANDOM_GOLDEN)
    rng.s1 = mix64(key + 2 * GC_RANDOM_GOLDEN)
    rng.s2 = mix64(key + 3 * GC_RANDOM_GOLDEN)
    rng.s3 = mix64(key + 4 * GC_RANDOM_GOLDEN)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t next_random(Rng* rng) noexcept nogil:
    cdef uint64_t result = _rotl(rng.s1 * 5, 7) * 9
    cdef uint64_t t = rng.s1 << 17
    rng.s2 ^= rng.s0
    rng.s3 ^= rng.s1
    rng.s1 ^= rng.s2
    rng.s0 ^= rng.s3
    rng.s2 ^= t
    rng.s3 = _rotl(rng.s3, 45)
    return result


cdef inline uint32_t below(Rng* rng, uint32_t n) noexcept nogil:
    """Uniform integer in 0..n-1 (n >= 1), without bias (Lemire's multiply and reject)."""
    cdef uint64_t product = (next_random(rng) >> 32) * n
    cdef uint32_t low = <uint32_t>product
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(0 - n)) % n
        while low < threshold:
            product = (next_random(rng) >> 32) * n
            low = <uint32_t>product
    return <uint32_t>(product >> 32)


cdef inline uint64_t pick(Rng* rng, uint64_t cards) noexcept nogil:
    """A uniformly chosen card (as a one-bit mask) of a non-empty mask."""
    cdef uint32_t skip = below(rng, popcount64(cards))
    while skip:
        cards &= cards - 1
        skip -= 1
    return cards & (~cards + 1)


cdef inline void shuffle_cards(Rng* rng, uint8_t* cards, int count) noexcept nogil:
    """Fisher-Yates, from the last position down."""
    cdef int i, j
    cdef uint8_t swap
    for i in range(count - 1, 0, -1):
        j = below(rng, i + 1)
        swap = cards[i]
        cards[i] = cards[j]
        cards[j] = swap
