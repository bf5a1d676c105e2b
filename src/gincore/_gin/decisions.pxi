# The decision recorder: whole hands played natively by an Engine's strategies, and at each decision of
# the recorded seats what that player saw (its observation, in any layout, and its legal actions) and
# what it chose, as an action number; at the end of each hand, the hand's points for that seat. The
# data of imitation learning and of offline datasets (ginsim.gin.decisions).
from libc.stdint cimport int16_t


cdef struct Decisions:
    int8_t* observations     # rows of the layout's size
    int8_t* masks            # rows of ACTION_COUNT
    int16_t* actions
    int64_t* hands           # the hand's index in the run
    int8_t* seats
    int16_t* points          # the hand's points signed for the seat
    Py_ssize_t size
    Py_ssize_t capacity
    int width                # the observation's size


cdef bint _room(Decisions* rows) noexcept nogil:
    """Room for one more row (the arrays doubled when full); False when memory ran out."""
    cdef Py_ssize_t capacity = rows.capacity * 2 if rows.capacity else 1024
    cdef void* grown[6]
    cdef int i
    if rows.size < rows.capacity:
        return True
    grown[0] = realloc(rows.observations, capacity * rows.width)
    grown[1] = realloc(rows.masks, capacity * ACTION_COUNT)
    grown[2] = realloc(rows.actions, capacity * sizeof(int16_t))
    grown[3] = realloc(rows.hands, capacity * sizeof(int64_t))
    grown[4] = realloc(rows.seats, capacity)
    grown[5] = realloc(rows.points, capacity * sizeof(int16_t))
    # each pointer that moved is kept, so that a failure frees every block
    if grown[0]:
        rows.observations = <int8_t*>grown[0]
    if grown[1]:
        rows.masks = <int8_t*>grown[1]
    if grown[2]:
        rows.actions = <int16_t*>grown[2]
    if grown[3]:
        rows.hands = <int64_t*>grown[3]
    if grown[4]:
        rows.seats = <int8_t*>grown[4]
    if grown[5]:
        rows.points = <int16_t*>grown[5]
    for i in range(6):
        if grown[i] == NULL:
            return False
    rows.capacity = capacity
    return True


cdef void _free_rows(Decisions* rows) noexcept nogil:
    free(rows.observations)
    free(rows.masks)
    free(rows.actions)
    free(rows.hands)
    free(rows.seats)
    free(rows.points)


cdef enum Recorded:
    HAND_RECORDED = 0
    OUT_OF_MEMORY = 1
    HAND_ABORTED = 2         # a Python strategy failed (its error is the engine's)


cdef bint _keep_view(Decisions* rows, State* state, int player, int layout, uint64_t index) noexcept nogil:
    """A new row holding what ``player`` sees now; False when memory ran out."""
    if not _room(rows):
        return False
    write_view(state, player, layout, rows.observations + rows.size * rows.width,
               rows.masks + rows.size * ACTION_COUNT)
    rows.hands[rows.size] = index
    rows.seats[rows.size] = player
    rows.size += 1
    return True


cdef Recorded record_hand(Engine engine, Decisions* rows, int layout, int seats, bint finals, uint64_t key0,
                          uint64_t key1, uint64_t index) noexcept nogil:
    """Play hand ``index`` of the run as ``Engine.play_hands`` does, keeping the decisions of the seats
    in the bit mask ``seats``, and with ``finals`` what each of them that decided saw once the hand was
    over (action -1). An aborted hand's rows are dropped."""
    cdef State state
    cdef Context context
    cdef Rng rng
    cdef Player* who
    cdef Py_ssize_t first = rows.size, row
    cdef int action, player, decided = 0
    memset(&context, 0, sizeof(Context))
    context.engine = <void*>engine
    engine._deal_index(&state, &context, &rng, key0, key1, index, -1)
    while state.phase != PHASE_DONE and not context.aborted:
        player = state.player
        who = &engine.players[player]
        if (seats >> player) & 1:
            if not _keep_view(rows, &state, player, layout, index):
                rows.size = first
                return OUT_OF_MEMORY
            action = choose_action(&state, who, &rng)
            rows.actions[rows.size - 1] = action
            decided |= 1 << player
        else:
            action = choose_action(&state, who, &rng)
        if not context.aborted:
            apply_action(&state, action, &rng)
    if context.aborted:
        abort_hand(&state)
        rows.size = first
        return HAND_ABORTED
    for player in range(2):
        if finals and (decided >> player) & 1:
            if not _keep_view(rows, &state, player, layout, index):
                rows.size = first
                return OUT_OF_MEMORY
            rows.actions[rows.size - 1] = -1
    for row in range(first, rows.size):
        rows.points[row] = score_for(&state.record, rows.seats[row])
    return HAND_RECORDED


cdef object _array_of(void* data, Py_ssize_t count, Py_ssize_t width, object dtype):
    """A new numpy array (``count`` rows of ``width``, or a vector when width is 0) copied from ``data``."""
    cdef object shape = (count,)
    if width:
        shape = (count, width)
    array = np.empty(shape, dtype=dtype)
    if count:
        memcpy(cnp.PyArray_DATA(array), data, array.nbytes)
    return array


def record_decisions(Engine engine, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count,
                     int layout, int seats, bint finals=False):
    """Hands ``first`` .. ``first + count - 1`` of the run keyed by (key0, key1), played by the engine's
    strategies (the hands ``play_hands`` plays), and every decision of the seats in the bit mask
    ``seats`` (1: seat 0, 2: seat 1, 3: both): a dict of numpy arrays with one row per decision,
    ``observation`` (in ``layout``), ``action_mask``, ``action``, ``hand``, ``seat`` and ``points`` (the
    hand's points signed for the seat), in the order they were made; with ``finals``, after each hand's
    decisions a row per seat that decided, with what it saw at the end and action -1."""
    cdef Decisions rows
    cdef Py_ssize_t done = 0
    cdef Recorded outcome = HAND_RECORDED
    if not 1 <= seats <= 3:
        raise InputError(f"seats must be 1 (seat 0), 2 (seat 1) or 3 (both), got {seats}")
    if count < 0:
        raise InputError(f"the number of hands must not be negative, got {count}")
    memset(&rows, 0, sizeof(Decisions))
    rows.width = _layout_size(layout)
    engine.error = None
    try:
        with nogil:
            while done < count and outcome == HAND_RECORDED:
                outcome = record_hand(engine, &rows, layout, seats, finals, key0, key1, first + done)
                done += 1
        if outcome == OUT_OF_MEMORY:
            raise MemoryError()
        engine._raise(first + done - 1)
        return {
            "observation": _array_of(rows.observations, rows.size, rows.width, np.int8),
            "action_mask": _array_of(rows.masks, rows.size, ACTION_COUNT, np.int8),
            "action": _array_of(rows.actions, rows.size, 0, np.int16),
            "hand": _array_of(rows.hands, rows.size, 0, np.int64),
            "seat": _array_of(rows.seats, rows.size, 0, np.int8),
            "points": _array_of(rows.points, rows.size, 0, np.int16),
        }
    finally:
        _free_rows(&rows)
