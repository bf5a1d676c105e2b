# belief: a small network's chance that the opponent holds each card, from the same public record as
# the opponent model (_odds.pxd): the opponent's discards, refused and taken face-up cards, the
# face-up cards it holds, the cards the player sees elsewhere and the hand's draws. Its 52 outputs
# are the unknown cards' log-weights, shared out as the model's are (spread_odds). Loaded from
# Python (load_belief), once per process; reader uses it when its last parameter asks.

cdef enum:
    BELIEF_INPUTS = 262          # five card masks, then draws / 30 and its square
    BELIEF_MAX_LAYERS = 4
    BELIEF_MAX_WIDTH = 1024


cdef struct BeliefNet:
    int layers                   # 0: none loaded
    bint sigmoid                 # the outputs are each card's log-odds (else log-weights to share out)
    int sizes[BELIEF_MAX_LAYERS + 1]
    float* weights[BELIEF_MAX_LAYERS]   # transposed, (in, out): a non-zero input adds one row
    float* biases[BELIEF_MAX_LAYERS]


cdef BeliefNet BELIEF


def load_belief(layers, bint sigmoid=False):
    """Load the belief network: ``layers``, (weights (out, in), biases) per linear layer, ReLU between,
    from BELIEF_INPUTS inputs to 52 outputs: each card's log-odds (``sigmoid``) or log-weight."""
    cdef float[:, ::1] matrix
    cdef float[::1] row
    cdef int index, width = BELIEF_INPUTS, count = len(layers)
    if not 1 <= count <= BELIEF_MAX_LAYERS:
        raise InputError(f"a belief network has 1 to {BELIEF_MAX_LAYERS} layers, got {count}")
    for index in range(count):
        shape = np.shape(layers[index][0])
        if len(shape) != 2 or shape[1] != width or np.shape(layers[index][1]) != (shape[0],) \
                or not 1 <= shape[0] <= BELIEF_MAX_WIDTH:
            raise InputError(f"layer {index} of the belief network does not chain (weights {shape})")
        width = shape[0]
    if width not in (52, 53):
        raise InputError(f"a belief network gives 52 values (and the deadwood), not {width}")
    BELIEF.layers = 0
    BELIEF.sizes[0] = BELIEF_INPUTS
    for index in range(count):
        matrix = np.ascontiguousarray(np.transpose(layers[index][0]), np.float32)
        row = np.ascontiguousarray(layers[index][1], np.float32)
        BELIEF.sizes[index + 1] = row.shape[0]
        BELIEF.weights[index] = <float*>malloc(matrix.shape[0] * matrix.shape[1] * sizeof(float))
        BELIEF.biases[index] = <float*>malloc(row.shape[0] * sizeof(float))
        if BELIEF.weights[index] == NULL or BELIEF.biases[index] == NULL:
            raise MemoryError()
        memcpy(BELIEF.weights[index], &matrix[0, 0], matrix.shape[0] * matrix.shape[1] * sizeof(float))
        memcpy(BELIEF.biases[index], &row[0], row.shape[0] * sizeof(float))
    BELIEF.sigmoid = sigmoid
    BELIEF.layers = count


cdef inline void _belief_add(float* out, const float* row, float value, int width) noexcept nogil:
    cdef int k
    for k in range(width):
        out[k] += value * row[k]


cdef bint belief_odds(State* state, int me, double* odds, bint shared=False, int* deadwood=NULL) noexcept nogil:
    """The belief network's odds (as ``odds_for``'s); False, leaving ``odds`` alone, if none is loaded.
    ``shared``: a sigmoid network's odds ratios shared out as the model's weights are (spread_odds).
    ``deadwood``: set to its guess of the opponent's deadwood, if it gives one (else left alone)."""
    cdef Seen seen
    cdef float values[2][BELIEF_MAX_WIDTH]
    cdef double share[52]
    cdef uint64_t masks[5]
    cdef uint64_t rest
    cdef float draws, value
    cdef int layer, group, slot, width, source = 0, card
    cdef double top
    if BELIEF.layers == 0:
        return False
    seen_by(state, me, &seen)
    masks[0] = seen.discarded
    masks[1] = seen.passed
    masks[2] = seen.took | seen.holds
    masks[3] = seen.holds
    masks[4] = seen.mine | seen.pile
    draws = min(state.turns, 30) / 30.0
    width = BELIEF.sizes[1]
    memcpy(values[0], BELIEF.biases[0], width * sizeof(float))
    for group in range(5):  # the first layer: the rows of the inputs that are set
        rest = masks[group]
        while rest:
            _belief_add(values[0], BELIEF.weights[0] + (group * 52 + lowest_card(rest)) * width, 1.0, width)
            rest &= rest - 1
    _belief_add(values[0], BELIEF.weights[0] + 260 * width, draws, width)
    _belief_add(values[0], BELIEF.weights[0] + 261 * width, draws * draws, width)
    for layer in range(1, BELIEF.layers):
        width = BELIEF.sizes[layer + 1]
        memcpy(values[1 - source], BELIEF.biases[layer], width * sizeof(float))
        for slot in range(BELIEF.sizes[layer]):
            value = values[source][slot]
            if value > 0:  # the ReLU
                _belief_add(values[1 - source], BELIEF.weights[layer] + slot * width, value, width)
        source = 1 - source
    if deadwood != NULL and BELIEF.sizes[BELIEF.layers] == 53:
        deadwood[0] = max(1, <int>(10 * values[source][52] + 0.5))
    if BELIEF.sigmoid and not shared:
        for card in range(52):
            odds[card] = 1.0 if (seen.holds >> card) & 1 else 0.0
        rest = unknown_cards(&seen)
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            odds[card] = 1.0 / (1.0 + exp(-values[source][card]))
        return True
    top = -1e30
    rest = unknown_cards(&seen)
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        top = max(top, values[source][card])
    rest = unknown_cards(&seen)
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        share[card] = exp(values[source][card] - top)
    spread_odds(&seen, share, odds)
    return True


def belief_forward(int me, uint64_t mine, uint64_t pile, uint64_t holds, uint64_t took, uint64_t discarded,
                   uint64_t passed, int size, int turns, bint shared=False):
    """... and its deadwood guess (-1 if none): (odds, deadwood)."""
    """The belief network's odds for one view (a test hook): a float array of 52."""
    cdef State state
    cdef double odds[52]
    memset(&state, 0, sizeof(State))
    state.held[me] = mine
    state.held[1 - me] = (1 << size) - 1 if size < 64 else 0  # only its size is read
    state.in_pile = pile
    state.from_pile[1 - me] = holds
    state.took[1 - me] = took
    state.discarded[1 - me] = discarded
    state.passed[1 - me] = passed
    state.turns = turns
    cdef int deadwood = -1
    if not belief_odds(&state, me, odds, shared, &deadwood):
        raise InputError("no belief network is loaded")
    return np.array([odds[i] for i in range(52)]), deadwood
