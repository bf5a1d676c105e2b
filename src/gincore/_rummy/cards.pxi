# Classic Rummy's cards and melds on the table: where a card may be laid off, what a meld leaves.

cdef int _meld_target(Table* table, int card, bint onto_set) noexcept nogil:
    """The first table set (``onto_set``) or run that ``card`` may be laid off onto, or -1."""
    cdef int i, low, high
    cdef uint64_t meld
    for i in range(table.meld_count):
        meld = table.melds[i]
        if is_set(meld):
            if onto_set and popcount64(meld) == 3 and lowest_card(meld) % 13 == card % 13:
                return i
            continue
        if onto_set:
            continue
        low = lowest_card(meld)
        high = low + popcount64(meld) - 1
        if low // 13 != card // 13:
            continue
        if (card == low - 1 and low % 13 > 0) or (card == high + 1 and high % 13 < 12):
            return i
    return -1


cdef inline bint _keeps_a_discard(Table* table, uint64_t rest) noexcept nogil:
    """Whether a hand left with ``rest`` after melding is empty or holds a card it may discard."""
    return rest == 0 or (rest & ~table.taken) != 0
