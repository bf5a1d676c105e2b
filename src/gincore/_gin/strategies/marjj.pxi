# marjj: a reference player after the EAAI-21 winner (Ahmed et al., AAAI-21).
# Read from the published description: discards weigh the hand's deadwood, a one-draw look-ahead
# and the danger of feeding the opponent; it tracks the face-up cards the opponent took, refused and
# discarded; it knocks only on early turns, then hunts gin; it shows the arrangement that leaves the
# fewest lay-offs (the showdown does that for every player). Chosen here, where the paper gives no
# number: the early turns (``early``, default MARJJ_EARLY_DRAWS), the danger's price, taking a
# face-up card iff it beats the look-ahead of a stock draw, the odds from the opponent model, and
# knocking in the last draws before a drawn hand. search (search.pxi) builds on its discard cost.

cdef struct MarjjParams:
    int early                # own draws within which it knocks with any legal deadwood


cdef enum:
    MARJJ_EARLY_DRAWS = 5    # the default of ``early``
    MARJJ_LAST_DRAWS = 2     # stock cards left above the floor when it knocks whatever the turn

# Deadwood it pays to keep a sure meld card from the opponent: 1.5 won more matches against simple
# and gin than 0, 3, 6 or 12 (2,000-3,000 matches each, early draws 4-6).
cdef double MARJJ_DANGER_POINTS = 1.5


cdef double stock_outlook(uint64_t hand, State* state, int me, double* odds) noexcept nogil:
    """The expected least deadwood after one draw from the stock and the best discard: each card
    ``me`` has not seen weighs by the chance it is in the stock rather than the opponent's hand."""
    cdef Seen seen
    cdef uint64_t rest
    cdef double total = 0, weight = 0, chance
    cdef int card
    seen_by(state, me, &seen)
    rest = unknown_cards(&seen) & ~hand
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        chance = 1.0 - odds[card]
        total += chance * best_discards(hand | card_bit(card)).deadwood
        weight += chance
    return total / weight if weight > 0 else deadwood_of(hand)


cdef inline double _odd(double* odds, int card, bint exists) noexcept nogil:
    return odds[card] if exists else 0.0


cdef double _meld_chance(double* odds, int card) noexcept nogil:
    """The chance the opponent holds cards that meld with ``card``: two more of its rank, or the
    suit neighbours of a run through it (the odds taken as independent)."""
    cdef int rank = card % 13, i, other, count = 0
    cdef double p[3]
    cdef double p_set, p_run, a, b, c, d
    for i in range(4):
        other = 13 * i + rank
        if other != card:
            p[count] = odds[other]
            count += 1
    p_set = p[0] * p[1] + p[0] * p[2] + p[1] * p[2] - 2 * p[0] * p[1] * p[2]
    a = _odd(odds, card - 2, rank >= 2)
    b = _odd(odds, card - 1, rank >= 1)
    c = _odd(odds, card + 1, rank <= 11)
    d = _odd(odds, card + 2, rank <= 10)
    p_run = 1 - (1 - a * b) * (1 - b * c) * (1 - c * d)
    return 1 - (1 - p_set) * (1 - p_run)


cdef bint marjj_knocks_early(State* state, int early, int left) noexcept nogil:
    """Gin always; any legal knock in its first ``early`` draws or the last draws before a drawn hand."""
    return (left == 0 or state.turns <= 2 * early
            or stock_size(state) <= state.rules.stock_floor + MARJJ_LAST_DRAWS)


cdef double marjj_cost(State* state, int me, uint64_t hand, int card, double* odds) noexcept nogil:
    """What discarding ``card`` from the 11-card ``hand`` costs: the expected deadwood after the
    next stock draw, plus the danger's price (the chance the opponent melds it, in points)."""
    return stock_outlook(hand ^ card_bit(card), state, me, odds) + MARJJ_DANGER_POINTS * _meld_chance(odds, card)


cdef inline int _marjj_early(Player* who) noexcept nogil:
    cdef int early = (<MarjjParams*>who.params).early
    return early if early > 0 else MARJJ_EARLY_DRAWS


cdef bint _marjj_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    return marjj_knocks_early(state, _marjj_early(who), left)


cdef int _marjj_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    """Knock when its rule says so (the highest card of the least deadwood face down), else the
    cheapest discard by ``marjj_cost`` (ties at random)."""
    cdef double odds[52]
    cdef int me = state.player, least, card
    cdef uint64_t hand = state.held[me], rest, chosen = 0
    cdef double cost, best = 1e300
    least_deadwood_among(hand, candidates, &least)
    knock[0] = least <= state.knock_limit and _marjj_knocks(state, who, rng, least)
    if knock[0]:  # the discard goes face down: the highest card among the least deadwood
        return lowest_card(greedy_choices(state, me, candidates, rng, &least))
    odds_for(state, me, odds)
    rest = candidates
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        cost = marjj_cost(state, me, hand, card, odds)
        if cost < best - 1e-9:
            best = cost
            chosen = card_bit(card)
        elif cost <= best + 1e-9:
            chosen |= card_bit(card)
    return lowest_card(pick(rng, chosen))


cdef bint _marjj_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    """Take the face-up card iff the least deadwood after taking it beats a stock draw's outlook."""
    cdef double odds[52]
    cdef int me = state.player
    cdef uint64_t hand = state.held[me]
    cdef DiscardChoice taking = best_discards(hand | card_bit(card))
    if taking.discards & card_bit(card):
        return False  # discarding it again is among the best: no other discard beats the hand as it is
    odds_for(state, me, odds)
    return taking.deadwood < stock_outlook(hand, state, me, odds)


cdef MarjjParams _MARJJ_FIELDS  # zeroed: read as a dict, its field names in order
cdef int KIND_MARJJ = register_strategy("marjj", _marjj_takes, _marjj_discard, _marjj_knocks, always_big_gin,
                                        takes_back_discards=False, values_matches=False,
                                        parameters=_MARJJ_FIELDS, parameters_size=sizeof(MarjjParams))
