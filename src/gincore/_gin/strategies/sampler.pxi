# sampler:S:C:K: flat Monte-Carlo over deals consistent with what the player has seen. At a draw
# (not the upcard offer, where it plays as greedy) and at a discard it deals the unseen cards again
# S times, the opponent's hand near the deadwood a Simple opponent has by then, and plays its C best
# discards (with and without knocking) or the take and the refusal out to the end: itself knocking
# at K or less, the opponent as Simple. The best mean score wins.

cdef struct SamplerParams:
    int deals                # sampled deals per decision
    int discards             # discards compared
    int knock_at             # the knock threshold of its own play-outs (0: gin hunting)


cdef inline int _sampler_deals(Player* who) noexcept nogil:
    return max(1, min((<SamplerParams*>who.params).deals, <int>MAX_SAMPLES))


cdef void _sampler_players(Player* players, Player* who, int me) noexcept nogil:
    """Who plays the sampled deals out: Simple for the opponent, a threshold player for itself."""
    memset(players, 0, 2 * sizeof(Player))
    players[1 - me].kind = KIND_SIMPLE
    players[me].kind = KIND_THRESHOLD
    (<ThresholdParams*>players[me].params).knock_at = (<SamplerParams*>who.params).knock_at


cdef void _sample_deal(State* world, State* state, int me, Rng* rng, Context* quiet) noexcept nogil:
    """A copy of the state whose hidden cards (the opponent's unknown cards and the stock) are dealt
    again from the cards ``me`` has not seen, the opponent's hand drawn near the deadwood an
    opponent typically has by now (the closest of a few candidates)."""
    cdef int opponent = 1 - me, count = 0, need, i, j, try_, value, gap, best_gap = 1 << 30
    cdef uint8_t hidden[52]
    cdef uint8_t chosen[52]
    cdef uint8_t swap
    cdef uint64_t known = state.from_pile[opponent], candidate
    cdef uint64_t unseen = FULL_DECK & ~(state.held[me] | state.in_pile | known)
    cdef int target = OPPONENT_DEADWOOD[min(state.turns // 2, 16)]
    world[0] = state[0]
    world.context = quiet
    while unseen:
        hidden[count] = lowest_card(unseen)
        unseen &= unseen - 1
        count += 1
    need = popcount64(state.held[opponent]) - popcount64(known)
    for try_ in range(SAMPLE_TRIES):
        candidate = known
        for i in range(need):  # a partial Fisher-Yates: hidden[:need] is a fresh random choice
            j = i + below(rng, count - i)
            swap = hidden[i]
            hidden[i] = hidden[j]
            hidden[j] = swap
            candidate |= card_bit(hidden[i])
        value = deadwood_of(candidate)
        gap = value - target if value > target else target - value
        if gap < best_gap:
            best_gap = gap
            for i in range(count):
                chosen[i] = hidden[i]
        if gap <= SAMPLE_TOLERANCE:
            break
    world.held[opponent] = known
    for i in range(need):
        world.held[opponent] |= card_bit(chosen[i])
    new_stock(world, &chosen[need], count - need, rng)


cdef bint _sampler_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    """Greedy's choice in the upcard offer; otherwise take the face-up card iff that scores more on
    average over the sampled deals."""
    cdef Context quiet
    cdef State world
    cdef int sample, me = state.player
    cdef double take = 0, stock = 0
    cdef Player players[2]
    if offer:
        return greedy_takes(state, who, rng, card, offer)
    _sampler_players(players, who, me)
    memset(&quiet, 0, sizeof(Context))
    for sample in range(_sampler_deals(who)):
        _sample_deal(&world, state, me, rng, &quiet)
        face_up_values(&world, players, me, rng, &take, &stock)
    return take > stock


cdef int _sampler_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    """Compare the best few discards, each with and without knocking when legal, over sampled deals."""
    cdef int options[2 * MAX_CANDIDATES]
    cdef bint knocks[2 * MAX_CANDIDATES]
    cdef double totals[2 * MAX_CANDIDATES]
    cdef int keys[MAX_CANDIDATES]
    cdef int count = 0, option_count, card, key, i, sample, best, me = state.player
    cdef int limit = max(1, min((<SamplerParams*>who.params).discards, <int>MAX_CANDIDATES))
    cdef uint64_t hand = state.held[me], rest = candidates
    cdef Context quiet
    cdef State world
    cdef Player players[2]
    _sampler_players(players, who, me)
    # The candidates: the discards leaving the least deadwood, the higher card first on ties.
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        key = 16 * deadwood_of(hand ^ card_bit(card)) - card_value(card)
        i = count
        while i > 0 and keys[i - 1] > key:
            keys[i] = keys[i - 1]
            options[i] = options[i - 1]
            i -= 1
        keys[i] = key
        options[i] = card
        count += 1
    count = min(count, limit)
    option_count = count
    for i in range(count):  # each candidate also as a knock, where that is legal
        knocks[i] = False
        if deadwood_of(hand ^ card_bit(options[i])) <= state.knock_limit:
            options[option_count] = options[i]
            knocks[option_count] = True
            option_count += 1
    for i in range(option_count):
        totals[i] = 0
    memset(&quiet, 0, sizeof(Context))
    for sample in range(_sampler_deals(who)):
        _sample_deal(&world, state, me, rng, &quiet)
        discard_values(&world, players, me, options, knocks, option_count, rng, totals)
    best = best_option(totals, option_count)
    knock[0] = knocks[best]
    return options[best]


cdef SamplerParams _SAMPLER_FIELDS  # zeroed: read as a dict, its field names in order
cdef int KIND_SAMPLER = register_strategy("sampler", _sampler_takes, _sampler_discard, NULL, always_big_gin,
                                          takes_back_discards=False, values_matches=False,
                                          parameters=_SAMPLER_FIELDS, parameters_size=sizeof(SamplerParams))
