# learned: plays a trained network (ginsim.gin.game.policy_file). At each decision it writes its player's
# observation with the environments' own writer, runs the network's linear layers (ReLU between them)
# and makes the legal action of greatest logit (ties: the lowest action number). A knock is one
# action, KNOCK + card: it answers the hand loop's discard question and its knock question at once.
# The networks live in a registry filled from Python (``load_network``), once per process; a
# player's first parameter is its network's number there.
from libc.stdlib cimport calloc


cdef struct LearnedParams:
    int network              # the network's number in the registry


cdef enum:
    MAX_NETWORKS = 64
    MAX_LAYERS = 16          # the format's limit (ginsim.gin.game.policy_file)
    MAX_WIDTH = 4096         # the widest hidden layer the forward pass holds on its stack


cdef struct Network:
    int layout               # the observation layout it reads
    bint sees_scores         # trained on matches, seeing their scores (else it sees 0-0, as it learnt)
    int layers
    int sizes[MAX_LAYERS + 1]    # the input's width, then each layer's
    float* scale             # the input scale, by observation slot
    # every layer but the last transposed, (in, out): a non-zero input adds one contiguous row;
    # the last as stored, (out, in): only the legal actions' rows are read
    float* weights[MAX_LAYERS]
    float* biases[MAX_LAYERS]


cdef Network NETWORKS[MAX_NETWORKS]
cdef int NETWORK_COUNT = 0


def load_network(int layout, scale, layers, bint sees_scores=False):
    """Copy a network into the registry and return its number: ``scale``, the input scale (float32 of
    the layout's size); ``layers``, (weights (out, in), biases) per linear layer, float32, chaining
    from the observation to the actions (checked by ``ginsim.gin.game.policy_file``; shapes again here);
    ``sees_scores``: ``learned`` shows it the match scores (else 0-0)."""
    global NETWORK_COUNT
    cdef Network* network
    cdef float[::1] row
    cdef float[:, ::1] matrix
    cdef int index, count = len(layers), width = _layout_size(layout)
    if NETWORK_COUNT == MAX_NETWORKS:
        raise InputError(f"at most {MAX_NETWORKS} networks can be loaded in one process")
    if not 1 <= count <= MAX_LAYERS:
        raise InputError(f"a network has 1 to {MAX_LAYERS} layers, got {count}")
    for index in range(count):
        shape = np.shape(layers[index][0])
        if len(shape) != 2 or shape[1] != width or np.shape(layers[index][1]) != (shape[0],) \
                or not 1 <= shape[0] <= MAX_WIDTH:
            raise InputError(f"layer {index} of the network does not chain (weights {shape})")
        width = shape[0]
    if width != ACTION_COUNT or np.shape(scale) != (_layout_size(layout),):
        raise InputError(f"a network reads the layout's {_layout_size(layout)} values and gives {ACTION_COUNT}")
    network = &NETWORKS[NETWORK_COUNT]
    memset(network, 0, sizeof(Network))
    network.layout = layout
    network.sees_scores = sees_scores
    network.layers = count
    network.sizes[0] = _layout_size(layout)
    network.scale = <float*>calloc(network.sizes[0], sizeof(float))
    if network.scale == NULL:
        raise MemoryError()
    row = np.ascontiguousarray(scale, np.float32)
    memcpy(network.scale, &row[0], network.sizes[0] * sizeof(float))
    for index in range(count):
        last = index == count - 1
        matrix = np.ascontiguousarray(layers[index][0] if last else np.transpose(layers[index][0]), np.float32)
        row = np.ascontiguousarray(layers[index][1], np.float32)
        network.sizes[index + 1] = row.shape[0]
        network.weights[index] = <float*>calloc(matrix.shape[0] * matrix.shape[1], sizeof(float))
        network.biases[index] = <float*>calloc(row.shape[0], sizeof(float))
        if network.weights[index] == NULL or network.biases[index] == NULL:
            raise MemoryError()
        memcpy(network.weights[index], &matrix[0, 0], matrix.shape[0] * matrix.shape[1] * sizeof(float))
        memcpy(network.biases[index], &row[0], row.shape[0] * sizeof(float))
    NETWORK_COUNT += 1
    return NETWORK_COUNT - 1


cdef extern from "_gin/kernels.h" nogil:
    ctypedef void (*gc_layer_fn)(float* out, const float* bias, const float* weights, int width, const int* slots,
                                 const float* values, int count)
    ctypedef float (*gc_dot_fn)(const float* a, const float* b, int n, float start)
    ctypedef int (*gc_inputs_fn)(const int8_t* observation, const float* scale, int n, int* slots, float* values)
    ctypedef int (*gc_positive_fn)(const float* outputs, int n, int* slots, float* values)
    enum: GC_LISTING_SLACK
    gc_layer_fn gc_layer
    gc_dot_fn gc_dot
    gc_inputs_fn gc_inputs
    gc_positive_fn gc_positive
    int gc_vector_available()
    int gc_choose_kernels(int vector)


cdef int network_logits(Network* network, const int8_t* observation, const int8_t* mask,
                        float* logits) noexcept nogil:
    """The logits of the legal actions (the others left as they are) and the legal action of greatest
    logit (ties: the lowest number; -1 when none is legal). The input is sparse (a few dozen of its
    slots are non-zero) and so, after the ReLU, is each hidden layer: every layer but the last adds
    up the rows of its non-zero inputs (``gc_layer``); the last computes the legal actions' logits only
    (``gc_dot``). Both kernels run on the vector unit where the processor has one (``vector_unit``)."""
    cdef float values[2][MAX_WIDTH]
    cdef float present[MAX_WIDTH + GC_LISTING_SLACK]
    cdef int slots[MAX_WIDTH + GC_LISTING_SLACK]
    cdef float value
    cdef int layer, slot, action, chosen = -1, source = 0, width, inputs, count
    cdef int last = network.layers - 1
    for layer in range(last):
        width = network.sizes[layer + 1]
        inputs = network.sizes[layer]
        # only the non-zero inputs are added (about half of a hidden layer's are zero: the ReLU)
        if layer == 0:
            count = gc_inputs(observation, network.scale, inputs, slots, present)
        else:
            count = gc_positive(values[source], inputs, slots, present)
        gc_layer(values[1 - source], network.biases[layer], network.weights[layer], width, slots, present, count)
        source = 1 - source
    inputs = network.sizes[last]
    for slot in range(inputs):  # the last layer's input: the observation itself, or the last hidden's ReLU
        if last == 0:
            values[source][slot] = observation[slot] * network.scale[slot]
        else:
            value = values[source][slot]
            values[source][slot] = 0 if value < 0 else value  # (a select, not a branch)
    for action in range(ACTION_COUNT):
        if not mask[action]:
            continue
        value = gc_dot(network.weights[last] + action * inputs, values[source], inputs, network.biases[last][action])
        logits[action] = value
        if chosen < 0 or value > logits[chosen]:
            chosen = action
    return chosen


VECTOR_UNIT_NAMES = ("baseline", "avx2+fma", "avx512")


def vector_unit(name=None):
    """The kernels the network runs on: ``"avx512"``, ``"avx2+fma"`` (the vector unit: by default the widest
    the processor has) or ``"baseline"`` (plain code, the same on every machine). With ``name``, use those,
    or the widest the processor has below them; returns the ones in use. ``"avx2+fma"`` and ``"avx512"``
    give the same logits to the bit; the baseline's differ from theirs in the last bits (fused
    multiply-adds, another order of sums), and so ``learned`` may break a near-tie otherwise. Whole process:
    set it before any work starts (for a run's worker processes too: ``GINCORE_VECTOR_UNIT``)."""
    global VECTOR_IN_USE
    if name is not None:
        if name not in VECTOR_UNIT_NAMES:
            raise InputError(f"vector unit: one of {', '.join(VECTOR_UNIT_NAMES)}; got {name!r}")
        VECTOR_IN_USE = gc_choose_kernels(VECTOR_UNIT_NAMES.index(name))
    return VECTOR_UNIT_NAMES[VECTOR_IN_USE]


cdef int VECTOR_IN_USE = gc_choose_kernels(2)


def _vector_unit_from_environment():
    """``GINCORE_VECTOR_UNIT`` (``baseline``, ``avx2+fma`` or ``avx512``) chooses the kernels for a whole
    run, its worker processes included: ``baseline`` makes ``learned`` play alike on every machine."""
    import os
    import warnings
    wanted = os.environ.get("GINCORE_VECTOR_UNIT", "")
    if not wanted:
        return
    if wanted not in VECTOR_UNIT_NAMES:
        warnings.warn(f"GINCORE_VECTOR_UNIT: one of {', '.join(VECTOR_UNIT_NAMES)}, got {wanted!r}: ignored",
                      stacklevel=2)
        return
    vector_unit(wanted)


_vector_unit_from_environment()


def network_forward(int network, const int8_t[:, ::1] observations, const int8_t[:, ::1] masks,
                    float[:, ::1] logits, int64_t[::1] actions):
    """Run a loaded network on a batch: each row's legal logits into ``logits`` (the other slots left
    as they are) and its chosen action into ``actions`` (-1 where none is legal)."""
    cdef Py_ssize_t row
    cdef Network* loaded
    check_network(network)
    loaded = &NETWORKS[network]
    if observations.shape[1] != loaded.sizes[0] or masks.shape[1] != ACTION_COUNT \
            or logits.shape[1] != ACTION_COUNT or masks.shape[0] != observations.shape[0] \
            or logits.shape[0] != observations.shape[0] or actions.shape[0] != observations.shape[0]:
        raise InputError(f"network {network} reads rows of {loaded.sizes[0]} values with masks and logits of "
                         f"{ACTION_COUNT}, one action per row")
    with nogil:
        for row in range(observations.shape[0]):
            actions[row] = network_logits(loaded, &observations[row, 0], &masks[row, 0], &logits[row, 0])


cdef int learned_action(State* state, Player* who, bint big_gin) noexcept nogil:
    """The network's action for the player to move, from its observation with the match scores hidden
    unless it was trained seeing them (as ``PolicyStrategy`` hides them by default: a network trained on
    single hands never saw any)."""
    cdef Network* network = &NETWORKS[(<LearnedParams*>who.params).network]
    cdef int8_t observation[OPENSPIEL_SIZE]  # room for the largest layout
    cdef int8_t mask[ACTION_COUNT]
    cdef float logits[ACTION_COUNT]
    write_view(state, state.player, network.layout, observation, mask)
    if network.layout != LAYOUT_OPENSPIEL and not network.sees_scores:
        observation[SCALAR_SCORES] = observation[SCALAR_SCORES + 1] = 0
    if not big_gin:
        mask[ACTION_BIG_GIN] = 0
    return network_logits(network, observation, mask, logits)


cdef int check_network(int network) except -1:
    """``InputError`` unless ``network`` is the number of a loaded network."""
    if not 0 <= network < NETWORK_COUNT:
        raise InputError(f"no network {network} is loaded (load one with load_network)")
    return 0


cdef bint _learned_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    return learned_action(state, who, False) == ACTION_TAKE


cdef int _learned_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    cdef int action = learned_action(state, who, False)
    knock[0] = action >= ACTION_KNOCK
    return action - ACTION_KNOCK if action >= ACTION_KNOCK else action


cdef bint _learned_big_gin(State* state, Player* who, Rng* rng) noexcept nogil:
    return learned_action(state, who, True) == ACTION_BIG_GIN


# It never takes back a card it discarded itself (the driver refuses it before the network is asked):
# two networks that each take back the other's discards cycled until the engine's 5,000-draw cap.
# PolicyStrategy declares the same (takes_back_discards = False), so both play one network alike.
cdef int KIND_LEARNED = register_strategy("learned", _learned_takes, _learned_discard, NULL, _learned_big_gin,
                                          takes_back_discards=False)
