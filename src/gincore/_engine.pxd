# The Gin hand's native types: rules, players and the strategy table, the game state, the record.
# _engine.pyx is one compiled unit made of the files in _gin/ (transitions, the driver, the
# strategies, the play-outs, the Python bridge), so all of them call each other directly.
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t

from gincore._odds cimport Seen
from gincore._random cimport Rng


cdef struct HandRules:
    int8_t knock_limit[52]   # the hand's knock limit by upcard (Oklahoma reads it off the upcard)
    int8_t multiplier[52]    # the hand's score multiplier by upcard
    int gin_bonus
    int undercut_bonus
    int big_gin_bonus        # -1: no big gin
    int stock_floor
    int max_reshuffles       # 0 when the exhausted stock ends the hand
    int target               # the match target (0: none); with it, match_value
    double* match_value      # [a * target + b]: the chance to win the match from scores a to b


cdef enum:
    PARAMETER_SLOTS = 5      # the room for a strategy's parameter struct, in ints
    MAX_STRATEGIES = 32


cdef struct Player:
    int kind                 # the index of the strategy's entry in the table
    int32_t params[PARAMETER_SLOTS]  # the strategy's own parameter struct (see its file)
    void* python             # a Python strategy's adapter, owned by the Engine


cdef enum Phase:
    PHASE_OFFER = 0          # the upcard is offered: take it or pass
    PHASE_DRAW = 1           # take the face-up card or draw from the stock
    PHASE_DISCARD = 2        # discard, knock or go gin (or big gin)
    PHASE_DONE = 3


cdef enum:
    # 0..51: discard card c face up; KNOCK + c: knock (gin at deadwood 0) discarding c face down.
    ACTION_KNOCK = 52
    ACTION_TAKE = 104        # take the face-up card (the upcard in the offer)
    ACTION_REFUSE = 105      # refuse it: pass in the offer, draw from the stock otherwise
    ACTION_BIG_GIN = 106     # go out with all eleven cards melded
    ACTION_COUNT = 107


cdef enum EventKind:
    EVENT_TAKE_UPCARD = 0    # the upcard offer, accepted
    EVENT_PASS_UPCARD = 1    # the upcard offer, refused
    EVENT_DRAW_STOCK = 2
    EVENT_DRAW_DISCARD = 3
    EVENT_DISCARD = 4
    EVENT_KNOCK = 5          # card: the face-down discard
    EVENT_GIN = 6            # card: the face-down discard
    EVENT_BIG_GIN = 7        # card: none
    EVENT_RESHUFFLE = 8      # the pile but its top card is shuffled into a new stock
    EVENT_DRAWN = 9          # the hand ends without a score
    EVENT_RESTOCK = 10       # after a reshuffle, one card of the new stock (top first)


cdef enum Outcome:
    OUTCOME_KNOCK = 0
    OUTCOME_UNDERCUT = 1
    OUTCOME_GIN = 2
    OUTCOME_BIG_GIN = 3
    OUTCOME_DRAW = 4


cdef enum TurnEnd:
    TURN_CONTINUES = 0
    TURN_WENT_OUT = 1
    TURN_BIG_GIN = 2
    TURN_DRAWN = 3
    TURN_ABORTED = 4         # a Python strategy failed or chose an illegal move


cdef enum:
    TRACE_FIXED = 8          # events besides the turns: offers, the end, slack
    # Draws in one hand before it is called drawn: two players taking each other's discards forever
    # never reach the stock floor (51 stocks, the most the reshuffle rules allow, take 1,581 draws).
    MAX_TURNS = 5000


cdef struct Event:
    uint8_t kind
    uint8_t player
    uint8_t card


cdef struct Context:
    # What a hand carries besides the cards: trace, the Python side, match scores.
    Event* trace
    int trace_size
    int trace_capacity
    bint trace_grows         # the trace is the GameState's own: it grows when full
    void* engine             # the Engine or GameState, for Python strategies and their errors
    uint64_t hand_index
    int scores[2]
    bint match               # the scores are a match's: search values results by the match
    # What the match's earlier showdowns showed (ginsim.gin.runs.matches): by seat, how often it was shown
    # as the defender holding a legal knock it had not taken, and in how many hands it knocked late.
    int passed_knocks[2]
    int late_knocks[2]
    bint aborted             # a Python strategy failed: the hand stops at once
    int watched              # model_inputs: the player whose views are kept, at each draw decision
    Seen* seen_log
    uint64_t* truth_log      # the opponent's hand at each kept view
    int* turn_log            # the draws made before each kept view
    int log_size
    int log_capacity


cdef struct Record:
    # The per-hand record. RECORD_FIELDS in _gin/bridge.pxi lists these fields with the same names,
    # types and order; it makes the numpy dtype, and is checked field by field at import.
    int8_t dealer
    int8_t upcard
    int8_t knock_limit
    int8_t multiplier
    int8_t outcome
    int8_t winner
    int8_t knocker
    int16_t points
    int16_t knocker_deadwood
    int16_t defender_deadwood
    int8_t laid_off
    int16_t turns
    int8_t upcard_taken_by
    uint64_t knocker_sets    # cards in sets of the arrangement the knocker shows
    uint64_t laid_off_cards


cdef struct State:
    # A position of a hand: everything on the table, whose move it is, and the record so far.
    HandRules* rules
    Context* context
    uint64_t held[2]
    uint8_t stock[52]
    int stock_top            # stock[stock_top:stock_end] is the stock, top first
    int stock_end
    uint8_t pile[52]         # the discard pile, bottom first
    uint8_t pile_by[52]      # who discarded each pile card (the upcard: NO_PLAYER)
    int pile_size
    uint64_t in_pile         # the cards of the pile
    uint64_t discarded[2]    # the cards each player has discarded face up this hand
    uint64_t face_up         # every card ever face up: both players have seen it
    uint64_t face_down       # the discard of a knock or gin, which only its player has seen
    uint64_t from_pile[2]    # cards each player took from the pile and still holds
    uint64_t took[2]         # every card each player took from the pile
    uint64_t passed[2]       # face-up cards each player refused
    uint64_t played[2][52]   # per player and drawn card: the cards it discarded after drawing that card
    int knock_limit
    int multiplier
    int dealer
    int upcard
    int turns
    int reshuffles
    Phase phase
    int player               # to move (in PHASE_DONE: the one whose turn ended the hand)
    int drawn                # the card drawn this turn (PHASE_DISCARD), else NO_CARD
    bint drawn_from_pile
    # Set by a strategy's discard that already knows the deadwood its card leaves (else -1), so that
    # the engine need not solve it again for the knock.
    int discard_deadwood
    Record record            # filled in as the hand goes; complete in PHASE_DONE


# The strategy table: one entry per native strategy, each in its own file in _gin/strategies/.
# ``takes``: take the face-up ``card`` (in the upcard offer when ``offer``)? ``discard``: the card to
# discard from the 11 held (among ``candidates``), and may set ``knock`` to 0 or 1 (left at -1,
# ``knocks`` decides when the knock is legal, given the deadwood ``left``). ``big_gin``: go out with
# eleven melded cards? ``takes_back_discards``: whether it may take back a card it discarded itself
# (the others never do, which also rules out endless pick-up cycles).
ctypedef bint (*TakesFn)(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil
ctypedef int (*DiscardFn)(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil
ctypedef bint (*KnocksFn)(State* state, Player* who, Rng* rng, int left) noexcept nogil
ctypedef bint (*BigGinFn)(State* state, Player* who, Rng* rng) noexcept nogil

cdef struct StrategyEntry:
    TakesFn takes
    DiscardFn discard
    KnocksFn knocks
    BigGinFn big_gin
    bint takes_back_discards
    bint values_matches      # values results by the chance to win the match (needs HandRules.match_value)
