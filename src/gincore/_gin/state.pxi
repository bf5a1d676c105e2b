# NativeState: an open position of a hand that Python (or an environment) can step one action at a
# time, copy, re-deal from one player's information, and finish with native strategies. It moves
# through the same transitions as the whole-hand loop; ginsim.gin.GameState builds on it.

cdef enum:
    STATE_TRACE = 64         # a new state's room for events (it grows)
    SCORE_CAP = 1000000      # scores without a target: a hand adds at most 2,196, far from int overflow

SCORE_LIMIT = SCORE_CAP


cdef int _action_code(action) except? -1:
    """An action number from any integral value (not a bool, not a float); ``InputError`` otherwise."""
    try:
        if isinstance(action, bool):
            raise TypeError
        code = operator.index(action)
    except TypeError:
        raise InputError(f"an action is an integer from 0 to {ACTION_COUNT - 1}, got {action!r}") from None
    if not 0 <= code < ACTION_COUNT:
        raise InputError(f"action {code} is not an action (0 to {ACTION_COUNT - 1})")
    return code


cdef int _seat_of(player) except -1:
    """A player number (0 or 1) from any integral value (not a bool, not a float); ``InputError``
    otherwise."""
    code = -1
    if not isinstance(player, bool):
        try:
            code = operator.index(player)
        except TypeError:
            pass
    if code not in (0, 1):
        raise InputError(f"player must be 0 or 1, got {player!r}")
    return code


cdef int _check_score(int target, long long score) except -1:
    """A match score the native code can add a hand's points to: below the target (a hand is played
    only while both are), or up to ``SCORE_CAP`` without one."""
    if target > 0 and not 0 <= score < target:
        raise InputError(f"a score must be from 0 to {target - 1} (below the target {target}), got {score}")
    if not 0 <= score <= SCORE_CAP:
        raise InputError(f"a score must be from 0 to {SCORE_CAP:,} (no target), got {score}")
    return 0


def _action_codes(actions):
    """The action numbers of ``actions`` as a C int array: an array of integers or a sequence of
    integral values (not bools, floats or text), each an action number; ``InputError`` naming the
    first that is not."""
    if isinstance(actions, (str, bytes)) or not hasattr(actions, "__len__"):
        raise InputError(f"actions must be a sequence of action numbers, got {actions!r}")
    if isinstance(actions, np.ndarray):
        if actions.ndim != 1 or (actions.size and actions.dtype.kind not in "iu"):
            raise InputError(f"actions must be a one-dimensional array of integers, got {actions.dtype} "
                             f"of shape {actions.shape}")
        bad = np.flatnonzero((actions < 0) | (actions >= ACTION_COUNT))
        if bad.size:
            raise InputError(f"move {bad[0]}: action {actions[bad[0]]} is not an action (0 to {ACTION_COUNT - 1})")
        return np.ascontiguousarray(actions, dtype=np.intc)
    codes = np.empty(len(actions), dtype=np.intc)
    for place, action in enumerate(actions):
        try:
            codes[place] = _action_code(action)
        except InputError as error:
            raise InputError(f"move {place}: {error}") from None
    return codes


cdef class NativeState:
    """A hand's position: the cards, whose move it is, the events so far and its own random stream
    (for reshuffles; the strategies of ``play_out`` draw from a stream of their own).

    Built only by ``native_deal`` and ``native_position`` (or ``clone``): a state made any other way
    holds no position, and is refused."""
    cdef State state
    cdef Context context
    cdef Rng rng
    cdef NativeRules native
    cdef readonly tuple dealt
    cdef readonly tuple deck
    cdef public object error
    cdef public object info

    def __dealloc__(self):
        free(self.context.trace)

    def __init__(self, *args, **kwargs):
        raise InputError(f"a {type(self).__name__} is made by {type(self).__name__}.deal(...) or "
                         f"{type(self).__name__}.from_cards(...), not by calling the class")

    cdef int _ready(self) except -1:
        if self.native is None:
            raise InputError(f"this {type(self).__name__} holds no position: make one with "
                             f"{type(self).__name__}.deal(...) or {type(self).__name__}.from_cards(...)")
        return 0

    cdef int _start(self, NativeRules native) except -1:
        self.native = native
        memset(&self.context, 0, sizeof(Context))
        self.context.trace = <Event*>malloc(STATE_TRACE * sizeof(Event))
        if self.context.trace == NULL:
            raise MemoryError()
        self.context.trace_capacity = STATE_TRACE
        self.context.trace_grows = True
        self.context.engine = <void*>self
        return 0

    cdef int _dealt(self, const uint8_t* deck, int dealer, long long score0, long long score1,
                    bint match) except -1:
        _check_score(self.native.rules.target, score0)
        _check_score(self.native.rules.target, score1)
        self.context.scores[0] = score0
        self.context.scores[1] = score1
        self.context.match = match
        deal_cards(&self.state, deck, dealer, &self.native.rules, &self.context)
        self.dealt = (self.state.held[0], self.state.held[1])
        return 0

    @classmethod
    def native_deal(cls, NativeRules native, uint64_t key0, uint64_t key1, uint64_t index, int dealer=-1,
                    long long score0=0, long long score1=0, bint match=False, passed=(0, 0), late=(0, 0)):
        """Hand ``index`` of the run keyed by (key0, key1), as ``Engine.play_hands`` deals it (dealer -1:
        drawn from the hand's stream); the state's stream goes on from there. ``passed`` and ``late``
        are what the match's earlier showdowns showed, by seat (as ``play_record``'s ``match``)."""
        cdef NativeState self = cls.__new__(cls)
        cdef uint8_t deck[52]
        self._start(native)
        self.context.hand_index = index
        self.context.passed_knocks[0], self.context.passed_knocks[1] = passed
        self.context.late_knocks[0], self.context.late_knocks[1] = late
        seed_rng(&self.rng, hand_key(key0, key1, index))
        shuffled_deck(&self.rng, deck)
        if dealer < 0:
            dealer = below(&self.rng, 2)
        self._dealt(deck, dealer, score0, score1, match)
        self.deck = tuple([deck[i] for i in range(52)])
        return self

    @classmethod
    def native_position(cls, NativeRules native, uint64_t key, hands, pile, pile_by, stock, int dealer,
                        int player, int phase, int turns, taken=(0, 0), passed=(0, 0), long long score0=0,
                        long long score1=0, bint match=False, int upcard=-1, discarded=(0, 0), ever_taken=(0, 0)):
        """Any position (checked by the caller): the hands, the pile bottom first with who discarded
        each card (-1: the upcard), the stock top first, the dealer, the player to move and the phase
        (PHASE_OFFER, PHASE_DRAW or PHASE_DISCARD, which the hand sizes must fit), the draws made so
        far, and what each player has taken from the pile and still holds, and refused; ``key`` seeds
        the state's stream; ``upcard``, the hand's upcard when it is not the pile's first card (-1:
        it is); ``discarded`` and ``ever_taken``, by player, face-up cards discarded and taken earlier
        in the hand that the pile and ``taken`` no longer show (the opponent model reads them)."""
        cdef NativeState self = cls.__new__(cls)
        cdef uint8_t deck[52]
        cdef int i, card
        self._start(native)
        seed_rng(&self.rng, key)
        memset(deck, 0, sizeof(deck))
        deck[20] = pile[0] if upcard < 0 else upcard
        self._dealt(deck, dealer, score0, score1, match)
        self.state.held[0], self.state.held[1] = hands
        self.state.pile_size = len(pile)
        self.state.in_pile = 0
        for i in range(len(pile)):
            card = pile[i]
            self.state.pile[i] = card
            self.state.pile_by[i] = NO_PLAYER if pile_by[i] < 0 else pile_by[i]
            self.state.in_pile |= card_bit(card)
            self.state.face_up |= card_bit(card)
            if pile_by[i] >= 0:
                self.state.discarded[pile_by[i]] |= card_bit(card)
        self.state.stock_end = len(stock)
        for i in range(len(stock)):
            self.state.stock[i] = stock[i]
        for i in range(2):
            self.state.from_pile[i] = taken[i]
            self.state.took[i] = taken[i]
            self.state.face_up |= taken[i]
            self.state.passed[i] = passed[i]
            self.state.discarded[i] |= discarded[i]
            self.state.took[i] |= ever_taken[i]
            self.state.face_up |= discarded[i] | ever_taken[i]
        self.state.phase = <Phase>phase
        self.state.player = player
        self.state.turns = turns
        self.dealt = (self.state.held[0], self.state.held[1])
        self.deck = ()
        return self

    # --- reading the position -------------------------------------------------------------------

    @property
    def phase_index(self):
        """The phase as its number: 0 upcard offer, 1 draw, 2 discard, 3 done."""
        return <int>self.state.phase

    @property
    def player(self):
        """The player to move (once the hand is over, the one whose turn ended it)."""
        return self.state.player

    @property
    def done(self):
        return self.state.phase == PHASE_DONE

    @property
    def dealer(self):
        return self.state.dealer

    @property
    def upcard(self):
        return self.state.upcard

    @property
    def knock_limit(self):
        return self.state.knock_limit

    @property
    def turns(self):
        """Draws made so far."""
        return self.state.turns

    @property
    def hands(self):
        """Both hands as card masks (the whole truth: for the game's owner, not for a player)."""
        return (self.state.held[0], self.state.held[1])

    @property
    def stock(self):
        """The stock, top first."""
        return tuple([self.state.stock[i] for i in range(self.state.stock_top, self.state.stock_end)])

    @property
    def pile(self):
        """The discard pile, bottom first."""
        return tuple([self.state.pile[i] for i in range(self.state.pile_size)])

    @property
    def drawn_card(self):
        """The card drawn this turn (-1 outside the discard phase or when unknown)."""
        return -1 if self.state.drawn == NO_CARD else self.state.drawn

    def view_fields(self, player):
        """What ``player`` (0 or 1) may see now, as the dict of ``View``'s fields."""
        player = _seat_of(player)
        self._ready()
        mover = self.state.phase == PHASE_DISCARD and player == self.state.player
        return view_fields(&self.state, player, self.state.drawn if mover else NO_CARD,
                           mover and self.state.drawn_from_pile)

    def record_fields(self):
        """The record so far (complete once the hand is over), with the hand's index."""
        return {**record_row(self.context.hand_index, self.state.record),
                "knocker_sets": self.state.record.knocker_sets,
                "laid_off_cards": self.state.record.laid_off_cards}

    def events(self):
        """The events so far as (kind name, player, card)."""
        return trace_events(&self.context)

    def reshuffled_stocks(self):
        """The order of the stock after each reshuffle so far, top first."""
        return trace_stocks(&self.context)

    # --- moves ------------------------------------------------------------------------------------

    def legal_mask(self):
        """A bool array over the ``ACTIONS`` action numbers: True where the action is legal."""
        self._ready()
        mask = np.zeros(ACTION_COUNT, dtype=np.bool_)
        cdef uint8_t[::1] out = mask.view(np.uint8)
        cdef uint64_t knocks, discards
        cdef int card
        if self.state.phase == PHASE_DISCARD:
            discards = legal_discards(&self.state, &knocks)
            while discards:
                card = lowest_card(discards)
                discards &= discards - 1
                out[card] = 1
                out[ACTION_KNOCK + card] = (knocks >> card) & 1
            out[ACTION_BIG_GIN] = big_gin_possible(&self.state)
        elif self.state.phase != PHASE_DONE:
            out[ACTION_TAKE] = out[ACTION_REFUSE] = 1
        return mask

    def legal_actions(self):
        """The legal action numbers, ascending."""
        return np.flatnonzero(self.legal_mask()).tolist()

    def is_legal(self, action):
        """Whether ``action`` (any value) is a legal move now."""
        try:
            return action_legal(&self.state, _action_code(action))
        except InputError:
            return False

    def apply(self, action, new_stock=None):
        """Make the move ``action`` for the player to move. An illegal action raises ``InputError``
        and leaves the state as it was. ``new_stock``: when the move spends the stock and the rules
        reshuffle the pile into a new stock, its order (top first) as it fell in a real game;
        otherwise the state's stream shuffles it."""
        cdef int code = _action_code(action)
        self._ready()
        if not action_legal(&self.state, code):
            raise InputError(self._illegal(code))
        if new_stock is None:
            apply_action(&self.state, code, &self.rng)
            return
        self._apply_stock(code, new_stock)

    def apply_many(self, actions):
        """Make the moves ``actions`` (a sequence of action numbers) one after another, natively; at
        the first illegal one, raise ``InputError`` naming it and its place, the moves before it made.
        Reshuffles draw from the state's stream. An item that is no action number (as ``apply``
        takes: not a float, a bool or text) is refused before any move is made."""
        cdef int[::1] codes = _action_codes(actions)
        cdef Py_ssize_t made = 0, count = codes.shape[0]
        self._ready()
        with nogil:
            while made < count and action_legal(&self.state, codes[made]):
                apply_action(&self.state, codes[made], &self.rng)
                made += 1
        if made < count:
            raise InputError(f"move {made}: {self._illegal(codes[made])}")

    cdef void _apply_stock(self, int code, new_stock) except *:
        cdef State trial = self.state
        cdef uint8_t order[52]
        cdef int i, count = 0
        cdef uint64_t cards = 0, expected = 0
        cdef Context quiet
        cdef Rng scratch = self.rng
        memset(&quiet, 0, sizeof(Context))
        trial.context = &quiet
        apply_action(&trial, code, &scratch)  # only to learn whether this move reshuffles
        if trial.reshuffles == self.state.reshuffles:
            raise InputError("new_stock is given, but this move does not reshuffle the pile")
        for i in range(self.state.stock_top, self.state.stock_end):
            expected |= card_bit(self.state.stock[i])
        for i in range(self.state.pile_size):  # the pile after the discard, but its top card
            expected |= card_bit(self.state.pile[i])
        for card in new_stock:
            if not 0 <= card <= 51 or cards & card_bit(card) or count == 52:
                raise InputError(f"new_stock must list each card once, got {list(new_stock)!r}")
            order[count] = card
            cards |= card_bit(card)
            count += 1
        if cards != expected:
            raise InputError("new_stock must hold exactly the old stock and the pile but its top card")
        apply_action(&self.state, code, &self.rng)
        for i in range(count):
            self.state.stock[i] = order[i]
        self.state.stock_top = 0
        self.state.stock_end = count
        for i in range(self.context.trace_size - count, self.context.trace_size):
            self.context.trace[i].card = order[i - (self.context.trace_size - count)]

    cdef str _illegal(self, int code):
        phase = PHASE_NAMES[<int>self.state.phase]
        if self.state.phase == PHASE_DONE:
            return f"action {code} is illegal: the hand is over"
        if not 0 <= code < ACTION_COUNT:
            return f"action {code} is not an action (0 to {ACTION_COUNT - 1})"
        if self.state.phase != PHASE_DISCARD:
            return f"action {code} is illegal in the {phase} phase: take ({ACTION_TAKE}) or refuse ({ACTION_REFUSE})"
        if code == ACTION_TAKE or code == ACTION_REFUSE:
            return f"action {code} is illegal in the discard phase: discard, knock or go big gin"
        if code == ACTION_BIG_GIN:
            return f"action {code} (big gin) is illegal: the rules or the hand do not allow it"
        card = code % ACTION_KNOCK
        from gincore.cards import card_text
        if not (self.state.held[self.state.player] >> card) & 1:
            return f"action {code} is illegal: player {self.state.player} does not hold {card_text(card)}"
        if self.state.drawn_from_pile and card == self.state.drawn:
            return f"action {code} is illegal: {card_text(card)} was just taken from the discard pile"
        return (f"action {code} is illegal: knocking with {card_text(card)} leaves more deadwood than "
                f"the knock limit {self.state.knock_limit}")

    def clone(self):
        """An independent copy (the same position, events and stream)."""
        cdef NativeState copy = type(self).__new__(type(self))
        self._ready()
        copy._start(self.native)
        copy.state = self.state
        copy.state.context = &copy.context
        copy.state.rules = &copy.native.rules
        copy.rng = self.rng
        copy.context.hand_index = self.context.hand_index
        copy.context.scores = self.context.scores
        copy.context.passed_knocks = self.context.passed_knocks
        copy.context.late_knocks = self.context.late_knocks
        copy.context.match = self.context.match
        copy._copy_trace(&self.context)
        copy.dealt, copy.deck, copy.info = self.dealt, self.deck, self.info
        return copy

    cdef int _copy_trace(self, Context* source) except -1:
        cdef Event* room
        if source.trace_size > self.context.trace_capacity:
            room = <Event*>realloc(self.context.trace, source.trace_capacity * sizeof(Event))
            if room == NULL:
                raise MemoryError()
            self.context.trace = room
            self.context.trace_capacity = source.trace_capacity
        memcpy(self.context.trace, source.trace, source.trace_size * sizeof(Event))
        self.context.trace_size = source.trace_size
        return 0

    def determinize(self, player, uint64_t key, int deadwood=-1, int tries=1):
        """A copy consistent with everything ``player`` has seen and nothing else: the cards it has
        not seen dealt again (the opponent's unknown cards drawn by the opponent model's odds, the
        rest shuffled into the stock), from the stream keyed by ``key``. With ``deadwood``, of up
        to ``tries`` such deals the first whose opponent hand has that deadwood is kept, else the
        closest. Its events start empty (the events so far name
        cards the player has not seen) and its ``dealt`` hands are the new ones."""
        cdef double odds[52]
        cdef HiddenCards hidden
        cdef Rng rng
        cdef NativeState copy
        player = _seat_of(player)
        copy = self.clone()
        if self.state.phase == PHASE_DONE:
            raise InputError("the hand is over: there is nothing hidden to deal again")
        seed_rng(&rng, key)
        odds_for(&self.state, player, odds)
        hidden_cards(&self.state, player, odds, &hidden)
        if deadwood < 0:
            deal_from_model(&copy.state, &self.state, player, &hidden, &rng, &copy.context, 1)
        else:
            deal_near(&copy.state, &self.state, player, &hidden, &rng, &copy.context, max(tries, 1), deadwood, 0)
        copy.state.rules = &copy.native.rules
        copy.rng = rng
        if copy.state.player != player and not copy.state.drawn_from_pile:
            copy.state.drawn = NO_CARD  # the opponent's draw from the stock is hidden: any card may go
        copy.context.trace_size = 0  # the events so far name hidden cards (the stock draws): start afresh
        copy.dealt = (copy.state.held[0], copy.state.held[1])
        copy.deck = ()
        return copy

    def _simple_could_hold(self, player):
        """Whether ``player`` (who moved last) holds a hand a Simple player could hold after its last
        turn as the other player reads that turn off the table (``simple_could_hold``, which reader
        uses to draw hands): for tests, which know the hand."""
        cdef LastTurn turn
        player = _seat_of(player)
        self._ready()
        last_turn(&self.state, player, &turn)
        return simple_could_hold(self.state.held[player], deadwood_of(self.state.held[player]),
                                 self.state.from_pile[player], &turn)

    def play_out(self, players, uint64_t key):
        """Finish the hand here with two native strategies (specs as for ``Engine``), their choices
        and any reshuffle drawn from the stream keyed by ``key``."""
        self._play_out(players, key)
        return self

    cdef int _play_out(self, players, uint64_t key) except -1:
        cdef Player chosen[2]
        cdef list adapters = [None, None]
        self._ready()
        fill_players(chosen, players, adapters)
        if KIND_PYTHON in (chosen[0].kind, chosen[1].kind):
            raise InputError("play_out takes native strategies only")
        self.native.prepare(chosen, 2)
        seed_rng(&self.rng, key)
        with nogil:
            drive(&self.state, chosen, &self.rng)
        return 0

    def play_out_value(self, NativePlayers players, uint64_t key, int me):
        """The signed points for ``me`` of this position played out by ``players`` (native only),
        their choices drawn from the stream keyed by ``key``; the state itself is left as it is. The
        cheap form of ``clone().play_out(...)`` for Monte-Carlo evaluation: no copy of the events."""
        cdef State copy = self.state
        cdef Context quiet
        cdef Rng rng
        self._ready()
        if players.python:
            raise InputError("play_out_value takes native strategies only")
        self.native.prepare(players.players, 2)
        quiet_copy(&quiet, &self.context)
        copy.context = &quiet
        seed_rng(&rng, key)
        with nogil:
            drive(&copy, players.players, &rng)
        return score_for(&copy.record, me)

    def choose(self, NativePlayers players, uint64_t key):
        """The action the player to move's strategy (``players`` by seat, native only) chooses here,
        its random choices drawn from the stream keyed by ``key``; the state is left as it is (the
        strategy decides on a copy), so the caller makes the move with ``apply``. A game played one
        decision at a time (a person against a strategy) asks the strategy this way."""
        cdef State copy = self.state
        cdef Context quiet
        cdef Rng rng
        cdef int action
        self._ready()
        if players.python:
            raise InputError("choose takes native strategies only")
        if self.state.phase == PHASE_DONE:
            raise InputError("the hand is over: nobody has a move to choose")
        self.native.prepare(players.players, 2)
        quiet_copy(&quiet, &self.context)
        copy.context = &quiet
        seed_rng(&rng, key)
        with nogil:
            action = choose_action(&copy, &players.players[copy.player], &rng)
        return action


cdef class NativePlayers:
    """Two native strategies, parsed once (specs as for ``Engine``), for repeated play-outs."""
    cdef Player players[2]
    cdef readonly bint python

    def __init__(self, specs):
        cdef list adapters = [None, None]
        fill_players(self.players, specs, adapters)
        self.python = KIND_PYTHON in (self.players[0].kind, self.players[1].kind)
