# Tables for reinforcement learning: an agent in seat 0 against a strategy in seat 1 at each of many
# tables, every table stepped in one call without the GIL (the opponent answering natively through the
# strategy table and the driver's move), and what the agent may see written into numpy arrays:
# observations and masks of legal actions, from its view only (ginsim.env builds its environments on
# these, and documents the layouts).
from libc.stdint cimport int8_t
from libc.stdlib cimport calloc


cdef enum:
    AGENT = 0                # the agent's seat at every table; the opponent sits in seat 1
    TABLE_SHIFT = 40         # table t's k-th hand is hand (t << TABLE_SHIFT) | k of the run
    # The compact observation: nine planes of 52 cards (a card's slot is its index), then scalars.
    PLANE_HAND = 0           # the player's cards
    PLANE_PILE = 52          # the discard pile, in order: 1 the face-up card, 2 the card under it, ...
    PLANE_FACE_UP = 104      # the face-up card
    PLANE_PILE_MINE = 156    # pile cards the player discarded
    PLANE_PILE_THEIRS = 208  # pile cards the opponent discarded
    PLANE_OPPONENT_HOLDS = 260    # face-up cards the opponent took and still holds
    PLANE_OPPONENT_REFUSED = 312  # face-up cards the opponent refused
    PLANE_DRAWN = 364        # the card the player just drew (its discard decision)
    PLANE_UNSEEN = 416       # cards whose place the player does not know: the stock or the opponent's hand
    SCALAR_PHASE = 468       # four slots, one set: upcard offer, draw, discard, hand over
    SCALAR_TO_MOVE = 472     # 1 when the decision is the player's
    SCALAR_DEALER = 473      # 1 when the player dealt
    SCALAR_FROM_PILE = 474   # 1 when the card just drawn came from the pile
    SCALAR_STOCK = 475       # cards in the stock
    SCALAR_KNOCK_LIMIT = 476
    SCALAR_MULTIPLIER = 477
    SCALAR_SCORES = 478      # two slots: the player's match score, the opponent's (capped at 127)
    COMPACT_SIZE = 480
    # OpenSpiel's gin_rummy observation tensor, in its card order and seat numbering.
    OPENSPIEL_PLAYER = 0     # two slots: the observing player
    OPENSPIEL_HAND = 2       # two rows of 52: the observing player's row holds its hand
    OPENSPIEL_CURRENT = 106  # two slots: the player to move
    OPENSPIEL_KNOCK = 108    # ten slots: the knock limit as a thermometer
    OPENSPIEL_UPCARD = 118   # the face-up card one may draw
    OPENSPIEL_PILE = 170     # the other cards of the discard pile
    OPENSPIEL_STOCK = 222    # 52 slots: the stock size as a thermometer
    OPENSPIEL_MELDS = 274    # two rows of 185 melds laid: always empty here (melds are not moves)
    OPENSPIEL_SIZE = 644
    # The learner observation: the compact one, then three planes of 52 worked out from the hand.
    LEARNER_DEADWOOD = 480   # 11 cards: the least deadwood without each held card; 10: after taking the face-up card
    LEARNER_IN_MELD = 532    # held cards in some meld of the hand
    LEARNER_MELDS_WITH = 584  # unseen cards and the face-up card that would meld with the hand
    LEARNER_SIZE = 636
    LEARNER_MOST_DEADWOOD = 98  # the most deadwood 10 cards can have: 8 tens/faces that meld nowhere, 2 nines

cdef enum Layout:
    LAYOUT_COMPACT = 0
    LAYOUT_OPENSPIEL = 1
    LAYOUT_LEARNER = 2

cdef enum Reward:
    REWARD_POINTS = 0        # the hand's points, signed for the agent
    REWARD_WIN = 1           # 1 for a hand won, -1 lost, 0 drawn

LAYOUT_NAMES = ("compact", "openspiel", "learner")
"""The observation layouts by number (ginsim.env.observations documents them)."""
OBSERVATION_SIZES = (COMPACT_SIZE, OPENSPIEL_SIZE, LEARNER_SIZE)
"""The length of an observation by layout (compact, OpenSpiel's, learner)."""
COMPACT_LAYOUT = (
    ("hand", PLANE_HAND, 52), ("pile", PLANE_PILE, 52), ("face_up", PLANE_FACE_UP, 52),
    ("pile_mine", PLANE_PILE_MINE, 52), ("pile_theirs", PLANE_PILE_THEIRS, 52),
    ("opponent_holds", PLANE_OPPONENT_HOLDS, 52), ("opponent_refused", PLANE_OPPONENT_REFUSED, 52),
    ("drawn", PLANE_DRAWN, 52), ("unseen", PLANE_UNSEEN, 52), ("phase", SCALAR_PHASE, 4),
    ("to_move", SCALAR_TO_MOVE, 1), ("dealer", SCALAR_DEALER, 1), ("drawn_from_pile", SCALAR_FROM_PILE, 1),
    ("stock", SCALAR_STOCK, 1), ("knock_limit", SCALAR_KNOCK_LIMIT, 1), ("multiplier", SCALAR_MULTIPLIER, 1),
    ("scores", SCALAR_SCORES, 2),
)
"""The compact observation's fields: (name, first slot, slots)."""
OPENSPIEL_LAYOUT = (
    ("player", OPENSPIEL_PLAYER, 2), ("private_hand", OPENSPIEL_HAND, 104),
    ("current_player", OPENSPIEL_CURRENT, 2), ("knock_card", OPENSPIEL_KNOCK, 10),
    ("upcard", OPENSPIEL_UPCARD, 52), ("discard_pile", OPENSPIEL_PILE, 52), ("stock_size", OPENSPIEL_STOCK, 52),
    ("layed_melds", OPENSPIEL_MELDS, 370),
)
"""OpenSpiel's observation fields, with its names: (name, first slot, slots)."""
LEARNER_LAYOUT = COMPACT_LAYOUT + (
    ("deadwood", LEARNER_DEADWOOD, 52), ("in_meld", LEARNER_IN_MELD, 52), ("melds_with", LEARNER_MELDS_WITH, 52),
)
"""The learner observation's fields: the compact ones, then three planes (name, first slot, slots)."""
LEARNER_MOST = LEARNER_MOST_DEADWOOD
"""The highest value of the learner layout's ``deadwood`` plane."""


cdef inline void _mark(int8_t* out, uint64_t cards) noexcept nogil:
    """Set the slot of each card of ``cards``."""
    while cards:
        out[lowest_card(cards)] = 1
        cards &= cards - 1


cdef inline bint _decides(State* state, int me) noexcept nogil:
    return state.phase != PHASE_DONE and state.player == me


cdef void write_compact(State* state, int me, int8_t* out) noexcept nogil:
    """The compact observation of ``me``: only what its view holds (its hand, the public record)."""
    cdef int opponent = 1 - me, i, card
    cdef uint64_t hand = state.held[me]
    memset(out, 0, COMPACT_SIZE)
    _mark(out + PLANE_HAND, hand)
    for i in range(state.pile_size):
        card = state.pile[i]
        out[PLANE_PILE + card] = state.pile_size - i
        if state.pile_by[i] == me:
            out[PLANE_PILE_MINE + card] = 1
        elif state.pile_by[i] == opponent:
            out[PLANE_PILE_THEIRS + card] = 1
    if state.pile_size:
        out[PLANE_FACE_UP + top_card(state)] = 1
    _mark(out + PLANE_OPPONENT_HOLDS, state.from_pile[opponent])
    _mark(out + PLANE_OPPONENT_REFUSED, state.passed[opponent])
    if _decides(state, me) and state.phase == PHASE_DISCARD and state.drawn != NO_CARD:
        out[PLANE_DRAWN + state.drawn] = 1
        out[SCALAR_FROM_PILE] = state.drawn_from_pile
    _mark(out + PLANE_UNSEEN, FULL_DECK & ~(hand | state.in_pile | state.from_pile[opponent]))
    out[SCALAR_PHASE + <int>state.phase] = 1
    out[SCALAR_TO_MOVE] = _decides(state, me)
    out[SCALAR_DEALER] = state.dealer == me
    out[SCALAR_STOCK] = stock_size(state)
    out[SCALAR_KNOCK_LIMIT] = state.knock_limit
    out[SCALAR_MULTIPLIER] = state.multiplier
    out[SCALAR_SCORES] = min(state.context.scores[me], 127)
    out[SCALAR_SCORES + 1] = min(state.context.scores[opponent], 127)


cdef void write_learner(State* state, int me, int8_t* out) noexcept nogil:
    """The learner observation of ``me``: its compact one, then what its hand makes of each card (its
    hand, the pile and the cards the opponent is known to hold are all it reads)."""
    cdef uint64_t hand = state.held[me], rest, taken
    cdef uint64_t unseen = FULL_DECK & ~(hand | state.in_pile | state.from_pile[1 - me])
    cdef int card, least
    cdef int after[52]
    cdef bint discarding = popcount64(hand) == 11
    write_compact(state, me, out)
    memset(out + COMPACT_SIZE, 0, LEARNER_SIZE - COMPACT_SIZE)
    if discarding:
        deadwood_after_each(hand, after)
    rest = hand
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        if discarding:
            out[LEARNER_DEADWOOD + card] = after[card]
        out[LEARNER_IN_MELD + card] = in_some_meld(hand, card)
    if state.pile_size:
        card = top_card(state)
        unseen |= card_bit(card)
        if popcount64(hand) == 10:  # taken, it may not be discarded again this turn
            taken = hand | card_bit(card)
            least_deadwood_among(taken, hand, &least)
            out[LEARNER_DEADWOOD + card] = least
    while unseen:
        card = lowest_card(unseen)
        unseen &= unseen - 1
        out[LEARNER_MELDS_WITH + card] = in_some_meld(hand | card_bit(card), card)


cdef inline int _openspiel_card(int card) noexcept nogil:
    """OpenSpiel's index of a card: its suits go spades, clubs, diamonds, hearts."""
    return ((card // 13 + 1) % 4) * 13 + card % 13


cdef void write_openspiel(State* state, int me, int8_t* out) noexcept nogil:
    """OpenSpiel's observation of ``me`` (its player 0 moves first: the non-dealer). Before a draw the
    face-up card is its upcard and the cards under it its discard pile; from the draw on, the whole
    pile is its discard pile."""
    cdef int seat = 1 if me == state.dealer else 0, i
    cdef uint64_t hand = state.held[me]
    cdef bint drawing = state.phase == PHASE_OFFER or state.phase == PHASE_DRAW
    memset(out, 0, OPENSPIEL_SIZE)
    out[OPENSPIEL_PLAYER + seat] = 1
    while hand:
        out[OPENSPIEL_HAND + 52 * seat + _openspiel_card(lowest_card(hand))] = 1
        hand &= hand - 1
    if state.phase != PHASE_DONE:
        out[OPENSPIEL_CURRENT + (1 if state.player == state.dealer else 0)] = 1
    for i in range(state.knock_limit):
        out[OPENSPIEL_KNOCK + i] = 1
    for i in range(state.pile_size):
        if drawing and i == state.pile_size - 1:
            out[OPENSPIEL_UPCARD + _openspiel_card(state.pile[i])] = 1
        else:
            out[OPENSPIEL_PILE + _openspiel_card(state.pile[i])] = 1
    for i in range(stock_size(state)):
        out[OPENSPIEL_STOCK + i] = 1


cdef void write_mask(State* state, int me, int8_t* out) noexcept nogil:
    """The legal actions of ``me`` (none when the decision is not its own)."""
    cdef uint64_t knocks = 0, discards
    memset(out, 0, ACTION_COUNT)
    if not _decides(state, me):
        return
    if state.phase != PHASE_DISCARD:
        out[ACTION_TAKE] = out[ACTION_REFUSE] = 1
        return
    discards = discard_candidates(state)
    # one search of the whole hand tells whether any discard can knock; only then is each one solved
    if best_discards(state.held[me]).deadwood <= state.knock_limit:
        discards = legal_discards(state, &knocks)
    _mark(out, discards)
    _mark(out + ACTION_KNOCK, knocks)
    out[ACTION_BIG_GIN] = big_gin_possible(state)


cdef inline void write_view(State* state, int me, int layout, int8_t* observation, int8_t* mask) noexcept nogil:
    if layout == LAYOUT_OPENSPIEL:
        write_openspiel(state, me, observation)
    elif layout == LAYOUT_LEARNER:
        write_learner(state, me, observation)
    else:
        write_compact(state, me, observation)
    write_mask(state, me, mask)


cdef int _layout_size(int layout) except -1:
    if not LAYOUT_COMPACT <= layout <= LAYOUT_LEARNER:
        raise InputError(f"unknown observation layout {layout!r}")
    return OBSERVATION_SIZES[layout]


cdef int _check_row(int layout, int8_t[::1] observation, int8_t[::1] mask) except -1:
    if observation.shape[0] != _layout_size(layout) or mask.shape[0] != ACTION_COUNT:
        raise InputError(f"observation and mask must have {_layout_size(layout)} and {ACTION_COUNT} slots")
    return 0


def observe_state(NativeState position, player, int layout, int8_t[::1] observation, int8_t[::1] mask):
    """Write what ``player`` sees of the position (observation in ``layout``) and its legal actions."""
    _check_row(layout, observation, mask)
    player = _seat_of(player)
    position._ready()
    write_view(&position.state, player, layout, &observation[0], &mask[0])


def observe_view(view, int phase, bint big_gin, int layout, int8_t[::1] observation, int8_t[::1] mask):
    """Write the same from a strategy's ``View`` alone (``phase``: the decision it is asked; ``big_gin``:
    whether going big gin is legal): a position is rebuilt from the view's fields and nothing else."""
    cdef State state
    cdef Context context
    cdef HandRules rules
    cdef int me = view.player, i, card
    _check_row(layout, observation, mask)
    if phase not in (PHASE_OFFER, PHASE_DRAW, PHASE_DISCARD):
        raise InputError(f"a strategy decides in the offer, draw or discard phase, not in phase {phase!r}")
    memset(&state, 0, sizeof(State))
    memset(&context, 0, sizeof(Context))
    memset(&rules, 0, sizeof(HandRules))
    rules.big_gin_bonus = 0 if big_gin else -1
    state.rules = &rules
    state.context = &context
    context.scores[0], context.scores[1] = view.scores
    state.held[me] = view.hand
    for i in range(len(view.discard_pile)):
        card = view.discard_pile[i]
        state.pile[i] = card
        state.pile_by[i] = NO_PLAYER if view.discarded_by[i] < 0 else view.discarded_by[i]
        state.in_pile |= card_bit(card)
    state.pile_size = len(view.discard_pile)
    state.from_pile[1 - me] = view.opponent_took
    state.passed[1 - me] = view.opponent_passed
    state.stock_end = view.stock_size
    state.knock_limit = view.knock_limit
    state.multiplier = view.multiplier
    state.dealer = view.dealer
    state.upcard = view.upcard
    state.turns = view.turns
    state.phase = <Phase>phase
    state.player = me
    state.drawn = NO_CARD if view.drawn_card < 0 else view.drawn_card
    state.drawn_from_pile = view.drawn_from_pile
    write_view(&state, me, layout, &observation[0], &mask[0])


cdef class NativeTables:
    """``count`` tables, at each a hand between the agent (seat 0) and the strategy ``engine`` plays in
    seat 1. Table ``t`` deals hands ``(t << 40) | k``, k = 0, 1, ... of the run keyed by ``seed``: the
    deals of ``GameState.deal`` with those indices, whose stream then gives the opponent's choices and
    the reshuffles. The opponent moves at once whenever it is its turn; a hand it ends before the
    agent's first decision is no episode, and the next is dealt (``deal`` leaves that to the caller).
    Observations follow ``layout`` (0 compact, 1 OpenSpiel's, 2 learner); a finished hand's reward is its
    points signed for the agent (``reward`` 0) or its sign (``reward`` 1)."""
    cdef Engine engine
    cdef Player* opponent
    cdef State* states
    cdef Context* contexts
    cdef Rng* rngs
    cdef uint64_t* hands_dealt
    cdef Rng sampler
    cdef uint64_t key0, key1
    cdef uint64_t failed_hand  # the hand a Python opponent failed in (its error is the engine's)
    cdef readonly Py_ssize_t count
    cdef readonly int layout
    cdef readonly int observation_size
    cdef int reward

    def __cinit__(self, Engine engine, Py_ssize_t count, int layout=LAYOUT_COMPACT, int reward=REWARD_POINTS):
        if count < 1:
            raise InputError(f"the number of tables must be positive, got {count}")
        if reward != REWARD_POINTS and reward != REWARD_WIN:
            raise InputError(f"unknown reward kind {reward!r}")
        self.observation_size = _layout_size(layout)
        self.engine = engine
        self.opponent = &engine.players[1]
        self.count = count
        self.layout = layout
        self.reward = reward
        self.states = <State*>calloc(count, sizeof(State))
        self.contexts = <Context*>calloc(count, sizeof(Context))
        self.rngs = <Rng*>calloc(count, sizeof(Rng))
        self.hands_dealt = <uint64_t*>calloc(count, sizeof(uint64_t))
        if not (self.states and self.contexts and self.rngs and self.hands_dealt):
            raise MemoryError()

    def __dealloc__(self):
        free(self.states)
        free(self.contexts)
        free(self.rngs)
        free(self.hands_dealt)

    def seed(self, uint64_t key0, uint64_t key1):
        """Start the run keyed by (key0, key1) over: each table's next hand is its hand 0."""
        self.key0, self.key1 = key0, key1
        memset(self.hands_dealt, 0, self.count * sizeof(uint64_t))
        seed_rng(&self.sampler, hand_key(key0, key1, <uint64_t>1 << 63))

    cdef bint _deal(self, Py_ssize_t table, int dealer, int score0, int score1, bint match) noexcept nogil:
        """Deal the table's next hand (dealer -1: drawn from its stream) and let the opponent move;
        whether the agent has a decision."""
        cdef uint8_t deck[52]
        cdef uint64_t index = (<uint64_t>table << TABLE_SHIFT) | self.hands_dealt[table]
        cdef Context* context = &self.contexts[table]
        cdef Rng* rng = &self.rngs[table]
        self.hands_dealt[table] += 1
        memset(context, 0, sizeof(Context))
        context.engine = <void*>self.engine
        context.hand_index = index
        context.scores[0], context.scores[1] = score0, score1
        context.match = match
        seed_rng(rng, hand_key(self.key0, self.key1, index))
        shuffled_deck(rng, deck)
        if dealer < 0:
            dealer = below(rng, 2)
        deal_cards(&self.states[table], deck, dealer, &self.engine.native.rules, context)
        self._answer(table)
        return self.states[table].phase != PHASE_DONE

    cdef void _answer(self, Py_ssize_t table) noexcept nogil:
        """The opponent moves until the agent's decision or the end of the hand."""
        cdef State* state = &self.states[table]
        while _decides(state, 1 - AGENT) and not state.context.aborted:
            move(state, self.opponent, &self.rngs[table])
        if state.context.aborted:
            self.failed_hand = state.context.hand_index
            if state.phase != PHASE_DONE:
                abort_hand(state)

    cdef float _reward(self, Py_ssize_t table) noexcept nogil:
        cdef int points = score_for(&self.states[table].record, AGENT)
        if self.reward == REWARD_WIN:
            return (points > 0) - (points < 0)
        return points

    cdef int _raise(self) except -1:
        if self.engine.error is not None:
            self.engine._raise(self.failed_hand)
        return 0

    def reset(self, int8_t[:, ::1] observations, int8_t[:, ::1] masks):
        """Deal every table (the dealer drawn) until the agent has a decision; its observations and masks."""
        cdef Py_ssize_t table
        self._check(observations, masks)
        with nogil:
            for table in range(self.count):
                while not self._deal(table, -1, 0, 0, False) and not self.contexts[table].aborted:
                    pass
                write_view(&self.states[table], AGENT, self.layout, &observations[table, 0], &masks[table, 0])
        self._raise()

    def deal(self, Py_ssize_t table, int dealer, int score0, int score1, bint match,
             int8_t[::1] observation, int8_t[::1] mask):
        """Deal the table's next hand with this dealer (-1: drawn) and match scores (by seat); whether the
        agent has a decision (else the hand is already over: see ``record``). Writes the view."""
        cdef bint decides
        self._table(table)
        _check_row(self.layout, observation, mask)
        decides = self._deal(table, dealer, score0, score1, match)
        write_view(&self.states[table], AGENT, self.layout, &observation[0], &mask[0])
        self._raise()
        return decides

    def step(self, const int64_t[::1] actions, int8_t[:, ::1] observations, int8_t[:, ::1] masks,
             float[::1] rewards, uint8_t[::1] ended, int8_t[:, ::1] final_observations,
             uint64_t[::1] opponent_hands, bint autoreset):
        """The agent's action at every table, then the opponent's answer. Where a hand ends: its reward,
        ``ended``, the agent's last observation of it and the opponent's hand; with ``autoreset`` the
        next hand is dealt at once (the observation and mask are then its first). An illegal action
        raises ``InputError`` before any table moves."""
        cdef Py_ssize_t table, bad = -1
        cdef State* state
        self._check(observations, masks)
        if actions.shape[0] != self.count or rewards.shape[0] != self.count or ended.shape[0] != self.count \
                or opponent_hands.shape[0] != self.count or final_observations.shape[0] != self.count:
            raise InputError(f"every array must have one row per table ({self.count})")
        with nogil:
            for table in range(self.count):
                if not (self.contexts[table].engine != NULL and _decides(&self.states[table], AGENT)
                        and 0 <= actions[table] < ACTION_COUNT and action_legal(&self.states[table], actions[table])):
                    bad = table
                    break
        if bad >= 0:
            raise InputError(self._illegal(bad, actions[bad]))
        with nogil:
            for table in range(self.count):
                state = &self.states[table]
                apply_action(state, actions[table], &self.rngs[table])
                self._answer(table)
                ended[table] = state.phase == PHASE_DONE
                rewards[table] = 0
                if ended[table]:
                    rewards[table] = self._reward(table)
                    opponent_hands[table] = state.held[1 - AGENT]
                    write_view(state, AGENT, self.layout, &final_observations[table, 0], &masks[table, 0])
                    if autoreset:
                        while not self._deal(table, -1, 0, 0, False) and not self.contexts[table].aborted:
                            pass
                write_view(state, AGENT, self.layout, &observations[table, 0], &masks[table, 0])
        self._raise()

    cdef str _illegal(self, Py_ssize_t table, int64_t action):
        if self.contexts[table].engine == NULL:
            return f"table {table}: no hand is dealt yet (reset first)"
        if self.states[table].phase == PHASE_DONE:
            return f"table {table}: the hand is over (deal the next one first)"
        from ginsim.gin.game.actions import action_text
        return f"table {table}: action {action} ({action_text(action)}) is illegal here"

    cdef int _check(self, int8_t[:, ::1] observations, int8_t[:, ::1] masks) except -1:
        if observations.shape[0] != self.count or masks.shape[0] != self.count \
                or observations.shape[1] != self.observation_size or masks.shape[1] != ACTION_COUNT:
            raise InputError(f"observations and masks must be ({self.count}, {self.observation_size}) "
                             f"and ({self.count}, {ACTION_COUNT})")
        return 0

    cdef int _table(self, Py_ssize_t table) except -1:
        if not 0 <= table < self.count:
            raise InputError(f"table must be from 0 to {self.count - 1}, got {table}")
        return 0

    def sample(self, const int8_t[:, ::1] masks, int64_t[::1] actions):
        """One uniformly random legal action per row of ``masks`` (-1 where none is legal), from a stream
        of the tables' own (the hands' streams are left alone)."""
        cdef Py_ssize_t row, action
        cdef int legal, chosen
        if masks.shape[1] != ACTION_COUNT or actions.shape[0] != masks.shape[0]:
            raise InputError(f"masks must have {ACTION_COUNT} columns and actions one slot per row")
        with nogil:
            for row in range(masks.shape[0]):
                legal = 0
                for action in range(ACTION_COUNT):
                    legal += masks[row, action] != 0
                actions[row] = -1
                if legal:
                    chosen = below(&self.sampler, legal)
                    for action in range(ACTION_COUNT):
                        if masks[row, action] != 0:
                            if chosen == 0:
                                actions[row] = action
                                break
                            chosen -= 1

    def record(self, Py_ssize_t table):
        """The table's hand so far as a record row (complete once it is over), with the opponent's hand."""
        self._table(table)
        return {**record_row(self.contexts[table].hand_index, self.states[table].record),
                "opponent_hand": self.states[table].held[1 - AGENT], "done": self.states[table].phase == PHASE_DONE}
