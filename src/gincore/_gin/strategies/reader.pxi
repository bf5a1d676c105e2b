# reader:S:C:K:H: search that reads its opponent. search (search.pxi) pictures every opponent as one
# that knocks at once (Simple) holding a patient player's typical deadwood; reader pictures it from
# what it has shown. Unless the opponent has knocked late in a hand of the match with no showdown
# showing it pass up a knock (ginsim.gin.runs.matches.late_knock, passed_knock: then it is taken to knock
# at once, and reader plays as search, but for the next point), reader
#   - draws the opponent's hands near its guess of the opponent's deadwood, a linear fit on what the
#     opponent has shown this hand (tools/fit_deadwood.py), not near a patient player's typical
#     deadwood by its draws;
#   - plays H percent of the deals out (default 50) with the opponent patient too (knocking early or
#     for gin), the rest with it as Simple: a hedge between the two pictures of it.
# Always, the hands it draws for an opponent that plays out as Simple are ones Simple could hold after
# its last turn, as far as one is found (playouts.pxi, simple_could_hold): over the knock limit, its
# discard one of least deadwood, the card it refused not melding.
# Measured on duplicate deals under eaai rules, idea by idea: docs/champion.md.

cdef struct ReaderParams:
    int deals                # sampled deals per decision
    int discards             # discards compared
    int knock_at             # the knock threshold of its own play-outs
    int hedge                # the percentage of deals whose opponent plays out patient, once read
    int belief               # 1: the opponent's cards weighted by the belief network (belief.pxi)

# The guess of the opponent's deadwood: weights of its nine numbers (guessed_deadwood), fitted by least
# squares on 6,000 hands of search against search and marjj under eaai rules
# (python tools/fit_deadwood.py): mean absolute error 7.7 and 7.3 against 8.7 and 8.3 for the
# patient table.
cdef double GUESS_WEIGHTS[9]
GUESS_WEIGHTS[:] = [-18.87, -3.24, 2.25, -1.56, -0.32, -1.29, -0.38, 6.97, -0.14]


cdef int guessed_deadwood(State* state, int opponent) noexcept nogil:
    """The opponent's deadwood as guessed from the hand's draws (at most 30 counted) and what it has
    shown: the face-up cards it holds (their number and value), took and refused, its discards (their
    number and mean value). At least 1: with none it would have gone gin."""
    cdef double draws = min(state.turns, 30)
    cdef int discards = popcount64(state.discarded[opponent])
    cdef double inputs[9]
    cdef double guess = 0
    cdef int i
    inputs[0] = 1
    inputs[1] = draws / 2
    inputs[2] = draws * draws / 40
    inputs[3] = popcount64(state.from_pile[opponent])
    inputs[4] = popcount64(state.took[opponent])
    inputs[5] = discards
    inputs[6] = popcount64(state.passed[opponent])
    inputs[7] = mask_value(state.discarded[opponent]) / <double>discards if discards else 0
    inputs[8] = mask_value(state.from_pile[opponent])
    for i in range(9):
        guess += GUESS_WEIGHTS[i] * inputs[i]
    return max(1, <int>(guess + 0.5))


cdef bint reader_reads(State* state, int me) noexcept nogil:
    """Whether to picture the opponent from what it has shown: unless the match has shown it knock
    late and never pass up a knock."""
    cdef Context* context = state.context
    return context.late_knocks[1 - me] == 0 or context.passed_knocks[1 - me] > 0


cdef void _reader_model(State* state, Player* who, SearchModel* model) noexcept nogil:
    cdef ReaderParams* params = <ReaderParams*>who.params
    model.deals = params.deals
    model.discards = params.discards
    model.knock_at = params.knock_at
    model.hedge = 0
    model.target = -1
    model.reads_simple = True
    model.belief = params.belief
    last_turn(state, 1 - state.player, &model.simple_turn)
    if reader_reads(state, state.player):
        model.hedge = params.hedge
        model.target = guessed_deadwood(state, 1 - state.player)


cdef bint _reader_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    cdef SearchModel model
    _reader_model(state, who, &model)
    return search_takes(state, &model, rng, card)


cdef int _reader_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    cdef SearchModel model
    _reader_model(state, who, &model)
    return search_discard(state, &model, rng, candidates, knock)


cdef ReaderParams _READER_FIELDS  # zeroed: read as a dict, its field names in order
cdef int KIND_READER = register_strategy("reader", _reader_takes, _reader_discard, NULL, always_big_gin,
                                         takes_back_discards=False, values_matches=True,
                                         parameters=_READER_FIELDS, parameters_size=sizeof(ReaderParams))
