"""Native hand arithmetic on 52-bit card masks: deadwood, best discard, arrangements and lay-off.

Within one suit and without sets, a card is in a run iff its maximal block of consecutive ranks has
3 or more cards: a hand's run cards are a few shifts of its mask (``run_cards``), and tables indexed by
a 13-bit suit mask give a suit's deadwood and its best single removal in one lookup each. Sets come
from the few ranks holding 3 or 4 cards: the search below tries, for each such rank, the set choices
(no set, the 4-set, a 3-set) that are not strictly worse than another, and scores each leaf with the
suit tables. Hands with many such ranks (only possible beyond 11 cards) use an exact dynamic programme
over ranks instead.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int16_t
from libc.stdlib cimport free, malloc

cimport numpy as cnp
import numpy as np

from gincore._bits cimport lowest_card, popcount64, rank_cards
from gincore._cards cimport is_meld
from gincore.errors import InputError

from gincore.cards import check_mask

cnp.import_array()

cdef enum:
    SUIT_SIZE = 13
    SUIT_MASK = 0x1FFF
    SUIT_MASKS = 8192
    UNREACHED = 1 << 30  # larger than any deadwood
    GAIN_ZERO = 21       # DISCARD_OF's gain field holds the gain (-20 to 10) + GAIN_ZERO (0: an empty suit)
    GAIN_SHIFT = 26      # DISCARD_OF's gain field: its top bits, so the greatest entry has the greatest gain

cdef enum LeafScore:
    SCORE_DEADWOOD   # minimum deadwood
    SCORE_COLLECT    # minimum deadwood, and every set choice reaching it
    SCORE_LAYOFF     # minimum deadwood after lay-off, then fewest cards laid off

# Per 13-bit suit mask (built once at import by _build_tables):
cdef uint8_t RUN_DEADWOOD[SUIT_MASKS]    # value of the cards outside runs
cdef uint8_t VALUE_SUM[SUIT_MASKS]       # value of all the cards
# For the best discard, packed so that a suit is one load: bits 0-8 RUN_DEADWOOD (room for the sum of
# four), bits 9-21 the cards whose removal leaves the least RUN_DEADWOOD, bits 26-31 what that removal
# gains (RUN_DEADWOOD before minus after) + GAIN_ZERO. An empty suit is 0: no card, and a gain below
# every other.
cdef uint32_t DISCARD_OF[SUIT_MASKS]
# Per rank:
cdef int RANK_VALUE[13]


cdef void _build_tables() noexcept:
    cdef int rank, mask, card_bit, left, least
    cdef uint16_t cover, drop
    for rank in range(13):
        RANK_VALUE[rank] = min(rank + 1, 10)
    for mask in range(SUIT_MASKS):  # increasing, so every smaller mask is already filled in
        cover = run_cards(mask)
        VALUE_SUM[mask] = 0
        for rank in range(13):
            if (mask >> rank) & 1:
                VALUE_SUM[mask] += RANK_VALUE[rank]
        RUN_DEADWOOD[mask] = VALUE_SUM[mask & ~cover]
        least = UNREACHED
        drop = 0
        for rank in range(13):
            card_bit = 1 << rank
            if not mask & card_bit:
                continue
            left = RUN_DEADWOOD[mask ^ card_bit]
            if left < least:
                least = left
                drop = card_bit
            elif left == least:
                drop |= card_bit
        DISCARD_OF[mask] = 0 if mask == 0 else (RUN_DEADWOOD[mask] | <uint32_t>drop << 9
                                                | <uint32_t>(RUN_DEADWOOD[mask] - least + GAIN_ZERO) << GAIN_SHIFT)


_build_tables()


cdef inline int _suit(uint64_t hand, int suit) noexcept nogil:
    return <int>((hand >> (SUIT_SIZE * suit)) & SUIT_MASK)


cdef inline int _runs_only_deadwood(uint64_t hand) noexcept nogil:
    return (RUN_DEADWOOD[hand & SUIT_MASK] + RUN_DEADWOOD[(hand >> 13) & SUIT_MASK]
            + RUN_DEADWOOD[(hand >> 26) & SUIT_MASK] + RUN_DEADWOOD[(hand >> 39) & SUIT_MASK])


# --- the search over set choices -------------------------------------------------------------------

cdef struct Search:
    LeafScore score
    uint64_t runnable      # cards that can be in a run under some set choice
    uint64_t knocker_runs  # SCORE_LAYOFF: the knocker's run cards, extended by the defender
    uint64_t free_cards    # SCORE_LAYOFF: defender cards that complete a knocker's 3-set
    int best
    int best_tiebreak
    uint64_t best_cards    # SCORE_LAYOFF: the cards laid off
    uint64_t* leaves       # SCORE_COLLECT: the set choices (cards in sets) reaching best
    int capacity
    int count


cdef inline uint64_t _if(bint condition, uint64_t cards) noexcept nogil:
    """``cards`` if ``condition`` else 0, without a branch (the leaves' comparisons are unpredictable)."""
    return (<uint64_t>0 - <uint64_t>condition) & cards


cdef inline void _fold(DiscardChoice* choice, int value, uint64_t cards) noexcept nogil:
    """Fold discards ``cards`` leaving deadwood ``value`` into the best so far: fewer replace, as few join."""
    choice.discards = _if(value >= choice.deadwood, choice.discards) | _if(value <= choice.deadwood, cards)
    choice.deadwood = min(choice.deadwood, value)


cdef inline int _discard_leaf(DiscardChoice* choice, uint64_t rest) noexcept nogil:
    """Fold in the least deadwood of ``rest`` (no card in a set) after one discard, and its discards;
    return the deadwood of ``rest`` itself."""
    # The discard is one card outside the sets: in the suits where removing a card gains most, which
    # are those whose entry shares the gain field of the greatest entry.
    cdef uint32_t c = DISCARD_OF[_suit(rest, 0)], d = DISCARD_OF[_suit(rest, 1)]
    cdef uint32_t h = DISCARD_OF[_suit(rest, 2)], s = DISCARD_OF[_suit(rest, 3)]
    cdef uint32_t top = max(max(c, d), max(h, s))
    cdef int deadwood = <int>((c + d + h + s) & 0x1FF)
    if top == 0:
        return 0  # every card is in a set: this choice leaves nothing to discard
    _fold(choice, deadwood - (<int>(top >> GAIN_SHIFT) - GAIN_ZERO),
          _if((c ^ top) >> GAIN_SHIFT == 0, (c >> 9) & SUIT_MASK)
          | _if((d ^ top) >> GAIN_SHIFT == 0, (<uint64_t>d << 4) & (<uint64_t>SUIT_MASK << 13))
          | _if((h ^ top) >> GAIN_SHIFT == 0, (<uint64_t>h << 17) & (<uint64_t>SUIT_MASK << 26))
          | _if((s ^ top) >> GAIN_SHIFT == 0, (<uint64_t>s << 30) & (<uint64_t>SUIT_MASK << 39)))
    return deadwood


cdef int _discard_search(DiscardChoice* choice, uint64_t rest, uint64_t ranks, uint64_t runnable) noexcept nogil:
    """Fold into ``choice`` the best discards of ``rest`` over the set choices for ``ranks`` (each holds 3
    or 4 cards of ``rest``) that the deadwood search tries, and return the least deadwood of ``rest``
    itself over them.

    Those choices keep a card that is never in a run (not in ``runnable``) in a set, so a discard of
    such a card from a set is folded in here: it leaves the rest's deadwood, and from a set of three the
    two cards left, which are deadwood. Every other discard is found at the leaves: a card is discarded
    from the hand's best arrangement without it, which is among the choices tried (see
    ``deadwood_after_each``; the choices tried for the whole hand cover those tried for the hand less a
    card, whose runs can only be fewer). ``ranks`` is not empty."""
    cdef int rank = lowest_card(ranks)
    cdef uint64_t group = rest & rank_cards(rank)
    cdef uint64_t optional = group & runnable, others, card
    cdef int in_set, left_out, least
    ranks &= ranks - 1
    in_set = _discard_choice(choice, rest & ~group, ranks, runnable)
    least = in_set
    if popcount64(group) == 4:
        if group & ~runnable:
            _fold(choice, in_set, group & ~runnable)  # the other three stay a set
        others = optional
        while others:  # a set of three, the fourth (which may be in a run) left out
            card = others & (~others + 1)
            others ^= card
            left_out = _discard_choice(choice, rest & ~(group ^ card), ranks, runnable)
            least = min(least, left_out)
            if optional == card:  # no search leaves all four out: the set of three less a card
                _fold(choice, left_out + 2 * RANK_VALUE[rank], group & ~runnable)
        if popcount64(optional) >= 2:
            least = min(least, _discard_choice(choice, rest, ranks, runnable))
    elif optional:
        least = min(least, _discard_choice(choice, rest, ranks, runnable))
    else:
        _fold(choice, in_set + 2 * RANK_VALUE[rank], group)
    return least


cdef inline int _discard_choice(DiscardChoice* choice, uint64_t rest, uint64_t ranks, uint64_t runnable) noexcept nogil:
    """``_discard_search``, the leaves scored in line."""
    return _discard_search(choice, rest, ranks, runnable) if ranks else _discard_leaf(choice, rest)


cdef inline void _score_leaf(Search* search, uint64_t rest, uint64_t in_sets) noexcept nogil:
    cdef int value, suit, laid_count
    cdef uint64_t laid, joined, cover, free_cards
    if search.score == SCORE_DEADWOOD:
        value = _runs_only_deadwood(rest)
        if value < search.best:
            search.best = value
    elif search.score == SCORE_COLLECT:
        value = _runs_only_deadwood(rest)
        if value < search.best:
            search.best = value
            search.count = 0
        if value == search.best:
            if search.count < search.capacity:
                search.leaves[search.count] = in_sets
            search.count += 1  # counts on past capacity so the caller can retry with room
    else:  # SCORE_LAYOFF
        # The knocker's runs join the defender's suits: a defender card in the same block of
        # consecutive ranks is laid off (chains included); the knocker's own cards are always in a
        # run, so they never count. A free card (4th of a knocker's 3-set) costs nothing.
        value = 0
        joined = rest | search.knocker_runs
        cover = run_cards(joined)
        free_cards = search.free_cards & ~cover
        laid = (cover & rest & ~run_cards(rest)) | free_cards
        for suit in range(4):
            value += RUN_DEADWOOD[_suit(joined, suit)] - VALUE_SUM[_suit(free_cards, suit)]
        laid_count = popcount64(laid)
        if value < search.best or (value == search.best and laid_count < search.best_tiebreak):
            search.best = value
            search.best_tiebreak = laid_count
            search.best_cards = laid


cdef void _search_sets(Search* search, uint64_t rest, uint64_t in_sets, uint64_t ranks) noexcept nogil:
    """Try every set choice for the ranks in ``ranks`` (each holds 3 or 4 cards of ``rest``)."""
    if ranks == 0:
        _score_leaf(search, rest, in_sets)
        return
    if search.best == 0 and search.score == SCORE_DEADWOOD:
        return  # nothing beats no deadwood
    cdef int rank = lowest_card(ranks)
    ranks &= ranks - 1
    cdef uint64_t group = rest & rank_cards(rank)
    # A card that can never be in a run is better in a set than out of it: leaving it out is
    # strictly worse, so only cards that may be in runs are left out of sets.
    cdef uint64_t optional = group & search.runnable
    cdef uint64_t others, card
    _search_sets(search, rest & ~group, in_sets | group, ranks)
    if popcount64(group) == 4:
        others = optional
        while others:
            card = others & (~others + 1)
            others ^= card
            _search_sets(search, rest & ~(group ^ card), in_sets | (group ^ card), ranks)
        if popcount64(optional) >= 2:  # with one such card, its 3-set beats no set
            _search_sets(search, rest, in_sets, ranks)
    elif optional:
        _search_sets(search, rest, in_sets, ranks)


cdef inline void _start(Search* search, LeafScore score, uint64_t runnable) noexcept nogil:
    search.score = score
    search.runnable = runnable
    search.knocker_runs = 0
    search.free_cards = 0
    search.best = UNREACHED
    search.best_tiebreak = UNREACHED
    search.best_cards = 0
    search.leaves = NULL
    search.capacity = 0
    search.count = 0


# --- the dynamic programme for hands with many set ranks ------------------------------------------

cdef int _deadwood_by_ranks(uint64_t hand) noexcept nogil:
    """Exact minimum deadwood of any hand, by a dynamic programme over ranks.

    The state holds, per suit, the length of the run in progress (0, 1, 2, or 3 for "3 or more"); a run
    of length 1 or 2 must go on at the next rank. At each rank every present card is in a run, in a
    set (3 or 4 of them together), or deadwood.
    """
    cdef int cost[256]
    cdef int next_cost[256]
    cdef int rank, state, suit, length, present, unfinished, extra, in_run, others, in_set, new_state
    cdef int value, best
    for state in range(256):
        cost[state] = UNREACHED
    cost[0] = 0
    for rank in range(13):
        present = 0
        for suit in range(4):
            if (hand >> (SUIT_SIZE * suit + rank)) & 1:
                present |= 1 << suit
        for state in range(256):
            next_cost[state] = UNREACHED
        for state in range(256):
            if cost[state] == UNREACHED:
                continue
            unfinished = 0
            for suit in range(4):
                length = (state >> (2 * suit)) & 3
                if length == 1 or length == 2:
                    unfinished |= 1 << suit
            if unfinished & ~present:
                continue
            extra = present & ~unfinished
            while True:  # every subset of ``extra`` starts or extends a run too
                in_run = unfinished | extra
                new_state = 0
                for suit in range(4):
                    if (in_run >> suit) & 1:
                        length = min(((state >> (2 * suit)) & 3) + 1, 3)
                        new_state |= length << (2 * suit)
                others = present & ~in_run
                in_set = others
                while True:  # every subset of the others with 0 or >= 3 cards is a set
                    if in_set == 0 or popcount64(in_set) >= 3:
                        value = cost[state] + RANK_VALUE[rank] * popcount64(others & ~in_set)
                        if value < next_cost[new_state]:
                            next_cost[new_state] = value
                    if in_set == 0:
                        break
                    in_set = (in_set - 1) & others
                if extra == 0:
                    break
                extra = (extra - 1) & (present & ~unfinished)
        for state in range(256):
            cost[state] = next_cost[state]
    best = UNREACHED
    for state in range(256):
        unfinished = 0
        for suit in range(4):
            length = (state >> (2 * suit)) & 3
            if length == 1 or length == 2:
                unfinished = 1
        if not unfinished and cost[state] < best:
            best = cost[state]
    return best


# --- kernels for other native modules --------------------------------------------------------------

cdef enum:
    SEARCH_MAX_SET_RANKS = 4  # beyond this many set ranks the dynamic programme is faster

cdef int deadwood_of(uint64_t hand) noexcept nogil:
    """Minimum deadwood of a hand of any size."""
    cdef uint64_t ranks = set_ranks(hand)
    if ranks == 0:
        return _runs_only_deadwood(hand)
    if popcount64(ranks) > SEARCH_MAX_SET_RANKS:
        return _deadwood_by_ranks(hand)
    cdef Search search
    _start(&search, SCORE_DEADWOOD, run_cards(hand))
    _search_sets(&search, hand, 0, ranks)
    return search.best


cdef inline void _after_each_leaf(int* deadwood, uint64_t rest) noexcept nogil:
    """Fold in, for every card of ``rest`` (no card in a set), the rest's deadwood without it: the rest's,
    its suit's share taken without the card."""
    cdef int total = _runs_only_deadwood(rest), suit, mask, left, card
    cdef uint64_t cards = rest
    while cards:
        card = lowest_card(cards)
        cards &= cards - 1
        suit = card // 13
        mask = _suit(rest, suit)
        left = total - RUN_DEADWOOD[mask] + RUN_DEADWOOD[mask ^ (1 << (card - 13 * suit))]
        deadwood[card] = min(deadwood[card], left)


cdef void _every_set_choice(int* after, uint64_t rest, uint64_t ranks) noexcept nogil:
    """Every set choice (no pruning: a card may be worth discarding from a set) for the ranks in
    ``ranks`` (at least one), each leaf folding in the deadwood after each of its discards."""
    cdef uint64_t group = rest & rank_cards(lowest_card(ranks)), others, card
    ranks &= ranks - 1
    _after_each_choice(after, rest & ~group, ranks)
    if popcount64(group) == 4:
        others = group
        while others:
            card = others & (~others + 1)
            others ^= card
            _after_each_choice(after, rest & ~(group ^ card), ranks)
    _after_each_choice(after, rest, ranks)


cdef inline void _after_each_choice(int* after, uint64_t rest, uint64_t ranks) noexcept nogil:
    """``_every_set_choice``, the leaves scored in line."""
    if ranks:
        _every_set_choice(after, rest, ranks)
    else:
        _after_each_leaf(after, rest)


cdef void deadwood_after_each(uint64_t hand, int* deadwood) noexcept nogil:
    """``deadwood[card]``: the least deadwood of ``hand`` less ``card``, for each card of the hand (the
    other entries are left alone). A hand of play (at most 11 cards) takes one search, not a solve per
    card; a bigger one (whose set choices could be many) is solved card by card.

    A discarded card is outside the sets of the hand less it, and each set choice of that hand is one
    of the whole hand's with the card outside its sets (a set of four less the card is one of its sets of
    three; a set of three less it, no set), so the minimum over the whole hand's set choices is exact.
    """
    cdef uint64_t cards = hand
    cdef bint searched = popcount64(hand) <= 11
    while cards:
        deadwood[lowest_card(cards)] = UNREACHED if searched else deadwood_of(hand ^ (cards & (~cards + 1)))
        cards &= cards - 1
    if searched:
        _after_each_choice(deadwood, hand, set_ranks(hand))


cdef uint64_t least_deadwood_each(uint64_t hand, uint64_t candidates, int* least) noexcept nogil:
    """The candidates whose discard leaves ``hand`` the least deadwood (``deadwood_after_each``), and that
    deadwood (``1 << 30`` when there are none)."""
    cdef uint64_t rest = candidates, card, chosen = 0
    cdef int value
    cdef int after[52]
    deadwood_after_each(hand, after)
    least[0] = 1 << 30
    while rest:
        card = rest & (~rest + 1)
        rest ^= card
        value = after[lowest_card(card)]
        if value < least[0]:
            least[0] = value
            chosen = card
        elif value == least[0]:
            chosen |= card
    return chosen


cdef DiscardChoice best_discards(uint64_t hand) noexcept nogil:
    """Least deadwood after one discard, and every discard reaching it (hand of 1 to 11 cards)."""
    cdef DiscardChoice choice
    cdef uint64_t ranks = set_ranks(hand)
    choice.deadwood = UNREACHED
    choice.discards = 0
    if ranks:  # the search, in a call of its own: the common case below needs no registers saved
        _discard_search(&choice, hand, ranks, run_cards(hand))
    else:
        _discard_leaf(&choice, hand)
    return choice


cdef int min_set_choices(uint64_t hand, uint64_t* leaves, int capacity, int* count) noexcept nogil:
    """Minimum deadwood, and in ``leaves`` the cards in sets of every arrangement reaching it.

    ``count`` receives how many there are, which may exceed ``capacity`` (then only ``capacity`` were
    written). Given its set cards an arrangement is fixed: the other cards in runs form maximal runs.
    """
    cdef Search search
    _start(&search, SCORE_COLLECT, run_cards(hand))
    search.leaves = leaves
    search.capacity = capacity
    _search_sets(&search, hand, 0, set_ranks(hand))
    count[0] = search.count
    return search.best


cdef int layoff_of(uint64_t defender, uint64_t knocker_runs, uint64_t free_cards,
                   uint64_t* laid_off) noexcept nogil:
    """The defender's least deadwood after arranging and laying off; the fewest cards laid off."""
    cdef Search search
    _start(&search, SCORE_LAYOFF, run_cards(defender | knocker_runs))
    search.knocker_runs = knocker_runs
    search.free_cards = free_cards
    _search_sets(&search, defender, 0, set_ranks(defender))
    laid_off[0] = search.best_cards
    return search.best


cdef int meld_exposure(uint64_t hand, uint64_t in_sets, uint64_t unseen) noexcept nogil:
    """How many ``unseen`` cards could be laid off on the arrangement of ``hand`` with ``in_sets``."""
    cdef uint64_t exposed = 0, group
    cdef uint64_t runs = run_cards(hand & ~in_sets)
    cdef int rank, suit
    cdef uint64_t run, reach, grown
    for rank in range(13):
        group = in_sets & rank_cards(rank)
        if group and popcount64(group) == 3:
            exposed |= rank_cards(rank) & ~group & unseen
    for suit in range(4):
        run = _suit(runs, suit)
        if run == 0:
            continue
        reach = run
        while True:  # chains: each laid-off card can be extended in turn
            grown = ((reach << 1) | (reach >> 1)) & _suit(unseen, suit) & ~reach & SUIT_MASK
            if grown == 0:
                break
            reach |= grown
        exposed |= (reach & ~run) << (SUIT_SIZE * suit)
    return popcount64(exposed)


# --- the Python API --------------------------------------------------------------------------------

def deadwood(mask) -> int:
    """Minimum deadwood of a hand of any size (0 to 52 cards).

    >>> from gincore import parse_cards
    >>> deadwood(parse_cards("7H 8H 9H 9C 9S 9D 2S 3S 4S KD"))
    10
    """
    return deadwood_of(check_mask(mask))


def deadwood_dp(mask) -> int:
    """Minimum deadwood by the dynamic programme alone (the path ``deadwood`` takes for big hands).

    >>> deadwood_dp((1 << 52) - 1)
    0
    """
    return _deadwood_by_ranks(check_mask(mask))


def _melds_of(uint64_t hand, uint64_t in_sets):
    melds = []
    cdef int rank, suit, start, mask, block
    for rank in range(13):
        if in_sets & rank_cards(rank):
            melds.append(in_sets & rank_cards(rank))
    cdef uint64_t runs = run_cards(hand & ~in_sets)
    for suit in range(4):
        mask = _suit(runs, suit)
        while mask:
            start = lowest_card(mask)
            block = mask >> start
            block = block & ~(block + 1)  # the lowest run of consecutive ranks
            melds.append((<uint64_t>block) << (start + SUIT_SIZE * suit))
            mask &= ~(block << start)
    return tuple(sorted(melds))


def arrangements(mask) -> list[tuple[int, ...]]:
    """Every minimum-deadwood arrangement: sorted tuples of meld masks, the list sorted.

    Runs are maximal (cards of one suit in consecutive ranks all used in runs form one meld); a rank
    of four may appear as a 4-set or as a 3-set with its fourth card elsewhere. The work grows with the
    number of ranks holding three or four cards.

    >>> from gincore import parse_cards, format_cards
    >>> hand = parse_cards("3C 4C 5C 3D 4D 5D 3H 4H 5H")
    >>> [[format_cards(m) for m in a] for a in arrangements(hand)]
    [['3C 4C 5C', '3D 4D 5D', '3H 4H 5H'], ['3C 3D 3H', '4C 4D 4H', '5C 5D 5H']]
    """
    cdef uint64_t hand = check_mask(mask)
    cdef int capacity = MAX_LEAVES, count = 0
    cdef uint64_t* leaves
    while True:
        leaves = <uint64_t*>malloc(capacity * sizeof(uint64_t))
        if leaves == NULL:
            raise MemoryError("no memory for the arrangements")
        try:
            with nogil:
                min_set_choices(hand, leaves, capacity, &count)
            if count <= capacity:
                return sorted(_melds_of(hand, leaves[i]) for i in range(count))
        finally:
            free(leaves)
        capacity = count


def deadwood_after_discard(mask) -> dict[int, int]:
    """For each card of the hand, the minimum deadwood of the hand without it.

    >>> from gincore import parse_cards
    >>> after = deadwood_after_discard(parse_cards("7H 8H 9H 9C 9S 9D 2S 3S 4S KD 5D"))
    >>> min(after.values()), after[parse_cards("KD").bit_length() - 1]
    (5, 5)
    """
    cdef uint64_t hand = check_mask(mask), rest = hand
    cdef int after[52]
    deadwood_after_each(hand, after)
    result = {}
    while rest:
        result[lowest_card(rest)] = after[lowest_card(rest)]
        rest &= rest - 1
    return result


def layoff(defender, knocker_melds) -> tuple[int, int]:
    """The defender's best showdown against a knock: (deadwood after lay-off, mask of cards laid off).

    The defender arranges freely (breaking melds if that pays) and lays off onto the knocker's melds:
    the fourth card of a 3-card set, and cards extending a run at either end in chains. Among the
    best answers it lays off the fewest cards.

    >>> from gincore import parse_cards, format_cards
    >>> knocker = [parse_cards(t) for t in ("6H 7H 8H", "9C 9D 9S", "2S 3S 4S")]
    >>> left, laid = layoff(parse_cards("2H 3H 4H QC QD QH QS 9H 7S AC"), knocker)
    >>> left, format_cards(laid)
    (8, '9H')
    """
    cdef uint64_t hand = check_mask(defender, "defender")
    cdef uint64_t knocker_runs = 0, free_cards = 0, taken = 0, meld
    for item in knocker_melds:
        meld = check_mask(item, "knocker meld")
        if not is_meld(meld):
            raise InputError(f"knocker meld {_text(meld)!r} is not a set or a run")
        if meld & hand:
            raise InputError(f"knocker meld {_text(meld)!r} shares {_text(meld & hand)} with the defender's hand")
        if meld & taken:
            raise InputError(f"knocker meld {_text(meld)!r} overlaps another knocker meld at {_text(meld & taken)}")
        taken |= meld
        if meld & ~rank_cards(lowest_card(meld) % 13) == 0:
            if popcount64(meld) == 3:
                free_cards |= hand & rank_cards(lowest_card(meld) % 13)
        else:
            knocker_runs |= meld
    cdef uint64_t laid_off = 0
    cdef int left = layoff_of(hand, knocker_runs, free_cards, &laid_off)
    return left, laid_off


def _text(mask):
    from gincore.cards import format_cards
    return format_cards(mask)


def _hands_view(hands):
    if not isinstance(hands, np.ndarray) or hands.dtype != np.uint64:
        kind = f"an array of {hands.dtype}" if isinstance(hands, np.ndarray) else type(hands).__name__
        raise TypeError(f"hands must be a numpy array of uint64 card masks, got {kind}")
    flat = np.ascontiguousarray(hands).reshape(-1)
    if flat.size and int(flat.max()) >> 52:
        bad = int(np.flatnonzero(flat >> np.uint64(52))[0])
        raise InputError(f"hands[{bad}] = {int(flat[bad]):#x} has bits above 51 (cards are 0..51)")
    return flat


def deadwood_many(hands) -> np.ndarray:
    """Minimum deadwood of each hand of a ``uint64`` array, computed without the GIL.

    >>> import numpy as np
    >>> from gincore import parse_cards
    >>> deadwood_many(np.array([parse_cards("AC 2C 3C KD")], dtype=np.uint64))
    array([10], dtype=int16)
    """
    flat = _hands_view(hands)
    out = np.empty(flat.size, dtype=np.int16)
    cdef const uint64_t[::1] source = flat
    cdef int16_t[::1] target = out
    cdef Py_ssize_t i, n = flat.size
    with nogil:
        for i in range(n):
            target[i] = <int16_t>deadwood_of(source[i])
    return out.reshape(np.shape(hands))


cdef int _per_card_best(uint64_t hand, uint64_t* discards) noexcept nogil:
    """Best discard by solving the hand without each card (for hands beyond 11 cards)."""
    cdef int best
    discards[0] = least_deadwood_each(hand, hand, &best)
    return best


def best_discards_many(hands) -> tuple[np.ndarray, np.ndarray]:
    """For each hand: the least deadwood after one discard, and the mask of discards reaching it.

    >>> import numpy as np
    >>> from gincore import parse_cards, format_cards
    >>> hand = parse_cards("7H 8H 9H 9C 9S 9D 2S 3S 4S KD 5D")
    >>> left, discards = best_discards_many(np.array([hand], dtype=np.uint64))
    >>> int(left[0]), format_cards(int(discards[0]))
    (5, 'KD')
    """
    flat = _hands_view(hands)
    if flat.size and not flat.all():
        raise InputError(f"hands[{int(np.flatnonzero(flat == 0)[0])}] is empty: there is no card to discard")
    left = np.empty(flat.size, dtype=np.int16)
    cards = np.empty(flat.size, dtype=np.uint64)
    cdef const uint64_t[::1] source = flat
    cdef int16_t[::1] left_view = left
    cdef uint64_t[::1] cards_view = cards
    cdef Py_ssize_t i, n = flat.size
    cdef DiscardChoice choice
    with nogil:
        for i in range(n):
            if popcount64(source[i]) <= 11:
                choice = best_discards(source[i])
            else:
                choice.deadwood = _per_card_best(source[i], &choice.discards)
            left_view[i] = <int16_t>choice.deadwood
            cards_view[i] = choice.discards
    return left.reshape(np.shape(hands)), cards.reshape(np.shape(hands))


def layoff_many(defenders, knocker_runs, knocker_sets) -> tuple[np.ndarray, np.ndarray]:
    """Batch ``layoff``: each defender against a knocker's melds given as two masks.

    ``knocker_runs`` holds the cards of the knocker's runs (each suit's cards in blocks of three or
    more consecutive ranks), ``knocker_sets`` the cards of its sets (three or four of a rank). Returns
    the defenders' deadwood after lay-off (``int16``) and the cards they lay off (``uint64``).

    >>> import numpy as np
    >>> from gincore import parse_cards, format_cards
    >>> batch = lambda text: np.array([parse_cards(text)], dtype=np.uint64)
    >>> left, laid = layoff_many(batch("JH TH 7S 8S 9D"), batch("6H 7H 8H 9H"), batch("KC KD KH"))
    >>> int(left[0]), format_cards(int(laid[0]))
    (24, 'TH JH')
    >>> layoff_many(batch("JH"), batch("6H 7H 8H"), batch("9C 9S KD"))
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: knocker_sets[0] = 9C KD 9S is not made of sets of three or four cards of a rank
    """
    defender_flat, runs_flat, sets_flat = _hands_view(defenders), _hands_view(knocker_runs), _hands_view(knocker_sets)
    if not defender_flat.size == runs_flat.size == sets_flat.size:
        raise InputError(f"defenders, knocker_runs and knocker_sets differ in length "
                         f"({defender_flat.size}, {runs_flat.size}, {sets_flat.size})")
    cdef const uint64_t[::1] hand = defender_flat, runs = runs_flat, sets = sets_flat
    left = np.empty(defender_flat.size, dtype=np.int16)
    laid = np.empty(defender_flat.size, dtype=np.uint64)
    cdef int16_t[::1] left_view = left
    cdef uint64_t[::1] laid_view = laid
    cdef Py_ssize_t i, n = defender_flat.size, bad = -1
    cdef int rank, problem = 0, size
    cdef uint64_t free_cards, group
    with nogil:
        for i in range(n):
            if run_cards(runs[i]) != runs[i]:
                problem = 1
            elif hand[i] & (runs[i] | sets[i]) or runs[i] & sets[i]:
                problem = 3
            free_cards = 0
            for rank in range(13):
                group = sets[i] & rank_cards(rank)
                size = popcount64(group)
                if size == 3:
                    free_cards |= hand[i] & rank_cards(rank)
                elif size != 0 and size != 4:
                    problem = 2
            if problem:
                bad = i
                break
            left_view[i] = <int16_t>layoff_of(hand[i], runs[i], free_cards, &laid_view[i])
    if bad >= 0:
        if problem == 1:
            raise InputError(f"knocker_runs[{bad}] = {_text(int(runs_flat[bad]))} is not made of runs")
        if problem == 2:
            raise InputError(f"knocker_sets[{bad}] = {_text(int(sets_flat[bad]))} is not made of sets of "
                             "three or four cards of a rank")
        raise InputError(f"defenders[{bad}] and the knocker's melds share cards")
    return left.reshape(np.shape(defenders)), laid.reshape(np.shape(defenders))
