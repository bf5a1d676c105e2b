# The Python side of the native hand: the record's numpy layout and rows, the names of events and
# outcomes, a player's view as a dict, and the rules the native code reads.

RECORD_FIELDS = (
    ("dealer", np.int8), ("upcard", np.int8), ("knock_limit", np.int8), ("multiplier", np.int8),
    ("outcome", np.int8), ("winner", np.int8), ("knocker", np.int8), ("points", np.int16),
    ("knocker_deadwood", np.int16), ("defender_deadwood", np.int16), ("laid_off", np.int8),
    ("turns", np.int16), ("upcard_taken_by", np.int8), ("knocker_sets", np.uint64),
    ("laid_off_cards", np.uint64),
)
"""The fields of the native ``Record`` struct, in order, with their numpy types."""
RECORD_DTYPE = record_dtype(RECORD_FIELDS)
RECORD_COLUMNS = ("hand",) + column_names(RECORD_DTYPE, skip=("knocker_sets", "laid_off_cards"))
"""The per-hand record columns: the hand index, then the record's fields but its masks."""

EVENT_NAMES = ("take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock", "gin",
               "big_gin", "reshuffle", "drawn", "restock")
OUTCOME_NAMES = ("knock", "undercut", "gin", "big_gin", "draw")
PHASE_NAMES = ("offer", "draw", "discard", "done")

NO_CARD_INDEX = NO_CARD
"""The card slot of an event that has none (a uint8 255)."""
NO_PLAYER_INDEX = NO_PLAYER
"""The player slot of an event that belongs to nobody (a uint8 255)."""
ACTION_KNOCK_BASE = ACTION_KNOCK
ACTION_TAKE_FACE_UP = ACTION_TAKE
ACTION_REFUSE_FACE_UP = ACTION_REFUSE
ACTION_GO_BIG_GIN = ACTION_BIG_GIN
ACTIONS = ACTION_COUNT


class StrategyError(InputError):
    """A Python strategy chose an illegal move, or raised."""


def _native_record(bytes raw):
    """The dict of the native Record struct's fields, read from its bytes (for ``check_layout``)."""
    cdef Record record
    memcpy(&record, <const char*>raw, sizeof(Record))
    return record


check_layout("gincore._engine", RECORD_DTYPE, _native_record, sizeof(Record))


cdef dict record_row(uint64_t index, Record record):
    cdef dict fields = record  # Cython makes a dict of a struct's fields
    fields["hand"] = index
    return row_of(fields, RECORD_COLUMNS)


cdef list trace_events(Context* context):
    """The trace as (kind name, player, card), the cards of each new stock left out."""
    return [(EVENT_NAMES[context.trace[i].kind], context.trace[i].player, context.trace[i].card)
            for i in range(context.trace_size) if context.trace[i].kind != EVENT_RESTOCK]


cdef list trace_stocks(Context* context):
    """The order of each new stock after a reshuffle, top first."""
    cdef list stocks = [], stock = None
    cdef int i
    for i in range(context.trace_size):
        if context.trace[i].kind == EVENT_RESHUFFLE:
            stock = []
            stocks.append(stock)
        elif context.trace[i].kind == EVENT_RESTOCK:
            stock.append(context.trace[i].card)
    return stocks


cdef dict view_fields(State* state, int player, int drawn, bint from_pile):
    """What ``player`` may see, keyed by the field names of ``ginsim.gin.strategies.View``."""
    cdef int i
    pile_by = [-1 if state.pile_by[i] == NO_PLAYER else state.pile_by[i] for i in range(state.pile_size)]
    return {
        "player": player, "hand": state.held[player],
        "discard_pile": tuple([state.pile[i] for i in range(state.pile_size)]),
        "discarded_by": tuple(pile_by), "opponent_took": state.from_pile[1 - player],
        "opponent_passed": state.passed[1 - player], "stock_size": stock_size(state),
        "knock_limit": state.knock_limit, "multiplier": state.multiplier, "dealer": state.dealer,
        "upcard": state.upcard, "turns": state.turns, "drawn_card": -1 if drawn == NO_CARD else drawn,
        "drawn_from_pile": from_pile, "hand_index": state.context.hand_index,
        "scores": (state.context.scores[0], state.context.scores[1]),
    }


cdef class NativeRules:
    """The rules as the native code reads them, from ``config``: ``knock_limit`` and ``multiplier``
    as 52-entry sequences by upcard, ``gin_bonus``, ``undercut_bonus``, ``big_gin_bonus`` (-1 for
    none), ``stock_floor``, ``max_reshuffles``, and optionally ``target``, the match target (0:
    none), and optionally ``match_values``, the chance to win the match from each pair of scores below
    the target (``[a, b]``, a measured match equity table); without one, search builds its own from
    simple-vs-simple hands once a search player needs it."""
    cdef HandRules rules
    cdef readonly object config
    cdef object match_values

    def __init__(self, config):
        cdef int i
        self.config = dict(config)
        for i in range(52):
            self.rules.knock_limit[i] = config["knock_limit"][i]
            self.rules.multiplier[i] = config["multiplier"][i]
        self.rules.gin_bonus = config["gin_bonus"]
        self.rules.undercut_bonus = config["undercut_bonus"]
        self.rules.big_gin_bonus = config["big_gin_bonus"]
        self.rules.stock_floor = config["stock_floor"]
        self.rules.max_reshuffles = config["max_reshuffles"]
        self.rules.target = config.get("target") or 0
        self.rules.match_value = NULL
        self.match_values = None
        values = config.get("match_values")
        if values is not None and self.rules.target > 0:  # a measured match equity table
            self.match_values = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
            if self.match_values.shape[0] != self.rules.target * self.rules.target:
                raise InputError(f"match_values must hold target x target = {self.rules.target ** 2} values")
            self.rules.match_value = <double*>cnp.PyArray_DATA(self.match_values)

    def __reduce__(self):
        return NativeRules, (self.config,)

    cdef void prepare(self, Player* players, int count):
        """Build what the players need of the rules: the match values (search's table, unless the config
        gave them) under a target, for the strategies that value matches."""
        cdef int i
        for i in range(count):
            if STRATEGY_TABLE[players[i].kind].values_matches and self.rules.target > 0 and self.match_values is None:
                self.match_values = search_match_values(&self.rules)
                self.rules.match_value = <double*>cnp.PyArray_DATA(self.match_values)

    def match_value(self, int mine, int theirs):
        """The chance search gives a player to win the match from these scores (None before a search
        player needed it, or without a target)."""
        if self.match_values is None:
            return None
        if mine >= self.rules.target or theirs >= self.rules.target:
            return 1.0 if mine >= self.rules.target else 0.0
        return float(self.match_values[mine * self.rules.target + theirs])


cdef void fill_players(Player* players, specs, list adapters) except *:
    """Two players from their specs: a kind from ``STRATEGY_KINDS`` alone, or with its parameters
    (ints, in the order of its parameter struct), or ``(STRATEGY_KINDS["python"], adapter)``."""
    cdef int i, j
    if len(specs) != 2:
        raise InputError(f"a hand takes two players, got {len(specs)}")
    memset(players, 0, 2 * sizeof(Player))
    for i in range(2):
        spec = specs[i] if isinstance(specs[i], tuple) else (specs[i],)
        if spec[0] not in STRATEGY_KINDS.values():
            raise InputError(f"unknown strategy code {spec[0]!r}")
        players[i].kind = spec[0]
        if spec[0] == KIND_PYTHON:
            adapters[i] = spec[1]
            players[i].python = <void*>spec[1]
            continue
        if len(spec) - 1 > PARAMETER_SLOTS:
            raise InputError(f"a strategy takes at most {PARAMETER_SLOTS} parameters, got {len(spec) - 1}")
        for j in range(1, len(spec)):
            players[i].params[j - 1] = spec[j]
        if spec[0] == KIND_LEARNED:
            check_network(players[i].params[0])
