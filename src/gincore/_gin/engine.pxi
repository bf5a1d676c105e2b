# Engine: whole hands for one rule set and one pair of strategies, in batches without the GIL.

cdef enum:
    COUNT_CELLS = 2 * 52 * 5 * 3   # dealer x upcard x outcome x (winner + 1)
    POINTS_BINS = 1024             # points histogram per outcome; larger scores go in the last bin


cdef inline Py_ssize_t _cell(Record* record) noexcept nogil:
    return ((record.dealer * 52 + record.upcard) * 5 + record.outcome) * 3 + record.winner + 1


cdef class Engine:
    """The native hand loop for one rule set and one pair of strategies.

    ``config`` holds the native rules (see ``NativeRules``). ``players`` holds two strategies, each a
    code from ``STRATEGY_KINDS``, a tuple ``(code, parameters...)``, or ``(STRATEGY_KINDS["python"],
    adapter)`` where the adapter has the methods ``take_upcard``, ``take_discard``, ``discard``,
    ``knock`` and ``big_gin`` taking the player's view as a dict, plus a ``name``. Hand ``index`` of
    the run keyed by (key0, key1) takes all its randomness from its own stream: first the shuffle,
    then (unless the dealer is given) the dealer, then the strategies' choices and the reshuffles.
    """
    cdef NativeRules native
    cdef Player players[2]
    cdef object specs
    cdef list adapters
    cdef public object error

    def __init__(self, config, players):
        self.native = NativeRules(config)
        self.specs = tuple(players)
        self.adapters = [None, None]
        fill_players(self.players, self.specs, self.adapters)
        self.error = None
        self.native.prepare(self.players, 2)

    def match_value(self, int mine, int theirs):
        """The chance ``search`` gives a player to win the match from these scores (None without
        a search player or a target)."""
        return self.native.match_value(mine, theirs)

    def __reduce__(self):
        return Engine, (self.native.config, self.specs)

    def reject(self, player, card, drawn, from_pile):
        """Record an illegal discard by a Python strategy (called from the hand loop)."""
        name = getattr(self.adapters[player], "name", "python")
        if 0 <= card <= 51:
            from gincore.cards import card_text
            what = card_text(card)
            why = ("it was just taken from the discard pile" if from_pile and card == drawn
                   else "the player does not hold it")
        else:
            what, why = repr(card), "it is not a card index 0..51"
        self.error = StrategyError(f"strategy {name!r} (player {player}) chose an illegal discard {what}: {why}")

    cdef void _deal_index(self, State* state, Context* context, Rng* rng, uint64_t key0, uint64_t key1,
                          uint64_t index, int dealer) noexcept nogil:
        cdef uint8_t deck[52]
        context.hand_index = index
        context.aborted = False
        seed_rng(rng, hand_key(key0, key1, index))
        shuffled_deck(rng, deck)
        if dealer < 0:
            dealer = below(rng, 2)
        deal_cards(state, deck, dealer, &self.native.rules, context)

    cdef void _play_index(self, State* state, Context* context, uint64_t key0, uint64_t key1,
                          uint64_t index, int dealer) noexcept nogil:
        cdef Rng rng
        self._deal_index(state, context, &rng, key0, key1, index, dealer)
        drive(state, self.players, &rng)

    cdef void _context(self, Context* context):
        memset(context, 0, sizeof(Context))
        context.engine = <void*>self
        self.error = None

    cdef void _raise(self, uint64_t index) except *:
        if self.error is not None:
            error, self.error = self.error, None
            if isinstance(error, StrategyError):
                raise StrategyError(f"hand {index}: {error}") from None
            name = next((getattr(a, "name", "python") for a in self.adapters if a is not None), "python")
            raise StrategyError(f"hand {index}: strategy {name!r} failed: "
                                f"{type(error).__name__}: {error}") from error

    def play_hands(self, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count):
        """Hands ``first .. first + count - 1`` of the run: a dict of numpy ``RECORD_COLUMNS``."""
        records = np.zeros(count, RECORD_DTYPE)
        cdef Record* out = <Record*>cnp.PyArray_DATA(records)
        cdef Py_ssize_t i = 0
        cdef State state
        cdef Context context
        self._context(&context)
        with nogil:
            for i in range(count):
                self._play_index(&state, &context, key0, key1, first + i, -1)
                out[i] = state.record
                if context.aborted:
                    break
        self._raise(first + i)
        return {"hand": np.arange(first, first + count, dtype=np.int64),
                **columns_of(records, RECORD_COLUMNS[1:])}

    def play_counts(self, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count):
        """The same hands as ``play_hands``, kept only as counts (for runs too large for rows).

        Returns ``hands``, ``points`` and ``turns`` (counts and sums per dealer x upcard x outcome x
        winner + 1 cell, shape (2, 52, 5, 3)), ``points_squares`` and ``turns_squares`` (sums of
        squares, for the intervals of the means) and ``points_histogram`` (outcome x points, the last
        of its 1024 bins holding every larger score).
        """
        hands = np.zeros(COUNT_CELLS, np.int64)
        points = np.zeros(COUNT_CELLS, np.int64)
        turns = np.zeros(COUNT_CELLS, np.int64)
        points_squares = np.zeros(COUNT_CELLS, np.int64)
        turns_squares = np.zeros(COUNT_CELLS, np.int64)
        histogram = np.zeros(5 * POINTS_BINS, np.int64)
        cdef int64_t[::1] hands_view = hands, points_view = points, turns_view = turns
        cdef int64_t[::1] points_squares_view = points_squares, turns_squares_view = turns_squares
        cdef int64_t[::1] histogram_view = histogram
        cdef Py_ssize_t i = 0, cell
        cdef State state
        cdef Context context
        cdef Record* record = &state.record
        self._context(&context)
        with nogil:
            for i in range(count):
                self._play_index(&state, &context, key0, key1, first + i, -1)
                if context.aborted:
                    break
                cell = _cell(record)
                hands_view[cell] += 1
                points_view[cell] += record.points
                turns_view[cell] += record.turns
                points_squares_view[cell] += <int64_t>record.points * record.points
                turns_squares_view[cell] += <int64_t>record.turns * record.turns
                histogram_view[record.outcome * POINTS_BINS + min(record.points, POINTS_BINS - 1)] += 1
        self._raise(first + i)
        return {
            "hands": hands.reshape(2, 52, 5, 3),
            "points": points.reshape(2, 52, 5, 3),
            "turns": turns.reshape(2, 52, 5, 3),
            "points_squares": points_squares.reshape(2, 52, 5, 3),
            "turns_squares": turns_squares.reshape(2, 52, 5, 3),
            "points_histogram": histogram.reshape(5, POINTS_BINS),
        }

    def play_record(self, uint64_t key0, uint64_t key1, uint64_t index, int dealer=-1, match=None):
        """One hand of a match as a ``RecordRow`` (its fields in ``RECORD_COLUMNS`` order; dealer -1:
        drawn at random); ``match`` is what its strategies know of the match (ginsim's ``MatchContext``:
        the scores they see, the showdowns at which each seat passed up a knock, the hands in which each
        knocked late), None for a match's first hand."""
        cdef State state
        cdef Context context
        self._context(&context)
        fill_match(&context, match)
        with nogil:
            self._play_index(&state, &context, key0, key1, index, dealer)
        self._raise(index)
        return RecordRow(*record_row(index, state.record).values())

    def play_traced(self, uint64_t key0, uint64_t key1, uint64_t index, deck=None, dealer=None, match=None):
        """Play one hand with its full trace; the same hand as ``index`` of ``play_hands`` by default.

        With ``deck`` (52 card indices, the top first) and ``dealer`` the deal is given instead of
        drawn; the strategies still take their choices from the hand's stream. ``match`` makes it a hand
        of a match, as ``play_record``'s. Returns a dict
        with the record, the deal, the events as (kind name, player, card), the stock after each
        reshuffle and the final hands.
        """
        cdef Rng rng
        cdef uint8_t order[52]
        cdef int i, first_dealer
        cdef State state
        cdef Context context
        seed_rng(&rng, hand_key(key0, key1, index))
        shuffled_deck(&rng, order)
        first_dealer = below(&rng, 2)
        if deck is not None:
            for i in range(52):
                order[i] = deck[i]
            first_dealer = dealer
        capacity = TRACE_FIXED + 2 * MAX_TURNS + 53 * self.native.rules.max_reshuffles
        events = np.zeros(capacity * sizeof(Event), dtype=np.uint8)
        cdef uint8_t[::1] event_bytes = events
        self._context(&context)
        context.trace = <Event*>&event_bytes[0]
        context.trace_capacity = capacity
        context.hand_index = index
        if match is not None:
            fill_match(&context, match)
        deal_cards(&state, order, first_dealer, &self.native.rules, &context)
        dealt = (state.held[0], state.held[1])
        with nogil:
            drive(&state, self.players, &rng)
        self._raise(index)
        return {
            "record": {**record_row(index, state.record), "outcome": OUTCOME_NAMES[state.record.outcome]},
            "deck": [order[i] for i in range(52)],
            "dealt": dealt,
            "events": trace_events(&context),
            "reshuffles": trace_stocks(&context),
            "final": (state.held[0], state.held[1]),
            "knocker_sets": state.record.knocker_sets,
            "laid_off_cards": state.record.laid_off_cards,
            "stock_left": stock_size(&state),
        }

    def model_inputs(self, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count, int player):
        """What ``player`` had seen at each of its draw decisions (the upcard offer included) in hands
        ``first .. first + count - 1``, with the opponent's actual hand: the data to calibrate and
        test the opponent model (``gincore._opponent``). A dict of numpy columns: ``hand``, ``turns``
        (draws made before), the ``Seen`` masks ``mine``, ``pile``, ``holds``, ``took``,
        ``discarded``, ``passed``, the opponent's ``size`` and its hand ``opponent``.
        """
        if player not in (0, 1):
            raise InputError(f"player must be 0 or 1, got {player!r}")
        cdef int capacity = MAX_TURNS + TRACE_FIXED
        cdef State state
        cdef Context context
        cdef Py_ssize_t i, j
        names = ("mine", "pile", "holds", "took", "discarded", "passed", "opponent")
        columns = {name: [] for name in ("hand", "turns", "size") + names}
        self._context(&context)
        context.watched = player
        context.seen_log = <Seen*>malloc(capacity * sizeof(Seen))
        context.truth_log = <uint64_t*>malloc(capacity * sizeof(uint64_t))
        context.turn_log = <int*>malloc(capacity * sizeof(int))
        try:
            if context.seen_log == NULL or context.truth_log == NULL or context.turn_log == NULL:
                raise MemoryError()
            context.log_capacity = capacity
            for i in range(count):
                context.log_size = 0
                with nogil:
                    self._play_index(&state, &context, key0, key1, first + i, -1)
                self._raise(first + i)
                for j in range(context.log_size):
                    seen = <dict>context.seen_log[j]  # Cython makes a dict of the struct
                    columns["hand"].append(first + i)
                    columns["turns"].append(context.turn_log[j])
                    for name in ("size",) + names[:6]:
                        columns[name].append(seen[name])
                    columns["opponent"].append(context.truth_log[j])
        finally:
            free(context.seen_log)
            free(context.truth_log)
            free(context.turn_log)
        return {name: np.array(values, dtype=np.uint64 if name in names else np.int64)
                for name, values in columns.items()}
