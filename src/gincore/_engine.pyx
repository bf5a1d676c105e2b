"""The native hand loop: deal, upcard offer, draws, discards, knock or gin, showdown and score.

A whole hand runs here without the GIL and without a Python call per turn. Each hand draws all its
randomness (who deals in a run of independent hands, the shuffle, the strategies' coin flips) from
one xoshiro256** stream keyed by (run key, hand index), so hand ``i`` of a run is the same whatever
the chunking (the stream is in ``_random.pxd``). Strategies see only what their player may see.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset

cimport numpy as cnp
import numpy as np

from gincore.errors import InputError
from gincore._records import check_layout, column_names, columns_of, record_dtype, row_of

from gincore._cards cimport FULL_DECK, NO_CARD, NO_PLAYER, card_bit, card_value, shuffled_deck
from gincore._random cimport Rng, below, hand_key, next_random, pick, seed_rng, shuffle_cards
from gincore._melds cimport (DiscardChoice, MAX_LEAVES, best_discards, deadwood_of, layoff_of,
                             lowest_card, meld_exposure, min_set_choices, popcount64, rank_cards,
                             run_cards)

cnp.import_array()

# --- rules, players, the table ------------------------------------------------------------------------

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
    STRATEGY_THRESHOLD = 3   # param0: the most deadwood it knocks with (0: gin only)
    STRATEGY_DEFENSIVE = 4
    STRATEGY_SAMPLER = 5     # param0: sampled deals per decision; param1: discards compared;
                             # param2: the knock threshold it plays the deals out with
    STRATEGY_PYTHON = 6      # a Python object (the slow path), called with the GIL

STRATEGY_KINDS = {"random": STRATEGY_RANDOM, "simple": STRATEGY_SIMPLE, "greedy": STRATEGY_GREEDY,
                  "threshold": STRATEGY_THRESHOLD, "defensive": STRATEGY_DEFENSIVE,
                  "sampler": STRATEGY_SAMPLER, "python": STRATEGY_PYTHON}

cdef struct Player:
    int kind
    int param0
    int param1
    int param2
    void* python             # STRATEGY_PYTHON: the adapter object, owned by the Engine


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
    PAIR_WORDS = 43          # 52 * 52 bits: the (drawn, discarded) pairs a player has made
    TRACE_FIXED = 8          # events besides the turns: offers, the end, slack
    MAX_SAMPLES = 4096
    MAX_CANDIDATES = 11
    MAX_TURNS = 5000         # draws in one hand before it is called drawn: two players taking each
                             # other's discards forever never reach the stock floor (51 stocks, the
                             # most the reshuffle rules allow, take at most 1,581 draws)

cdef struct Event:
    uint8_t kind
    uint8_t player
    uint8_t card


cdef struct Context:
    # What a hand carries besides the cards: trace, the Python side, match scores.
    Event* trace
    int trace_size
    int trace_capacity
    void* engine             # the Engine, for Python strategies and their errors
    uint64_t hand_index
    int scores[2]
    bint aborted             # a Python strategy failed: the hand stops at once


cdef struct Table:
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
    uint64_t passed[2]       # face-up cards each player refused
    uint64_t pairs[2][PAIR_WORDS]
    int knock_limit
    int multiplier
    int dealer
    int upcard
    int turns
    int reshuffles
    Context* context


cdef struct Record:
    # The per-hand record. RECORD_FIELDS below lists these fields with the same names, types and
    # order; it makes the numpy dtype the batch entry points write into, and is checked at import.
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


cdef inline void _note(Table* table, int kind, int player, int card) noexcept nogil:
    cdef Context* context = table.context
    if context.trace != NULL and context.trace_size < context.trace_capacity:
        context.trace[context.trace_size].kind = kind
        context.trace[context.trace_size].player = player
        context.trace[context.trace_size].card = card
        context.trace_size += 1


cdef inline int _top(Table* table) noexcept nogil:
    return table.pile[table.pile_size - 1]


cdef inline int _stock_size(Table* table) noexcept nogil:
    return table.stock_end - table.stock_top


# --- the Python side: user strategies called with the GIL -------------------------------------------------

cdef dict _state(Table* table, int player, int drawn, bint from_pile):
    """What ``player`` may see, keyed by the field names of ``ginsim.strategies.View``."""
    cdef int i
    pile_by = [-1 if table.pile_by[i] == NO_PLAYER else table.pile_by[i] for i in range(table.pile_size)]
    return {
        "player": player, "hand": table.held[player],
        "discard_pile": tuple([table.pile[i] for i in range(table.pile_size)]),
        "discarded_by": tuple(pile_by), "opponent_took": table.from_pile[1 - player],
        "opponent_passed": table.passed[1 - player], "stock_size": _stock_size(table),
        "knock_limit": table.knock_limit, "multiplier": table.multiplier, "dealer": table.dealer,
        "upcard": table.upcard, "turns": table.turns, "drawn_card": drawn, "drawn_from_pile": from_pile,
        "hand_index": table.context.hand_index,
        "scores": (table.context.scores[0], table.context.scores[1]),
    }


cdef object _ask(Table* table, Player* who, str question, int player, int drawn, bint from_pile):
    """Call the Python adapter; on an exception, keep it on the Engine and stop the hand."""
    if table.context.aborted:
        return None
    try:
        return getattr(<object>who.python, question)(_state(table, player, drawn, from_pile))
    except BaseException as error:
        (<Engine>table.context.engine).error = error
        table.context.aborted = True
        return None


cdef bint _python_takes(Table* table, Player* who, int player, bint offer) noexcept nogil:
    with gil:
        answer = _ask(table, who, "take_upcard" if offer else "take_discard", player, -1, False)
        return bool(answer) if answer is not None else False


cdef int _python_discard(Table* table, Player* who, int player, int drawn, bint from_pile,
                         bint* goes_out, int* rejected) noexcept nogil:
    """The card a Python strategy discards (checked), and whether it then goes out."""
    cdef uint64_t hand = table.held[player]
    cdef int card, left
    with gil:
        answer = _ask(table, who, "discard", player, drawn, from_pile)
        if answer is None:
            return lowest_card(hand & ~card_bit(drawn) if from_pile else hand)
        try:
            card = answer
        except (TypeError, OverflowError) as error:  # the adapter returns ints; be safe all the same
            (<Engine>table.context.engine).error = error
            table.context.aborted = True
            return lowest_card(hand)
        if card < 0 or card > 51 or not hand & card_bit(card) or (from_pile and card == drawn):
            rejected[0] = card
            return lowest_card(hand & ~card_bit(drawn) if from_pile else hand)
    left = deadwood_of(hand ^ card_bit(card))
    goes_out[0] = False
    if left <= table.knock_limit:
        with gil:
            table.held[player] ^= card_bit(card)  # the view shows the ten cards it would knock with
            answer = _ask(table, who, "knock", player, drawn, from_pile)
            table.held[player] ^= card_bit(card)
            goes_out[0] = bool(answer) if answer is not None else False
    return card


cdef bint _python_big_gin(Table* table, Player* who, int player, int drawn, bint from_pile) noexcept nogil:
    with gil:
        answer = _ask(table, who, "big_gin", player, drawn, from_pile)
        return bool(answer) if answer is not None else False


# --- native strategies: each decision sees only its player's view of the table ---------------------------

cdef inline bint _in_some_meld(uint64_t hand, int card) noexcept nogil:
    """Whether ``card`` is part of some meld of ``hand`` (which holds it)."""
    if popcount64(hand & rank_cards(card % 13)) >= 3:
        return True
    return (run_cards(hand & ((<uint64_t>0x1FFF) << (13 * (card // 13)))) >> card) & 1


cdef inline bint _improves(uint64_t hand, int card) noexcept nogil:
    """Whether taking ``card`` and then the best other discard leaves less deadwood than now."""
    return best_discards(hand | card_bit(card)).deadwood < deadwood_of(hand)


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


cdef int _danger(Table* table, int player, int card) noexcept nogil:
    """How useful a discard looks to the opponent, from what it can see (0: no meld can use it).

    A card is dead when neither a set nor a run could still include it, counting as live only the
    cards the player has not seen go out of play. Otherwise it is worth 1, plus 2 for each card the
    opponent took from the pile that it would meld with, less 1 for each such card it refused.
    """
    cdef uint64_t live = FULL_DECK & ~(table.held[player] | table.in_pile)
    cdef int rank = card % 13, suit_base = 13 * (card // 13)
    cdef uint64_t same_rank = rank_cards(rank) & ~card_bit(card)
    cdef uint64_t below1 = card_bit(card - 1) if rank >= 1 else 0, below2 = card_bit(card - 2) if rank >= 2 else 0
    cdef uint64_t above1 = card_bit(card + 1) if rank <= 11 else 0, above2 = card_bit(card + 2) if rank <= 10 else 0
    cdef bint set_live = popcount64(live & same_rank) >= 2
    cdef bint run_live = ((below1 and below2 and (live & below1) and (live & below2))
                          or (below1 and above1 and (live & below1) and (live & above1))
                          or (above1 and above2 and (live & above1) and (live & above2)))
    cdef uint64_t partners = same_rank | below1 | below2 | above1 | above2
    if not (set_live or run_live):
        return 0
    return 1 + 2 * popcount64(table.from_pile[1 - player] & partners) \
        - popcount64(table.passed[1 - player] & partners)


cdef uint64_t _greedy_discard(Table* table, int player, uint64_t candidates, Rng* rng) noexcept nogil:
    cdef int least, value, best_value = -1, best_danger = 1 << 30, danger, card
    cdef uint64_t rest = _least_deadwood_among(table.held[player], candidates, &least), chosen = 0
    while rest:  # ties: the highest card value, then the least use to the opponent
        card = lowest_card(rest)
        rest &= rest - 1
        value = card_value(card)
        danger = _danger(table, player, card)
        if value > best_value or (value == best_value and danger < best_danger):
            best_value = value
            best_danger = danger
            chosen = card_bit(card)
        elif value == best_value and danger == best_danger:
            chosen |= card_bit(card)
    return pick(rng, chosen)


cdef uint64_t _defensive_discard(Table* table, int player, uint64_t candidates, Rng* rng) noexcept nogil:
    """Least deadwood plus half a point per unit of danger: a little deadwood traded for safety."""
    cdef uint64_t hand = table.held[player], rest = candidates, chosen = 0
    cdef int card, cost, best = 1 << 30
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        cost = 4 * deadwood_of(hand ^ card_bit(card)) + 2 * _danger(table, player, card) - card_value(card)
        if cost < best:
            best = cost
            chosen = card_bit(card)
        elif cost == best:
            chosen |= card_bit(card)
    return pick(rng, chosen)


cdef bint _defensive_knocks(Table* table, int player, int left) noexcept nogil:
    """Hold out for gin (and the undercuts a low hand brings) unless the opponent looks close to
    going out (two cards taken from the pile: knock with 5 or less) or the stock is nearly spent."""
    cdef int threatening = popcount64(table.from_pile[1 - player])
    return left == 0 or (threatening >= 2 and left <= 5) or _stock_size(table) <= 8


cdef bint _takes_face_up(Table* table, HandRules* rules, int player, Player* who, Rng* rng, int card,
                         bint offer) noexcept nogil:
    cdef uint64_t hand = table.held[player]
    if who.kind == STRATEGY_RANDOM:
        return below(rng, 2) == 1
    if who.kind == STRATEGY_SIMPLE:
        return _in_some_meld(hand | card_bit(card), card)
    if who.kind == STRATEGY_PYTHON:
        return _python_takes(table, who, player, offer)
    if table.discarded[player] & card_bit(card):
        return False  # never take back an own discard: that also rules out endless pick-up cycles
    if who.kind == STRATEGY_SAMPLER and not offer:
        return _sampler_takes(table, rules, player, who, rng)
    return _improves(hand, card)


cdef int _choose_discard(Table* table, HandRules* rules, int player, Player* who, Rng* rng, int drawn,
                         bint from_pile, bint* goes_out) noexcept nogil:
    """The card to discard from 11, and whether the player goes out with it (only when legal)."""
    cdef uint64_t hand = table.held[player]
    cdef uint64_t candidates = hand & ~card_bit(drawn) if from_pile else hand
    cdef uint64_t fresh, discard
    cdef int least, card, left
    if who.kind == STRATEGY_SAMPLER:
        return _sampler_discard(table, rules, player, who, rng, candidates, goes_out)
    if who.kind == STRATEGY_RANDOM:
        discard = pick(rng, candidates)
    elif who.kind == STRATEGY_SIMPLE:
        fresh = 0  # the EAAI Simple player never repeats a (drawn, discarded) pair if it can help it
        discard = candidates
        while discard:
            card = lowest_card(discard)
            discard &= discard - 1
            if not _pair_played(table, player, drawn, card):
                fresh |= card_bit(card)
        discard = pick(rng, _least_deadwood_among(hand, fresh if fresh else candidates, &least))
        _remember_pair(table, player, drawn, lowest_card(discard))
    elif who.kind == STRATEGY_DEFENSIVE:
        discard = _defensive_discard(table, player, candidates, rng)
    else:
        discard = _greedy_discard(table, player, candidates, rng)
    left = deadwood_of(hand ^ discard)
    goes_out[0] = False
    if left <= table.knock_limit:
        if who.kind == STRATEGY_RANDOM:
            goes_out[0] = below(rng, 2) == 1
        elif who.kind == STRATEGY_THRESHOLD:
            goes_out[0] = left <= who.param0
        elif who.kind == STRATEGY_DEFENSIVE:
            goes_out[0] = _defensive_knocks(table, player, left)
        else:
            goes_out[0] = True
    return lowest_card(discard)


cdef inline bint _takes_big_gin(Table* table, int player, Player* who, Rng* rng, int drawn,
                                bint from_pile) noexcept nogil:
    if who.kind == STRATEGY_PYTHON:
        return _python_big_gin(table, who, player, drawn, from_pile)
    return who.kind != STRATEGY_RANDOM or below(rng, 2) == 1


# --- the hand ------------------------------------------------------------------------------------------

cdef enum TurnEnd:
    TURN_CONTINUES = 0
    TURN_WENT_OUT = 1
    TURN_BIG_GIN = 2
    TURN_DRAWN = 3
    TURN_ABORTED = 4         # a Python strategy failed or chose an illegal move


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
    shuffle_cards(rng, cards, size)
    for i in range(size):
        table.stock[i] = cards[i]
    table.stock_top = 0
    table.stock_end = size
    table.pile[0] = table.pile[table.pile_size - 1]
    table.pile_by[0] = table.pile_by[table.pile_size - 1]
    table.pile_size = 1
    table.in_pile = card_bit(table.pile[0])
    table.reshuffles += 1


cdef inline int _draw(Table* table, int player, bint from_pile) noexcept nogil:
    cdef int card
    if from_pile:
        table.pile_size -= 1
        card = table.pile[table.pile_size]
        table.in_pile &= ~card_bit(card)
        table.from_pile[player] |= card_bit(card)
    else:
        card = table.stock[table.stock_top]
        table.stock_top += 1
    table.held[player] |= card_bit(card)
    table.turns += 1
    return card


cdef TurnEnd _discard(Table* table, HandRules* rules, int player, int card, bint goes_out,
                      Rng* rng) noexcept nogil:
    """Put the discard down (face down when going out); a drawn hand when the stock is spent."""
    table.held[player] &= ~card_bit(card)
    table.from_pile[player] &= ~card_bit(card)
    if goes_out:
        table.face_down = card_bit(card)
        _note(table, EVENT_GIN if deadwood_of(table.held[player]) == 0 else EVENT_KNOCK, player, card)
        return TURN_WENT_OUT
    _note(table, EVENT_DISCARD, player, card)
    table.pile[table.pile_size] = card
    table.pile_by[table.pile_size] = player
    table.pile_size += 1
    table.in_pile |= card_bit(card)
    table.discarded[player] |= card_bit(card)
    table.face_up |= card_bit(card)
    if table.turns >= MAX_TURNS:
        _note(table, EVENT_DRAWN, NO_PLAYER, NO_CARD)
        return TURN_DRAWN
    if _stock_size(table) <= rules.stock_floor:
        if table.reshuffles < rules.max_reshuffles and table.pile_size > 1:
            _reshuffle(table, rng)
            _note(table, EVENT_RESHUFFLE, NO_PLAYER, NO_CARD)
            if _stock_size(table) > rules.stock_floor:
                return TURN_CONTINUES
        _note(table, EVENT_DRAWN, NO_PLAYER, NO_CARD)
        return TURN_DRAWN
    return TURN_CONTINUES


cdef TurnEnd _turn(Table* table, HandRules* rules, int player, Player* who, Rng* rng,
                   bint from_pile) noexcept nogil:
    """One turn: draw (from the pile or the stock), then discard, knock or go gin."""
    cdef int card, discard, rejected = -1
    cdef bint goes_out = False
    card = _draw(table, player, from_pile)
    if not from_pile:
        _note(table, EVENT_DRAW_STOCK, player, card)
    if rules.big_gin_bonus >= 0 and deadwood_of(table.held[player]) == 0 and _takes_big_gin(
            table, player, who, rng, card, from_pile):
        _note(table, EVENT_BIG_GIN, player, NO_CARD)
        return TURN_BIG_GIN
    if who.kind == STRATEGY_PYTHON:
        discard = _python_discard(table, who, player, card, from_pile, &goes_out, &rejected)
        if rejected != -1:
            with gil:
                (<Engine>table.context.engine).reject(player, rejected, card, from_pile)
            table.context.aborted = True
    else:
        discard = _choose_discard(table, rules, player, who, rng, card, from_pile, &goes_out)
    if table.context.aborted:
        return TURN_ABORTED
    return _discard(table, rules, player, discard, goes_out, rng)


cdef TurnEnd _turns_from(Table* table, HandRules* rules, Player* players, Rng* rng, int* player) noexcept nogil:
    """Players alternate from ``player`` (about to draw) until the hand ends; ``player`` is then the
    one whose turn ended it."""
    cdef TurnEnd end
    cdef int mover = player[0]
    while True:
        if _takes_face_up(table, rules, mover, &players[mover], rng, _top(table), False):
            if table.context.aborted:
                return TURN_ABORTED
            _note(table, EVENT_DRAW_DISCARD, mover, _top(table))
            end = _turn(table, rules, mover, &players[mover], rng, True)
        else:
            if table.context.aborted:
                return TURN_ABORTED
            table.passed[mover] |= card_bit(_top(table))
            end = _turn(table, rules, mover, &players[mover], rng, False)
        if end != TURN_CONTINUES:
            player[0] = mover
            return end
        mover = 1 - mover


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
    record.knocker_sets = _shown_sets(hand, FULL_DECK & ~(hand | table.face_up | table.face_down))
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


cdef void _finish(Table* table, HandRules* rules, TurnEnd end, int player, Record* record) noexcept nogil:
    record.turns = table.turns
    if end == TURN_DRAWN or end == TURN_ABORTED:
        record.outcome = OUTCOME_DRAW
        record.winner = -1
        record.knocker = -1
        record.knocker_deadwood = -1
        record.defender_deadwood = -1
    else:
        _showdown(table, rules, player, end, record)


cdef void _deal(Table* table, uint8_t* deck, int dealer, HandRules* rules) noexcept nogil:
    """Ten cards each, alternately from the non-dealer; the 21st card is the upcard."""
    cdef int i
    cdef Context* context = table.context
    memset(table, 0, sizeof(Table))
    table.context = context
    table.dealer = dealer
    for i in range(20):
        table.held[(1 - dealer) if i % 2 == 0 else dealer] |= card_bit(deck[i])
    table.upcard = deck[20]
    table.pile[0] = deck[20]
    table.pile_by[0] = NO_PLAYER
    table.pile_size = 1
    table.in_pile = card_bit(deck[20])
    table.face_up = card_bit(deck[20])
    for i in range(31):
        table.stock[i] = deck[21 + i]
    table.stock_top = 0
    table.stock_end = 31
    table.knock_limit = rules.knock_limit[table.upcard]
    table.multiplier = rules.multiplier[table.upcard]


cdef void _play(Table* table, HandRules* rules, Player* players, Rng* rng, Record* record) noexcept nogil:
    """Play the dealt hand on ``table`` to its end and fill in ``record``."""
    cdef int dealer = table.dealer, non_dealer = 1 - table.dealer, player, upcard = table.upcard
    cdef TurnEnd end
    memset(record, 0, sizeof(Record))
    record.dealer = dealer
    record.upcard = upcard
    record.knock_limit = table.knock_limit
    record.multiplier = table.multiplier
    record.upcard_taken_by = -1
    # The upcard is offered to the non-dealer, then the dealer; if both refuse, the non-dealer draws.
    player = -1
    if _takes_face_up(table, rules, non_dealer, &players[non_dealer], rng, upcard, True):
        player = non_dealer
    else:
        table.passed[non_dealer] |= card_bit(upcard)
        _note(table, EVENT_PASS_UPCARD, non_dealer, upcard)
        if _takes_face_up(table, rules, dealer, &players[dealer], rng, upcard, True):
            player = dealer
        else:
            table.passed[dealer] |= card_bit(upcard)
            _note(table, EVENT_PASS_UPCARD, dealer, upcard)
    if table.context.aborted:
        end = TURN_ABORTED
    elif player >= 0:
        _note(table, EVENT_TAKE_UPCARD, player, upcard)
        record.upcard_taken_by = player
        end = _turn(table, rules, player, &players[player], rng, True)
    else:
        player = non_dealer
        end = _turn(table, rules, player, &players[player], rng, False)
    if end == TURN_CONTINUES:
        player = 1 - player
        end = _turns_from(table, rules, players, rng, &player)
    _finish(table, rules, end, player, record)


# --- the sampler: flat Monte-Carlo over deals consistent with what the player has seen -----------------

cdef void _rollout_players(Player* players, Player* who, int me) noexcept nogil:
    """Who plays the sampled deals out: Simple for the opponent, and for the sampler itself a
    threshold player knocking at ``param2`` or less (0: gin hunting)."""
    memset(players, 0, 2 * sizeof(Player))
    players[1 - me].kind = STRATEGY_SIMPLE
    players[me].kind = STRATEGY_THRESHOLD
    players[me].param0 = who.param2


# The mean deadwood of a Simple player after k of its own draws (measured over simple-vs-simple
# hands): a uniformly dealt hand (about 56) is far weaker than the hand an opponent has built.
cdef int OPPONENT_DEADWOOD[17]
OPPONENT_DEADWOOD[:] = [56, 47, 40, 35, 30, 27, 24, 22, 20, 19, 19, 18, 17, 17, 16, 15, 14]

cdef enum:
    SAMPLE_TRIES = 24        # candidate opponent hands per sampled deal
    SAMPLE_TOLERANCE = 4     # accept a candidate this close to the expected deadwood


cdef void _sample_deal(Table* world, Table* table, int me, Rng* rng, Context* quiet) noexcept nogil:
    """A copy of the table whose hidden cards (the opponent's unknown cards and the stock) are dealt
    again from the cards ``me`` has not seen, the opponent's hand drawn near the deadwood an
    opponent typically has by now (the closest of a few candidates)."""
    cdef int opponent = 1 - me, count = 0, need, i, j, try_, value, gap, best_gap = 1 << 30
    cdef uint8_t hidden[52]
    cdef uint8_t chosen[52]
    cdef uint8_t swap
    cdef uint64_t known = table.from_pile[opponent], candidate
    cdef uint64_t unseen = FULL_DECK & ~(table.held[me] | table.in_pile | known)
    cdef int target = OPPONENT_DEADWOOD[min(table.turns // 2, 16)]
    world[0] = table[0]
    world.context = quiet
    while unseen:
        hidden[count] = lowest_card(unseen)
        unseen &= unseen - 1
        count += 1
    need = popcount64(table.held[opponent]) - popcount64(known)
    for try_ in range(SAMPLE_TRIES):
        candidate = known
        for i in range(need):  # a partial Fisher-Yates: hidden[:need] is a fresh random choice
            j = i + below(rng, count - i)
            swap = hidden[i]
            hidden[i] = hidden[j]
            hidden[j] = swap
            candidate |= card_bit(hidden[i])
        value = deadwood_of(candidate)
        gap = value - target if value > target else target - value
        if gap < best_gap:
            best_gap = gap
            for i in range(count):
                chosen[i] = hidden[i]
        if gap <= SAMPLE_TOLERANCE:
            break
    shuffle_cards(rng, &chosen[need], count - need)
    world.held[opponent] = known
    for i in range(need):
        world.held[opponent] |= card_bit(chosen[i])
    for i in range(need, count):
        world.stock[i - need] = chosen[i]
    world.stock_top = 0
    world.stock_end = count - need


cdef int _score_for(Record* record, int me) noexcept nogil:
    if record.winner < 0:
        return 0
    return record.points if record.winner == me else -record.points


cdef int _play_out(Table* world, HandRules* rules, Player* players, TurnEnd end, int mover, int me,
                   Rng* rng) noexcept nogil:
    """Finish a sampled deal with the rollout players; the points for ``me`` (negative: lost)."""
    cdef Record record
    memset(&record, 0, sizeof(Record))
    record.multiplier = world.multiplier
    if end == TURN_CONTINUES:
        mover = 1 - mover
        end = _turns_from(world, rules, players, rng, &mover)
    _finish(world, rules, end, mover, &record)
    return _score_for(&record, me)


cdef int _worlds(Player* who) noexcept nogil:
    return max(1, min(who.param0, <int>MAX_SAMPLES))


cdef bint _sampler_takes(Table* table, HandRules* rules, int me, Player* who, Rng* rng) noexcept nogil:
    """Take the face-up card iff that scores more on average over the sampled deals."""
    cdef Context quiet
    cdef Table world, trial
    cdef Rng saved, branch
    cdef int sample, total_take = 0, total_stock = 0
    cdef TurnEnd end
    cdef Player players[2]
    _rollout_players(players, who, me)
    memset(&quiet, 0, sizeof(Context))
    for sample in range(_worlds(who)):
        _sample_deal(&world, table, me, rng, &quiet)
        saved = rng[0]  # both options play out with the same randomness
        next_random(rng)
        branch = saved
        trial = world
        trial.passed[me] |= card_bit(_top(&trial))
        end = _turn(&trial, rules, me, &players[me], &branch, False)
        total_stock += _play_out(&trial, rules, players, end, me, me, &branch)
        branch = saved
        trial = world
        end = _turn(&trial, rules, me, &players[me], &branch, True)
        total_take += _play_out(&trial, rules, players, end, me, me, &branch)
    return total_take > total_stock


cdef int _sampler_discard(Table* table, HandRules* rules, int me, Player* who, Rng* rng,
                          uint64_t candidates, bint* goes_out) noexcept nogil:
    """Compare the best few discards, each with and without knocking when legal, over sampled deals."""
    cdef int options[2 * MAX_CANDIDATES]
    cdef bint knocks[2 * MAX_CANDIDATES]
    cdef long totals[2 * MAX_CANDIDATES]
    cdef int keys[MAX_CANDIDATES]
    cdef int count = 0, option_count, card, key, i, sample, best
    cdef int limit = max(1, min(who.param1, <int>MAX_CANDIDATES))
    cdef uint64_t hand = table.held[me], rest = candidates
    cdef Context quiet
    cdef Table world, trial
    cdef Rng saved, branch
    cdef TurnEnd end
    cdef Record record
    cdef Player players[2]
    _rollout_players(players, who, me)
    # The candidates: the discards leaving the least deadwood, the higher card first on ties.
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        key = 16 * deadwood_of(hand ^ card_bit(card)) - card_value(card)
        i = count
        while i > 0 and keys[i - 1] > key:
            keys[i] = keys[i - 1]
            options[i] = options[i - 1]
            i -= 1
        keys[i] = key
        options[i] = card
        count += 1
    count = min(count, limit)
    option_count = count
    for i in range(count):  # each candidate also as a knock, where that is legal
        knocks[i] = False
        if deadwood_of(hand ^ card_bit(options[i])) <= table.knock_limit:
            options[option_count] = options[i]
            knocks[option_count] = True
            option_count += 1
    for i in range(option_count):
        totals[i] = 0
    memset(&quiet, 0, sizeof(Context))
    for sample in range(_worlds(who)):
        _sample_deal(&world, table, me, rng, &quiet)
        saved = rng[0]  # every option plays out with the same randomness
        next_random(rng)
        for i in range(option_count):
            branch = saved
            trial = world
            end = _discard(&trial, rules, me, options[i], knocks[i], &branch)
            if knocks[i]:
                memset(&record, 0, sizeof(Record))
                record.multiplier = trial.multiplier
                _showdown(&trial, rules, me, end, &record)
                totals[i] += _score_for(&record, me)
            else:
                totals[i] += _play_out(&trial, rules, players, end, me, me, &branch)
    best = 0
    for i in range(1, option_count):
        if totals[i] > totals[best]:
            best = i
    goes_out[0] = knocks[best]
    return options[best]


# --- the Python entry points -----------------------------------------------------------------------------

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
"""The per-hand record columns (DESIGN.md): the hand index, then the record's fields but its masks."""


cdef dict _record_row(uint64_t index, Record record):
    cdef dict fields = record  # Cython makes a dict of a struct's fields
    fields["hand"] = index
    return row_of(fields, RECORD_COLUMNS)


cdef Record _BLANK_RECORD  # zeroed, as every C global; Cython converts it to the dict of its fields


check_layout("gincore._engine", RECORD_DTYPE, _BLANK_RECORD, sizeof(Record))


cdef enum:
    COUNT_CELLS = 2 * 52 * 5 * 3   # dealer x upcard x outcome x (winner + 1)
    POINTS_BINS = 1024             # points histogram per outcome; larger scores go in the last bin


cdef inline Py_ssize_t _cell(Record* record) noexcept nogil:
    return ((record.dealer * 52 + record.upcard) * 5 + record.outcome) * 3 + record.winner + 1


class StrategyError(InputError):
    """A Python strategy chose an illegal move, or raised."""


cdef class Engine:
    """The native hand loop for one rule set and one pair of strategies.

    ``config`` holds the native rules (``knock_limit`` and ``multiplier`` as 52-entry sequences by
    upcard, ``gin_bonus``, ``undercut_bonus``, ``big_gin_bonus`` (-1 for none), ``stock_floor``,
    ``max_reshuffles``). ``players`` holds two strategies, each a code from ``STRATEGY_KINDS``, a
    tuple ``(code, param0, param1)``, or ``(STRATEGY_KINDS["python"], adapter)`` where the adapter
    has the methods ``take_upcard``, ``take_discard``, ``discard``, ``knock`` and ``big_gin`` taking
    the player's view as a tuple, plus a ``name``. Hand ``index`` of the run keyed by (key0, key1)
    takes all its randomness from its own stream: first the shuffle, then (unless the dealer is
    given) the dealer, then the strategies' choices.
    """
    cdef HandRules rules
    cdef Player players[2]
    cdef object config
    cdef object specs
    cdef object adapters
    cdef public object error

    def __init__(self, config, players):
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
        if len(players) != 2:
            raise InputError(f"an Engine takes two players, got {len(players)}")
        self.specs = tuple(players)
        self.adapters = [None, None]
        for i in range(2):
            spec = players[i] if isinstance(players[i], tuple) else (players[i],)
            if spec[0] not in STRATEGY_KINDS.values():
                raise InputError(f"unknown strategy code {spec[0]!r}")
            self.players[i].kind = spec[0]
            self.players[i].python = NULL
            if spec[0] == STRATEGY_PYTHON:
                self.adapters[i] = spec[1]
                self.players[i].python = <void*>spec[1]
            else:
                self.players[i].param0 = spec[1] if len(spec) > 1 else 0
                self.players[i].param1 = spec[2] if len(spec) > 2 else 0
                self.players[i].param2 = spec[3] if len(spec) > 3 else 0
        self.error = None

    def __reduce__(self):
        return Engine, (self.config, self.specs)

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

    cdef void _play_index(self, Table* table, Context* context, uint64_t key0, uint64_t key1,
                          uint64_t index, int dealer, Record* record) noexcept nogil:
        cdef Rng rng
        cdef uint8_t deck[52]
        context.hand_index = index
        context.aborted = False
        table.context = context
        seed_rng(&rng, hand_key(key0, key1, index))
        shuffled_deck(&rng, deck)
        if dealer < 0:
            dealer = below(&rng, 2)
        _deal(table, deck, dealer, &self.rules)
        _play(table, &self.rules, self.players, &rng, record)

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
        cdef Table table
        cdef Context context
        self._context(&context)
        with nogil:
            for i in range(count):
                self._play_index(&table, &context, key0, key1, first + i, -1, &out[i])
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
        cdef Table table
        cdef Context context
        cdef Record record
        self._context(&context)
        with nogil:
            for i in range(count):
                self._play_index(&table, &context, key0, key1, first + i, -1, &record)
                if context.aborted:
                    break
                cell = _cell(&record)
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

    def play_record(self, uint64_t key0, uint64_t key1, uint64_t index, int dealer=-1, int score0=0,
                    int score1=0):
        """One hand's record as a tuple in ``RECORD_COLUMNS`` order (dealer -1: drawn at random);
        ``score0``/``score1`` are the match scores the strategies may see."""
        cdef Table table
        cdef Context context
        cdef Record record
        self._context(&context)
        context.scores[0] = score0
        context.scores[1] = score1
        with nogil:
            self._play_index(&table, &context, key0, key1, index, dealer, &record)
        self._raise(index)
        return tuple(_record_row(index, record).values())

    def play_traced(self, uint64_t key0, uint64_t key1, uint64_t index, deck=None, dealer=None):
        """Play one hand with its full trace; the same hand as ``index`` of ``play_hands`` by default.

        With ``deck`` (52 card indices, the top first) and ``dealer`` the deal is given instead of
        drawn; the strategies still take their choices from the hand's stream. Returns a dict with
        the record, the deal, the events as (kind name, player, card) and the final hands.
        """
        cdef Rng rng
        cdef uint8_t order[52]
        cdef int i, first_dealer
        cdef Table table
        cdef Context context
        cdef Record record
        seed_rng(&rng, hand_key(key0, key1, index))
        shuffled_deck(&rng, order)
        first_dealer = below(&rng, 2)
        if deck is not None:
            for i in range(52):
                order[i] = deck[i]
            first_dealer = dealer
        capacity = TRACE_FIXED + 2 * MAX_TURNS + self.rules.max_reshuffles
        events = np.zeros(capacity * sizeof(Event), dtype=np.uint8)
        cdef uint8_t[::1] event_bytes = events
        self._context(&context)
        context.trace = <Event*>&event_bytes[0]
        context.trace_capacity = capacity
        context.hand_index = index
        table.context = &context
        _deal(&table, order, first_dealer, &self.rules)
        dealt = (table.held[0], table.held[1])
        with nogil:
            _play(&table, &self.rules, self.players, &rng, &record)
        self._raise(index)
        trace = [(EVENT_NAMES[context.trace[i].kind], context.trace[i].player, context.trace[i].card)
                 for i in range(context.trace_size)]
        return {
            "record": {**_record_row(index, record), "outcome": OUTCOME_NAMES[record.outcome]},
            "deck": [order[i] for i in range(52)],
            "dealt": dealt,
            "events": trace,
            "final": (table.held[0], table.held[1]),
            "knocker_sets": record.knocker_sets,
            "laid_off_cards": record.laid_off_cards,
            "stock_left": _stock_size(&table),
        }
