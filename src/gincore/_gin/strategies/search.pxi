# search:S:C:K: determinised Monte-Carlo over deals drawn from the opponent model. At a draw (the
# upcard offer included) and at a discard it deals the cards it has not seen again (S times), the
# opponent's hand drawn from the model's odds and near the deadwood a patient opponent has by then,
# plays each option out to the end of the hand with patient policies (itself as ``patient``, knocking
# at K or less, else as marjj early and then only for gin; the opponent as Simple, who knocks at once),
# and takes the option of the best mean value: in a match, the chance to win the match after the hand
# (so a knock is worth more or less near the target); otherwise the points. Every option of a decision
# plays out on the same deals with the same randomness. The options: taking or refusing a face-up card
# that lowers its deadwood (any other is refused); marjj's cheapest discard and up to C - 1 more within
# SEARCH_CLOSE of its cost; and the knock, when legal. Gin is always taken.

cdef struct SearchParams:
    int deals                # sampled deals per decision
    int discards             # discards compared
    int knock_at             # the knock threshold of its own play-outs


cdef struct SearchModel:
    # How the play-outs picture the game: search's own, or reader's once it has read its opponent.
    int deals                # sampled deals per decision
    int discards             # discards compared
    int knock_at             # the knock threshold of its own (patient) play-outs
    int hedge                # the percentage of deals whose opponent plays out patient (else Simple)
    # The opponent's deadwood to draw its hands near (-1: a patient opponent's typical deadwood by its
    # draws, PATIENT_DEADWOOD).
    int target
    # Whether the hands drawn for a Simple opponent must agree with its last turn (simple_could_hold),
    # read once per decision into simple_turn.
    bint reads_simple
    LastTurn simple_turn

cdef double SEARCH_CLOSE = 1.0   # discards costing more than this above marjj's choice are not searched


cdef void _search_model(Player* who, SearchModel* model) noexcept nogil:
    cdef SearchParams* params = <SearchParams*>who.params
    model.deals = params.deals
    model.discards = params.discards
    model.knock_at = params.knock_at
    model.hedge = 0
    model.target = -1
    model.reads_simple = False


cdef void _search_players(Player* players, SearchModel* model, int me, Rng* rng) noexcept nogil:
    """Who plays a sampled deal out: patient for itself; Simple for the opponent, or, on ``hedge``
    percent of the deals, patient too (knocking early or for gin)."""
    memset(players, 0, 2 * sizeof(Player))
    players[1 - me].kind = KIND_SIMPLE
    if model.hedge > 0 and <int>below(rng, 100) < model.hedge:
        players[1 - me].kind = KIND_PATIENT
    players[me].kind = KIND_PATIENT
    (<PatientParams*>players[me].params).knock_at = model.knock_at


cdef inline void _search_deal(State* world, State* state, SearchModel* model, int me, HiddenCards* hidden,
                              Rng* rng, Context* quiet, Player* players) noexcept nogil:
    cdef LastTurn* simple_turn = NULL
    if model.reads_simple and players[1 - me].kind == KIND_SIMPLE:
        simple_turn = &model.simple_turn
    if model.target < 0:
        deal_from_model(world, state, me, hidden, rng, quiet, SAMPLE_TRIES, simple_turn)
    else:
        deal_near(world, state, me, hidden, rng, quiet, SAMPLE_TRIES, model.target, SAMPLE_TOLERANCE, simple_turn)


cdef bint search_takes(State* state, SearchModel* model, Rng* rng, int card) noexcept nogil:
    """Take the face-up card iff taking it plays out better than refusing it on the sampled deals."""
    cdef double odds[52]
    cdef HiddenCards hidden
    cdef double take = 0, stock = 0
    cdef Context quiet
    cdef State world
    cdef Player players[2]
    cdef int sample, least, me = state.player
    cdef uint64_t hand = state.held[me], taken = hand | card_bit(card)
    least_deadwood_among(taken, taken & ~card_bit(card), &least)
    if least >= deadwood_of(hand):
        return False  # it could only be discarded again, or make the hand worse
    _search_players(players, model, me, rng)
    quiet_copy(&quiet, state.context)
    odds_for(state, me, odds)
    hidden_cards(state, me, odds, &hidden)
    for sample in range(max(1, min(model.deals, <int>MAX_SAMPLES))):
        if model.hedge > 0 and sample > 0:
            _search_players(players, model, me, rng)
        _search_deal(&world, state, model, me, &hidden, rng, &quiet, players)
        face_up_values(&world, players, me, rng, &take, &stock)
    return take > stock


cdef int search_discard(State* state, SearchModel* model, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    """The discard (and whether to knock with it) that plays out best on the sampled deals."""
    cdef double odds[52]
    cdef HiddenCards hidden
    cdef int options[MAX_CANDIDATES + 1]
    cdef bint knocks[MAX_CANDIDATES + 1]
    cdef double totals[MAX_CANDIDATES + 1]
    cdef double costs[MAX_CANDIDATES + 1]
    cdef double cost
    cdef int count = 0, option_count, card, i, other, sample, best, least, me = state.player
    cdef int limit = max(1, min(model.discards, <int>MAX_CANDIDATES))
    cdef uint64_t hand = state.held[me], rest = candidates, lowest
    cdef Context quiet
    cdef State world
    cdef Player players[2]
    lowest = least_deadwood_among(hand, candidates, &least)
    knock[0] = False
    if least == 0:  # gin: nothing scores more this hand
        knock[0] = True
        return lowest_card(lowest)
    odds_for(state, me, odds)
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        options[count] = card
        costs[count] = marjj_cost(state, me, hand, card, odds)
        count += 1
    for i in range(count):  # cheapest first by marjj's cost
        best = i
        for other in range(i + 1, count):
            if costs[other] < costs[best]:
                best = other
        options[best], options[i] = options[i], options[best]
        cost, costs[best], costs[i] = costs[best], costs[i], costs[best]
    option_count = 1  # marjj's choice, and those of the next cheapest that are close to it
    while option_count < min(limit, count) and costs[option_count] <= costs[0] + SEARCH_CLOSE:
        option_count += 1
    for i in range(option_count):
        knocks[i] = False
    if least <= state.knock_limit:  # the knock: the highest card among the least deadwood, face down
        options[option_count] = lowest_card(greedy_choices(state, me, candidates, rng, &least))
        knocks[option_count] = True
        option_count += 1
    if option_count == 1:
        knock[0] = knocks[0]
        return options[0]
    for i in range(option_count):
        totals[i] = 0
    _search_players(players, model, me, rng)
    quiet_copy(&quiet, state.context)
    hidden_cards(state, me, odds, &hidden)
    for sample in range(max(1, min(model.deals, <int>MAX_SAMPLES))):
        if model.hedge > 0 and sample > 0:
            _search_players(players, model, me, rng)
        _search_deal(&world, state, model, me, &hidden, rng, &quiet, players)
        discard_values(&world, players, me, options, knocks, option_count, rng, totals)
    best = best_option(totals, option_count)
    knock[0] = knocks[best]
    return options[best]


cdef bint _search_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    cdef SearchModel model
    _search_model(who, &model)
    return search_takes(state, &model, rng, card)


cdef int _search_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    cdef SearchModel model
    _search_model(who, &model)
    return search_discard(state, &model, rng, candidates, knock)


cdef SearchParams _SEARCH_FIELDS  # zeroed: read as a dict, its field names in order
cdef int KIND_SEARCH = register_strategy("search", _search_takes, _search_discard, NULL, always_big_gin,
                                         takes_back_discards=False, values_matches=True,
                                         parameters=_SEARCH_FIELDS, parameters_size=sizeof(SearchParams))


cdef enum:
    SEARCH_HAND_SAMPLES = 2000   # simple-vs-simple hands whose scores make the match-value table


cdef object search_match_values(HandRules* rules):
    """The chance to win a match from each pair of scores below the target (``[a * target + b]``),
    for search: two even players whose hands score as SEARCH_HAND_SAMPLES simple-vs-simple hands of
    these rules, each hand won by either player with the same chance (drawn hands change nothing)."""
    cdef int target = rules.target, a, b, k, i, top = 0
    cdef Player simple[2]
    cdef State state
    cdef Context context
    cdef Rng rng
    cdef uint8_t deck[52]
    cdef double decided = 0, value
    share = np.zeros(target + 1)
    values = np.zeros(target * target)
    cdef double[::1] f = share, v = values
    memset(simple, 0, sizeof(simple))
    simple[0].kind = simple[1].kind = KIND_SIMPLE
    memset(&context, 0, sizeof(Context))
    for i in range(SEARCH_HAND_SAMPLES):
        seed_rng(&rng, hand_key(0x6D61746368, 0x76616C7565, i))  # a fixed stream: "match", "value"
        shuffled_deck(&rng, deck)
        deal_cards(&state, deck, below(&rng, 2), rules, &context)
        drive(&state, simple, &rng)
        if state.record.winner >= 0 and state.record.points > 0:
            k = min(<int>state.record.points, target)
            f[k] += 1
            decided += 1
            top = max(top, k)
    for k in range(top + 1):
        f[k] /= decided
    with nogil:
        for a in range(target - 1, -1, -1):
            for b in range(target - 1, -1, -1):
                value = 0
                for k in range(1, top + 1):
                    if f[k] > 0:
                        value += f[k] * ((1.0 if a + k >= target else v[(a + k) * target + b])
                                         + (0.0 if b + k >= target else v[a * target + b + k]))
                v[a * target + b] = value / 2
    return values
