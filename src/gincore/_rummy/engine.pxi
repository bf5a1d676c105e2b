# Classic Rummy's Python entry points: RummyEngine, its hands and games.

cdef class RummyEngine:
    """The native classic Rummy hand loop for one rule set and one table of 2 to 6 strategies.

    ``config`` holds ``max_turnovers`` (turnovers of the discard pile allowed in a hand) and
    ``rummy_doubles``; ``kinds`` the strategy codes (``STRATEGY_KINDS``) of seats 0, 1, ... Hand
    ``index`` of the run keyed by (key0, key1) takes all its randomness from its own stream: first the
    shuffle, then (unless the dealer is given) the dealer, then the strategies' choices.

    >>> engine = RummyEngine({"max_turnovers": 3, "rummy_doubles": True}, [1, 1, 1])
    >>> columns = engine.play_hands(1, 2, 0, 100)
    >>> int(columns["players"][0]), bool((columns["cards_left_3"] == -1).all())
    (3, True)
    """
    cdef Config config
    cdef int kinds[MAX_PLAYERS]
    cdef object settings

    def __init__(self, config, kinds):
        cdef int seat
        kinds = [int(kind) for kind in kinds]
        if not MIN_PLAYERS <= len(kinds) <= MAX_PLAYERS:
            raise InputError(f"classic Rummy is for 2 to 6 players, got {len(kinds)} strategies")
        if any(kind not in STRATEGY_KINDS.values() for kind in kinds):
            raise InputError(f"kinds must be strategy codes of {STRATEGY_KINDS}, got {kinds!r}")
        max_turnovers = config["max_turnovers"]
        if isinstance(max_turnovers, bool) or not isinstance(max_turnovers, int) or max_turnovers < 0:
            raise InputError(f"max_turnovers must be a non-negative int, got {max_turnovers!r}")
        self.settings = {"max_turnovers": int(max_turnovers), "rummy_doubles": bool(config["rummy_doubles"])}
        self.config.players = len(kinds)
        self.config.hand_size = HAND_SIZES[len(kinds)]
        self.config.max_turnovers = max_turnovers
        self.config.rummy_doubles = bool(config["rummy_doubles"])
        for seat in range(MAX_PLAYERS):
            self.kinds[seat] = kinds[seat] if seat < len(kinds) else STRATEGY_RANDOM

    def __reduce__(self):
        return RummyEngine, (dict(self.settings), tuple(self.kinds[seat] for seat in range(self.config.players)))

    @property
    def players(self) -> int:
        """The number of players (seats 0 .. players - 1)."""
        return self.config.players

    cdef void _play_index(self, Table* table, uint64_t key0, uint64_t key1, uint64_t index, int dealer,
                          Record* record) noexcept nogil:
        cdef Rng rng
        cdef uint8_t deck[52]
        seed_rng(&rng, hand_key(key0, key1, index))
        shuffled_deck(&rng, deck)
        if dealer < 0:
            dealer = below(&rng, self.config.players)
        _deal(table, &self.config, deck, dealer)
        _play(table, &self.config, self.kinds, &rng, record)

    def play_hands(self, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count, *,
                   bint masks=False, bint audit=False):
        """Hands ``first .. first + count - 1`` of the run: a dict of numpy columns, one row per hand.

        ``RECORD_COLUMNS``: ``hand``, ``players``, ``dealer``, ``winner`` (-1: drawn), ``points`` (after
        doubling), ``rummy``, ``turns`` (draws), ``turnovers``, ``cards_left_0..5`` (-1 for absent seats),
        ``melds`` (on the table at the end), ``table_cards``, ``stock_left``, ``pile_left``. With
        ``masks`` also the final card masks ``held_0..5``, ``table``, ``stock``, ``pile`` (uint64); with
        ``audit`` also ``audit_failures``: events after which the table broke an invariant (checked
        after every event: each card in exactly one place, every table meld valid, no discard of the
        card just taken from the pile).
        """
        if count < 0:
            raise InputError(f"count must be >= 0, got {count}")
        records = np.zeros(count, RECORD_DTYPE)
        cdef Record* out = <Record*>cnp.PyArray_DATA(records)
        cdef Py_ssize_t i
        cdef Table table
        _untraced(&table, audit)
        with nogil:
            for i in range(count):
                self._play_index(&table, key0, key1, first + i, -1, &out[i])
        columns = {"hand": np.arange(first, first + count, dtype=np.int64),
                   **columns_of(records, RECORD_COLUMNS[1:])}
        if masks:
            columns.update(columns_of(records, MASK_COLUMNS))
        if audit:
            columns.update(columns_of(records, ["audit_failures"]))
        return columns

    def play_record(self, uint64_t key0, uint64_t key1, uint64_t index, int dealer=-1):
        """One hand's record as a dict of ``RECORD_COLUMNS`` (dealer -1: drawn from the hand's stream)."""
        if not -1 <= dealer < self.config.players:
            raise InputError(f"dealer must be -1 or a seat 0..{self.config.players - 1}, got {dealer}")
        cdef Table table
        cdef Record record
        _untraced(&table, False)
        with nogil:
            self._play_index(&table, key0, key1, index, dealer, &record)
        return _record_dict(index, &record)

    def play_games(self, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count, int target):
        """Games ``first .. first + count - 1`` to ``target`` points: a dict of ``GAME_COLUMNS`` arrays.

        Hand ``j`` of game ``g`` is hand ``(g << 24) | j`` of the key's streams. The first dealer is
        drawn from the first hand's stream; then the deal passes to the left (the next seat), and
        with two players the winner deals (the same dealer again after a drawn hand). Only a hand's
        winner scores, so the game ends with the first player whose total reaches ``target``.
        ``total_*`` and ``hands_won_*`` are -1 for absent seats.
        """
        if target < 1:
            raise InputError(f"target must be a positive number of points, got {target}")
        if count < 0:
            raise InputError(f"count must be >= 0, got {count}")
        if first + count > ((<uint64_t>1) << (64 - GAME_INDEX_SHIFT)):
            raise InputError("game indices must stay below 2**40")
        cdef int players = self.config.players
        columns = {"game": np.arange(first, first + count, dtype=np.int64)}
        cdef int32_t[:, ::1] view = np.full((len(GAME_COLUMNS) - 1, count), -1, np.int32)
        cdef Py_ssize_t i
        cdef int hand, dealer, seat, winner, unfinished = -1
        cdef int totals[MAX_PLAYERS]
        cdef int won[MAX_PLAYERS]
        cdef int drawn, rummies
        cdef uint64_t game
        cdef Table table
        cdef Record record
        _untraced(&table, False)
        with nogil:
            for i in range(count):
                game = first + i
                dealer = -1
                winner = -1
                drawn = 0
                rummies = 0
                for seat in range(MAX_PLAYERS):
                    totals[seat] = 0
                    won[seat] = 0
                hand = 0
                while hand < MAX_GAME_HANDS and winner < 0:
                    self._play_index(&table, key0, key1, (game << GAME_INDEX_SHIFT) | <uint64_t>hand, dealer,
                                     &record)
                    if hand == 0:
                        view[5, i] = record.dealer
                    hand += 1
                    if record.winner < 0:
                        drawn += 1
                    else:
                        totals[record.winner] += record.points
                        won[record.winner] += 1
                        rummies += record.rummy
                        if totals[record.winner] >= target:
                            winner = record.winner
                    dealer = _next_dealer(players, record.dealer, record.winner)
                if winner < 0:
                    unfinished = i
                    break
                view[0, i] = players
                view[1, i] = winner
                view[2, i] = hand
                view[3, i] = drawn
                view[4, i] = rummies
                for seat in range(players):
                    view[6 + seat, i] = totals[seat]
                    view[6 + MAX_PLAYERS + seat, i] = won[seat]
        if unfinished >= 0:
            raise RuntimeError(f"game {first + unfinished} did not finish in {MAX_GAME_HANDS} hands "
                               "(nearly all drawn)")
        array = np.asarray(view)
        for row, name in enumerate(GAME_COLUMNS[1:]):
            columns[name] = array[row]
        return columns

    def play_traced(self, uint64_t key0, uint64_t key1, uint64_t index, deck=None, dealer=None):
        """Play one hand with its full trace; the same hand as ``index`` of ``play_hands`` by default.

        With ``deck`` (52 card indices, the top first) and ``dealer`` the deal is given instead of
        drawn; the strategies still take their choices from the hand's stream. Returns a dict with
        the record, the deck, the dealt hands, the events as (kind name, player, card, meld, cards),
        the final hands, the table melds with their owners, and the stock and pile at the end.
        """
        cdef Rng rng
        cdef uint8_t order[52]
        cdef int i, first_dealer
        seed_rng(&rng, hand_key(key0, key1, index))
        shuffled_deck(&rng, order)
        first_dealer = below(&rng, self.config.players)
        if (deck is None) != (dealer is None):
            raise InputError("give both deck and dealer for an explicit deal, or neither")
        if deck is not None:
            cards = [int(card) for card in deck]
            if sorted(cards) != list(range(52)):
                raise InputError("deck must hold each card index 0..51 once")
            if not 0 <= dealer < self.config.players:
                raise InputError(f"dealer must be a seat 0..{self.config.players - 1}, got {dealer}")
            for i in range(52):
                order[i] = cards[i]
            first_dealer = dealer
        cdef Table table
        cdef Record record
        capacity = 2 * MAX_TURNS + 52 + self.config.max_turnovers + 8
        events = np.zeros(capacity * sizeof(Event), dtype=np.uint8)
        cdef uint8_t[::1] event_bytes = events
        table.trace = <Event*>&event_bytes[0]
        table.trace_capacity = capacity
        table.audit = True
        _deal(&table, &self.config, order, first_dealer)
        dealt = tuple(table.held[seat] for seat in range(self.config.players))
        _play(&table, &self.config, self.kinds, &rng, &record)
        trace = [(EVENT_NAMES[table.trace[i].kind], table.trace[i].player, table.trace[i].card,
                  table.trace[i].meld, table.trace[i].cards) for i in range(table.trace_size)]
        return {
            "record": _record_dict(index, &record),
            "audit_failures": record.audit_failures,
            "deck": [order[i] for i in range(52)],
            "dealt": dealt,
            "events": trace,
            "final": tuple(table.held[seat] for seat in range(self.config.players)),
            "melds": [(table.melds[i], table.meld_owner[i]) for i in range(table.meld_count)],
            "stock": [table.stock[i] for i in range(table.stock_top, table.stock_end)],
            "pile": [table.pile[i] for i in range(table.pile_size)],
        }
