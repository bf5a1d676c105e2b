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
from gincore._cards cimport NO_CARD, NO_PLAYER, card_value, is_meld, is_set, mask_value, shuffled_deck
from gincore._melds cimport (MAX_LEAVES, deadwood_of, layoff_of, least_deadwood_among, min_set_choices,
                             run_cards)
from gincore._random cimport Rng, below, hand_key, pick, seed_rng

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


include "_rummy/cards.pxi"
include "_rummy/table.pxi"
# The strategies: each sees its own hand, the table melds, the pile and the card counts.
include "_rummy/strategies.pxi"
include "_rummy/hand.pxi"
include "_rummy/engine.pxi"
