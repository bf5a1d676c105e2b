# reader:S:C:K:H:G: search that reads its opponent. search (search.pxi) pictures every opponent as one
# that knocks at once (Simple) holding a patient player's typical deadwood; reader pictures it from
# what it has shown. Unless the opponent has knocked late in a hand of the match with no showdown
# showing it pass up a knock (ginsim.gin.runs.matches.late_knock, passed_knock: then it is taken to knock
# at once, and reader plays as search, but for the next point), reader
#   - draws the opponent's hands near its guess of the opponent's deadwood from what it has seen this
#     hand: a small network's (G = 1, the default; tools/fit_deadwood.py) or a linear fit's (G = 0),
#     not near a patient player's typical deadwood by its draws;
#   - plays H percent of the deals out (default 50) with the opponent patient too (knocking early or
#     for gin), the rest with it as Simple: a hedge between the two pictures of it.
# Always, the hands it draws for an opponent that plays out as Simple are ones Simple could hold after
# its last turn, as far as one is found (playouts.pxi, simple_could_hold): over the knock limit, its
# discard one of least deadwood, the card it refused not melding.
# Measured on duplicate deals under eaai rules, idea by idea: docs/champion.md.
#
# EXPERIMENT (this commit only, not main's tree): a reader whose S is one of these plays 512 deals and
#   513  adds to each option's mean value W times the log of the shipped network's probability of it
#        among the options (set_reader_prior; benchmarks/champion_experiments.py --prior W);
#   514  oracle: draws the opponent's hands near its true deadwood (48 tries, none farther than needed);
#   515  oracle: deals the opponent its true hand, the stock dealt again;
#   516  oracle: the melded cards of its true hand known, the others drawn from the model's odds;
#   517  oracle: the unmelded cards of its true hand known, the others drawn from the model's odds;
#   518  keeps only hands in which every face-up card the opponent took and holds is in a meld (else
#        +100 to the hand's distance from the target);
#   519  +3 to a hand's distance for every face-up card the opponent refused that would meld with it;
#   520  both;
#   521  oracle: the melded cards of its true hand known, the others the closest to its true deadwood of
#        48 drawn from the model's odds;
#   522  oracle: the unmelded cards of its true hand known, the others likewise;
#   523  16 deals, its own play-outs by the shipped network (set_reader_prior's; --prior W, any W);
#   524  the same with 64 deals;
#   525  64 deals, its play-outs stopped at its next draw and valued by the shipped network's value head
#        (set_reader_value; benchmarks/champion_experiments.py --leaf); 526 the same with 16 deals, 527 with 512.
# The oracles read the opponent's hand: diagnostics of what knowing it would be worth, not players.
from importlib import resources

cdef struct ReaderParams:
    int deals                # sampled deals per decision
    int discards             # discards compared
    int knock_at             # the knock threshold of its own play-outs
    int hedge                # the percentage of deals whose opponent plays out patient, once read
    int guess                # the guess of the opponent's deadwood: 1 the network's, 0 the linear fit's

# The linear guess (G = 0): weights of its nine numbers (linear_guess), fitted by least squares on
# 6,000 hands of search against search and marjj under eaai rules (python tools/fit_deadwood.py as of
# commit 6bb9ce3): mean absolute error 7.7 and 7.3 against 8.7 and 8.3 for the patient table.
cdef double GUESS_WEIGHTS[9]
GUESS_WEIGHTS[:] = [-18.87, -3.24, 2.25, -1.56, -0.32, -1.29, -0.38, 6.97, -0.14]


cdef int linear_guess(State* state, int opponent) noexcept nogil:
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


# The network's guess (G = 1): one hidden layer of ReLUs over what the player has seen, giving the
# deadwood / 10; fitted by python tools/fit_deadwood.py (its weights: src/gincore/reader_guess.npz,
# loaded at import). Its inputs: five masks of 52 cards (as network_guess lists them), then the draws
# d / 30 and (d / 30)^2, d at most 30.
cdef enum:
    GUESS_INPUTS = 262
    GUESS_MAX_HIDDEN = 256

cdef int GUESS_HIDDEN = 0
cdef float GUESS_ROWS[GUESS_INPUTS][GUESS_MAX_HIDDEN]   # the hidden layer's weights, a row per input
cdef float GUESS_BIASES[GUESS_MAX_HIDDEN]
cdef float GUESS_OUTPUT[GUESS_MAX_HIDDEN]
cdef float GUESS_OUTPUT_BIAS = 0


def load_reader_guess(hidden_weights, hidden_biases, output_weights, output_bias):
    """Load the weights of reader's deadwood guess: the hidden layer's (hidden, 262) weights and
    (hidden,) biases, the output's (hidden,) weights and its bias (one number); at most 256 hidden."""
    global GUESS_HIDDEN, GUESS_OUTPUT_BIAS
    weights = np.asarray(hidden_weights, np.float32)
    biases, output = np.asarray(hidden_biases, np.float32), np.asarray(output_weights, np.float32)
    bias = np.asarray(output_bias, np.float32).reshape(-1)
    width = biases.shape[0] if biases.ndim == 1 else -1
    if not 1 <= width <= GUESS_MAX_HIDDEN or weights.shape != (width, GUESS_INPUTS) or output.shape != (width,) \
            or bias.shape != (1,) or not all(np.isfinite(a).all() for a in (weights, biases, output, bias)):
        raise InputError(f"reader's guess takes (hidden, {GUESS_INPUTS}) weights, (hidden,) biases and output "
                         f"weights and one bias, hidden at most {GUESS_MAX_HIDDEN}, all finite")
    for i in range(GUESS_INPUTS):
        for j in range(width):
            GUESS_ROWS[i][j] = weights[j, i]
    for j in range(width):
        GUESS_BIASES[j] = biases[j]
        GUESS_OUTPUT[j] = output[j]
    GUESS_OUTPUT_BIAS = bias[0]
    GUESS_HIDDEN = width


cdef inline void _guess_add(float* hidden, const float* row, float value) noexcept nogil:
    cdef int j
    for j in range(GUESS_HIDDEN):
        hidden[j] += value * row[j]


cdef int network_guess(State* state, int me) noexcept nogil:
    """The network's guess of the opponent's deadwood from what ``me`` has seen (at least 1)."""
    cdef Seen seen
    cdef float hidden[GUESS_MAX_HIDDEN]
    cdef uint64_t masks[5]
    cdef uint64_t rest
    cdef float draws = min(state.turns, 30) / 30.0, out = GUESS_OUTPUT_BIAS
    cdef int group, j
    seen_by(state, me, &seen)
    masks[0] = seen.discarded
    masks[1] = seen.passed
    masks[2] = seen.took | seen.holds
    masks[3] = seen.holds
    masks[4] = seen.mine | seen.pile
    memcpy(hidden, GUESS_BIASES, GUESS_HIDDEN * sizeof(float))
    for group in range(5):  # the inputs are 0 or 1 but the last two: add the rows of those set
        rest = masks[group]
        while rest:
            _guess_add(hidden, GUESS_ROWS[group * 52 + lowest_card(rest)], 1.0)
            rest &= rest - 1
    _guess_add(hidden, GUESS_ROWS[260], draws)
    _guess_add(hidden, GUESS_ROWS[261], draws * draws)
    for j in range(GUESS_HIDDEN):
        if hidden[j] > 0:
            out += hidden[j] * GUESS_OUTPUT[j]
    return max(1, <int>(10 * out + 0.5))


cdef int guessed_deadwood(State* state, int me, bint network) noexcept nogil:
    """reader's guess of the deadwood of ``me``'s opponent: the network's or the linear fit's."""
    return network_guess(state, me) if network else linear_guess(state, 1 - me)


def _reader_guess(int guess, uint64_t mine, uint64_t pile, uint64_t holds, uint64_t took, uint64_t discarded,
                  uint64_t passed, int turns):
    """reader's guess (``guess`` 1: the network's, 0: the linear fit's) of the opponent's deadwood,
    for seat 0 seeing its hand ``mine``, the pile, and the opponent's face-up cards held, taken,
    discarded and refused after ``turns`` draws: a test hook."""
    cdef State state
    memset(&state, 0, sizeof(State))
    state.held[0] = mine
    state.in_pile = pile
    state.from_pile[1] = holds
    state.took[1] = took | holds
    state.discarded[1] = discarded
    state.passed[1] = passed
    state.turns = turns
    return guessed_deadwood(&state, 0, guess != 0)


with resources.as_file(resources.files("gincore").joinpath("reader_guess.npz")) as _path:
    with np.load(_path) as _weights:
        load_reader_guess(_weights["hidden_weights"], _weights["hidden_biases"], _weights["output_weights"],
                          _weights["output_bias"])


cdef int PRIOR_NETWORK = -1
cdef double PRIOR_WEIGHT = 0


def set_reader_prior(int network, double weight):
    """Experiment: reader adds weight * log p of the network's policy to each option's mean value."""
    global PRIOR_NETWORK, PRIOR_WEIGHT
    PRIOR_NETWORK = network
    PRIOR_WEIGHT = weight


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
    model.prior_network = -1
    model.prior_weight = PRIOR_WEIGHT
    model.oracle = 0
    model.own_network = -1
    if params.deals == 523 or params.deals == 524:  # its own play-outs by the network, 16 or 64 deals
        model.own_network = PRIOR_NETWORK
        model.deals = 16 if params.deals == 523 else 64
    global LEAF_MODE
    LEAF_MODE = 0
    if 525 <= params.deals <= 527:  # its play-outs stop at its next draw, valued by the network: 64, 16, 512 deals
        LEAF_MODE = 1
        model.deals = 64 if params.deals == 525 else (16 if params.deals == 526 else 512)
    if params.deals == 513:  # the experiment's player
        model.deals = 512
        model.prior_network = PRIOR_NETWORK
    global READER_FILTER
    READER_FILTER = 0
    if 518 <= params.deals <= 520:  # the filters: 518 holds melded, 519 refusals, 520 both
        READER_FILTER = params.deals - 517
        model.deals = 512
    if 514 <= params.deals <= 517 or 521 <= params.deals <= 522:  # the oracles
        model.oracle = params.deals - (513 if params.deals <= 517 else 516)
        model.deals = 512
    last_turn(state, 1 - state.player, &model.simple_turn)
    if reader_reads(state, state.player):
        model.hedge = params.hedge
        model.target = guessed_deadwood(state, state.player, params.guess != 0)


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
