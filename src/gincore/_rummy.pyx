"""The native classic Rummy hand loop (docs/rules.md#classic-rummy): deal, draws, melds, lay-offs, discards, going out.

Two to six players; 10 cards each for two, 7 for three or four, 6 for five or six. The card after the
deal is the upcard that starts the discard pile; the rest is the stock. Play starts left of the
dealer (the next seat) and goes round the table. A turn: draw the top of the stock or of the discard
pile; lay melds and lay off onto any meld on the table; discard a card other than one just taken from
the pile. Emptying the hand, with or without that discard, wins the hand and scores the value of every
card left in the other hands, doubled for "rummy" (out in one turn with nothing laid down before).

Readings of the rules text this module fixes:

- When the stock is empty after a turn and nobody went out, the whole discard pile is turned over,
  not shuffled, as the new stock (its bottom card, the oldest, becomes the top of the stock) and the
  pile starts empty, so the next player draws from the stock. After ``max_turnovers`` turnovers the
  next emptying of the stock draws the hand (no score).
- A player may lay off onto any meld on the table, its own included, and at any turn, the first
  included; a run grows at either end (ace low, no wrap), a 3-set to 4.
- Melds and lay-offs must leave the hand either empty or holding a card that may be discarded, so a
  card taken from the pile can never be the only card left for the discard.
- Rummy: the player goes out in a turn before which it had laid down nothing (no meld, no lay-off);
  lay-offs in that turn and a final discard are allowed.
- A hand still running after ``MAX_TURNS`` draws is drawn as well: a safety bound for strategies that
  could keep taking from the pile forever. No hand of the tests has come near it.

Every hand takes all its randomness (the shuffle, the dealer in a run of independent hands, the
strategies' choices) from one stream keyed by (run key, hand index) — the generator of ``_random.pxd``,
the same kind as the Gin engine's — so hand ``i`` of a run is the same whatever the chunking.
Strategies see only their own hand, the table melds, the discard pile and the card counts.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

cimport numpy as cnp
import numpy as np

from gincore._records import (check_layout, column_names, columns_of, record_dtype, row_of,
                              struct_fields)
from gincore.errors import InputError

from gincore._bits cimport FULL_DECK, lowest_card, popcount64, rank_cards
from gincore._cards cimport NO_CARD, NO_PLAYER, is_meld, is_set, mask_value, shuffled_deck
from gincore._random cimport Rng, below, hand_key, seed_rng

cnp.import_array()

cdef enum:
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    MAX_MELDS = 17           # 52 cards in melds of three or more
    NO_MELD = 255
    SUIT_MASK = 0x1FFF
    MAX_ACTIONS = 128        # melds and lay-offs open at once to a hand of at most 11 cards (< 100)
    MAX_TURNS = 10000        # safety bound on draws in a hand; the hand is drawn when it is reached
    MAX_GAME_HANDS = 100000  # a game still unfinished after this many hands is an error
    GAME_INDEX_SHIFT = 24    # hand j of game g is hand (g << 24) | j of the game key's streams

MAX_TURNS_IN_HAND = MAX_TURNS
HAND_SIZES = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""Cards dealt to each player, by number of players."""


cdef enum StrategyKind:
    STRATEGY_RANDOM = 0
    STRATEGY_GREEDY = 1

STRATEGY_KINDS = {"random": STRATEGY_RANDOM, "greedy": STRATEGY_GREEDY}


cdef enum EventKind:
    EVENT_DRAW_STOCK = 0
    EVENT_DRAW_DISCARD = 1
    EVENT_MELD = 2           # cards: the meld; meld: its index on the table
    EVENT_LAY_OFF = 3        # card onto the table meld ``meld``
    EVENT_DISCARD = 4
    EVENT_GO_OUT = 5         # the player's hand is empty; cards: 1 for rummy, else 0
    EVENT_TURNOVER = 6       # cards: the new stock (the whole discard pile, turned over)
    EVENT_DRAWN = 7          # the stock ran out once more than ``max_turnovers`` allows

EVENT_NAMES = ("draw_stock", "draw_discard", "meld", "lay_off", "discard", "go_out", "turnover", "drawn")

GAME_COLUMNS = (("game", "players", "winner", "hands", "drawn_hands", "rummies", "first_dealer")
                + tuple(f"total_{seat}" for seat in range(MAX_PLAYERS))
                + tuple(f"hands_won_{seat}" for seat in range(MAX_PLAYERS)))
"""The per-game columns of ``play_games``, in order."""


cdef struct Event:
    uint64_t cards
    uint8_t kind
    uint8_t player
    uint8_t card
    uint8_t meld


cdef struct Config:
    int players
    int hand_size
    int max_turnovers
    bint rummy_doubles


cdef struct Table:
    int players
    uint64_t held[MAX_PLAYERS]
    bint has_laid[MAX_PLAYERS]     # laid down a meld or laid off earlier in the hand
    uint64_t melds[MAX_MELDS]      # the table melds, in the order they were laid
    uint8_t meld_owner[MAX_MELDS]
    int meld_count
    uint64_t table_cards           # every card in a table meld
    uint64_t table_runs            # every card in a table run
    uint64_t set_gaps              # the missing fourth card of every 3-card table set
    uint8_t stock[52]              # stock[stock_top:stock_end] is the stock, top first
    int stock_top
    int stock_end
    uint8_t pile[52]               # the discard pile, bottom first
    int pile_size
    uint64_t taken                 # the card taken from the pile in the current turn (mask), or 0
    int dealer
    int turns
    int turnovers
    bint rummy
    Event* trace
    int trace_size
    int trace_capacity
    bint audit
    int audit_failures


cdef struct Record:
    # RECORD_FIELDS below lists these fields with the same names, types and order (checked at import)
    int8_t players
    int8_t dealer
    int8_t winner
    int16_t points
    int8_t rummy
    int16_t turns
    int8_t turnovers
    int8_t cards_left[MAX_PLAYERS]   # -1 for absent seats
    int8_t melds
    int8_t table_cards
    int8_t stock_left
    int8_t pile_left
    int32_t audit_failures
    uint64_t held[MAX_PLAYERS]
    uint64_t table
    uint64_t stock
    uint64_t pile


RECORD_FIELDS = (
    ("players", np.int8), ("dealer", np.int8), ("winner", np.int8), ("points", np.int16),
    ("rummy", np.int8), ("turns", np.int16), ("turnovers", np.int8), ("cards_left", np.int8, MAX_PLAYERS),
    ("melds", np.int8), ("table_cards", np.int8), ("stock_left", np.int8), ("pile_left", np.int8),
    ("audit_failures", np.int32), ("held", np.uint64, MAX_PLAYERS), ("table", np.uint64),
    ("stock", np.uint64), ("pile", np.uint64),
)
"""The fields of the native ``Record`` struct, in order, with their numpy types (and lengths)."""
RECORD_DTYPE = record_dtype(RECORD_FIELDS)
_MASK_FIELDS = ("held", "table", "stock", "pile")
RECORD_COLUMNS = ("hand",) + column_names(RECORD_DTYPE, skip=_MASK_FIELDS + ("audit_failures",))
"""The per-hand columns of ``play_hands``, in order."""
MASK_COLUMNS = column_names(RECORD_DTYPE, skip=[name for name in RECORD_DTYPE.names if name not in _MASK_FIELDS])
"""The extra card-mask columns of ``play_hands(..., masks=True)``."""


cdef dict _record_dict(uint64_t index, Record* record):
    cdef dict fields = struct_fields((<char*>record)[:sizeof(Record)], RECORD_DTYPE)
    fields["hand"] = index
    return row_of(fields, RECORD_COLUMNS)


def _native_record(bytes raw):
    """The dict of the native Record struct's fields, read from its bytes (for ``check_layout``)."""
    cdef Record record
    memcpy(&record, <const char*>raw, sizeof(Record))
    return record


check_layout("gincore._rummy", RECORD_DTYPE, _native_record, sizeof(Record))


# --- cards and melds ---------------------------------------------------------------------------------

cdef int _meld_target(Table* table, int card, bint onto_set) noexcept nogil:
    """The first table set (``onto_set``) or run that ``card`` may be laid off onto, or -1."""
    cdef int i, low, high
    cdef uint64_t meld
    for i in range(table.meld_count):
        meld = table.melds[i]
        if is_set(meld):
            if onto_set and popcount64(meld) == 3 and lowest_card(meld) % 13 == card % 13:
                return i
            continue
        if onto_set:
            continue
        low = lowest_card(meld)
        high = low + popcount64(meld) - 1
        if low // 13 != card // 13:
            continue
        if (card == low - 1 and low % 13 > 0) or (card == high + 1 and high % 13 < 12):
            return i
    return -1


cdef inline bint _keeps_a_discard(Table* table, uint64_t rest) noexcept nogil:
    """Whether a hand left with ``rest`` after melding is empty or holds a card it may discard."""
    return rest == 0 or (rest & ~table.taken) != 0


# --- the table and the trace ----------------------------------------------------------------------------

cdef uint64_t _stock_cards(Table* table) noexcept nogil:
    cdef uint64_t cards = 0
    cdef int i
    for i in range(table.stock_top, table.stock_end):
        cards |= (<uint64_t>1) << table.stock[i]
    return cards


cdef uint64_t _pile_cards(Table* table) noexcept nogil:
    cdef uint64_t cards = 0
    cdef int i
    for i in range(table.pile_size):
        cards |= (<uint64_t>1) << table.pile[i]
    return cards


cdef int _audit(Table* table, int kind, int player, int card) noexcept nogil:
    """1 if the table breaks an invariant after this event: every card in exactly one place, every
    table meld valid, no discard of the card just taken from the pile, a discard left after melding."""
    cdef uint64_t places[MAX_PLAYERS + 3]
    cdef uint64_t seen = 0, melded = 0
    cdef int count = 0, i, total = 0
    for i in range(MAX_PLAYERS):
        if i >= table.players and table.held[i]:
            return 1
    for i in range(table.players):
        places[count] = table.held[i]
        count += 1
    places[count] = table.table_cards
    places[count + 1] = _stock_cards(table)
    places[count + 2] = _pile_cards(table)
    count += 3
    for i in range(count):
        if seen & places[i]:
            return 1
        seen |= places[i]
        total += popcount64(places[i])
    if seen != FULL_DECK or total != 52:
        return 1
    if table.stock_end - table.stock_top != popcount64(places[count - 2]):
        return 1
    if table.pile_size != popcount64(places[count - 1]):
        return 1
    for i in range(table.meld_count):
        if not is_meld(table.melds[i]) or melded & table.melds[i]:
            return 1
        melded |= table.melds[i]
    if melded != table.table_cards:
        return 1
    if kind == EVENT_DISCARD and ((<uint64_t>1) << card) & table.taken:
        return 1
    if (kind == EVENT_MELD or kind == EVENT_LAY_OFF) and not _keeps_a_discard(table, table.held[player]):
        return 1
    return 0


cdef inline void _note(Table* table, int kind, int player, int card, int meld, uint64_t cards) noexcept nogil:
    if table.trace != NULL and table.trace_size < table.trace_capacity:
        table.trace[table.trace_size].kind = kind
        table.trace[table.trace_size].player = player
        table.trace[table.trace_size].card = card
        table.trace[table.trace_size].meld = meld
        table.trace[table.trace_size].cards = cards
        table.trace_size += 1
    if table.audit:
        table.audit_failures += _audit(table, kind, player, card)


cdef void _lay_meld(Table* table, int player, uint64_t meld) noexcept nogil:
    cdef int index = table.meld_count
    table.held[player] &= ~meld
    table.melds[index] = meld
    table.meld_owner[index] = player
    table.meld_count += 1
    table.table_cards |= meld
    if not is_set(meld):
        table.table_runs |= meld
    elif popcount64(meld) == 3:
        table.set_gaps |= rank_cards(lowest_card(meld) % 13) & ~meld
    table.has_laid[player] = True
    _note(table, EVENT_MELD, player, NO_CARD, index, meld)


cdef void _lay_off(Table* table, int player, int card, int target) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << card
    table.held[player] &= ~bit
    table.melds[target] |= bit
    table.table_cards |= bit
    if is_set(table.melds[target]):
        table.set_gaps &= ~bit
    else:
        table.table_runs |= bit
    table.has_laid[player] = True
    _note(table, EVENT_LAY_OFF, player, card, target, bit)


cdef void _turnover(Table* table) noexcept nogil:
    """The pile, turned face down, is the new stock: its bottom card is the stock's top card."""
    cdef int i
    for i in range(table.pile_size):
        table.stock[i] = table.pile[i]
    table.stock_top = 0
    table.stock_end = table.pile_size
    table.pile_size = 0
    table.turnovers += 1
    _note(table, EVENT_TURNOVER, NO_PLAYER, NO_CARD, NO_MELD, _stock_cards(table))


# The strategies: each sees its own hand, the table melds, the pile and the card counts.
include "_rummy_strategies.pxi"


# --- the hand ------------------------------------------------------------------------------------------

cdef enum TurnEnd:
    TURN_CONTINUES = 0
    TURN_OUT = 1
    TURN_DRAWN = 2


cdef TurnEnd _turn(Table* table, Config* config, int player, int kind, Rng* rng) noexcept nogil:
    cdef bint fresh = not table.has_laid[player], from_pile
    cdef int card, discard
    table.taken = 0
    if table.pile_size == 0:
        from_pile = False
    elif kind == STRATEGY_RANDOM:
        from_pile = below(rng, 2) == 1
    else:
        from_pile = _greedy_takes(table, player, table.pile[table.pile_size - 1])
    if from_pile:
        table.pile_size -= 1
        card = table.pile[table.pile_size]
        table.taken = (<uint64_t>1) << card
        table.held[player] |= table.taken
        _note(table, EVENT_DRAW_DISCARD, player, card, NO_MELD, 0)
    else:
        card = table.stock[table.stock_top]
        table.stock_top += 1
        table.held[player] |= (<uint64_t>1) << card
        _note(table, EVENT_DRAW_STOCK, player, card, NO_MELD, 0)
    table.turns += 1
    if kind == STRATEGY_RANDOM:
        discard = _random_play(table, player, rng)
    else:
        discard = _greedy_play(table, player, rng)
    if discard != NO_CARD:
        table.held[player] &= ~((<uint64_t>1) << discard)
        table.pile[table.pile_size] = discard
        table.pile_size += 1
        _note(table, EVENT_DISCARD, player, discard, NO_MELD, 0)
    table.taken = 0
    if table.held[player] == 0:
        table.rummy = fresh
        _note(table, EVENT_GO_OUT, player, NO_CARD, NO_MELD, fresh)
        return TURN_OUT
    if table.stock_top == table.stock_end:
        if table.turnovers >= config.max_turnovers:
            _note(table, EVENT_DRAWN, NO_PLAYER, NO_CARD, NO_MELD, 0)
            return TURN_DRAWN
        _turnover(table)
    if table.turns >= MAX_TURNS:
        _note(table, EVENT_DRAWN, NO_PLAYER, NO_CARD, NO_MELD, 0)
        return TURN_DRAWN
    return TURN_CONTINUES


cdef inline void _untraced(Table* table, bint audit) noexcept nogil:
    """Set up a table for play without a trace (the batch and single-record entry points)."""
    table.trace = NULL
    table.trace_capacity = 0
    table.audit = audit


cdef void _deal(Table* table, Config* config, uint8_t* deck, int dealer) noexcept nogil:
    """One card at a time round the table from the dealer's left; then the upcard; the rest is stock."""
    cdef Event* trace = table.trace
    cdef int capacity = table.trace_capacity, i
    cdef bint audit = table.audit
    cdef int dealt = config.players * config.hand_size
    memset(table, 0, sizeof(Table))
    table.trace = trace
    table.trace_capacity = capacity
    table.audit = audit
    table.players = config.players
    table.dealer = dealer
    for i in range(dealt):
        table.held[(dealer + 1 + i) % config.players] |= (<uint64_t>1) << deck[i]
    table.pile[0] = deck[dealt]
    table.pile_size = 1
    for i in range(dealt + 1, 52):
        table.stock[i - dealt - 1] = deck[i]
    table.stock_top = 0
    table.stock_end = 52 - dealt - 1
    if table.audit:
        table.audit_failures += _audit(table, -1, 0, NO_CARD)


cdef void _play(Table* table, Config* config, int* kinds, Rng* rng, Record* record) noexcept nogil:
    cdef int player = (table.dealer + 1) % config.players, seat
    cdef TurnEnd end = TURN_CONTINUES
    while True:
        end = _turn(table, config, player, kinds[player], rng)
        if end != TURN_CONTINUES:
            break
        player = (player + 1) % config.players
    memset(record, 0, sizeof(Record))
    record.players = config.players
    record.dealer = table.dealer
    record.turns = table.turns
    record.turnovers = table.turnovers
    record.melds = table.meld_count
    record.table_cards = popcount64(table.table_cards)
    record.stock_left = table.stock_end - table.stock_top
    record.pile_left = table.pile_size
    record.audit_failures = table.audit_failures
    record.table = table.table_cards
    record.stock = _stock_cards(table)
    record.pile = _pile_cards(table)
    for seat in range(MAX_PLAYERS):
        record.held[seat] = table.held[seat]
        record.cards_left[seat] = popcount64(table.held[seat]) if seat < config.players else -1
    if end == TURN_DRAWN:
        record.winner = -1
        return
    record.winner = player
    record.rummy = table.rummy
    for seat in range(config.players):
        if seat != player:
            record.points += mask_value(table.held[seat])
    if table.rummy and config.rummy_doubles:
        record.points *= 2


cdef inline int _next_dealer(int players, int dealer, int winner) noexcept nogil:
    """Round the table to the left; with two players the winner deals (the same dealer after a draw)."""
    if players == 2:
        return winner if winner >= 0 else dealer
    return (dealer + 1) % players


# --- the Python entry points -----------------------------------------------------------------------------

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
