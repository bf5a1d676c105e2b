# champion: search with experiment knobs (TUNE, set from Python by _tune), the ideas of
# docs/champion.md measured against search; the next commit keeps what measured well. Knobs:
# 0 the opponent's play-out policy: 0 simple, 1 patient (early draws TUNE[1], knocks at TUNE[2]),
#   2 threshold TUNE[2], 3 marjj-like (early draws TUNE[1], knocks at TUNE[2]);
# 3 its own play-outs' early draws; 4 discards within TUNE[4] tenths of a point of marjj's choice;
# 5 the opponent's hand sized by: 0 the patient table, 1 Simple's table, 2 Simple's table and above
#   the knock limit once it has discarded; 6 close decisions (more deals, parameter M): stop when the
#   best leads by TUNE[6] tenths of a standard error; 7 its own play-outs marjj-like; 8 the patient
#   table scaled (percent); 10 the sizing's tolerance; 11 its tries; 12 every legal knock searched;
# 13 the percentage of deals whose opponent plays out as patient; 14 diagnostic: the opponent's true
#   hand (1), and the true stock (2); 15 weight of the opponent's last discard's consistency;
# 16 the odds raised to TUNE[16] percent; 17 diagnostic: the opponent's true deadwood as the target;
# 18 the target drawn from the deciles of a patient opponent's deadwood; 19 the target from a linear
#   fit on what the opponent has shown: 1 nine counts, 2 eighteen.

cdef struct ChampionParams:
    int deals                # sampled deals per decision
    int discards             # discards compared
    int knock_at             # the knock threshold of its own play-outs
    int more                 # close decisions: up to this many deals in all

cdef int TUNE[24]
TUNE[:] = [0, 8, 0, 8, 10, 0, 20, 0, 100, 0, 4, 24, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0]


TUNE_DEFAULTS = tuple(TUNE[i] for i in range(24))


def _tune(int index, int value):
    """Set experiment knob ``index`` of champion (benchmarks/champion_experiments.py)."""
    TUNE[index] = value


cdef void _champion_players(Player* players, Player* who, int me, Rng* rng) noexcept nogil:
    memset(players, 0, 2 * sizeof(Player))
    cdef int model = TUNE[0]
    if TUNE[13] and <int>below(rng, 100) < TUNE[13]:
        model = 1
    if model == 0:
        players[1 - me].kind = KIND_SIMPLE
    elif model == 1:
        players[1 - me].kind = KIND_CHAMPION_PLAYOUT
        players[1 - me].params[0] = TUNE[2]
        players[1 - me].params[1] = TUNE[1]
    elif model == 2:
        players[1 - me].kind = KIND_THRESHOLD
        players[1 - me].params[0] = TUNE[2]
    else:
        players[1 - me].kind = KIND_CHAMPION_MARJJ
        players[1 - me].params[0] = TUNE[2]
        players[1 - me].params[1] = TUNE[1]
    players[me].kind = KIND_CHAMPION_MARJJ if TUNE[7] else KIND_CHAMPION_PLAYOUT
    players[me].params[0] = (<ChampionParams*>who.params).knock_at
    players[me].params[1] = TUNE[3]


cdef bint _playout_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    return left <= who.params[0] or marjj_knocks_early(state, who.params[1], left)


cdef int KIND_CHAMPION_PLAYOUT = register_strategy("champion-playout", greedy_takes, greedy_discard,
                                                   _playout_knocks, always_big_gin, takes_back_discards=False)


cdef int _playout_marjj_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    cdef double odds[52]
    cdef int me = state.player, least, card
    cdef uint64_t hand = state.held[me], rest, chosen = 0
    cdef double cost, best = 1e300
    least_deadwood_among(hand, candidates, &least)
    knock[0] = least <= state.knock_limit and _playout_knocks(state, who, rng, least)
    if knock[0]:
        return lowest_card(greedy_choices(state, me, candidates, rng))
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


cdef int KIND_CHAMPION_MARJJ = register_strategy("champion-marjj", _marjj_takes, _playout_marjj_discard,
                                                 _playout_knocks, always_big_gin, takes_back_discards=False)


cdef inline int _champion_deals(Player* who) noexcept nogil:
    return max(1, min((<ChampionParams*>who.params).deals, <int>MAX_SAMPLES))


cdef int _value_sum(uint64_t cards) noexcept nogil:
    cdef int total = 0
    while cards:
        total += card_value(lowest_card(cards))
        cards &= cards - 1
    return total


cdef double DEADWOOD_WEIGHTS[18]
DEADWOOD_WEIGHTS[:] = [-24.0689, 9.6423, -0.6004, -1.4045, -0.1052, -0.0103, -0.4408, 7.0528, -0.1848, 0.5239,
                       -0.2194, 0.1009, -1.5365, 2.5421, -0.2334, 0.1073, -3.5138, -10.4498]


cdef int predicted_deadwood(State* state, int opponent) noexcept nogil:
    cdef double x[18]
    cdef double t = min(state.turns, 30), guess = 0
    cdef uint64_t discarded = state.discarded[opponent], rest = discarded
    cdef int count = popcount64(discarded), i, card, value, high = 0, most = 0, least = 0, found = 0
    cdef int last[2]
    last[0] = last[1] = 0
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        value = card_value(card)
        high += value >= 8
        most = max(most, value)
        least = value if least == 0 else min(least, value)
    if state.phase == PHASE_DISCARD and state.drawn_from_pile and discarded & card_bit(state.drawn):
        last[0] = card_value(state.drawn)
        found = 1
    i = state.pile_size - 1
    while i >= 0 and found < 2:
        if state.pile_by[i] == opponent:
            last[found] = card_value(state.pile[i])
            found += 1
        i -= 1
    x[0] = 1
    x[1] = t / 2
    x[2] = t * t / 40
    x[3] = popcount64(state.from_pile[opponent])
    x[4] = popcount64(state.took[opponent])
    x[5] = count
    x[6] = popcount64(state.passed[opponent])
    x[7] = _value_sum(discarded) / <double>count if count else 0
    x[8] = _value_sum(state.from_pile[opponent])
    x[9] = last[0]
    x[10] = last[1]
    x[11] = high
    x[12] = most
    x[13] = least
    x[14] = last[0] * t / 10
    x[15] = last[1] * t / 10
    x[16] = x[7] * t / 10
    x[17] = sqrt(t)
    for i in range(18):
        guess += DEADWOOD_WEIGHTS[i] * x[i]
    return max(1, <int>(guess + 0.5))


cdef int SCALED[17]
cdef int DECILES[170]
DECILES[:] = [27, 37, 42, 47, 51, 56, 60, 64, 68, 75, 17, 26, 32, 36, 40, 44, 49, 54, 61, 68, 14, 19, 25, 29, 33, 37, 41, 46, 53, 62, 13, 16, 20, 24, 28, 31, 35, 40, 46, 56, 11, 14, 17, 20, 24, 27, 30, 34, 39, 50, 8, 12, 14, 17, 20, 23, 26, 29, 34, 44, 4, 9, 12, 14, 16, 19, 22, 25, 29, 38, 2, 6, 8, 11, 12, 14, 17, 21, 25, 33, 2, 4, 7, 8, 10, 12, 14, 17, 21, 27, 1, 3, 4, 6, 8, 9, 11, 13, 17, 24, 1, 2, 3, 5, 6, 7, 9, 11, 14, 21, 1, 2, 3, 4, 5, 6, 7, 9, 11, 18, 1, 1, 2, 3, 4, 5, 6, 8, 10, 15, 1, 1, 2, 3, 4, 5, 6, 7, 8, 13, 1, 1, 2, 3, 4, 4, 5, 6, 7, 11, 1, 1, 2, 2, 3, 4, 4, 5, 6, 9, 1, 1, 2, 2, 3, 4, 4, 5, 6, 8]


cdef int last_discard_of(State* state, int opponent) noexcept nogil:
    """The opponent's discard just before the player's turn (NO_CARD if its last move was no discard)."""
    if state.phase == PHASE_DISCARD and state.drawn_from_pile:
        return state.drawn if state.discarded[opponent] & card_bit(state.drawn) else NO_CARD
    if state.pile_size and state.pile_by[state.pile_size - 1] == opponent:
        return state.pile[state.pile_size - 1]
    return NO_CARD


cdef void _oracle_deal(State* world, State* state, int me, Rng* rng, Context* quiet) noexcept nogil:
    """Diagnostic: the opponent's true hand; the stock shuffled again (TUNE[14] == 1) or as it is (2)."""
    cdef Seen seen
    cdef uint8_t order[52]
    cdef int count = 0
    cdef uint64_t rest
    world[0] = state[0]
    world.context = quiet
    if TUNE[14] == 2:
        return
    seen_by(state, me, &seen)
    rest = unknown_cards(&seen) & ~state.held[1 - me]
    while rest:
        order[count] = lowest_card(rest)
        rest &= rest - 1
        count += 1
    new_stock(world, order, count, rng)


cdef void _champion_deal(State* world, State* state, int me, double* odds, Rng* rng, Context* quiet) noexcept nogil:
    cdef int i
    cdef int truth[17]
    if TUNE[14]:
        _oracle_deal(world, state, me, rng, quiet)
        return
    cdef int decile, t, discards
    cdef double guess
    if TUNE[19] == 2:
        for i in range(17):
            truth[i] = predicted_deadwood(state, 1 - me)
        deal_sized(world, state, me, odds, rng, quiet, TUNE[11], truth, -1, TUNE[10], NO_CARD, 0)
        return
    if TUNE[19]:  # the target from a regression on what the opponent has shown
        t = min(state.turns, 30)
        discards = popcount64(state.discarded[1 - me])
        guess = (-18.87 - 3.24 * t / 2.0 + 2.25 * t * t / 40.0 - 1.56 * popcount64(state.from_pile[1 - me])
                 - 0.32 * popcount64(state.took[1 - me]) - 1.29 * discards - 0.38 * popcount64(state.passed[1 - me])
                 + 6.97 * _value_sum(state.discarded[1 - me]) / max(discards, 1)
                 - 0.14 * _value_sum(state.from_pile[1 - me]))
        for i in range(17):
            truth[i] = max(1, <int>(guess + 0.5))
        deal_sized(world, state, me, odds, rng, quiet, TUNE[11], truth, -1, TUNE[10], NO_CARD, 0)
        return
    if TUNE[18]:  # the target drawn from the deciles of a patient opponent's deadwood by its draws
        decile = below(rng, 10)
        for i in range(17):
            truth[i] = DECILES[10 * i + decile]
        deal_sized(world, state, me, odds, rng, quiet, TUNE[11], truth, -1, TUNE[10], NO_CARD, 0)
        return
    if TUNE[17]:  # diagnostic: the opponent's true deadwood as the target
        for i in range(17):
            truth[i] = deadwood_of(state.held[1 - me])
        deal_sized(world, state, me, odds, rng, quiet, TUNE[11], truth, -1, TUNE[10], NO_CARD, 0)
        return
    cdef int clue = last_discard_of(state, 1 - me) if TUNE[15] else NO_CARD
    cdef double shaped[52]
    cdef double total = 0, shaped_total = 0
    if TUNE[16] != 100:
        for i in range(52):
            total += odds[i]
            shaped[i] = pow(odds[i], TUNE[16] * 0.01) if odds[i] > 0 else 0
            shaped_total += shaped[i]
        for i in range(52):
            shaped[i] *= total / shaped_total if shaped_total > 0 else 0
        odds = shaped
    if TUNE[5] == 0 and TUNE[8] == 100 and TUNE[10] == 4 and TUNE[11] == 24 and clue == NO_CARD and TUNE[16] == 100:
        deal_from_model(world, state, me, odds, rng, quiet, SAMPLE_TRIES)
    elif TUNE[5] == 0:
        for i in range(17):
            SCALED[i] = PATIENT_DEADWOOD[i] * TUNE[8] // 100
        deal_sized(world, state, me, odds, rng, quiet, TUNE[11], SCALED, -1, TUNE[10], clue, TUNE[15])
    else:
        deal_sized(world, state, me, odds, rng, quiet, TUNE[11], OPPONENT_DEADWOOD,
                   state.knock_limit if TUNE[5] == 2 else -1, TUNE[10], clue, TUNE[15])


cdef bint _champion_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    cdef double odds[52]
    cdef double take = 0, stock = 0
    cdef Context quiet
    cdef State world
    cdef Player players[2]
    cdef int sample, least, me = state.player
    cdef uint64_t hand = state.held[me], taken = hand | card_bit(card)
    least_deadwood_among(taken, taken & ~card_bit(card), &least)
    if least >= deadwood_of(hand):
        return False
    _champion_players(players, who, me, rng)
    quiet_copy(&quiet, state.context)
    odds_for(state, me, odds)
    cdef double diff, sum_d = 0, sum_d2 = 0, before_take, before_stock, mean, spread
    cdef int deals = _champion_deals(who), most = max(deals, (<ChampionParams*>who.params).more), done = 0
    while True:
        for sample in range(deals):
            if TUNE[13]:
                _champion_players(players, who, me, rng)
            _champion_deal(&world, state, me, odds, rng, &quiet)
            before_take = take
            before_stock = stock
            face_up_values(&world, players, me, rng, &take, &stock)
            diff = (take - before_take) - (stock - before_stock)
            sum_d += diff
            sum_d2 += diff * diff
        done += deals
        if done + deals > most:
            break
        mean = sum_d / done
        spread = sqrt(max(sum_d2 / done - mean * mean, 0.0) / done)
        if fabs(mean) > TUNE[6] * 0.1 * spread:
            break
    return take > stock


cdef int _champion_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    cdef double odds[52]
    cdef int options[2 * MAX_CANDIDATES + 1]
    cdef bint knocks[2 * MAX_CANDIDATES + 1]
    cdef double totals[2 * MAX_CANDIDATES + 1]
    cdef double costs[2 * MAX_CANDIDATES + 1]
    cdef double cost
    cdef int count = 0, option_count, card, i, other, sample, best, least, me = state.player
    cdef int limit = max(1, min((<ChampionParams*>who.params).discards, <int>MAX_CANDIDATES))
    cdef uint64_t hand = state.held[me], rest = candidates, lowest
    cdef Context quiet
    cdef State world
    cdef Player players[2]
    lowest = least_deadwood_among(hand, candidates, &least)
    knock[0] = False
    if least == 0:
        knock[0] = True
        return lowest_card(lowest)
    odds_for(state, me, odds)
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        options[count] = card
        costs[count] = marjj_cost(state, me, hand, card, odds)
        count += 1
    for i in range(count):
        best = i
        for other in range(i + 1, count):
            if costs[other] < costs[best]:
                best = other
        options[best], options[i] = options[i], options[best]
        cost, costs[best], costs[i] = costs[best], costs[i], costs[best]
    option_count = 1
    while option_count < min(limit, count) and costs[option_count] <= costs[0] + TUNE[4] * 0.1:
        option_count += 1
    for i in range(option_count):
        knocks[i] = False
    if least <= state.knock_limit and TUNE[12]:
        rest = candidates
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            if deadwood_of(hand ^ card_bit(card)) <= state.knock_limit:
                options[option_count] = card
                knocks[option_count] = True
                option_count += 1
    elif least <= state.knock_limit:
        options[option_count] = lowest_card(greedy_choices(state, me, candidates, rng))
        knocks[option_count] = True
        option_count += 1
    if option_count == 1:
        knock[0] = knocks[0]
        return options[0]
    for i in range(option_count):
        totals[i] = 0
    _champion_players(players, who, me, rng)
    quiet_copy(&quiet, state.context)
    cdef double values[2 * MAX_CANDIDATES + 1]
    cdef double sum_d[2 * MAX_CANDIDATES + 1][2 * MAX_CANDIDATES + 1]
    cdef double sum_d2[2 * MAX_CANDIDATES + 1][2 * MAX_CANDIDATES + 1]
    cdef double mean, spread, diff
    cdef int deals = _champion_deals(who), most = max(deals, (<ChampionParams*>who.params).more), done = 0
    cdef int second, j
    memset(sum_d, 0, sizeof(sum_d))
    memset(sum_d2, 0, sizeof(sum_d2))
    while True:
        for sample in range(deals):
            if TUNE[13]:
                _champion_players(players, who, me, rng)
            _champion_deal(&world, state, me, odds, rng, &quiet)
            for i in range(option_count):
                values[i] = 0
            discard_values(&world, players, me, options, knocks, option_count, rng, values)
            for i in range(option_count):
                totals[i] += values[i]
                for j in range(option_count):
                    diff = values[i] - values[j]
                    sum_d[i][j] += diff
                    sum_d2[i][j] += diff * diff
        done += deals
        if done + deals > most:
            break
        best = best_option(totals, option_count)
        second = 1 if best == 0 else 0
        for i in range(option_count):
            if i != best and totals[i] > totals[second]:
                second = i
        mean = sum_d[best][second] / done
        spread = sqrt(max(sum_d2[best][second] / done - mean * mean, 0.0) / done)
        if mean > TUNE[6] * 0.1 * spread:
            break
    best = best_option(totals, option_count)
    knock[0] = knocks[best]
    return options[best]


cdef int KIND_CHAMPION = register_strategy("champion", _champion_takes, _champion_discard, NULL, always_big_gin,
                                           takes_back_discards=False)
