"""``ginsim.gin.GameState``: an open Gin hand stepped one numbered action at a time, tested from the rules
(docs/rules.md) and the documented API (``ginsim.gin.game.state``, ``ginsim.gin.game.actions``), not from the code.

- Replay: the moves a hand of ``play_hand`` took (``HandResult.actions``, each recorded new stock passed
  with ``new_stock`` on the discard that reshuffles), applied to ``GameState.deal`` of the same hand, end
  in the same ``HandResult``, field by field: every native strategy (Monte-Carlo ones on a few hands) in
  both seats, every preset and big gin rules; a deal with a given dealer is the same deck.
- Legal moves: ``legal_actions()``, ``legal_mask()`` and ``is_legal`` agree for all 107 actions and with
  the rules (§4-§6: take or refuse; any held card but one just taken from the pile; a knock within the
  hand's limit; big gin with eleven melded cards when the rules have it). Every legal action applies;
  every illegal one raises a one-line ``InputError`` naming it and leaves the state exactly as it was.
- Invariants and transitions at every step of random play: the 52 cards, the hand sizes of each phase,
  the order of play (the offer to the non-dealer then the dealer, the non-dealer's draw when both
  refuse, the other player's draw after a discard), what each move does to the hands, pile, stock and
  events, the stock floor (a drawn hand, or a reshuffle), and the finished hand passes the independent
  replayer ``tests/reference/gin_replay.py``.
- ``clone()``, ``determinize()`` (the player's view and options kept; the opponent's hand consistent with
  what the player saw; the same seed, the same guess; two positions the player cannot tell apart give
  the same guess), ``play_out()``, ``from_cards()`` (its phases and each validation error) and
  ``view()`` (equal to what a Python strategy is shown at the same decision of ``play_hand``).

Every random choice derives from the run's ``test_seed`` (``seed_for`` / ``rng``): any seed passes.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import gincore
from gincore import FULL_DECK, InputError, cards_of, deadwood, parse_cards
from ginsim import GameState, HandResult, Rules, Strategy, View, play_hand
from ginsim.gin import Phase
from ginsim.gin.game.actions import BIG_GIN, DISCARD, KNOCK, NUM_ACTIONS, REFUSE, TAKE
from ginsim.gin.game.players import resolve_players
from tests.conftest import PRESET_NAMES, rule_sets
from tests.reference.gin_replay import knock_limit_of, replay

NATIVE = ("random", "simple", "greedy", "threshold:5", "gin", "defensive", "marjj")
MONTE_CARLO = ("sampler:4", "search:4")
RULE_SETS = rule_sets(*PRESET_NAMES, "big-gin", "reshuffle-3-floor-0")
WALK_RULES = rule_sets("standard", "big-gin", "straight-big-gin", "oklahoma-only", "floor-0", "reshuffle-2")
HANDS_PER_PAIRING = 25  # 49 ordered pairings of NATIVE under each of the 9 rule sets: 11,025 hands
NO_REPLAY_FIELDS = ("players",)  # a stepped state does not know who chose its moves


# --- helpers ----------------------------------------------------------------------------------------


def bit(card: int) -> int:
    return 1 << card


def mask_of(cards: Sequence[int]) -> int:
    return sum(1 << card for card in cards)


def text(mask: int) -> str:
    return gincore.format_cards(mask)


def events_of(state: GameState) -> tuple[tuple[str, int, int], ...]:
    """The state's events as (kind, player, card), -1 where none applies (as ``HandResult.events``)."""
    return tuple((kind, -1 if player == gincore.NO_PLAYER else player, -1 if card == gincore.NO_CARD else card)
                 for kind, player, card in state.events())


def moves_of(result: HandResult) -> list[tuple[int, tuple[int, ...] | None]]:
    """The moves of a played hand read off its events (written here from the action table, not with
    ``actions_of``), each with the new stock when it is the discard after which the pile is
    reshuffled. Both players passing the upcard is followed by the non-dealer's draw, which is no move."""
    moves: list[list[Any]] = []
    stocks = iter(result.reshuffles)
    previous = ""
    for kind, _, card in result.events:
        if kind in ("take_upcard", "draw_discard"):
            moves.append([TAKE, None])
        elif kind == "pass_upcard":
            moves.append([REFUSE, None])
        elif kind == "draw_stock":
            if previous != "pass_upcard":
                moves.append([REFUSE, None])
        elif kind == "discard":
            moves.append([DISCARD + card, None])
        elif kind in ("knock", "gin"):
            moves.append([KNOCK + card, None])
        elif kind == "big_gin":
            moves.append([BIG_GIN, None])
        elif kind == "reshuffle":
            assert previous == "discard", f"a reshuffle after {previous!r}"
            moves[-1][1] = next(stocks)
        previous = kind
    assert next(stocks, None) is None, "more new stocks than reshuffle events"
    return [(action, stock) for action, stock in moves]


def apply_move(state: GameState, action: int, stock: Sequence[int] | None = None) -> None:
    if stock is None:
        state.apply(action)
    else:
        state.apply(action, new_stock=list(stock))


def differing(got: HandResult, want: HandResult, skip: Sequence[str] = NO_REPLAY_FIELDS) -> dict[str, Any]:
    return {field.name: (getattr(got, field.name), getattr(want, field.name))
            for field in dataclasses.fields(HandResult)
            if field.name not in skip and getattr(got, field.name) != getattr(want, field.name)}


def replay_problem(played: HandResult, state: GameState, skip: Sequence[str] = NO_REPLAY_FIELDS) -> str:
    """Apply ``played``'s moves to ``state``: '' when it ends in the same result (but the fields
    ``skip``), else what went wrong."""
    moves = moves_of(played)
    if tuple(action for action, _ in moves) != played.actions:
        return f"HandResult.actions {played.actions} are not the moves of its events {moves}"
    for step, (action, stock) in enumerate(moves):
        if state.done or not state.is_legal(action):
            return f"move #{step} ({action}) is illegal in {state!r}"
        try:
            apply_move(state, action, stock)
        except InputError as error:
            return f"move #{step} ({action}, new stock {stock}) raises: {error}"
    if not state.done:
        return f"the moves end and the hand goes on: {state!r}"
    wrong = differing(state.result, played, skip)
    return f"fields differ (replayed, played): {wrong}" if wrong else ""


@dataclasses.dataclass(frozen=True)
class Table:
    """What is on the table, read through the public API."""

    phase: Phase
    player: int
    dealer: int
    hands: tuple[int, int]
    pile: tuple[int, ...]
    stock: tuple[int, ...]
    events: tuple[tuple[str, int, int], ...]
    reshuffles: int
    turns: int

    @classmethod
    def of(cls, state: GameState) -> Table:
        return cls(state.phase, state.player, state.dealer, state.hands, state.pile, state.stock, events_of(state),
                   len(state.reshuffled_stocks()), state.turns)


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything observable of a state (its stream aside: see ``same_stream``)."""
    return (Table.of(state), state.done, state.drawn_card, state.upcard, state.knock_limit,
            tuple(map(tuple, state.reshuffled_stocks())), state.view(0), state.view(1),
            state.legal_mask().tobytes(), state.result)


def quick_look(state: GameState) -> tuple[Any, ...]:
    """The table at a glance (``snapshot`` in full costs more)."""
    return (state.phase_index, state.player, state.hands, state.pile, state.stock, state.turns, state.drawn_card,
            len(state.events()), state.view(state.player))


def choose(state: GameState, rng: np.random.Generator) -> int:
    """A move for random play that still reaches every ending: in the discard phase mostly a
    least-deadwood discard, going out when it can; otherwise any legal move."""
    legal = state.legal_actions()
    if state.phase is Phase.DISCARD and rng.random() < 0.8:
        hand = state.hands[state.player]
        outs = [action for action in legal if action >= KNOCK]
        gins = [action for action in outs if action == BIG_GIN or deadwood(hand & ~bit(action - KNOCK)) == 0]
        if gins and rng.random() < 0.9:
            return int(rng.choice(gins))
        if outs and rng.random() < 0.2:
            return int(rng.choice(outs))
        return min((action for action in legal if action < KNOCK),
                   key=lambda action: (deadwood(hand & ~bit(action)), rng.random()))
    return int(rng.choice(legal))


def step_randomly(state: GameState, rng: np.random.Generator, steps: int, *, keep_going: bool = False) -> list[int]:
    """Up to ``steps`` random moves, never the one that ends the hand unless ``keep_going``."""
    taken = []
    for _ in range(steps):
        if state.done:
            break
        action = choose(state, rng)
        if not keep_going:
            trial = state.clone()
            trial.apply(action)
            if trial.done:
                break
        state.apply(action)
        taken.append(action)
    return taken


def finish_randomly(state: GameState, rng: np.random.Generator) -> list[int]:
    return step_randomly(state, rng, 10_000, keep_going=True)


def expected_legal(state: GameState) -> set[int]:
    """The legal moves by the rules (docs/rules.md#the-upcard-offer to #knock-gin-and-big-gin), from the
    mover's view and the rules."""
    if state.done:
        return set()
    if state.phase in (Phase.OFFER, Phase.DRAW):
        return {TAKE, REFUSE}
    rules = state.rules
    view = state.view(state.player)
    hand = view.hand
    limit = knock_limit_of(rules, view.upcard)
    allowed = [card for card in cards_of(hand) if not (view.drawn_from_pile and card == view.drawn_card)]
    legal = {DISCARD + card for card in allowed}
    legal |= {KNOCK + card for card in allowed if deadwood(hand & ~bit(card)) <= limit}
    if rules.big_gin_bonus is not None and deadwood(hand) == 0:
        legal.add(BIG_GIN)
    return legal


def deal_position(deck: Sequence[int], dealer: int) -> tuple[list[int], list[int], list[int]]:
    """The hands, pile and stock of a deal from ``deck`` (top first): ten cards each alternately from
    the non-dealer, the 21st card the upcard, the rest the stock (docs/rules.md#the-deal)."""
    hands = [0, 0]
    for i in range(20):
        hands[(1 - dealer) if i % 2 == 0 else dealer] |= bit(deck[i])
    return hands, [deck[20]], list(deck[21:])


def from_deck(rules: Rules, deck: Sequence[int], dealer: int) -> GameState:
    hands, pile, stock = deal_position(deck, dealer)
    return GameState.from_cards(rules, hands, pile, stock, dealer)


# --- 1. replaying play_hand -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_replayed_actions_end_in_the_played_result(name: str, seed_for: Callable[[str], int]) -> None:
    """Every native strategy in both seats: the recorded moves on the same deal give the same hand."""
    rules = RULE_SETS[name]
    failures = []
    reshuffled = hands = 0
    for players in itertools.product(NATIVE, repeat=2):
        seed = seed_for(f"game-state/replay/{name}/{players}")
        for index in range(HANDS_PER_PAIRING):
            played = play_hand(rules, players, seed, index)
            problem = replay_problem(played, GameState.deal(rules, seed, index))
            hands += 1
            reshuffled += bool(played.reshuffles)
            if problem:
                failures.append(f"play_hand({name!r} rules, {players}, seed={seed}, index={index}): {problem}")
    assert not failures, f"{len(failures)} of {hands} hands replay differently; first: {failures[0]}"
    if rules.exhaustion == "reshuffle":
        assert reshuffled > 0, "no hand reshuffled: the new_stock path went untested"


@pytest.mark.parametrize("strategy", MONTE_CARLO)
def test_replayed_monte_carlo_hands(strategy: str, seed_for: Callable[[str], int]) -> None:
    failures = []
    for name, opponent in itertools.product(("standard", "oklahoma", "reshuffle", "big-gin"),
                                            ("random", "simple", "marjj")):
        rules = RULE_SETS[name]
        for players in ((strategy, opponent), (opponent, strategy)):
            seed = seed_for(f"game-state/replay-mc/{name}/{players}")
            for index in range(4):
                played = play_hand(rules, players, seed, index)
                problem = replay_problem(played, GameState.deal(rules, seed, index))
                if problem:
                    failures.append(f"play_hand({name!r} rules, {players}, seed={seed}, index={index}): {problem}")
    assert not failures, f"{len(failures)} hands replay differently; first: {failures[0]}"


def test_a_deal_with_a_given_dealer_is_the_same_deck(seed_for: Callable[[str], int]) -> None:
    """``dealer=`` deals the same deck from that seat; play_hand of that deck replays on it."""
    seed = seed_for("game-state/dealer")
    rules = Rules()
    for index in range(20):
        natural = GameState.deal(rules, seed, index)
        for dealer in (0, 1):
            state = GameState.deal(rules, seed, index, dealer=dealer)
            assert state.deck == natural.deck and len(state.deck) == 52 and sorted(state.deck) == list(range(52))
            assert (state.dealer, state.player, state.phase) == (dealer, 1 - dealer, Phase.OFFER)
            hands, pile, stock = deal_position(state.deck, dealer)
            assert (state.hands, state.pile, state.stock) == (tuple(hands), tuple(pile), tuple(stock))
            assert state.hands == (natural.hands if dealer == natural.dealer else natural.hands[::-1])
            played = play_hand(rules, "simple,greedy", seed, index, deck=list(state.deck), dealer=dealer)
            problem = replay_problem(played, state, skip=("players", "seed"))  # a given deck has no seed
            assert not problem, f"seed {seed}, index {index}, dealer {dealer}: {problem}"
            assert state.result is not None and state.result.seed == seed and played.seed is None


def test_match_scores_reach_the_views() -> None:
    state = GameState.deal(Rules(), 3, 1, scores=(30, 70))
    assert state.view(0).scores == state.view(1).scores == (30, 70)
    assert GameState.deal(Rules(), 3, 1).view(0).scores == (0, 0)
    with pytest.raises(InputError):
        GameState.deal(Rules(), 3, 1, scores=(-1, 0))
    with pytest.raises(InputError):
        GameState.deal(Rules(), 3, 1, dealer=2)
    with pytest.raises(InputError):
        GameState.deal(Rules(), 3, -1)


# --- 2. legal moves ---------------------------------------------------------------------------------------


def check_legal_moves(state: GameState, where: str) -> None:
    """The three views of the legal moves agree with each other and with the rules; each legal move
    applies; each illegal one raises a one-line InputError naming it and changes nothing."""
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,), where
    legal = state.legal_actions()
    assert legal == [action for action in range(NUM_ACTIONS) if mask[action]], where
    assert [bool(state.is_legal(action)) for action in range(NUM_ACTIONS)] == mask.tolist(), where
    assert set(legal) == expected_legal(state), f"{where}: legal {legal}, by the rules {sorted(expected_legal(state))}"
    assert not any(state.is_legal(action) for action in (-1, NUM_ACTIONS, 255, 1000)), where
    before = snapshot(state)
    quick = quick_look(state)
    for action in [*range(NUM_ACTIONS), -1, NUM_ACTIONS, 10**6]:
        if 0 <= action < NUM_ACTIONS and mask[action]:
            state.clone().apply(action)
            continue
        try:
            state.apply(action)
        except InputError as error:
            message = str(error)
            assert re.search(rf"(?<![\d-]){action}(?!\d)", message) and "\n" not in message, \
                f"{where}: illegal action {action}: {message!r}"
        else:
            raise AssertionError(f"{where}: illegal action {action} applied")
        assert quick_look(state) == quick, f"{where}: the illegal action {action} changed the state"
    for junk in ("5", None, [1]):
        with pytest.raises(InputError):
            state.apply(junk)
    assert snapshot(state) == before, f"{where}: an illegal action changed the state"


@pytest.mark.parametrize("name", list(WALK_RULES))
def test_legal_moves_agree_at_every_step(name: str, seed_for: Callable[[str], int],
                                         rng: np.random.Generator) -> None:
    rules = WALK_RULES[name]
    seed = seed_for(f"game-state/legal/{name}")
    for index in range(4):
        state = GameState.deal(rules, seed, index)
        while True:
            check_legal_moves(state, f"{name} rules, deal (seed={seed}, index={index}), {state!r}")
            if state.done:
                break
            state.apply(choose(state, rng))


def test_actions_may_be_numpy_integers() -> None:
    state = GameState.deal(Rules(), 1, 5)
    state.apply(np.int64(TAKE))
    assert state.phase is Phase.DISCARD
    card = state.legal_actions()[0]
    assert state.is_legal(np.int32(card))
    state.apply(np.uint8(card))
    assert state.phase is Phase.DRAW


def test_apply_refuses_a_float_action() -> None:
    """An action is an integer; ``apply(104.7)`` must not take the upcard (it does: 104.7 -> 104)."""
    state = GameState.deal(Rules(), 1, 5)
    before = snapshot(state)
    with pytest.raises(InputError):
        state.apply(float(TAKE) + 0.7)
    assert snapshot(state) == before


# --- 3. invariants and transitions ----------------------------------------------------------------------


def face_down_card(state: GameState) -> int:
    """The knocker's face-down discard of a finished hand, from its last event (-1 if none)."""
    if not state.done:
        return -1
    kind, _, card = events_of(state)[-1]
    return card if kind in ("knock", "gin") else -1


def check_invariants(state: GameState, where: str) -> None:
    rules = state.rules
    hands, pile, stock = state.hands, state.pile, state.stock
    down = face_down_card(state)
    places = [hands[0], hands[1], mask_of(pile), mask_of(stock), bit(down) if down >= 0 else 0]
    count = hands[0].bit_count() + hands[1].bit_count() + len(pile) + len(stock) + (down >= 0)
    union = 0
    for place in places:
        assert not union & place, f"{where}: {text(union & place)} in two places"
        union |= place
    assert union == FULL_DECK and count == 52, f"{where}: {count} cards, missing {text(FULL_DECK & ~union)}"
    sizes = (hands[0].bit_count(), hands[1].bit_count())
    phase, player = state.phase, state.player
    if phase in (Phase.OFFER, Phase.DRAW):
        assert sizes == (10, 10), f"{where}: sizes {sizes}"
    elif phase is Phase.DISCARD:
        assert sizes[player] == 11 and sizes[1 - player] == 10, f"{where}: sizes {sizes}"
    else:
        eleven = state.result.outcome == "big_gin"
        assert sizes[player] == 10 + eleven and sizes[1 - player] == 10, f"{where}: sizes {sizes}"
    if phase in (Phase.OFFER, Phase.DRAW):
        assert len(stock) > rules.stock_floor, f"{where}: a draw is due from a stock at its floor"
    if phase is Phase.OFFER:
        assert len(pile) == 1 and len(stock) == 31 and state.turns == 0, where
    assert state.done == (phase is Phase.DONE) and (state.result is None) == (not state.done), where
    assert state.upcard == (state.deck[20] if state.deck else state.upcard)
    for seat in (0, 1):
        view = state.view(seat)
        assert (view.player, view.hand, view.discard_pile, view.stock_size, view.dealer, view.upcard) == \
            (seat, hands[seat], pile, len(stock), state.dealer, state.upcard), where
        assert view.knock_limit == knock_limit_of(rules, state.upcard) == state.knock_limit, where
        assert view.turns == state.turns, where
        mover = phase is Phase.DISCARD and seat == player
        assert view.drawn_card == (state.drawn_card if mover else -1), where
        assert view.opponent_took & ~hands[1 - seat] == 0, f"{where}: the opponent took cards it does not hold"
        assert len(view.discarded_by) == len(pile) and all(who in (0, 1) for who in view.discarded_by[1:]), where
    if phase is Phase.DISCARD:
        assert hands[player] >> state.drawn_card & 1, f"{where}: the drawn card is not held"


def expected_move(before: Table, action: int, after: Table, rules: Rules, new_stocks: list[list[int]]) -> Table:
    """The table after ``action`` by the rules (docs/rules.md#the-upcard-offer to #knock-gin-and-big-gin,
    #the-end-of-the-stock); a reshuffled stock's order is taken from the state (``new_stocks[-1]``) once
    its cards are checked."""
    p, dealer = before.player, before.dealer
    hands = list(before.hands)
    pile, stock, turns, reshuffles = before.pile, before.stock, before.turns, before.reshuffles
    events: list[tuple[str, int, int]] = []
    phase, player = Phase.DISCARD, p
    if before.phase is Phase.OFFER:
        upcard = pile[-1]
        if action == TAKE:
            events.append(("take_upcard", p, upcard))
            hands[p] |= bit(upcard)
            pile, turns = pile[:-1], turns + 1
        elif p != dealer:
            events.append(("pass_upcard", p, upcard))
            phase, player = Phase.OFFER, dealer
        else:  # both refused: the non-dealer draws from the stock
            player = 1 - dealer
            events += [("pass_upcard", p, upcard), ("draw_stock", player, stock[0])]
            hands[player] |= bit(stock[0])
            stock, turns = stock[1:], turns + 1
    elif before.phase is Phase.DRAW:
        if action == TAKE:
            events.append(("draw_discard", p, pile[-1]))
            hands[p] |= bit(pile[-1])
            pile = pile[:-1]
        else:
            events.append(("draw_stock", p, stock[0]))
            hands[p] |= bit(stock[0])
            stock = stock[1:]
        turns += 1
    elif action == BIG_GIN:
        events.append(("big_gin", p, -1))
        phase = Phase.DONE
    elif action >= KNOCK:
        card = action - KNOCK
        hands[p] &= ~bit(card)
        events.append(("gin" if deadwood(hands[p]) == 0 else "knock", p, card))
        phase = Phase.DONE
    else:
        hands[p] &= ~bit(action)
        events.append(("discard", p, action))
        pile = (*pile, action)
        phase, player = Phase.DRAW, 1 - p
        if len(stock) <= rules.stock_floor:
            if rules.exhaustion == "reshuffle" and reshuffles < rules.max_reshuffles and len(pile) > 1:
                fresh = new_stocks[-1] if len(new_stocks) > reshuffles else []
                assert sorted(fresh) == sorted(stock + pile[:-1]), \
                    f"the new stock {fresh} is not the old stock {stock} and the pile but its top {pile[:-1]}"
                stock, pile, reshuffles = tuple(fresh), pile[-1:], reshuffles + 1
                events.append(("reshuffle", -1, -1))
            if len(stock) <= rules.stock_floor:
                events.append(("drawn", -1, -1))
                phase, player = Phase.DONE, p
    return Table(phase, player, dealer, (hands[0], hands[1]), pile, stock, before.events + tuple(events),
                 reshuffles, turns)


@pytest.mark.parametrize("name", list(WALK_RULES))
def test_every_move_follows_the_rules(name: str, seed_for: Callable[[str], int], rng: np.random.Generator) -> None:
    rules = WALK_RULES[name]
    seed = seed_for(f"game-state/moves/{name}")
    endings: set[str] = set()
    for index in range(60):
        state = GameState.deal(rules, seed, index)
        assert (state.phase, state.player) == (Phase.OFFER, 1 - state.dealer)
        applied = []
        where = f"{name} rules, deal (seed={seed}, index={index})"
        check_invariants(state, where)
        while not state.done:
            before = Table.of(state)
            action = choose(state, rng)
            state.apply(action)
            applied.append(action)
            step = f"{where}, moves {applied}"
            want = expected_move(before, action, Table.of(state), rules, state.reshuffled_stocks())
            assert Table.of(state) == want, f"{step}: got {Table.of(state)}, the rules give {want}"
            if state.phase is Phase.DISCARD:
                drawn = [card for _, _, card in want.events[len(before.events):]][-1]
                assert state.drawn_card == drawn and state.view(state.player).drawn_from_pile == (action == TAKE), step
            check_invariants(state, step)
        result = state.result
        assert result.actions == tuple(applied), where
        assert [stock for _, stock in moves_of(result) if stock] == [tuple(s) for s in state.reshuffled_stocks()]
        assert (result.final_hands, result.stock_left, result.turns) == (state.hands, len(state.stock), state.turns)
        assert state.legal_actions() == [] and not state.legal_mask().any()
        if result.outcome == "draw":
            assert result.stock_left == rules.stock_floor and result.events[-1].kind == "drawn", where
        replay(result)  # the independent replayer: every event legal, every record field recomputed
        endings.add(result.outcome)
        if result.reshuffles:
            endings.add("reshuffle")
    expected = {"knock" if rules.knock_limit else "gin", "reshuffle" if rules.exhaustion == "reshuffle" else "draw"}
    assert expected <= endings, f"{name}: the walks never reached {sorted(expected - endings)}"


# --- 4. clone ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "reshuffle-2"])
def test_clones_are_independent(name: str, seed_for: Callable[[str], int], rng: np.random.Generator) -> None:
    rules = WALK_RULES[name]
    seed = seed_for(f"game-state/clone/{name}")
    for index in range(40):
        state = GameState.deal(rules, seed, index)
        step_randomly(state, rng, int(rng.integers(0, 60)))
        original = snapshot(state)
        copy = state.clone()
        assert type(copy) is GameState and copy.rules == rules and snapshot(copy) == original
        finish_randomly(copy, rng)
        assert snapshot(state) == original, "stepping a clone changed the original"
        other = state.clone()
        frozen = snapshot(other)
        actions = finish_randomly(state, rng)
        assert snapshot(other) == frozen == original, "stepping the original changed a clone"
        for action in actions:  # the clone has the same stream: its reshuffles fall the same way
            other.apply(action)
        assert other.result == state.result, differing(other.result, state.result, ())
        assert other.clone().result == state.result and snapshot(state.clone()) == snapshot(state)


# --- 5. determinize ---------------------------------------------------------------------------------------


def seen_by(state: GameState, player: int) -> int:
    """Every card ``player`` has seen: its dealt hand, the upcard, every card discarded face up and
    every card it drew from the stock."""
    seen = state.dealt[player] | bit(state.upcard)
    for kind, who, card in events_of(state):
        if kind == "discard" or (kind == "draw_stock" and who == player):
            seen |= bit(card)
    return seen


def check_determinized(state: GameState, player: int, seed: int, where: str) -> GameState:
    before = snapshot(state)
    guess = state.determinize(player, seed)
    assert snapshot(state) == before, f"{where}: determinize changed the state"
    assert type(guess) is GameState and not guess.done, where
    view = state.view(player)
    assert guess.view(player) == view, where
    if state.phase is not Phase.DISCARD or state.player == player:  # else the options are the guessed hand's
        assert (guess.legal_mask() == state.legal_mask()).all(), f"{where}: the player's options changed"
    assert (guess.phase, guess.player, guess.pile, guess.turns, guess.dealer, guess.upcard) == \
        (state.phase, state.player, state.pile, state.turns, state.dealer, state.upcard), where
    opponent = guess.hands[1 - player]
    assert guess.hands[player] == state.hands[player], where
    assert opponent.bit_count() == state.hands[1 - player].bit_count(), where
    assert opponent & view.opponent_took == view.opponent_took, f"{where}: the opponent lost a card it took"
    located = view.hand | mask_of(view.discard_pile)
    assert not opponent & located, f"{where}: the opponent holds {text(opponent & located)}, seen elsewhere"
    if not state.reshuffled_stocks():  # a reshuffle puts seen cards back where nobody knows
        unknown = opponent & ~view.opponent_took
        assert not unknown & seen_by(state, player), \
            f"{where}: the opponent is given {text(unknown & seen_by(state, player))}, which player {player} saw"
    assert len(guess.stock) == len(state.stock), where
    assert mask_of(guess.stock) | guess.hands[0] | guess.hands[1] | mask_of(guess.pile) == FULL_DECK, where
    assert len(set(guess.stock)) == len(guess.stock), where
    again = state.determinize(player, seed)
    assert (again.hands, again.stock) == (guess.hands, guess.stock), f"{where}: seed {seed} guessed twice differently"
    return guess


@pytest.mark.parametrize("name", ["standard", "big-gin", "oklahoma-only", "reshuffle-2"])
def test_determinize_keeps_what_the_player_knows(name: str, seed_for: Callable[[str], int],
                                                 rng: np.random.Generator) -> None:
    rules = WALK_RULES[name]
    seed = seed_for(f"game-state/determinize/{name}")
    varied = tried = 0
    for index in range(12):
        state = GameState.deal(rules, seed, index)
        while not state.done:
            for player in (0, 1):
                where = f"{name} rules, deal (seed={seed}, index={index}), {state!r}, player {player}"
                guesses = {check_determinized(state, player, seed + k, where).hands for k in range(2)}
                tried += 1
                varied += len(guesses) > 1
            state.apply(choose(state, rng))
        with pytest.raises(InputError):
            state.determinize(0, 1)
    assert varied > tried // 2, f"determinize guessed the same hands for {tried - varied} of {tried} positions"
    state = GameState.deal(rules, seed)
    for bad in (2, -1):
        with pytest.raises(InputError):
            state.determinize(bad, 1)


def test_determinized_states_play_on(seed_for: Callable[[str], int], rng: np.random.Generator) -> None:
    """A guess is a full position: it steps and clones by the rules, apart from its origin."""
    seed = seed_for("game-state/determinized-play")
    for index in range(30):
        state = GameState.deal(Rules(), seed, index)
        step_randomly(state, rng, int(rng.integers(0, 40)))
        original = snapshot(state)
        # for the player to move (the other one's guess, while the mover holds a hidden draw, is
        # test_determinize_forgets_the_card_the_opponent_drew)
        player = state.player if state.phase is Phase.DISCARD else int(rng.integers(2))
        guess = state.determinize(player, seed)
        where = f"a guess of deal (seed={seed}, index={index}) for player {player}"
        while True:
            check_invariants(guess, where)
            if index % 3 == 0:
                check_legal_moves(guess, where)
            if not step_randomly(guess, rng, 1):
                break
        assert snapshot(state) == original


def test_a_determinized_state_finishes_with_a_result(seed_for: Callable[[str], int],
                                                     rng: np.random.Generator) -> None:
    """``play_out`` of a guess (the use of determinize: play the guess out) returns the finished hand,
    and a guess stepped to its end has a ``result``. Today both raise IndexError: determinize empties
    ``dealt``, which ``_result`` reads."""
    seed = seed_for("game-state/determinized-result")
    state = GameState.deal(Rules(), seed, 0)
    step_randomly(state, rng, 6)
    guess = state.determinize(0, seed)
    stepped = guess.clone()
    result = guess.play_out("simple,greedy", seed)
    assert isinstance(result, HandResult) and guess.done
    assert result.final_hands == guess.hands
    finish_randomly(stepped, rng)
    assert isinstance(stepped.result, HandResult)


def swapped_deck(state: GameState, deck: Sequence[int], player: int, rng: np.random.Generator) -> list[int] | None:
    """The deck ``state`` was dealt from with the cards ``player`` has never seen shuffled among their
    places (the opponent's dealt hand and the stock): the same game for ``player``."""
    hidden = FULL_DECK & ~seen_by(state, player)
    places = [i for i, card in enumerate(deck) if hidden >> card & 1]
    if len(places) < 2:
        return None
    deck = list(deck)
    cards = [deck[i] for i in places]
    for i, card in zip(places, rng.permutation(cards), strict=True):
        deck[i] = int(card)
    return deck


@pytest.mark.parametrize("name", ["standard", "big-gin", "oklahoma-only"])
def test_determinize_uses_only_the_players_information(name: str, seed_for: Callable[[str], int],
                                                      rng: np.random.Generator) -> None:
    """Two games that differ only in cards one player has never seen (where they lie in the opponent's
    hand and the stock, including what the opponent drew) give that player the same guess."""
    rules = WALK_RULES[name]
    seed = seed_for(f"game-state/boundary/{name}")
    compared = 0
    for index in range(40):
        dealt = GameState.deal(rules, seed, index)
        first = from_deck(rules, dealt.deck, dealt.dealer)
        actions = step_randomly(first, rng, int(rng.integers(0, 50)))
        player = int(rng.integers(2))
        deck = swapped_deck(first, dealt.deck, player, rng)
        if deck is None:
            continue
        second = from_deck(rules, deck, dealt.dealer)
        for action in actions:
            second.apply(action)
        where = (f"{name} rules, deal (seed={seed}, index={index}) and its cards unseen by player {player} "
                 f"shuffled: deck {deck}, moves {actions}")
        assert second.view(player) == first.view(player), f"{where}: the player could tell the games apart"
        compared += (first.hands, first.stock) != (second.hands, second.stock)
        for key in (1, seed):
            one, two = first.determinize(player, key), second.determinize(player, key)
            assert (one.hands, one.stock, one.pile) == (two.hands, two.stock, two.pile), \
                f"{where}: determinize(player={player}, seed={key}) differs: it used hidden cards"
            assert one.view(player) == two.view(player) and (one.legal_mask() == two.legal_mask()).all(), where
    assert compared >= 20, f"only {compared} pairs of games differed at all"


def test_determinize_ignores_hidden_cards_of_any_position(seed_for: Callable[[str], int],
                                                          rng: np.random.Generator) -> None:
    """The same with ``from_cards``: the opponent's unseen cards swapped with stock cards, the stock
    shuffled; the public record (pile, owners, taken, passed, turns) kept."""
    seed = seed_for("game-state/boundary-from-cards")
    rules = Rules()
    for index in range(40):
        state = GameState.deal(rules, seed, index)
        step_randomly(state, rng, int(rng.integers(1, 50)))
        if state.phase is Phase.OFFER or not state.pile:
            continue
        player = int(rng.integers(2))
        opponent = 1 - player
        view, theirs = state.view(player), state.view(opponent)
        hands = list(state.hands)
        stock = list(state.stock)
        unknown = cards_of(hands[opponent] & ~view.opponent_took)
        for card in rng.choice(unknown, size=min(3, len(unknown), len(stock)), replace=False):
            slot = int(rng.integers(len(stock)))
            hands[opponent] = hands[opponent] & ~bit(int(card)) | bit(stock[slot])
            stock[slot] = int(card)
        shuffled = [int(card) for card in rng.permutation(stock)]
        taken = [0, 0]
        taken[opponent], taken[player] = view.opponent_took, theirs.opponent_took
        passed = [0, 0]
        passed[opponent], passed[player] = view.opponent_passed, theirs.opponent_passed
        # from_cards takes the pile's bottom card for the upcard: the same (-1) owner in both positions
        common = dict(dealer=state.dealer, player=state.player, discarded_by=[-1, *view.discarded_by[1:]],
                      taken=taken, passed=passed, turns=state.turns, seed=5)
        one = GameState.from_cards(rules, list(state.hands), list(state.pile), list(state.stock), **common)
        two = GameState.from_cards(rules, hands, list(state.pile), shuffled, **common)
        assert one.view(player) == two.view(player)
        for key in (0, seed):
            first, second = one.determinize(player, key), two.determinize(player, key)
            assert (first.hands, first.stock) == (second.hands, second.stock), \
                f"deal (seed={seed}, index={index}) rebuilt with hidden cards moved: determinize differs"


def test_determinize_forgets_the_card_the_opponent_drew(seed_for: Callable[[str], int],
                                                       rng: np.random.Generator) -> None:
    """When the opponent has just drawn from the stock (unseen) and is to discard, a guess for the
    player must not keep the real drawn card: ``drawn_card`` is -1 ("unknown") or a card the opponent
    holds in the guess. Today the guess keeps the true card, often in the stock of the guess."""
    seed = seed_for("game-state/determinize-drawn")
    found = 0
    for index in range(40):
        state = GameState.deal(Rules(), seed, index)
        while not state.done:
            if state.phase is Phase.DISCARD and not state.view(state.player).drawn_from_pile:
                mover = state.player
                for key in range(3):
                    guess = state.determinize(1 - mover, key)
                    drawn = guess.view(mover).drawn_card
                    found += 1
                    assert drawn == -1 or guess.hands[mover] >> drawn & 1, (
                        f"deal (seed={seed}, index={index}), {state!r}: the guess for player {1 - mover} "
                        f"(seed {key}) says player {mover} drew {gincore.card_text(drawn)} (its real draw), "
                        f"which it does not hold in the guess: {text(guess.hands[mover])}")
            state.apply(choose(state, rng))
    assert found


# --- 6. play_out ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "big-gin", "oklahoma-only", "reshuffle-2"])
def test_play_out_finishes_by_the_rules(name: str, seed_for: Callable[[str], int], rng: np.random.Generator) -> None:
    rules = WALK_RULES[name]
    seed = seed_for(f"game-state/play-out/{name}")
    outcomes = set()
    for index in range(40):
        state = GameState.deal(rules, seed, index)
        applied = step_randomly(state, rng, 0 if index % 4 == 0 else int(rng.integers(1, 40)))
        players = [str(rng.choice(NATIVE)), str(rng.choice(NATIVE))]
        if index == 1:
            players[0] = MONTE_CARLO[int(rng.integers(2))]
        before = snapshot(state)
        first, second = state.clone(), state.clone()
        result = first.play_out(players, seed + index)
        assert snapshot(state) == before
        where = f"{name} rules, deal (seed={seed}, index={index}), moves {applied}, play_out({players})"
        assert first.done and isinstance(result, HandResult), where
        assert result.players == tuple(player.name for player in resolve_players(players)), where
        assert not differing(first.result, result), where
        assert result.events[:len(before[0].events)] == before[0].events, f"{where}: the history changed"
        assert result.actions[:len(applied)] == tuple(applied), where
        replay(result, strategies=not applied)  # the strategies' own choices only when they played it all
        assert second.play_out(",".join(players), seed + index) == result, f"{where}: not reproducible"
        outcomes.add(result.outcome)
    assert len(outcomes) >= 3, outcomes
    varied = {GameState.deal(rules, seed).play_out("random,random", key).events for key in range(6)}
    assert len(varied) > 1, "play_out ignores its seed"


class Recorder(Strategy):
    """A Python strategy that notes each view it is shown and answers at random (its own stream)."""

    name = "recorder"

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.calls: list[tuple[str, View]] = []

    def _yes(self, method: str, view: View, chance: float) -> bool:
        self.calls.append((method, view))
        return bool(self.rng.random() < chance)

    def take_upcard(self, view: View) -> bool:
        return self._yes("take_upcard", view, 0.4)

    def take_discard(self, view: View) -> bool:
        return self._yes("take_discard", view, 0.4)

    def knock(self, view: View) -> bool:
        return self._yes("knock", view, 0.6)

    def big_gin(self, view: View) -> bool:
        return self._yes("big_gin", view, 0.8)

    def discard(self, view: View) -> int:
        self.calls.append(("discard", view))
        options = view.discard_options()
        if self.rng.random() < 0.7:
            return min(options, key=view.deadwood_after)
        return int(self.rng.choice(options))


def test_play_out_takes_native_strategies_only() -> None:
    state = GameState.deal(Rules(), 2, 3)
    before = snapshot(state)
    for players in ([Recorder(0), "simple"], ["simple", Recorder(0)]):
        with pytest.raises(InputError) as caught:
            state.play_out(players, 1)
        assert "\n" not in str(caught.value)
        assert snapshot(state) == before
    with pytest.raises(InputError):
        state.play_out("simple,nonsense", 1)
    assert snapshot(state) == before


# --- 7. from_cards ----------------------------------------------------------------------------------------

NON_DEALER = "2C 3C 4C 5D 6D 7D 8H 9H TH KS"
DEALER = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"
UPCARD = "QH"


def rest_of(*used: str) -> list[int]:
    taken = 0
    for cards in used:
        taken |= parse_cards(cards)
    return cards_of(FULL_DECK & ~taken)


def position(**changes: Any) -> dict[str, Any]:
    """A fresh deal (dealer 1) as ``from_cards`` arguments, with ``changes``."""
    base: dict[str, Any] = dict(rules=Rules(), hands=[NON_DEALER, DEALER], pile=UPCARD,
                                stock=rest_of(NON_DEALER, DEALER, UPCARD), dealer=1)
    return base | changes


def test_from_cards_chooses_the_documented_phase() -> None:
    upcard = parse_cards(UPCARD).bit_length() - 1
    offer = GameState.from_cards(**position())
    assert (offer.phase, offer.player, offer.legal_actions()) == (Phase.OFFER, 0, [TAKE, REFUSE])
    assert (offer.upcard, offer.pile, offer.dealer) == (upcard, (upcard,), 1)
    assert offer.knock_limit == 10 and offer.deck == () and offer.result is None
    # the dealer to move in the offer: the non-dealer has passed, and refusing again draws for it
    second = GameState.from_cards(**position(player=1))
    assert (second.phase, second.player) == (Phase.OFFER, 1)
    assert second.view(1).opponent_passed == bit(upcard)
    top = second.stock[0]
    second.apply(REFUSE)
    assert (second.phase, second.player) == (Phase.DISCARD, 0) and second.hands[0] >> top & 1
    # ten cards each otherwise: a draw by the player named
    stock = rest_of(NON_DEALER, DEALER, UPCARD)
    draw = GameState.from_cards(**position(pile=[upcard, stock[0]], stock=stock[1:], player=1))
    assert (draw.phase, draw.player, draw.legal_actions()) == (Phase.DRAW, 1, [TAKE, REFUSE])
    assert draw.view(0).discarded_by == (-1, 0), "by default the player not about to move discarded last"
    # eleven cards: a discard, any card (nothing is known to be just taken)
    eleven = GameState.from_cards(**position(hands=[NON_DEALER + " " + UPCARD, DEALER], pile=[stock[0]],
                                             stock=stock[1:]))
    assert (eleven.phase, eleven.player) == (Phase.DISCARD, 0)
    assert set(eleven.legal_actions()) == expected_legal(eleven)
    assert set(range(DISCARD, KNOCK)) & set(eleven.legal_actions()) == set(cards_of(eleven.hands[0]))
    # Oklahoma: the first pile card sets the knock limit (docs/rules.md#oklahoma)
    for card in (0, 4, 12, 3 * 13 + 10):
        okla = GameState.from_cards(**position(rules=Rules(oklahoma=True), pile=[card], dealer=0,
                                               stock=rest_of(NON_DEALER, DEALER, gincore.card_text(card))))
        assert okla.knock_limit == knock_limit_of(Rules(oklahoma=True), card)


def test_from_cards_of_an_upcard_discarded_again_onto_an_empty_pile() -> None:
    """The dealer takes the passed upcard and, two draws later, discards it onto an empty pile: it is
    the pile's bottom card again, but a player's discard, and it still sets the Oklahoma knock limit."""
    rules = Rules(oklahoma=True)
    upcard, first, second = (parse_cards(text).bit_length() - 1 for text in (UPCARD, "AS", "2C"))
    played = GameState.from_cards(**position(rules=rules))
    for action in (REFUSE, TAKE, DISCARD + first, TAKE, DISCARD + second, TAKE, DISCARD + upcard):
        played.apply(action)
    assert (played.pile, played.phase, played.player) == ((upcard,), Phase.DRAW, 0)
    assert played.view(0).discarded_by == (1,)
    taken = [played.hands[seat] & (bit(first) if seat == 0 else bit(second)) for seat in (0, 1)]
    built = GameState.from_cards(rules, played.hands, played.pile, played.stock, 1, player=0, discarded_by=[1],
                                 taken=taken, passed=[bit(upcard), 0], turns=played.turns, upcard=upcard,
                                 discarded=[bit(second), bit(first) | bit(upcard)],
                                 ever_taken=[bit(first), bit(upcard) | bit(second)])
    for seat in (0, 1):
        assert built.view(seat) == played.view(seat)
    assert built.legal_actions() == played.legal_actions() and built.knock_limit == knock_limit_of(rules, upcard)
    # without discarded_by the bottom card is the dealt upcard, as before any move
    assert GameState.from_cards(rules, played.hands, played.pile, played.stock, 1, player=0).view(0).discarded_by \
        == (-1,)


def test_from_cards_of_a_deal_plays_like_the_deal(seed_for: Callable[[str], int]) -> None:
    seed = seed_for("game-state/from-cards-deal")
    rules = Rules()
    for index in range(30):
        dealt = GameState.deal(rules, seed, index)
        built = from_deck(rules, dealt.deck, dealt.dealer)
        assert Table.of(built) == Table.of(dealt)
        for seat in (0, 1):
            assert built.view(seat) == dataclasses.replace(dealt.view(seat), hand_index=0)
        played = play_hand(rules, "greedy,marjj", seed, index)
        problem = replay_problem(played, built, skip=("players", "seed", "hand", "deck"))  # no deal: no deck
        assert not problem, f"seed {seed}, index {index}: {problem}"
        assert built.result is not None and built.result.deck == () and built.result.seed is None


def test_from_cards_forced_endings() -> None:
    """Gin, big gin and the straight-gin limit, from positions built by hand
    (docs/rules.md#knock-gin-and-big-gin, #scoring-a-hand)."""
    eleven = "AC 2C 3C 4C 5C 6C 7D 8D 9D TD JD"
    other = "KS QS 9S 7S 5S 3S KH JH 8H 6H"
    stock = rest_of(eleven, other, "2H")
    big = dict(hands=[eleven, other], pile="2H", stock=stock, dealer=1)
    defender = deadwood(parse_cards(other))
    state = GameState.from_cards(Rules(big_gin_bonus=31), **big)
    assert BIG_GIN in state.legal_actions()
    state.apply(BIG_GIN)
    result = state.result
    assert (result.outcome, result.winner, result.knocker, result.points) == ("big_gin", 0, 0, defender + 31)
    assert result.final_hands[0] == parse_cards(eleven) and result.events[-1] == ("big_gin", 0, -1)
    plain = GameState.from_cards(Rules(), **big)
    assert not plain.is_legal(BIG_GIN)
    after = {card: deadwood(parse_cards(eleven) & ~bit(card)) for card in cards_of(parse_cards(eleven))}
    knocks = {action - KNOCK for action in plain.legal_actions() if action >= KNOCK}
    assert knocks == {card for card, left in after.items() if left <= 10}
    assert {card for card, left in after.items() if left == 0} == {0, 5, 19, 23}
    plain.apply(KNOCK + 23)
    result = plain.result
    assert (result.outcome, result.points, result.laid_off) == ("gin", defender + 25, 0)
    # straight gin (docs/rules.md#knock-gin-and-big-gin): a knock with one point of deadwood is illegal, gin is legal
    other = "QS JS 9S 7S 5S 3S KD JD 9C 7C"
    for hand, gin_with in (("AC 2C 3C 4D 5D 6D 7H 8H 9H AS KS", set()), ("AC 2C 3C 4D 5D 6D 7H 8H 9H TH KS", {51})):
        layout = dict(hands=[hand, other], pile="2H", stock=rest_of(hand, other, "2H"), dealer=1)
        straight = GameState.from_cards(Rules(knock_limit=0), **layout)
        assert {action - KNOCK for action in straight.legal_actions() if action >= KNOCK} == gin_with
        assert 51 in straight.legal_actions()
        standard = GameState.from_cards(Rules(), **layout)  # 2C out leaves 14
        assert standard.is_legal(KNOCK + 51) and not standard.is_legal(KNOCK + 1) and standard.is_legal(1)


FROM_CARDS_ERRORS = [
    ("overlapping hands", dict(hands=["2C 3C 4C 5D 6D 7D 8H 9H TH KS", "2C 2S 3S 4S 5S 6S 7S 8S 9S TS"]),
     "share"),
    ("a pile card held", dict(pile="2C"), "elsewhere"),
    ("a stock card twice", dict(stock=rest_of(NON_DEALER, DEALER, UPCARD)[:-1] + [0]), "elsewhere|missing|twice"),
    ("a missing card", dict(stock=rest_of(NON_DEALER, DEALER, UPCARD)[:-1]), "missing"),
    ("nine cards", dict(hands=["2C 3C 4C 5D 6D 7D 8H 9H TH", DEALER],
                        stock=rest_of(NON_DEALER, DEALER, UPCARD) + [parse_cards("KS").bit_length() - 1]),
     "ten cards"),
    ("eleven each", dict(hands=[NON_DEALER + " QH", DEALER + " JS"], pile="AC",
                         stock=rest_of(NON_DEALER, DEALER, "QH JS AC")), "ten cards"),
    ("twelve and nine", dict(hands=[NON_DEALER + " QH TS", "AS 2S 3S 4S 5S 6S 7S 8S 9S"], pile="AC",
                             stock=rest_of(NON_DEALER, DEALER, "QH AC")), "ten cards"),
    ("dealer 2", dict(dealer=2), "dealer"),
    ("dealer -1", dict(dealer=-1), "dealer"),
    ("dealer True", dict(dealer=True), "dealer"),
    ("player 2", dict(player=2), "player"),
    ("the wrong player discards", dict(hands=[NON_DEALER + " QH", DEALER], pile="AC",
                                       stock=rest_of(NON_DEALER, DEALER, "QH AC"), player=1), "player 0"),
    ("no player to draw", dict(pile="QH JH", stock=rest_of(NON_DEALER, DEALER, "QH JH")), "player"),
    ("no pile", dict(pile=[], stock=rest_of(NON_DEALER, DEALER)), "pile"),
    ("owners too short", dict(pile="QH JH", stock=rest_of(NON_DEALER, DEALER, "QH JH"), player=0,
                              discarded_by=[-1]), "discarded_by"),
    ("upcard with an owner", dict(pile="QH JH", stock=rest_of(NON_DEALER, DEALER, "QH JH"), player=0,
                                  discarded_by=[0, 1]), "discarded_by"),
    ("an owner 2", dict(pile="QH JH", stock=rest_of(NON_DEALER, DEALER, "QH JH"), player=0,
                        discarded_by=[-1, 2]), "discarded_by"),
    ("taken cards not held", dict(taken=["QH", 0]), "taken"),
    ("stock at the floor", dict(pile=rest_of(NON_DEALER, DEALER)[:-2], stock=rest_of(NON_DEALER, DEALER)[-2:],
                                player=0), "floor"),
    ("stock at a floor of 0", dict(rules=Rules(stock_floor=0), pile=rest_of(NON_DEALER, DEALER), stock=[],
                                   player=0), "floor"),
    ("one hand", dict(hands=[NON_DEALER]), "two"),
    ("a mask too large", dict(hands=[1 << 52, DEALER]), "hands\\[0\\]"),
    ("bad card text", dict(hands=["2C 3C 4C 5D 6D 7D 8H 9H TH KX", DEALER]), "KX"),
    ("a card index 52", dict(stock=rest_of(NON_DEALER, DEALER, UPCARD)[:-1] + [52]), "52"),
    ("negative turns", dict(turns=-1), "turns"),
    ("negative scores", dict(scores=(-3, 0)), "scores"),
    ("taken for one seat", dict(taken=[0]), "taken"),
]


@pytest.mark.parametrize("changes, match", [case[1:] for case in FROM_CARDS_ERRORS],
                         ids=[case[0] for case in FROM_CARDS_ERRORS])
def test_from_cards_rejects_bad_positions(changes: dict[str, Any], match: str) -> None:
    with pytest.raises(InputError, match=match) as caught:
        GameState.from_cards(**position(**changes))
    assert "\n" not in str(caught.value), str(caught.value)


def test_from_cards_cases_start_from_a_valid_position() -> None:
    GameState.from_cards(**position())
    GameState.from_cards(**position(pile=rest_of(NON_DEALER, DEALER)[:-3], stock=rest_of(NON_DEALER, DEALER)[-3:],
                                    player=0))


# --- 8. view ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "big-gin", "oklahoma", "reshuffle"])
def test_views_are_what_a_python_strategy_is_shown(name: str, seed_for: Callable[[str], int]) -> None:
    """The views a Python strategy gets in ``play_hand`` are the stepped state's ``view`` at the same
    decisions: the offer, each draw, big gin (asked only when possible), the discard, and the knock
    (asked only when legal, shown the ten cards it would knock with)."""
    rules = RULE_SETS[name]
    asked = 0
    for seat in (0, 1):
        seed = seed_for(f"game-state/views/{name}/{seat}")
        for index in range(12):
            recorder = Recorder(seed + index)
            players: list[Any] = ["greedy", "random"] if index % 2 else ["simple", "marjj"]
            players[seat] = recorder
            played = play_hand(rules, players, seed, index)
            state = GameState.deal(rules, seed, index)
            expected: list[tuple[str, View]] = []
            for action, stock in moves_of(played):
                if state.player == seat:
                    view = state.view(seat)
                    if state.phase is Phase.OFFER:
                        expected.append(("take_upcard", view))
                    elif state.phase is Phase.DRAW:
                        expected.append(("take_discard", view))
                    else:
                        if rules.big_gin_bonus is not None and deadwood(view.hand) == 0:
                            expected.append(("big_gin", view))
                        if action != BIG_GIN:
                            card = action - KNOCK if action >= KNOCK else action
                            expected.append(("discard", view))
                            if deadwood(view.hand & ~bit(card)) <= view.knock_limit:
                                expected.append(("knock", dataclasses.replace(view, hand=view.hand & ~bit(card))))
                apply_move(state, action, stock)
            assert not differing(state.result, played), (name, seed, index)
            where = f"{name} rules, seed {seed}, index {index}, the recorder in seat {seat}"
            assert [method for method, _ in recorder.calls] == [method for method, _ in expected], where
            for step, ((method, shown), (_, view)) in enumerate(zip(recorder.calls, expected, strict=True)):
                assert shown == view, f"{where}: call #{step} ({method}) shown {shown}, the state's view {view}"
            asked += len(expected)
    assert asked > 200


def test_view_checks_its_player() -> None:
    state = GameState.deal(Rules(), 1, 2)
    for bad in (2, -1):
        with pytest.raises(InputError):
            state.view(bad)


# --- the stream: new_stock ----------------------------------------------------------------------------------


def reshuffling_state(rules: Rules, seed: int, rng: np.random.Generator) -> tuple[GameState, int]:
    """A state whose next discard reshuffles the pile, and that discard."""
    for index in range(200):
        state = GameState.deal(rules, seed, index)
        while not state.done:
            if (state.phase is Phase.DISCARD and len(state.stock) == rules.stock_floor
                    and len(state.reshuffled_stocks()) < rules.max_reshuffles):
                return state, min(action for action in state.legal_actions() if action < KNOCK)
            legal = state.legal_actions()
            plain = [action for action in legal if action < KNOCK or action >= TAKE] or legal
            state.apply(int(rng.choice(plain)))
    raise AssertionError(f"no reshuffle reached (seed {seed})")


def test_new_stock_is_used_and_checked(seed_for: Callable[[str], int], rng: np.random.Generator) -> None:
    rules = Rules(exhaustion="reshuffle", max_reshuffles=2)
    state, discard = reshuffling_state(rules, seed_for("game-state/new-stock"), rng)
    cards = [*state.stock, *state.pile]
    order = [int(card) for card in rng.permutation(cards)]
    given = state.clone()
    given.apply(discard, new_stock=order)
    assert given.stock == tuple(order) and given.reshuffled_stocks()[-1] == order
    assert given.pile == (discard,) and ("reshuffle", -1, -1) in events_of(given)[-2:]
    before = snapshot(state)
    for bad in (order[:-1], [*order, discard], order[:-1] + order[:1], [*order[:-1], 52]):
        with pytest.raises(InputError):
            state.apply(discard, new_stock=bad)
        assert snapshot(state) == before
    draw = GameState.deal(rules, 1, 1)
    with pytest.raises(InputError, match="does not reshuffle"):
        draw.apply(REFUSE, new_stock=order)


def same_stream(one: GameState, two: GameState, discard: int) -> bool:
    """Whether two equal states reshuffle alike on ``discard`` (their streams agree)."""
    one, two = one.clone(), two.clone()
    one.apply(discard)
    two.apply(discard)
    return one.stock == two.stock


def test_a_refused_new_stock_leaves_the_stream_as_it_was(seed_for: Callable[[str], int],
                                                         rng: np.random.Generator) -> None:
    """``apply`` that raises leaves the state as it was, its stream (the order of its next
    reshuffle) included; a bad ``new_stock`` today consumes a shuffle of the stream first."""
    rules = Rules(exhaustion="reshuffle", max_reshuffles=2)
    state, discard = reshuffling_state(rules, seed_for("game-state/new-stock-stream"), rng)
    untouched = state.clone()
    assert same_stream(state, untouched, discard)
    with pytest.raises(InputError):
        state.apply(discard, new_stock=[0])
    assert same_stream(state, untouched, discard), "the refused new_stock changed the next reshuffle"


def test_simple_discards_legally_where_the_card_it_drew_is_hidden(test_seed: int) -> None:
    """Dealt again from the other player's view, a position hides the stock card the player to move drew:
    simple then has no (drawn, discarded) pair to avoid and discards one of its cards."""
    from ginsim.gin.game.native import NativePlayers
    from ginsim.gin.game.players import Player

    rules = Rules()
    simple = NativePlayers([Player.of("simple").native(rules)] * 2)
    hidden = 0
    for index in range(30):
        state = GameState.deal(rules, test_seed, index)
        while not state.done:
            if state.phase == Phase.DISCARD:
                other = state.determinize(1 - state.player, seed=index)
                if other.drawn_card == -1:
                    hidden += 1
                    action = other.choose(simple, index)
                    assert action in [move.number for move in other.moves()], (index, action)
            state.apply(state.choose(simple, index))
    assert hidden > 0
