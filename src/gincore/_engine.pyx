"""The native hand loop: deal, upcard offer, draws, discards, knock or gin, showdown and score.

A whole hand runs here without the GIL and without a Python call per turn. Each hand draws all its
randomness (who deals in a run of independent hands, the shuffle, the strategies' coin flips) from
one xoshiro256** stream keyed by (run key, hand index), so hand ``i`` of a run is the same whatever
the chunking (the stream is in ``_random.pxd``). Strategies see only what their player may see.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

cimport numpy as cnp
import numpy as np

from gincore.errors import InputError
from gincore._records import check_layout, column_names, columns_of, record_dtype, row_of

from gincore._cards cimport FULL_DECK, NO_CARD, NO_PLAYER, card_bit, card_value, shuffled_deck
from gincore._random cimport Rng, below, hand_key, next_random, pick, seed_rng, shuffle_cards
from gincore._odds cimport MODEL_WEIGHTS, Seen, model_odds, unknown_cards
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
    int target               # the match target (0: none); with it, match_value
    double* match_value      # [a * target + b]: the chance to win the match from scores a to b


cdef enum StrategyKind:
    STRATEGY_RANDOM = 0
    STRATEGY_SIMPLE = 1
    STRATEGY_GREEDY = 2
    STRATEGY_THRESHOLD = 3   # param0: the most deadwood it knocks with (0: gin only)
    STRATEGY_DEFENSIVE = 4
    STRATEGY_SAMPLER = 5     # param0: sampled deals per decision; param1: discards compared;
                             # param2: the knock threshold it plays the deals out with
    STRATEGY_PYTHON = 6      # a Python object (the slow path), called with the GIL
    STRATEGY_MARJJ = 7       # param0: its own draws within which it knocks (then it holds out for gin)
    STRATEGY_SEARCH = 8      # param0: sampled deals per decision; param1: discards compared;
                             # param2: the knock threshold of its own play-outs
    STRATEGY_PATIENT = 9     # search's own play-outs: greedy, knocking as marjj does or at param2
                             # or less (not a player of its own)

STRATEGY_KINDS = {"random": STRATEGY_RANDOM, "simple": STRATEGY_SIMPLE, "greedy": STRATEGY_GREEDY,
                  "threshold": STRATEGY_THRESHOLD, "defensive": STRATEGY_DEFENSIVE,
                  "sampler": STRATEGY_SAMPLER, "python": STRATEGY_PYTHON, "marjj": STRATEGY_MARJJ,
                  "search": STRATEGY_SEARCH}

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
    bint match               # the scores are a match's: the search values results by the match
    bint aborted             # a Python strategy failed: the hand stops at once
    int watched              # model_inputs: the player whose views are kept, at each draw decision
    Seen* seen_log
    uint64_t* truth_log      # the opponent's hand at each kept view
    int* turn_log            # the draws made before each kept view
    int log_size
    int log_capacity


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
    uint64_t took[2]         # every card each player took from the pile
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


# --- marjj: a reference player after the EAAI-21 winner (Ahmed et al., AAAI-21) ---------------------------
# Read from the published description: discards weigh the hand's deadwood, a one-draw look-ahead
# and the danger of feeding the opponent; it tracks the face-up cards the opponent took, refused and
# discarded; it knocks only on early turns, then hunts gin; it shows the arrangement that leaves the
# fewest lay-offs (the engine's showdown does that for every player). Chosen here, where the paper
# gives no number: the early turns (param0, default MARJJ_EARLY_DRAWS), the danger's price, taking a
# face-up card iff it beats the look-ahead of a stock draw, the odds from the opponent model, and
# knocking in the last draws before a drawn hand.

cdef enum:
    MARJJ_EARLY_DRAWS = 5    # own draws within which it knocks with any legal deadwood
    MARJJ_LAST_DRAWS = 2     # stock cards left above the floor when it knocks whatever the turn

# Deadwood it pays to keep a sure meld card from the opponent: 1.5 won more matches against simple
# and gin than 0, 3, 6 or 12 (2,000-3,000 matches each, early draws 4-6).
cdef double MARJJ_DANGER_POINTS = 1.5


cdef void _seen_by(Table* table, int me, Seen* seen) noexcept nogil:
    """What ``me`` has seen of the hand: the model's inputs, read off the public record only."""
    cdef int opponent = 1 - me
    seen.mine = table.held[me]
    seen.pile = table.in_pile
    seen.holds = table.from_pile[opponent]
    seen.took = table.took[opponent]
    seen.discarded = table.discarded[opponent]
    seen.passed = table.passed[opponent]
    seen.size = popcount64(table.held[opponent])


cdef void _odds_for(Table* table, int me, double* odds) noexcept nogil:
    cdef Seen seen
    _seen_by(table, me, &seen)
    model_odds(&seen, MODEL_WEIGHTS, odds)


cdef double _stock_outlook(uint64_t hand, Table* table, int me, double* odds) noexcept nogil:
    """The expected least deadwood after one draw from the stock and the best discard: each card
    ``me`` has not seen weighs by the chance it is in the stock rather than the opponent's hand."""
    cdef Seen seen
    cdef uint64_t rest
    cdef double total = 0, weight = 0, chance
    cdef int card
    _seen_by(table, me, &seen)
    rest = unknown_cards(&seen) & ~hand
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        chance = 1.0 - odds[card]
        total += chance * best_discards(hand | card_bit(card)).deadwood
        weight += chance
    return total / weight if weight > 0 else deadwood_of(hand)


cdef inline double _odd(double* odds, int card, bint exists) noexcept nogil:
    return odds[card] if exists else 0.0


cdef double _meld_chance(double* odds, int card) noexcept nogil:
    """The chance the opponent holds cards that meld with ``card``: two more of its rank, or the
    suit neighbours of a run through it (the odds taken as independent)."""
    cdef int rank = card % 13, i, other, count = 0
    cdef double p[3]
    cdef double p_set, p_run, a, b, c, d
    for i in range(4):
        other = 13 * i + rank
        if other != card:
            p[count] = odds[other]
            count += 1
    p_set = p[0] * p[1] + p[0] * p[2] + p[1] * p[2] - 2 * p[0] * p[1] * p[2]
    a = _odd(odds, card - 2, rank >= 2)
    b = _odd(odds, card - 1, rank >= 1)
    c = _odd(odds, card + 1, rank <= 11)
    d = _odd(odds, card + 2, rank <= 10)
    p_run = 1 - (1 - a * b) * (1 - b * c) * (1 - c * d)
    return 1 - (1 - p_set) * (1 - p_run)


cdef bint _marjj_knocks(Table* table, HandRules* rules, int early, int left) noexcept nogil:
    """Gin always; any legal knock in its first ``early`` draws or the last draws before a drawn hand."""
    return left == 0 or table.turns <= 2 * early or _stock_size(table) <= rules.stock_floor + MARJJ_LAST_DRAWS


cdef double _marjj_cost(Table* table, int me, uint64_t hand, int card, double* odds) noexcept nogil:
    """What discarding ``card`` from the 11-card ``hand`` costs: the expected deadwood after the
    next stock draw, plus the danger's price (the chance the opponent melds it, in points)."""
    return _stock_outlook(hand ^ card_bit(card), table, me, odds) + MARJJ_DANGER_POINTS * _meld_chance(odds, card)


cdef int _marjj_discard(Table* table, HandRules* rules, int me, Player* who, Rng* rng, uint64_t candidates,
                        bint* goes_out) noexcept nogil:
    """Knock when its rule says so (the highest card of the least deadwood face down), else the
    cheapest discard by ``_marjj_cost`` (ties at random)."""
    cdef double odds[52]
    cdef uint64_t hand = table.held[me], rest, chosen = 0
    cdef int least, card
    cdef double cost, best = 1e300
    rest = _least_deadwood_among(hand, candidates, &least)
    goes_out[0] = least <= table.knock_limit and _marjj_knocks(
        table, rules, who.param0 if who.param0 > 0 else MARJJ_EARLY_DRAWS, least)
    if goes_out[0]:  # the discard goes face down: the highest card among the least deadwood
        return lowest_card(_greedy_discard(table, me, candidates, rng))
    _odds_for(table, me, odds)
    rest = candidates
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        cost = _marjj_cost(table, me, hand, card, odds)
        if cost < best - 1e-9:
            best = cost
            chosen = card_bit(card)
        elif cost <= best + 1e-9:
            chosen |= card_bit(card)
    return lowest_card(pick(rng, chosen))


cdef bint _marjj_takes(Table* table, int me, int card) noexcept nogil:
    """Take the face-up card iff the least deadwood after taking it beats a stock draw's outlook."""
    cdef double odds[52]
    cdef uint64_t hand = table.held[me], taken = hand | card_bit(card)
    cdef int least
    _least_deadwood_among(taken, taken & ~card_bit(card), &least)
    if least >= deadwood_of(hand):
        return False
    _odds_for(table, me, odds)
    return least < _stock_outlook(hand, table, me, odds)


cdef void _log_view(Table* table, int player) noexcept nogil:
    """Keep what ``player`` has seen and the opponent's actual hand (for ``model_inputs``)."""
    cdef Context* context = table.context
    if context.log_size < context.log_capacity:
        _seen_by(table, player, &context.seen_log[context.log_size])
        context.truth_log[context.log_size] = table.held[1 - player]
        context.turn_log[context.log_size] = table.turns
        context.log_size += 1


cdef bint _takes_face_up(Table* table, HandRules* rules, int player, Player* who, Rng* rng, int card,
                         bint offer) noexcept nogil:
    cdef uint64_t hand = table.held[player]
    if table.context.log_capacity and player == table.context.watched:
        _log_view(table, player)
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
    if who.kind == STRATEGY_MARJJ:
        return _marjj_takes(table, player, card)
    if who.kind == STRATEGY_SEARCH:
        return _search_takes(table, rules, player, who, rng, card, offer)
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
    if who.kind == STRATEGY_MARJJ:
        return _marjj_discard(table, rules, player, who, rng, candidates, goes_out)
    if who.kind == STRATEGY_SEARCH:
        return _search_discard(table, rules, player, who, rng, candidates, goes_out)
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
        elif who.kind == STRATEGY_PATIENT:
            goes_out[0] = left <= who.param2 or _marjj_knocks(table, rules, SEARCH_PATIENT_DRAWS, left)
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


cdef void _new_stock(Table* table, uint8_t* cards, int count, Rng* rng) noexcept nogil:
    """Shuffle ``cards`` and make them the stock, top first."""
    cdef int i
    shuffle_cards(rng, cards, count)
    for i in range(count):
        table.stock[i] = cards[i]
    table.stock_top = 0
    table.stock_end = count


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
    _new_stock(table, cards, size, rng)
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
        table.took[player] |= card_bit(card)
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
# The same for an opponent that holds out for gin (marjj's or gin's hands, measured likewise): the
# search draws its opponents' hands near these. Against Simple's weaker hands this still won more.
cdef int PATIENT_DEADWOOD[17]
PATIENT_DEADWOOD[:] = [53, 42, 34, 29, 24, 21, 17, 13, 11, 9, 8, 7, 6, 5, 4, 4, 3]

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
    world.held[opponent] = known
    for i in range(need):
        world.held[opponent] |= card_bit(chosen[i])
    _new_stock(world, &chosen[need], count - need, rng)


cdef int _score_for(Record* record, int me) noexcept nogil:
    if record.winner < 0:
        return 0
    return record.points if record.winner == me else -record.points


cdef int _worlds(Player* who) noexcept nogil:
    return max(1, min(who.param0, <int>MAX_SAMPLES))


cdef bint _sampler_takes(Table* table, HandRules* rules, int me, Player* who, Rng* rng) noexcept nogil:
    """Take the face-up card iff that scores more on average over the sampled deals."""
    cdef Context quiet
    cdef Table world
    cdef int sample
    cdef double take = 0, stock = 0
    cdef Player players[2]
    _rollout_players(players, who, me)
    memset(&quiet, 0, sizeof(Context))
    for sample in range(_worlds(who)):
        _sample_deal(&world, table, me, rng, &quiet)
        _face_up_values(&world, rules, players, me, False, rng, &quiet, &take, &stock)
    return take > stock


cdef int _sampler_discard(Table* table, HandRules* rules, int me, Player* who, Rng* rng,
                          uint64_t candidates, bint* goes_out) noexcept nogil:
    """Compare the best few discards, each with and without knocking when legal, over sampled deals."""
    cdef int options[2 * MAX_CANDIDATES]
    cdef bint knocks[2 * MAX_CANDIDATES]
    cdef double totals[2 * MAX_CANDIDATES]
    cdef int keys[MAX_CANDIDATES]
    cdef int count = 0, option_count, card, key, i, sample, best
    cdef int limit = max(1, min(who.param1, <int>MAX_CANDIDATES))
    cdef uint64_t hand = table.held[me], rest = candidates
    cdef Context quiet
    cdef Table world
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
        _discard_values(&world, rules, players, me, options, knocks, option_count, rng, &quiet, totals)
    best = _best_option(totals, option_count)
    goes_out[0] = knocks[best]
    return options[best]


# --- search: determinised Monte-Carlo over deals drawn from the opponent model ---------------------------
# At a draw (the upcard offer included) and at a discard it deals the cards it has not seen again
# (param0 times), the opponent's hand drawn from the opponent model's odds and near the deadwood a
# patient opponent has by then, plays each option out to the end of the hand with patient
# policies (itself greedy, knocking in its first SEARCH_PATIENT_DRAWS draws or at param2 or less,
# else only gin; the opponent as Simple, who knocks at once), and takes the option of the best
# mean value: in a match, the chance to win the match after the hand (so a knock is worth more
# or less near the target); otherwise the points. Every option of a decision plays out on the
# same deals with the same randomness. The options: taking or refusing a face-up card that
# lowers its deadwood (any other is refused); marjj's cheapest discard and up to param1 - 1 more
# within SEARCH_CLOSE of its cost; and the knock, when legal. Gin is always taken.

cdef enum:
    SEARCH_HAND_SAMPLES = 2000   # simple-vs-simple hands whose scores make the match-value table

cdef double SEARCH_CLOSE = 1.0   # discards costing more than this above marjj's choice are not searched
cdef enum:
    SEARCH_PATIENT_DRAWS = 8     # own draws within which its play-outs knock (then only gin); 8 beat 3, 5, 12, 30


cdef void _search_players(Player* players, Player* who, int me) noexcept nogil:
    """Who plays the sampled deals out: Simple for the opponent; for search itself a patient
    player, greedy, knocking as marjj does (early, then only gin) or at param2 or less."""
    memset(players, 0, 2 * sizeof(Player))
    players[1 - me].kind = STRATEGY_SIMPLE
    players[me].kind = STRATEGY_PATIENT
    players[me].param2 = who.param2


cdef void _deal_from_model(Table* world, Table* table, int me, double* odds, Rng* rng,
                           Context* quiet) noexcept nogil:
    """A copy of the table whose hidden cards are dealt again: the opponent's unknown cards drawn
    one by one in proportion to the model's odds, the rest shuffled into the stock. The odds say
    which cards, not how well they fit together: of a few such hands the one kept is the closest
    to the deadwood an opponent typically has by now (as the sampler does)."""
    cdef Seen seen
    cdef int opponent = 1 - me, count = 0, need, i, j, left, try_, gap, best_gap = 1 << 30
    cdef int target = PATIENT_DEADWOOD[min(table.turns // 2, 16)]
    cdef uint8_t hidden[52]
    cdef uint8_t order[52]
    cdef double weight[52]
    cdef double base_total = 0, total, point, swap_weight
    cdef uint64_t rest, candidate, chosen = 0
    cdef uint8_t swap
    _seen_by(table, me, &seen)
    rest = unknown_cards(&seen)
    while rest:
        hidden[count] = lowest_card(rest)
        weight[count] = odds[hidden[count]] + 1e-6
        base_total += weight[count]
        rest &= rest - 1
        count += 1
    need = seen.size - popcount64(seen.holds)
    for try_ in range(SAMPLE_TRIES):
        candidate = seen.holds
        total = base_total
        left = count
        for i in range(need):  # hidden[left:] holds the cards drawn so far, as weighted choices
            point = total * (next_random(rng) >> 11) * (1.0 / 9007199254740992.0)
            j = 0
            while j < left - 1 and point >= weight[j]:
                point -= weight[j]
                j += 1
            candidate |= card_bit(hidden[j])
            total -= weight[j]
            left -= 1
            swap = hidden[j]
            hidden[j] = hidden[left]
            hidden[left] = swap
            swap_weight = weight[j]
            weight[j] = weight[left]
            weight[left] = swap_weight
        gap = abs(deadwood_of(candidate) - target)
        if gap < best_gap:
            best_gap = gap
            chosen = candidate
        if gap <= SAMPLE_TOLERANCE:
            break
    world[0] = table[0]
    world.context = quiet
    world.held[opponent] = chosen
    rest = unknown_cards(&seen) & ~chosen
    count = 0
    while rest:
        order[count] = lowest_card(rest)
        rest &= rest - 1
        count += 1
    _new_stock(world, order, count, rng)


cdef double _value_for(HandRules* rules, Context* context, Record* record, int me) noexcept nogil:
    """What a finished hand is worth to ``me``: its chance to win the match, or signed points."""
    cdef int mine = context.scores[me], theirs = context.scores[1 - me], target = rules.target
    if not (context.match and target > 0 and rules.match_value != NULL):
        return _score_for(record, me)
    if record.winner == me:
        mine += record.points
    elif record.winner == 1 - me:
        theirs += record.points
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return rules.match_value[mine * target + theirs]


cdef double _play_out(Table* world, HandRules* rules, Player* players, TurnEnd end, int mover, int me,
                      Rng* rng, Context* context) noexcept nogil:
    """Finish a sampled deal with the play-out players; what it is worth to ``me``."""
    cdef Record record
    memset(&record, 0, sizeof(Record))
    record.multiplier = world.multiplier
    if end == TURN_CONTINUES:
        mover = 1 - mover
        end = _turns_from(world, rules, players, rng, &mover)
    _finish(world, rules, end, mover, &record)
    return _value_for(rules, context, &record, me)


cdef void _face_up_values(Table* world, HandRules* rules, Player* players, int me, bint offer, Rng* rng,
                          Context* context, double* take, double* refuse) noexcept nogil:
    """Add to ``take`` and ``refuse`` what taking and refusing the face-up card are worth to ``me``,
    each played out on a copy of the sampled deal with the same randomness."""
    cdef Table trial = world[0]
    cdef Rng saved = rng[0], branch = rng[0]
    cdef TurnEnd end
    cdef int mover
    next_random(rng)
    end = _refuse(&trial, rules, players, me, offer, &branch, &mover)
    refuse[0] += _play_out(&trial, rules, players, end, mover, me, &branch, context)
    branch = saved
    trial = world[0]
    end = _turn(&trial, rules, me, &players[me], &branch, True)
    take[0] += _play_out(&trial, rules, players, end, me, me, &branch, context)


cdef void _discard_values(Table* world, HandRules* rules, Player* players, int me, int* options, bint* knocks,
                          int count, Rng* rng, Context* context, double* totals) noexcept nogil:
    """Add to ``totals[i]`` what discarding ``options[i]`` (going out if ``knocks[i]``) is worth on
    the sampled deal, every option played out with the same randomness."""
    cdef Rng saved = rng[0], branch
    cdef int i
    next_random(rng)
    for i in range(count):
        branch = saved
        totals[i] += _discard_value(world, rules, players, me, options[i], knocks[i], &branch, context)


cdef int _best_option(double* totals, int count) noexcept nogil:
    """The first option of the highest total."""
    cdef int best = 0, i
    for i in range(1, count):
        if totals[i] > totals[best]:
            best = i
    return best


cdef double _discard_value(Table* world, HandRules* rules, Player* players, int me, int card, bint knock,
                           Rng* rng, Context* context) noexcept nogil:
    """What discarding ``card`` (going out with it if ``knock``) is worth to ``me`` on a copy of the
    sampled deal: the showdown at once, or the play-out."""
    cdef Table trial = world[0]
    cdef Record record
    cdef TurnEnd end = _discard(&trial, rules, me, card, knock, rng)
    if not knock:
        return _play_out(&trial, rules, players, end, me, me, rng, context)
    memset(&record, 0, sizeof(Record))
    record.multiplier = trial.multiplier
    _showdown(&trial, rules, me, end, &record)
    return _value_for(rules, context, &record, me)


cdef void _quiet_copy(Context* quiet, Context* context) noexcept nogil:
    """A context for the play-outs: no trace, no log, the same match scores."""
    memset(quiet, 0, sizeof(Context))
    quiet.scores[0] = context.scores[0]
    quiet.scores[1] = context.scores[1]
    quiet.match = context.match


cdef TurnEnd _refuse(Table* world, HandRules* rules, Player* players, int me, bint offer, Rng* rng,
                     int* mover) noexcept nogil:
    """Play on from ``me`` refusing the face-up card: a stock draw, or in the upcard offer the rest
    of the offer (the non-dealer refusing leaves the card to the dealer; the dealer refusing lets
    the non-dealer draw first). ``mover`` is then the player whose turn was played."""
    cdef int other = 1 - me
    world.passed[me] |= card_bit(_top(world))
    mover[0] = me
    if offer and me != world.dealer:
        if _takes_face_up(world, rules, other, &players[other], rng, _top(world), True):
            mover[0] = other
            return _turn(world, rules, other, &players[other], rng, True)
        world.passed[other] |= card_bit(_top(world))
    elif offer:
        mover[0] = other
        return _turn(world, rules, other, &players[other], rng, False)
    return _turn(world, rules, me, &players[me], rng, False)


cdef bint _search_takes(Table* table, HandRules* rules, int me, Player* who, Rng* rng, int card,
                        bint offer) noexcept nogil:
    """Take the face-up card iff taking it plays out better than refusing it on the sampled deals."""
    cdef double odds[52]
    cdef double take = 0, stock = 0
    cdef Context quiet
    cdef Table world
    cdef Player players[2]
    cdef int sample, least
    cdef uint64_t hand = table.held[me], taken = hand | card_bit(card)
    _least_deadwood_among(taken, taken & ~card_bit(card), &least)
    if least >= deadwood_of(hand):
        return False  # it could only be discarded again, or make the hand worse
    _search_players(players, who, me)
    _quiet_copy(&quiet, table.context)
    _odds_for(table, me, odds)
    for sample in range(_worlds(who)):
        _deal_from_model(&world, table, me, odds, rng, &quiet)
        _face_up_values(&world, rules, players, me, offer, rng, &quiet, &take, &stock)
    return take > stock


cdef int _search_discard(Table* table, HandRules* rules, int me, Player* who, Rng* rng,
                         uint64_t candidates, bint* goes_out) noexcept nogil:
    """The discard (and whether to knock with it) that plays out best on the sampled deals."""
    cdef double odds[52]
    cdef int options[MAX_CANDIDATES + 1]
    cdef bint knocks[MAX_CANDIDATES + 1]
    cdef double totals[MAX_CANDIDATES + 1]
    cdef double costs[MAX_CANDIDATES + 1]
    cdef double cost
    cdef int count = 0, option_count, card, i, sample, best, least
    cdef int limit = max(1, min(who.param1, <int>MAX_CANDIDATES))
    cdef uint64_t hand = table.held[me], rest = candidates, lowest
    cdef Context quiet
    cdef Table world
    cdef Player players[2]
    lowest = _least_deadwood_among(hand, candidates, &least)
    goes_out[0] = False
    if least == 0:  # gin: nothing scores more this hand
        goes_out[0] = True
        return lowest_card(lowest)
    _odds_for(table, me, odds)
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        options[count] = card
        costs[count] = _marjj_cost(table, me, hand, card, odds)
        count += 1
    for i in range(count):  # cheapest first by marjj's cost
        best = i
        for sample in range(i + 1, count):
            if costs[sample] < costs[best]:
                best = sample
        card, options[best], options[i] = options[best], options[i], options[best]
        cost, costs[best], costs[i] = costs[best], costs[i], costs[best]
    option_count = 1  # marjj's choice, and those of the next cheapest that are close to it
    while option_count < min(limit, count) and costs[option_count] <= costs[0] + SEARCH_CLOSE:
        option_count += 1
    for i in range(option_count):
        knocks[i] = False
    if least <= table.knock_limit:  # the knock: the highest card among the least deadwood, face down
        options[option_count] = lowest_card(_greedy_discard(table, me, candidates, rng))
        knocks[option_count] = True
        option_count += 1
    if option_count == 1:
        goes_out[0] = knocks[0]
        return options[0]
    for i in range(option_count):
        totals[i] = 0
    _search_players(players, who, me)
    _quiet_copy(&quiet, table.context)
    for sample in range(_worlds(who)):
        _deal_from_model(&world, table, me, odds, rng, &quiet)
        _discard_values(&world, rules, players, me, options, knocks, option_count, rng, &quiet, totals)
    best = _best_option(totals, option_count)
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
    ``max_reshuffles``, and optionally ``target``, the match target, 0 for none). ``players`` holds
    two strategies, each a code from ``STRATEGY_KINDS``, a tuple ``(code, param0, param1, param2)``, or ``(STRATEGY_KINDS["python"], adapter)`` where the adapter
    has the methods ``take_upcard``, ``take_discard``, ``discard``, ``knock`` and ``big_gin`` taking
    the player's view as a tuple, plus a ``name``. Hand ``index`` of the run keyed by (key0, key1)
    takes all its randomness from its own stream: first the shuffle, then (unless the dealer is
    given) the dealer, then the strategies' choices.
    """
    cdef HandRules rules
    cdef Player players[2]
    cdef object config
    cdef object match_values
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
        self.rules.target = config.get("target") or 0
        self.rules.match_value = NULL
        self.match_values = None
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
        if self.rules.target > 0 and STRATEGY_SEARCH in (self.players[0].kind, self.players[1].kind):
            self._value_matches()

    cdef void _value_matches(self):
        """The chance to win a match from each pair of scores below the target, for ``search``: two
        even players whose hands score as SEARCH_HAND_SAMPLES simple-vs-simple hands of these rules."""
        cdef int target = self.rules.target, a, b, k, i, top = 0
        cdef Player simple[2]
        cdef Table table
        cdef Context context
        cdef Record record
        cdef Rng rng
        cdef uint8_t deck[52]
        cdef double decided = 0, value
        share = np.zeros(target + 1)
        values = np.zeros(target * target)
        cdef double[::1] f = share, v = values
        memset(simple, 0, sizeof(simple))
        simple[0].kind = simple[1].kind = STRATEGY_SIMPLE
        memset(&context, 0, sizeof(Context))
        for i in range(SEARCH_HAND_SAMPLES):
            table.context = &context
            seed_rng(&rng, hand_key(0x6D61746368, 0x76616C7565, i))  # a fixed stream: "match", "value"
            shuffled_deck(&rng, deck)
            _deal(&table, deck, below(&rng, 2), &self.rules)
            _play(&table, &self.rules, simple, &rng, &record)
            if record.winner >= 0 and record.points > 0:
                k = min(<int>record.points, target)
                f[k] += 1
                decided += 1
                top = max(top, k)
        for k in range(top + 1):
            f[k] /= decided
        with nogil:  # each hand is won by either player with the same chance; drawn hands change nothing
            for a in range(target - 1, -1, -1):
                for b in range(target - 1, -1, -1):
                    value = 0
                    for k in range(1, top + 1):
                        if f[k] > 0:
                            value += f[k] * ((1.0 if a + k >= target else v[(a + k) * target + b])
                                             + (0.0 if b + k >= target else v[a * target + b + k]))
                    v[a * target + b] = value / 2
        self.match_values = values
        self.rules.match_value = &v[0]

    def match_value(self, int mine, int theirs):
        """The chance ``search`` gives a player to win the match from these scores (None without
        a search player or a target)."""
        if self.match_values is None:
            return None
        if mine >= self.rules.target or theirs >= self.rules.target:
            return 1.0 if mine >= self.rules.target else 0.0
        return float(self.match_values[mine * self.rules.target + theirs])

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
        context.match = True
        with nogil:
            self._play_index(&table, &context, key0, key1, index, dealer, &record)
        self._raise(index)
        return tuple(_record_row(index, record).values())

    def play_traced(self, uint64_t key0, uint64_t key1, uint64_t index, deck=None, dealer=None,
                    scores=None):
        """Play one hand with its full trace; the same hand as ``index`` of ``play_hands`` by default.

        With ``deck`` (52 card indices, the top first) and ``dealer`` the deal is given instead of
        drawn; the strategies still take their choices from the hand's stream. ``scores`` (seat 0's,
        seat 1's) makes it a hand of a match at those scores, as ``play_record``'s. Returns a dict
        with the record, the deal, the events as (kind name, player, card) and the final hands.
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
        if scores is not None:
            context.scores[0], context.scores[1] = scores
            context.match = True
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
        cdef Table table
        cdef Context context
        cdef Record record
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
                    self._play_index(&table, &context, key0, key1, first + i, -1, &record)
                self._raise(first + i)
                for j in range(context.log_size):
                    seen = <dict>context.seen_log[j]  # Cython makes a dict of the struct
                    columns["hand"].append(first + i)
                    columns["turns"].append(context.turn_log[j])
                    for name in ("size",) + names[:-1]:
                        columns[name].append(seen[name])
                    columns["opponent"].append(context.truth_log[j])
        finally:
            free(context.seen_log)
            free(context.truth_log)
            free(context.turn_log)
        return {name: np.array(values, dtype=np.uint64 if name in names else np.int64)
                for name, values in columns.items()}
