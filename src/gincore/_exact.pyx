"""Exact enumeration of every hand of ``cards`` cards, up to suit symmetry: counts by minimum deadwood.

A hand is four 13-bit suit masks, and its deadwood does not change when the suits are permuted. So only
the canonical hands are scored: suit masks in non-increasing order, where masks are ordered by
popcount first and then by their position in the list of masks with that popcount. Each canonical
hand stands for ``4! / (product of the factorials of the multiplicities of equal masks)`` hands.

The popcounts of a canonical hand form a partition ``p1 >= p2 >= p3 >= p4`` of ``cards``. A **work
unit** fixes the partition and the first suit mask (row ``(p1, p2, p3, p4, i1)``, ``i1`` the index of
the mask among those with ``p1`` cards); the kernel then loops over the other three masks, the last
one innermost over a contiguous table. When no rank holds three cards of the hand the deadwood is the
sum of each suit's run deadwood, which the loop adds from a per-mask table; otherwise it calls the
solver's ``deadwood_of``.

>>> units = work_units(3)
>>> int(hand_counts(units).sum()) == 22100  # C(52, 3)
True
>>> [int(count) for count in histogram(units)[:4]]
[96, 0, 0, 0]
"""
from libc.stdint cimport int64_t, uint16_t, uint64_t

cimport numpy as cnp
import numpy as np

from gincore.errors import InputError

from gincore._bits cimport popcount64
from gincore._melds cimport deadwood_of

cnp.import_array()

cdef enum:
    SUIT_MASKS = 8192
    MAX_DEADWOOD = 340  # the value of the whole deck: no hand's deadwood exceeds it

HISTOGRAM_SIZE = MAX_DEADWOOD + 1

# Every 13-bit mask, ordered by popcount and then by value; the masks with q cards are
# ORDERED_MASKS[MASK_START[q]:MASK_START[q + 1]].
cdef uint16_t ORDERED_MASKS[SUIT_MASKS]
cdef int MASK_START[15]
# Deadwood of a suit's cards alone (only runs can form within one suit).
cdef int SUIT_DEADWOOD[SUIT_MASKS]
# Suit permutations giving distinct hands, by which neighbouring canonical masks are equal:
# bit 0 for masks 1 and 2, bit 1 for masks 2 and 3, bit 2 for masks 3 and 4.
cdef int64_t PERMUTATIONS[8]


cdef void _build_tables() noexcept:
    cdef int mask, count, position = 0
    for count in range(14):
        MASK_START[count] = position
        for mask in range(SUIT_MASKS):
            if popcount64(mask) == count:
                ORDERED_MASKS[position] = mask
                position += 1
    MASK_START[14] = position
    for mask in range(SUIT_MASKS):
        SUIT_DEADWOOD[mask] = deadwood_of(mask)
    # 4! / product of multiplicities!: runs of equal masks of lengths (1,1,1,1), (2,1,1), (3,1), ...
    PERMUTATIONS[0b000] = 24
    PERMUTATIONS[0b001] = 12
    PERMUTATIONS[0b010] = 12
    PERMUTATIONS[0b100] = 12
    PERMUTATIONS[0b101] = 6
    PERMUTATIONS[0b011] = 4
    PERMUTATIONS[0b110] = 4
    PERMUTATIONS[0b111] = 1


_build_tables()


def work_units(int cards):
    """The work units of the enumeration of all ``cards``-card hands: rows ``(p1, p2, p3, p4, i1)``.

    One row per partition of ``cards`` into four suit sizes ``13 >= p1 >= p2 >= p3 >= p4 >= 0`` and per
    first suit mask (index ``i1`` among the masks of ``p1`` cards), partitions in lexicographically
    decreasing order.

    >>> work_units(2).tolist()[:2], len(work_units(2))
    ([[2, 0, 0, 0, 0], [2, 0, 0, 0, 1]], 91)
    """
    if not 0 <= cards <= 52:
        raise InputError(f"cards must be between 0 and 52, got {cards}")
    rows = []
    cdef int p1, p2, p3, p4
    for p1 in range(min(cards, 13), -1, -1):
        for p2 in range(min(cards - p1, p1), -1, -1):
            for p3 in range(min(cards - p1 - p2, p2), -1, -1):
                p4 = cards - p1 - p2 - p3
                if p4 > p3:
                    break
                for i1 in range(MASK_START[p1 + 1] - MASK_START[p1]):
                    rows.append((p1, p2, p3, p4, i1))
    return np.array(rows, dtype=np.int32).reshape(-1, 5)


cdef inline int _masks(int count) noexcept nogil:
    return MASK_START[count + 1] - MASK_START[count]


cdef bint _check_units(const int[:, ::1] units) noexcept nogil:
    cdef Py_ssize_t row
    cdef int p1, p2, p3, p4
    for row in range(units.shape[0]):
        p1 = units[row, 0]
        p2 = units[row, 1]
        p3 = units[row, 2]
        p4 = units[row, 3]
        if not (13 >= p1 >= p2 >= p3 >= p4 >= 0) or not 0 <= units[row, 4] < _masks(p1):
            return False
    return True


def _units_view(units):
    view = np.ascontiguousarray(units, dtype=np.int32)
    if view.ndim != 2 or view.shape[1] != 5:
        raise InputError(f"units must be rows (p1, p2, p3, p4, i1) as from work_units, got shape {view.shape}")
    if not _check_units(view):
        raise InputError("units holds a row that is not a work unit (see work_units)")
    return view


ctypedef int64_t (*UnitCount)(const int* unit) noexcept nogil


cdef _per_unit(units, UnitCount count):
    """``count`` of every row of ``units``, computed without the GIL."""
    cdef const int[:, ::1] view = _units_view(units)
    result = np.zeros(view.shape[0], dtype=np.int64)
    cdef int64_t[::1] out = result
    cdef Py_ssize_t row
    with nogil:
        for row in range(view.shape[0]):
            out[row] = count(&view[row, 0])
    return result


def hand_counts(units):
    """For each work unit: how many hands it stands for (the sum of its canonical hands' weights).

    Computed without scoring any hand; over ``work_units(k)`` the counts add up to C(52, k).

    >>> int(hand_counts(work_units(10)).sum())
    15820024220
    """
    return _per_unit(units, _unit_hands)


def canonical_counts(units):
    """For each work unit: how many canonical hands (suit-mask tuples) the kernel scores.

    >>> int(canonical_counts(work_units(10)).sum())
    671225412
    """
    return _per_unit(units, _unit_canonical)


cdef int64_t _unit_hands(const int* unit) noexcept nogil:
    cdef int p1 = unit[0], p2 = unit[1], p3 = unit[2], p4 = unit[3], i1 = unit[4]
    cdef int i2, i3, top2, top3, equal
    cdef int64_t total = 0
    top2 = i1 + 1 if p2 == p1 else _masks(p2)
    for i2 in range(top2):
        equal = 1 if p2 == p1 and i2 == i1 else 0
        top3 = i2 + 1 if p3 == p2 else _masks(p3)
        for i3 in range(top3):
            if p3 == p2 and i3 == i2:
                equal |= 2
            else:
                equal &= ~2
            if p4 == p3:  # the last mask equals the third once, at i4 == i3
                total += i3 * PERMUTATIONS[equal] + PERMUTATIONS[equal | 4]
            else:
                total += _masks(p4) * PERMUTATIONS[equal]
    return total


cdef int64_t _unit_canonical(const int* unit) noexcept nogil:
    cdef int p1 = unit[0], p2 = unit[1], p3 = unit[2], p4 = unit[3], i1 = unit[4]
    cdef int i2, i3, top2, top3
    cdef int64_t total = 0
    top2 = i1 + 1 if p2 == p1 else _masks(p2)
    for i2 in range(top2):
        top3 = i2 + 1 if p3 == p2 else _masks(p3)
        for i3 in range(top3):
            total += i3 + 1 if p4 == p3 else _masks(p4)
    return total


cdef void _score_unit(const int* unit, int64_t* counts) noexcept nogil:
    """Add every hand of one work unit to ``counts`` (indexed by deadwood), weighted by its suit
    permutations."""
    cdef int p1 = unit[0], p2 = unit[1], p3 = unit[2], p4 = unit[3], i1 = unit[4]
    cdef const uint16_t* second = &ORDERED_MASKS[MASK_START[p2]]
    cdef const uint16_t* third = &ORDERED_MASKS[MASK_START[p3]]
    cdef const uint16_t* fourth = &ORDERED_MASKS[MASK_START[p4]]
    cdef uint64_t first = ORDERED_MASKS[MASK_START[p1] + i1]
    cdef uint64_t b, c, d, both, either, three, needs_fourth, hand_abc
    cdef int i2, i3, i4, top2, top3, top4, equal, deadwood_abc
    cdef int64_t weight
    top2 = i1 + 1 if p2 == p1 else _masks(p2)
    for i2 in range(top2):
        b = second[i2]
        equal = 1 if p2 == p1 and i2 == i1 else 0
        both = first & b     # ranks held in both of the first two suits
        either = first | b   # ranks held in either
        top3 = i2 + 1 if p3 == p2 else _masks(p3)
        for i3 in range(top3):
            c = third[i3]
            if p3 == p2 and i3 == i2:
                equal |= 2
            else:
                equal &= ~2
            weight = PERMUTATIONS[equal]
            hand_abc = first | (b << 13) | (c << 26)
            deadwood_abc = SUIT_DEADWOOD[first] + SUIT_DEADWOOD[b] + SUIT_DEADWOOD[c]
            three = both & c
            # A rank holds 3 or more cards iff it is in ``three`` or the fourth suit holds it too
            # and it is in ``needs_fourth``; without such a rank only runs can form.
            needs_fourth = both | (either & c)
            if p4 == p3:
                top4 = i3  # the masks below the third; the equal one is scored after the loop
            else:
                top4 = _masks(p4)
            if three:
                for i4 in range(top4):
                    counts[deadwood_of(hand_abc | (<uint64_t>fourth[i4] << 39))] += weight
            else:
                for i4 in range(top4):
                    d = fourth[i4]
                    if d & needs_fourth:
                        counts[deadwood_of(hand_abc | (d << 39))] += weight
                    else:
                        counts[deadwood_abc + SUIT_DEADWOOD[d]] += weight
            if p4 == p3:
                counts[deadwood_of(hand_abc | (c << 39))] += PERMUTATIONS[equal | 4]


def histogram(units):
    """Counts of hands by minimum deadwood over the given work units (an ``int64`` array of length
    ``HISTOGRAM_SIZE``), computed without the GIL, so threads can score units in parallel.

    >>> counts = histogram(work_units(4))
    >>> int(counts.sum()), int(counts[0])  # C(52, 4) hands; 13 fours of a kind and 40 runs of four
    (270725, 53)
    """
    cdef const int[:, ::1] view = _units_view(units)
    result = np.zeros(HISTOGRAM_SIZE, dtype=np.int64)
    cdef int64_t[::1] counts = result
    cdef Py_ssize_t row
    with nogil:
        for row in range(view.shape[0]):
            _score_unit(&view[row, 0], &counts[0])
    return result
