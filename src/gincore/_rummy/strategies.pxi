# The classic Rummy strategies, included into _rummy.pyx (one compiled unit with the hand loop; the
# kernels they use are cimported there, since an included file in a folder cannot cimport).

cdef inline int _table_deadwood(Table* table, uint64_t hand) noexcept nogil:
    """Least value left in ``hand`` after laying down its best melds and laying off onto the table."""
    cdef uint64_t laid
    if table.meld_count == 0:
        return deadwood_of(hand)
    return layoff_of(hand, table.table_runs, hand & table.set_gaps, &laid)


cdef bint _greedy_takes(Table* table, int player, int top) noexcept nogil:
    """Take the pile's top card iff some discard then leaves less deadwood than the hand has now."""
    cdef uint64_t hand = table.held[player]
    cdef uint64_t with_top = hand | ((<uint64_t>1) << top), rest = hand, card
    cdef int now = _table_deadwood(table, hand)
    if now == 0:
        return False
    if _table_deadwood(table, with_top) == 0:
        return True  # out without a discard
    while rest:
        card = rest & (~rest + 1)
        rest ^= card
        if _table_deadwood(table, with_top ^ card) < now:
            return True
    return False


cdef uint64_t _least_deadwood_discards(Table* table, uint64_t hand, uint64_t candidates) noexcept nogil:
    """The candidates whose discard leaves the least deadwood (table melds and lay-offs counted)."""
    cdef uint64_t rest = candidates, card, chosen = 0
    cdef int least = 1 << 30, value
    if table.meld_count == 0:  # nothing on the table: the hand's own deadwood
        return least_deadwood_among(hand, candidates, &least)
    while rest:
        card = rest & (~rest + 1)
        rest ^= card
        value = _table_deadwood(table, hand ^ card)
        if value < least:
            least = value
            chosen = card
        elif value == least:
            chosen |= card
    return chosen


cdef uint64_t _highest_value(uint64_t cards) noexcept nogil:
    cdef uint64_t chosen = 0, card
    cdef int best = -1, value
    while cards:
        card = cards & (~cards + 1)
        cards ^= card
        value = card_value(lowest_card(card))
        if value > best:
            best = value
            chosen = card
        elif value == best:
            chosen |= card
    return chosen


cdef void _lay_down_best(Table* table, int player, uint64_t kept) noexcept nogil:
    """Lay down a least-deadwood arrangement of the hand but ``kept``: its melds, then its lay-offs."""
    cdef uint64_t hand = table.held[player] & ~kept
    cdef uint64_t laid = 0, own, in_sets, runs, group, pending, card, rest
    cdef uint64_t leaves[MAX_LEAVES]
    cdef int count = 0, rank, suit, block, start, target, onto_set
    cdef bint progress
    if table.meld_count:
        layoff_of(hand, table.table_runs, hand & table.set_gaps, &laid)
    own = hand & ~laid
    min_set_choices(own, leaves, MAX_LEAVES, &count)
    in_sets = leaves[0]
    for rank in range(13):
        group = in_sets & rank_cards(rank)
        if group:
            _lay_meld(table, player, group)
    runs = run_cards(own & ~in_sets)
    for suit in range(4):
        block = <int>((runs >> (13 * suit)) & SUIT_MASK)
        while block:
            start = lowest_card(block)
            group = (<uint64_t>block) >> start
            group = group & ~(group + 1)  # the lowest stretch of consecutive ranks
            block &= ~(<int>(group << start))
            _lay_meld(table, player, group << (start + 13 * suit))
    # The solver lays a card onto a run whenever one can take it, in chains (7 then 8 onto 4-5-6), so
    # runs are served first, until nothing more fits; what is left completes 3-card sets.
    pending = laid
    for onto_set in range(2):
        progress = True
        while pending and progress:
            progress = False
            rest = pending
            while rest:
                card = rest & (~rest + 1)
                rest ^= card
                target = _meld_target(table, lowest_card(card), onto_set)
                if target >= 0:
                    _lay_off(table, player, lowest_card(card), target)
                    pending ^= card
                    progress = True


cdef int _greedy_play(Table* table, int player, Rng* rng) noexcept nogil:
    """Meld and lay off all it can, keeping the discard that leaves least deadwood; the discard."""
    cdef uint64_t hand = table.held[player], discard
    if _table_deadwood(table, hand) == 0:
        _lay_down_best(table, player, 0)
        return NO_CARD
    discard = pick(rng, _highest_value(_least_deadwood_discards(table, hand, hand & ~table.taken)))
    _lay_down_best(table, player, discard)
    return lowest_card(discard)


cdef int _random_play(Table* table, int player, Rng* rng) noexcept nogil:
    """Uniformly random legal steps: any meld, any lay-off, or stop; then any legal discard."""
    cdef uint64_t melds[MAX_ACTIONS]
    cdef uint8_t layoff_card[MAX_ACTIONS]
    cdef uint8_t layoff_meld[MAX_ACTIONS]
    cdef uint64_t hand, group, others, card, run
    cdef int meld_count, layoff_count, rank, suit, start, end, mask, choice, i, index, low, high
    while True:
        hand = table.held[player]
        meld_count = 0
        layoff_count = 0
        for rank in range(13):
            group = hand & rank_cards(rank)
            if popcount64(group) < 3:
                continue
            if _keeps_a_discard(table, hand & ~group):
                melds[meld_count] = group
                meld_count += 1
            if popcount64(group) == 4:
                others = group
                while others:
                    card = others & (~others + 1)
                    others ^= card
                    if _keeps_a_discard(table, hand & ~(group ^ card)):
                        melds[meld_count] = group ^ card
                        meld_count += 1
        for suit in range(4):
            mask = <int>((hand >> (13 * suit)) & SUIT_MASK)
            for start in range(13):
                end = start
                run = 0
                while end < 13 and (mask >> end) & 1:
                    run |= (<uint64_t>1) << (13 * suit + end)
                    end += 1
                    if end - start >= 3 and meld_count < MAX_ACTIONS and _keeps_a_discard(table, hand & ~run):
                        melds[meld_count] = run
                        meld_count += 1
        others = hand
        while others:
            card = others & (~others + 1)
            others ^= card
            index = lowest_card(card)
            if not _keeps_a_discard(table, hand & ~card):
                continue
            for i in range(table.meld_count):
                group = table.melds[i]
                if is_set(group):
                    if popcount64(group) != 3 or lowest_card(group) % 13 != index % 13:
                        continue
                else:
                    low = lowest_card(group)
                    high = low + popcount64(group) - 1
                    if low // 13 != index // 13 or not (
                            (index == low - 1 and low % 13 > 0) or (index == high + 1 and high % 13 < 12)):
                        continue
                if layoff_count < MAX_ACTIONS:
                    layoff_card[layoff_count] = index
                    layoff_meld[layoff_count] = i
                    layoff_count += 1
        choice = below(rng, meld_count + layoff_count + 1)
        if choice == meld_count + layoff_count:
            break
        if choice < meld_count:
            _lay_meld(table, player, melds[choice])
        else:
            choice -= meld_count
            _lay_off(table, player, layoff_card[choice], layoff_meld[choice])
        if table.held[player] == 0:
            return NO_CARD
    return lowest_card(pick(rng, table.held[player] & ~table.taken))
