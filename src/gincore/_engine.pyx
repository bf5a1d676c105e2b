"""The native hand loop: deal, upcard offer, draws, discards, knock or gin, showdown and score.

A whole hand runs here without the GIL and without a Python call per turn. Each hand draws all its
randomness (who deals in a run of independent hands, the shuffle, the strategies' coin flips) from
one xoshiro256** stream keyed by (run key, hand index), so hand ``i`` of a run is the same whatever
the chunking. Strategies see only what their player may see (``_View``).
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset

cimport numpy as cnp
import numpy as np

from gincore._melds cimport (DiscardChoice, MAX_LEAVES, best_discards, deadwood_of, layoff_of,
                             lowest_card, meld_exposure, min_set_choices, popcount64, rank_cards,
                             run_cards)

cnp.import_array()

cdef extern from *:
    """
    #define GC_GOLDEN 0x9E3779B97F4A7C15ULL
    #define GC_MIX1 0xBF58476D1CE4E5B9ULL
    #define GC_MIX2 0x94D049BB133111EBULL
    #define GC_FULL_DECK 0xFFFFFFFFFFFFFULL
    """
    const uint64_t GC_GOLDEN
    const uint64_t GC_MIX1
    const uint64_t GC_MIX2
    const uint64_t GC_FULL_DECK

# --- the random stream ------------------------------------------------------------------------------

cdef struct Rng:
    uint64_t s0, s1, s2, s3


cdef inline uint64_t _mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * GC_MIX1
    z = (z ^ (z >> 27)) * GC_MIX2
    return z ^ (z >> 31)


cdef inline uint64_t _hand_key(uint64_t key0, uint64_t key1, uint64_t index) noexcept nogil:
    return _mix64(key0 ^ _mix64(index + key1))


cdef inline void _seed(Rng* rng, uint64_t key) noexcept nogil:
    rng.s0 = _mix64(key + GC_GOLDEN)
    rng.s1 = _mix64(key + 2 * GC_GOLDEN)
    rng.s2 = _mix64(key + 3 * GC_GOLDEN)
    rng.s3 = _mix64(key + 4 * GC_GOLDEN)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t _next(Rng* rng) noexcept nogil:
    cdef uint64_t result = _rotl(rng.s1 * 5, 7) * 9
    cdef uint64_t t = rng.s1 << 17
    rng.s2 ^= rng.s0
    rng.s3 ^= rng.s1
    rng.s1 ^= rng.s2
    rng.s0 ^= rng.s3
    rng.s2 ^= t
    rng.s3 = _rotl(rng.s3, 45)
    return result


cdef inline uint32_t _below(Rng* rng, uint32_t n) noexcept nogil:
    """Uniform integer in 0..n-1 (n >= 1), without bias (Lemire's multiply and reject)."""
    cdef uint64_t product = (_next(rng) >> 32) * n
    cdef uint32_t low = <uint32_t>product
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(0 - n)) % n
        while low < threshold:
            product = (_next(rng) >> 32) * n
            low = <uint32_t>product
    return <uint32_t>(product >> 32)


cdef inline uint64_t _pick(Rng* rng, uint64_t cards) noexcept nogil:
    """A uniformly chosen card (as a one-bit mask) of a non-empty mask."""
    cdef uint32_t skip = _below(rng, popcount64(cards))
    while skip:
        cards &= cards - 1
        skip -= 1
    return cards & (~cards + 1)


cdef void _shuffle(Rng* rng, uint8_t* cards, int count) noexcept nogil:
    cdef int i, j
    cdef uint8_t swap
    for i in range(count - 1, 0, -1):
        j = _below(rng, i + 1)
        swap = cards[i]
        cards[i] = cards[j]
        cards[j] = swap


# --- rules, strategies, the table -------------------------------------------------------------------

cdef struct HandRules:
    int8_t knock_limit[52]   # the hand's knock limit by upcard (Oklahoma reads it off the upcard)
    int8_t multiplier[52]    # the hand's score multiplier by upcard
    int gin_bonus
    int undercut_bonus
    int big_gin_bonus        # -1: no big gin
    int stock_floor
    int max_reshuffles       # 0 when the exhausted stock ends the hand


cdef enum StrategyKind:
    STRATEGY_RANDOM = 0
    STRATEGY_SIMPLE = 1
    STRATEGY_GREEDY = 2

STRATEGY_KINDS = {"random": STRATEGY_RANDOM, "simple": STRATEGY_SIMPLE, "greedy": STRATEGY_GREEDY}


cdef enum EventKind:
    EVENT_TAKE_UPCARD = 0   # the upcard offer, accepted
    EVENT_PASS_UPCARD = 1   # the upcard offer, refused
    EVENT_DRAW_STOCK = 2
    EVENT_DRAW_DISCARD = 3
    EVENT_DISCARD = 4
    EVENT_KNOCK = 5         # card: the face-down discard
    EVENT_GIN = 6           # card: the face-down discard
    EVENT_BIG_GIN = 7       # card: none
    EVENT_RESHUFFLE = 8     # the pile but its top card is shuffled into a new stock
    EVENT_DRAWN = 9         # the hand ends without a score

EVENT_NAMES = ("take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock", "gin",
               "big_gin", "reshuffle", "drawn")

cdef enum Outcome:
    OUTCOME_KNOCK = 0
    OUTCOME_UNDERCUT = 1
    OUTCOME_GIN = 2
    OUTCOME_BIG_GIN = 3
    OUTCOME_DRAW = 4

OUTCOME_NAMES = ("knock", "undercut", "gin", "big_gin", "draw")

cdef enum:
    NO_CARD = 255
    PAIR_WORDS = 43          # 52 * 52 bits: the (drawn, discarded) pairs a player has made
    TRACE_FIXED = 8          # events besides the turns: offers, the end, slack

cdef struct Event:
    uint8_t kind
    uint8_t player
    uint8_t card


cdef struct Table:
    uint64_t held[2]
    uint8_t stock[52]
    int stock_top            # stock[stock_top:stock_end] is the stock, top first
    int stock_end
    uint8_t pile[52]         # the discard pile, bottom first
    uint8_t pile_by[52]      # who discarded each pile card (the upcard: 255)
    int pile_size
    uint64_t face_up         # every card ever face up: both players have seen it
    uint64_t from_pile[2]    # cards each player took from the pile and still holds
    uint64_t passed[2]       # face-up cards each player refused
    uint64_t pairs[2][PAIR_WORDS]
    int knock_limit
    int dealer
    int turns
    int reshuffles
    Event* trace
    int trace_size
    int trace_capacity


cdef struct Record:
    int dealer
    int upcard
    int knock_limit
    int multiplier
    int outcome
    int winner
    int knocker
    int points
    int knocker_deadwood
    int defender_deadwood
    int laid_off
    int turns
    int upcard_taken_by
    uint64_t knocker_sets    # cards in sets of the arrangement the knocker shows
    uint64_t laid_off_cards


cdef inline void _note(Table* table, int kind, int player, int card) noexcept nogil:
    if table.trace != NULL and table.trace_size < table.trace_capacity:
        table.trace[table.trace_size].kind = kind
        table.trace[table.trace_size].player = player
        table.trace[table.trace_size].card = card
        table.trace_size += 1


cdef inline int _top(Table* table) noexcept nogil:
    return table.pile[table.pile_size - 1]


cdef inline int _stock_size(Table* table) noexcept nogil:
    return table.stock_end - table.stock_top


# --- strategies: each decision sees only its player's view of the table -------------------------------

cdef inline bint _in_some_meld(uint64_t hand, int card) noexcept nogil:
    """Whether ``card`` is part of some meld of ``hand`` (which holds it)."""
    if popcount64(hand & rank_cards(card % 13)) >= 3:
        return True
    return (run_cards(hand & ((<uint64_t>0x1FFF) << (13 * (card // 13)))) >> card) & 1


cdef bint _takes_face_up(Table* table, int player, int kind, Rng* rng, int card) noexcept nogil:
    cdef uint64_t hand = table.held[player]
    cdef uint64_t bit = (<uint64_t>1) << card
    if kind == STRATEGY_RANDOM:
        return _below(rng, 2) == 1
    if kind == STRATEGY_SIMPLE:
        return _in_some_meld(hand | bit, card)
    # greedy: take it iff some discard other than it then leaves less deadwood than now
    return best_discards(hand | bit).deadwood < deadwood_of(hand)


cdef inline bint _pair_played(Table* table, int player, int drawn, int discard) noexcept nogil:
    cdef int index = drawn * 52 + discard
    return (table.pairs[player][index >> 6] >> (index & 63)) & 1


cdef inline void _remember_pair(Table* table, int player, int drawn, int discard) noexcept nogil:
    cdef int index = drawn * 52 + discard
    table.pairs[player][index >> 6] |= (<uint64_t>1) << (index & 63)


cdef uint64_t _least_deadwood_among(uint64_t hand, uint64_t candidates, int* least) noexcept nogil:
    """The candidates whose discard leaves the least deadwood, and that deadwood."""
    cdef DiscardChoice choice = best_discards(hand)
    cdef uint64_t rest = candidates, card, chosen = 0
    cdef int value
    if choice.discards & candidates:
        least[0] = choice.deadwood
        return choice.discards & candidates
    least[0] = 1 << 30
    while rest:  # every overall best discard is excluded: compare the candidates one by one
        card = rest & (~rest + 1)
        rest ^= card
        value = deadwood_of(hand ^ card)
        if value < least[0]:
            least[0] = value
            chosen = card
        elif value == least[0]:
            chosen |= card
    return chosen


cdef int _danger(Table* table, int player, uint64_t card) noexcept nogil:
    """How useful a discard looks to the opponent: cards they took that it would meld with."""
    cdef int index = lowest_card(card)
    cdef uint64_t taken = table.from_pile[1 - player]
    cdef uint64_t suit_cards = (<uint64_t>0x1FFF) << (13 * (index // 13))
    cdef uint64_t near = ((card << 1) | (card >> 1) | (card << 2) | (card >> 2)) & suit_cards
    cdef uint64_t refused = table.passed[1 - player]
    return (2 * popcount64(taken & (rank_cards(index % 13) | near))
            - popcount64(refused & (rank_cards(index % 13) | near)))


cdef uint64_t _greedy_discard(Table* table, int player, uint64_t candidates, Rng* rng) noexcept nogil:
    cdef int least, value, best_value = -1, best_danger = 1 << 30, danger
    cdef uint64_t hand = table.held[player]
    cdef uint64_t rest = _least_deadwood_among(hand, candidates, &least), card, chosen = 0
    while rest:  # ties: the highest card value, then the least use to the opponent
        card = rest & (~rest + 1)
        rest ^= card
        value = min(lowest_card(card) % 13 + 1, 10)
        danger = _danger(table, player, card)
        if value > best_value or (value == best_value and danger < best_danger):
            best_value = value
            best_danger = danger
            chosen = card
        elif value == best_value and danger == best_danger:
            chosen |= card
    return _pick(rng, chosen)


cdef int _choose_discard(Table* table, int player, int kind, Rng* rng, int drawn,
                         bint drawn_face_up, bint* goes_out) noexcept nogil:
    """The card to discard from 11, and whether the player goes out with it."""
    cdef uint64_t hand = table.held[player]
    cdef uint64_t candidates = hand
    cdef uint64_t fresh, discard
    cdef int least, card, left
    if drawn_face_up:
        candidates &= ~((<uint64_t>1) << drawn)
    if kind == STRATEGY_RANDOM:
        discard = _pick(rng, candidates)
    elif kind == STRATEGY_SIMPLE:
        fresh = 0  # the EAAI Simple player never repeats a (drawn, discarded) pair if it can help it
        discard = candidates
        while discard:
            card = lowest_card(discard)
            discard &= discard - 1
            if not _pair_played(table, player, drawn, card):
                fresh |= (<uint64_t>1) << card
        discard = _pick(rng, _least_deadwood_among(hand, fresh if fresh else candidates, &least))
        _remember_pair(table, player, drawn, lowest_card(discard))
    else:
        discard = _greedy_discard(table, player, candidates, rng)
    left = deadwood_of(hand ^ discard)
    goes_out[0] = False
    if left <= table.knock_limit:
        goes_out[0] = kind != STRATEGY_RANDOM or _below(rng, 2) == 1
    return lowest_card(discard)


cdef inline bint _takes_big_gin(int kind, Rng* rng) noexcept nogil:
    return kind != STRATEGY_RANDOM or _below(rng, 2) == 1


# --- the hand ------------------------------------------------------------------------------------------

cdef enum TurnEnd:
    TURN_CONTINUES = 0
    TURN_WENT_OUT = 1
    TURN_BIG_GIN = 2
    TURN_DRAWN = 3


cdef void _reshuffle(Table* table, Rng* rng) noexcept nogil:
    """Shuffle the pile (all but its top card) into the stock."""
    cdef int size = 0, i
    cdef uint8_t cards[52]
    for i in range(table.stock_top, table.stock_end):
        cards[size] = table.stock[i]
        size += 1
    for i in range(table.pile_size - 1):
        cards[size] = table.pile[i]
        size += 1
    _shuffle(rng, cards, size)
    for i in range(size):
        table.stock[i] = cards[i]
    table.stock_top = 0
    table.stock_end = size
    table.pile[0] = table.pile[table.pile_size - 1]
    table.pile_by[0] = table.pile_by[table.pile_size - 1]
    table.pile_size = 1
    table.reshuffles += 1


cdef TurnEnd _turn(Table* table, HandRules* rules, int player, int kind, Rng* rng, bint from_pile,
                   int* last_card) noexcept nogil:
    """One turn: draw (from the pile or the stock), then discard, knock or go gin."""
    cdef int card, discard
    cdef bint goes_out
    if from_pile:
        table.pile_size -= 1
        card = table.pile[table.pile_size]
        table.from_pile[player] |= (<uint64_t>1) << card
    else:
        card = table.stock[table.stock_top]
        table.stock_top += 1
        _note(table, EVENT_DRAW_STOCK, player, card)
    table.held[player] |= (<uint64_t>1) << card
    table.turns += 1
    if rules.big_gin_bonus >= 0 and deadwood_of(table.held[player]) == 0 and _takes_big_gin(kind, rng):
        _note(table, EVENT_BIG_GIN, player, NO_CARD)
        last_card[0] = NO_CARD
        return TURN_BIG_GIN
    discard = _choose_discard(table, player, kind, rng, card, from_pile, &goes_out)
    table.held[player] &= ~((<uint64_t>1) << discard)
    table.from_pile[player] &= ~((<uint64_t>1) << discard)
    last_card[0] = discard
    if goes_out:
        _note(table, EVENT_GIN if deadwood_of(table.held[player]) == 0 else EVENT_KNOCK, player, discard)
        return TURN_WENT_OUT
    _note(table, EVENT_DISCARD, player, discard)
    table.pile[table.pile_size] = discard
    table.pile_by[table.pile_size] = player
    table.pile_size += 1
    table.face_up |= (<uint64_t>1) << discard
    if _stock_size(table) <= rules.stock_floor:
        if table.reshuffles < rules.max_reshuffles and table.pile_size > 1:
            _reshuffle(table, rng)
            _note(table, EVENT_RESHUFFLE, 255, NO_CARD)
            if _stock_size(table) > rules.stock_floor:
                return TURN_CONTINUES
        _note(table, EVENT_DRAWN, 255, NO_CARD)
        return TURN_DRAWN
    return TURN_CONTINUES


cdef uint64_t _shown_sets(uint64_t hand, uint64_t unseen) noexcept nogil:
    """The knocker's choice among its best arrangements: the one exposing fewest unseen cards."""
    cdef uint64_t leaves[MAX_LEAVES]
    cdef int count = 0, i, exposure, best = 1 << 30
    cdef uint64_t chosen = 0
    min_set_choices(hand, leaves, MAX_LEAVES, &count)
    for i in range(min(count, <int>MAX_LEAVES)):
        exposure = meld_exposure(hand, leaves[i], unseen)
        if exposure < best:
            best = exposure
            chosen = leaves[i]
    return chosen


cdef void _showdown(Table* table, HandRules* rules, int knocker, TurnEnd end, Record* record) noexcept nogil:
    cdef int defender = 1 - knocker, rank
    cdef uint64_t sets, free_cards = 0, laid = 0, group
    cdef uint64_t hand = table.held[knocker]
    record.knocker = knocker
    record.knocker_sets = _shown_sets(hand, GC_FULL_DECK & ~(hand | table.face_up))
    record.knocker_deadwood = deadwood_of(hand)
    if end == TURN_BIG_GIN or record.knocker_deadwood == 0:
        record.outcome = OUTCOME_BIG_GIN if end == TURN_BIG_GIN else OUTCOME_GIN
        record.winner = knocker
        record.defender_deadwood = deadwood_of(table.held[defender])
        record.points = record.defender_deadwood + (
            rules.big_gin_bonus if end == TURN_BIG_GIN else rules.gin_bonus)
    else:
        sets = record.knocker_sets
        for rank in range(13):  # a defender card completing a knocker's 3-set lays off for free
            group = sets & rank_cards(rank)
            if group and popcount64(group) == 3:
                free_cards |= table.held[defender] & rank_cards(rank)
        record.defender_deadwood = layoff_of(table.held[defender], run_cards(hand & ~sets), free_cards,
                                             &laid)
        record.laid_off_cards = laid
        record.laid_off = popcount64(laid)
        if record.defender_deadwood <= record.knocker_deadwood:
            record.outcome = OUTCOME_UNDERCUT
            record.winner = defender
            record.points = record.knocker_deadwood - record.defender_deadwood + rules.undercut_bonus
        else:
            record.outcome = OUTCOME_KNOCK
            record.winner = knocker
            record.points = record.defender_deadwood - record.knocker_deadwood
    record.points *= record.multiplier


cdef void _deal(Table* table, uint8_t* deck, int dealer) noexcept nogil:
    """Ten cards each, alternately from the non-dealer; the 21st card is the upcard."""
    cdef int i
    cdef Event* trace = table.trace
    cdef int capacity = table.trace_capacity
    memset(table, 0, sizeof(Table))
    table.trace = trace
    table.trace_capacity = capacity
    table.dealer = dealer
    for i in range(20):
        table.held[(1 - dealer) if i % 2 == 0 else dealer] |= (<uint64_t>1) << deck[i]
    table.pile[0] = deck[20]
    table.pile_by[0] = 255
    table.pile_size = 1
    table.face_up = (<uint64_t>1) << deck[20]
    for i in range(31):
        table.stock[i] = deck[21 + i]
    table.stock_top = 0
    table.stock_end = 31


cdef void _play(Table* table, HandRules* rules, int* kinds, Rng* rng, Record* record) noexcept nogil:
    """Play the dealt hand on ``table`` to its end and fill in ``record``."""
    cdef int dealer = table.dealer, non_dealer = 1 - table.dealer, player, upcard = _top(table)
    cdef int last_card = NO_CARD
    cdef TurnEnd end
    memset(record, 0, sizeof(Record))
    record.dealer = dealer
    record.upcard = upcard
    record.knock_limit = rules.knock_limit[upcard]
    record.multiplier = rules.multiplier[upcard]
    record.upcard_taken_by = -1
    table.knock_limit = record.knock_limit
    # The upcard is offered to the non-dealer, then the dealer; if both refuse, the non-dealer draws.
    player = -1
    if _takes_face_up(table, non_dealer, kinds[non_dealer], rng, upcard):
        player = non_dealer
    else:
        table.passed[non_dealer] |= (<uint64_t>1) << upcard
        _note(table, EVENT_PASS_UPCARD, non_dealer, upcard)
        if _takes_face_up(table, dealer, kinds[dealer], rng, upcard):
            player = dealer
        else:
            table.passed[dealer] |= (<uint64_t>1) << upcard
            _note(table, EVENT_PASS_UPCARD, dealer, upcard)
    if player >= 0:
        _note(table, EVENT_TAKE_UPCARD, player, upcard)
        record.upcard_taken_by = player
        end = _turn(table, rules, player, kinds[player], rng, True, &last_card)
    else:
        player = non_dealer
        end = _turn(table, rules, player, kinds[player], rng, False, &last_card)
    while end == TURN_CONTINUES:
        player = 1 - player
        if _takes_face_up(table, player, kinds[player], rng, _top(table)):
            _note(table, EVENT_DRAW_DISCARD, player, _top(table))
            end = _turn(table, rules, player, kinds[player], rng, True, &last_card)
        else:
            table.passed[player] |= (<uint64_t>1) << _top(table)
            end = _turn(table, rules, player, kinds[player], rng, False, &last_card)
    record.turns = table.turns
    if end == TURN_DRAWN:
        record.outcome = OUTCOME_DRAW
        record.winner = -1
        record.knocker = -1
        record.knocker_deadwood = -1
        record.defender_deadwood = -1
    else:
        _showdown(table, rules, player, end, record)


cdef void _shuffled_deck(Rng* rng, uint8_t* deck) noexcept nogil:
    cdef int i
    for i in range(52):
        deck[i] = i
    _shuffle(rng, deck, 52)


# --- the Python entry points -----------------------------------------------------------------------------

RECORD_COLUMNS = ("hand", "dealer", "upcard", "knock_limit", "multiplier", "outcome", "winner",
                  "knocker", "points", "knocker_deadwood", "defender_deadwood", "laid_off", "turns",
                  "upcard_taken_by")

cdef enum:
    COUNT_CELLS = 2 * 52 * 5 * 3   # dealer x upcard x outcome x (winner + 1)
    POINTS_BINS = 1024             # points histogram per outcome; larger scores go in the last bin


cdef inline Py_ssize_t _cell(Record* record) noexcept nogil:
    return ((record.dealer * 52 + record.upcard) * 5 + record.outcome) * 3 + record.winner + 1


cdef class Engine:
    """The native hand loop for one rule set and one pair of strategies.

    ``config`` holds the native rules (``knock_limit`` and ``multiplier`` as 52-entry sequences by
    upcard, ``gin_bonus``, ``undercut_bonus``, ``big_gin_bonus`` (-1 for none), ``stock_floor``,
    ``max_reshuffles``); ``kinds`` the two strategies' codes from ``STRATEGY_KINDS``. Hand ``index`` of
    the run keyed by (key0, key1) takes all its randomness from its own stream: first the shuffle,
    then (unless the dealer is given) the dealer, then the strategies' choices.
    """
    cdef HandRules rules
    cdef int kinds[2]
    cdef object config

    def __init__(self, config, kinds):
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
        if len(kinds) != 2 or any(kind not in STRATEGY_KINDS.values() for kind in kinds):
            raise ValueError(f"kinds must be two strategy codes of {STRATEGY_KINDS}, got {kinds!r}")
        self.kinds[0] = kinds[0]
        self.kinds[1] = kinds[1]

    def __reduce__(self):
        return Engine, (self.config, (self.kinds[0], self.kinds[1]))

    cdef void _play_index(self, Table* table, uint64_t key0, uint64_t key1, uint64_t index, int dealer,
                          Record* record) noexcept nogil:
        cdef Rng rng
        cdef uint8_t deck[52]
        _seed(&rng, _hand_key(key0, key1, index))
        _shuffled_deck(&rng, deck)
        if dealer < 0:
            dealer = _below(&rng, 2)
        _deal(table, deck, dealer)
        _play(table, &self.rules, self.kinds, &rng, record)

    def play_hands(self, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count):
        """Hands ``first .. first + count - 1`` of the run: a dict of numpy record columns."""
        columns = {
            "hand": np.arange(first, first + count, dtype=np.int64),
            "dealer": np.empty(count, np.int8), "upcard": np.empty(count, np.int8),
            "knock_limit": np.empty(count, np.int8), "multiplier": np.empty(count, np.int8),
            "outcome": np.empty(count, np.int8), "winner": np.empty(count, np.int8),
            "knocker": np.empty(count, np.int8), "points": np.empty(count, np.int16),
            "knocker_deadwood": np.empty(count, np.int16),
            "defender_deadwood": np.empty(count, np.int16),
            "laid_off": np.empty(count, np.int8), "turns": np.empty(count, np.int16),
            "upcard_taken_by": np.empty(count, np.int8),
        }
        cdef int8_t[::1] dealer = columns["dealer"], upcard = columns["upcard"]
        cdef int8_t[::1] knock_limit = columns["knock_limit"], multiplier = columns["multiplier"]
        cdef int8_t[::1] outcome = columns["outcome"], winner = columns["winner"]
        cdef int8_t[::1] knocker = columns["knocker"], laid_off = columns["laid_off"]
        cdef int8_t[::1] upcard_taken_by = columns["upcard_taken_by"]
        cdef int16_t[::1] points = columns["points"], knocker_deadwood = columns["knocker_deadwood"]
        cdef int16_t[::1] defender_deadwood = columns["defender_deadwood"], turns = columns["turns"]
        cdef Py_ssize_t i
        cdef Table table
        cdef Record record
        table.trace = NULL
        table.trace_capacity = 0
        with nogil:
            for i in range(count):
                self._play_index(&table, key0, key1, first + i, -1, &record)
                dealer[i] = record.dealer
                upcard[i] = record.upcard
                knock_limit[i] = record.knock_limit
                multiplier[i] = record.multiplier
                outcome[i] = record.outcome
                winner[i] = record.winner
                knocker[i] = record.knocker
                points[i] = record.points
                knocker_deadwood[i] = record.knocker_deadwood
                defender_deadwood[i] = record.defender_deadwood
                laid_off[i] = record.laid_off
                turns[i] = record.turns
                upcard_taken_by[i] = record.upcard_taken_by
        return columns

    def play_counts(self, uint64_t key0, uint64_t key1, uint64_t first, Py_ssize_t count):
        """The same hands as ``play_hands``, kept only as counts (for runs too large for rows).

        Returns ``hands``, ``points`` and ``turns`` (counts and sums per dealer x upcard x outcome x
        winner + 1 cell, shape (2, 52, 5, 3)) and ``points_histogram`` (outcome x points, the last of
        its 1024 bins holding every larger score).
        """
        hands = np.zeros(COUNT_CELLS, np.int64)
        points = np.zeros(COUNT_CELLS, np.int64)
        turns = np.zeros(COUNT_CELLS, np.int64)
        histogram = np.zeros(5 * POINTS_BINS, np.int64)
        cdef int64_t[::1] hands_view = hands, points_view = points, turns_view = turns
        cdef int64_t[::1] histogram_view = histogram
        cdef Py_ssize_t i, cell
        cdef Table table
        cdef Record record
        table.trace = NULL
        table.trace_capacity = 0
        with nogil:
            for i in range(count):
                self._play_index(&table, key0, key1, first + i, -1, &record)
                cell = _cell(&record)
                hands_view[cell] += 1
                points_view[cell] += record.points
                turns_view[cell] += record.turns
                histogram_view[record.outcome * POINTS_BINS + min(record.points, POINTS_BINS - 1)] += 1
        return {
            "hands": hands.reshape(2, 52, 5, 3),
            "points": points.reshape(2, 52, 5, 3),
            "turns": turns.reshape(2, 52, 5, 3),
            "points_histogram": histogram.reshape(5, POINTS_BINS),
        }

    def play_record(self, uint64_t key0, uint64_t key1, uint64_t index, int dealer=-1):
        """One hand's record as a tuple in ``RECORD_COLUMNS`` order (dealer -1: drawn at random)."""
        cdef Table table
        cdef Record record
        table.trace = NULL
        table.trace_capacity = 0
        with nogil:
            self._play_index(&table, key0, key1, index, dealer, &record)
        return (index, record.dealer, record.upcard, record.knock_limit, record.multiplier,
                record.outcome, record.winner, record.knocker, record.points, record.knocker_deadwood,
                record.defender_deadwood, record.laid_off, record.turns, record.upcard_taken_by)

    def play_traced(self, uint64_t key0, uint64_t key1, uint64_t index, deck=None, dealer=None):
        """Play one hand with its full trace; the same hand as ``index`` of ``play_hands`` by default.

        With ``deck`` (52 card indices, the top first) and ``dealer`` the deal is given instead of
        drawn; the strategies still take their choices from the hand's stream. Returns a dict with
        the record, the deal, the events as (kind name, player, card) and the final hands.
        """
        cdef Rng rng
        cdef uint8_t order[52]
        cdef int i, first_dealer
        _seed(&rng, _hand_key(key0, key1, index))
        _shuffled_deck(&rng, order)
        first_dealer = _below(&rng, 2)
        if deck is not None:
            for i in range(52):
                order[i] = deck[i]
            first_dealer = dealer
        cdef Table table
        cdef Record record
        capacity = TRACE_FIXED + 4 * (32 + 52 * self.rules.max_reshuffles)
        events = np.zeros(capacity * sizeof(Event), dtype=np.uint8)
        cdef uint8_t[::1] event_bytes = events
        table.trace = <Event*>&event_bytes[0]
        table.trace_capacity = capacity
        _deal(&table, order, first_dealer)
        dealt = (table.held[0], table.held[1])
        _play(&table, &self.rules, self.kinds, &rng, &record)
        trace = [(EVENT_NAMES[table.trace[i].kind], table.trace[i].player, table.trace[i].card)
                 for i in range(table.trace_size)]
        return {
            "record": {
                "hand": index, "dealer": record.dealer, "upcard": record.upcard,
                "knock_limit": record.knock_limit, "multiplier": record.multiplier,
                "outcome": OUTCOME_NAMES[record.outcome], "winner": record.winner,
                "knocker": record.knocker, "points": record.points,
                "knocker_deadwood": record.knocker_deadwood,
                "defender_deadwood": record.defender_deadwood, "laid_off": record.laid_off,
                "turns": record.turns, "upcard_taken_by": record.upcard_taken_by,
            },
            "deck": [order[i] for i in range(52)],
            "dealt": dealt,
            "events": trace,
            "final": (table.held[0], table.held[1]),
            "knocker_sets": record.knocker_sets,
            "laid_off_cards": record.laid_off_cards,
            "stock_left": _stock_size(&table),
        }
