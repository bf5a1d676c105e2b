"""The game record's replay: a record is its notation (:mod:`ginsim.gin.review.notation`) played again
through :class:`~ginsim.gin.game.state.GameState`, which completes and checks it. Each written move is
made in turn from the deal: the position says whose move and which kind it is (filled in where the file
leaves them out, checked where it gives them), a traced hand's action number gets its words, a move
that is not legal is refused with one line naming the hand and the move, and the result the file
states must be the one the moves give. A :class:`~ginsim.GameRecord` holds only records so checked;
:func:`record_match` and :meth:`~ginsim.GameRecord.of_hand` make them from played games, and
:meth:`~ginsim.GameRecord.load` (or :meth:`~ginsim.GameRecord.from_json`) from files.

>>> from ginsim import Rules, play_hand
>>> record = GameRecord.of_hand(play_hand(Rules(), "simple,greedy", seed=1, index=5))
>>> hand = record.hands[0]
>>> hand.decisions[0], hand.result
(Decision(player=1, kind='offer', choice='pass'), HandOutcome(outcome=<Outcome.KNOCK: 'knock'>, winner=1, points=20))
>>> GameRecord.from_json(record.to_json()) == record
True
>>> data = record.to_json()
>>> data["hands"][0]["decisions"][1] = "pass"         # a bare choice: its player and kind are filled in
>>> GameRecord.from_json(data).hands[0].decisions[1]
Decision(player=0, kind='offer', choice='pass')
>>> data["hands"][0]["decisions"][3] = {"player": 1, "choice": "stock"}
>>> GameRecord.from_json(data)
Traceback (most recent call last):
    ...
gincore.errors.InputError: hands[0]: decisions[3]: player: it is player 0's draw, not player 1's
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

import gincore
from gincore.errors import InputError
from ginsim.core.checks import check_seed, integer, within
from ginsim.core.store import atomic_write, writable_file
from ginsim.gin.game.actions import REFUSE, TAKE, Action, MoveKind
from ginsim.gin.game.hand import HandResult, MatchContext, hand_result
from ginsim.gin.game.native import OUTCOME_NAMES, RECORD_COLUMNS, Engine, RecordRow, match_key
from ginsim.gin.game.players import PlayerSpec, engine, player_name, resolve_players
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.game.strategies import View
from ginsim.gin.review.notation import (
    Decision,
    HandOutcome,
    WrittenHand,
    WrittenMove,
    WrittenPosition,
    WrittenRecord,
    choice_text,
    read_file,
    read_record,
    write_record,
)
from ginsim.gin.studies.matches import MatchScore, play_match

if TYPE_CHECKING:
    from ginsim.gin.game.native import TracedHand

__all__ = ["KINDS", "GameRecord", "HandRecord", "Position", "apply_recorded", "choice_in", "hand_of_trace",
           "play_match_hand", "record_match", "record_row"]

KINDS: Final = {Phase.OFFER: "offer", Phase.DRAW: "draw", Phase.DISCARD: "discard"}
"""The kind of decision each phase asks for."""

_T = TypeVar("_T")


def _under(at: str, read: Callable[..., _T], *arguments: Any) -> _T:
    """``read(*arguments)``, its errors prefixed by ``at`` when the part has a place of its own in the file."""
    return within(at, read, *arguments) if at else read(*arguments)


# --- moves ----------------------------------------------------------------------------------------------

def choice_in(state: GameState, action: int) -> str:
    """The words a record writes for ``action`` made in ``state`` (a knock that leaves nothing unmelded
    is written as gin).

    >>> from ginsim import Rules
    >>> choice_in(GameState.deal(Rules(), seed=1), TAKE)
    'take'
    """
    move = Action(action)
    gin = state.phase is Phase.DISCARD and move.kind is MoveKind.KNOCK and gincore.deadwood(
        state.hands[state.player] & ~(1 << move.card)) == 0
    return choice_text(KINDS[state.phase], move.number, gin)


def _reshuffles(state: GameState, action: int) -> bool:
    """Whether ``action`` spends the stock so that the pile is shuffled into a new one."""
    if (state.phase is not Phase.DISCARD or Action(action).kind is not MoveKind.DISCARD
            or len(state.stock) > state.rules.stock_floor):
        return False
    trial: GameState = state.clone()
    before = sum(kind == "reshuffle" for kind, _, _ in trial.events())
    trial.apply(action)
    return sum(kind == "reshuffle" for kind, _, _ in trial.events()) > before


def apply_recorded(state: GameState, action: int, stocks: Iterator[tuple[int, ...]]) -> None:
    """Make ``action`` as it was made in a recorded hand: a move that shuffles the pile into a new stock
    takes the next of ``stocks`` (the hand's new stocks in order), so the hand goes on as it went."""
    if _reshuffles(state, action):
        stock = next(stocks, None)
        if stock is None:
            raise InputError("this move shuffles the pile into a new stock: add the new stock to 'reshuffles'")
        state.apply(action, new_stock=list(stock))
    else:
        state.apply(action)


def _make(state: GameState, move: WrittenMove, stocks: Iterator[tuple[int, ...]]) -> Decision:
    """Make the written ``move`` in ``state``: the decision it is, its player and kind those of the
    position (a written one must agree), a traced hand's action number put in words."""
    if state.done:
        raise InputError("the hand is already over")
    kind = KINDS[state.phase]
    if isinstance(move.choice, int):  # a traced hand's action number
        number = Action(move.choice).number
        decision = Decision(state.player, kind, choice_in(state, number))
        apply_recorded(state, number, stocks)
        return decision
    if move.player is not None and move.player != state.player:
        raise InputError(f"player: it is player {state.player}'s {kind}, not player {move.player}'s")
    if move.kind is not None and move.kind != kind:
        raise InputError(f"kind: player {state.player} has a {kind} to make here, not a {move.kind}")
    decision = Decision(state.player, kind, move.choice)
    within("choice", lambda: apply_recorded(state, decision.action, stocks))
    return decision


def _moves(decisions: Iterable[Decision]) -> list[WrittenMove]:
    return [WrittenMove(f"decisions[{position}]", decision.choice, decision.player, decision.kind)
            for position, decision in enumerate(decisions)]


def _outcome(state: GameState) -> HandOutcome | None:
    result = state.result
    return None if result is None else HandOutcome(result.outcome, result.winner, result.points)


# --- hands ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HandRecord:
    """One hand, replayed and checked: the deal, the decisions, the new stocks of any reshuffles, the
    scores before it (seat 0's, seat 1's; ``None`` outside a game to a target) and its result."""

    dealer: int
    dealt: tuple[int, int]
    upcard: int
    stock: tuple[int, ...]
    decisions: tuple[Decision, ...]
    reshuffles: tuple[tuple[int, ...], ...] = ()
    scores: tuple[int, int] | None = None
    result: HandOutcome | None = None
    hand: int = 0

    def start(self, rules: Rules) -> GameState:
        """The position at the deal: the upcard offered to the non-dealer."""
        return GameState.from_cards(rules, self.dealt, [self.upcard], list(self.stock), self.dealer,
                                    scores=self.scores)

    def replay(self, rules: Rules) -> Iterator[tuple[GameState, Decision]]:
        """Each decision with the position it was made in (a copy); the moves are checked as they go."""
        state = self.start(rules)
        stocks = iter(self.reshuffles)
        for decision, move in zip(self.decisions, _moves(self.decisions), strict=True):
            yield state.clone(), decision
            within(move.at, _make, state, move, stocks)

    def final(self, rules: Rules) -> GameState:
        """The position once every decision is made (the hand over, for a complete record)."""
        state = self.start(rules)
        _make_all(state, _moves(self.decisions), self.reshuffles)
        return state

    def traced(self, rules: Rules, players: tuple[str, str]) -> HandResult | None:
        """The hand with its full trace, the players named (None for a hand the record leaves unfinished)."""
        result = self.final(rules).result
        return None if result is None else replace(result, players=players, hand=self.hand)

    @classmethod
    def of_result(cls, result: HandResult, scores: tuple[int, int] | None = None, hand: int | None = None
                  ) -> HandRecord:
        """The record of a traced hand (``play_hand``'s, or a hand of a game)."""
        state = GameState.from_cards(result.rules, result.dealt, [result.upcard], list(result.deck[21:]),
                                     result.dealer, scores=scores)
        moves = [WrittenMove(f"actions[{position}]", action) for position, action in enumerate(result.actions)]
        decisions = _make_all(state, moves, result.reshuffles)
        outcome = HandOutcome(result.outcome, result.winner, result.points)
        if _outcome(state) != outcome:
            raise AssertionError("a traced hand replayed to another result")
        return cls(result.dealer, result.dealt, result.upcard, tuple(result.deck[21:]), decisions,
                   result.reshuffles, scores, outcome, result.hand if hand is None else hand)

    def written(self, at: str = "") -> WrittenHand:
        """The hand as the notation writes it (``at``: its place in the file)."""
        return WrittenHand(at, self.dealer, self.dealt, self.upcard, self.stock, tuple(_moves(self.decisions)),
                           self.reshuffles, self.scores, self.result, self.hand)


def _make_all(state: GameState, moves: Iterable[WrittenMove], reshuffles: Sequence[tuple[int, ...]]
              ) -> tuple[Decision, ...]:
    """Make every written move from ``state`` on (which they move to the end): the decisions they are. A new
    stock given that no move shuffled the pile into is refused: the hand was played under other rules, or
    is not the one written."""
    stocks = iter(reshuffles)
    decisions = tuple(within(move.at, _make, state, move, stocks) for move in moves)
    unused = sum(1 for _ in stocks)
    if unused and state.done:
        used = len(reshuffles) - unused
        rules = state.rules
        why = (f"{rules.label()} end a hand drawn when the stock runs down" if rules.exhaustion != "reshuffle" else
               f"{rules.label()} allow {rules.max_reshuffles} reshuffle{'s' if rules.max_reshuffles != 1 else ''} "
               "a hand")
        shuffles = ("no move of the hand shuffles the pile" if not used else
                    f"the hand shuffles the pile {'once' if used == 1 else f'{used} times'}")
        stocks_given = f"{len(reshuffles)} new stock{'s' if len(reshuffles) != 1 else ''}"
        raise InputError(f"reshuffles: the record gives {stocks_given}, but {shuffles} ({why}): was it played under "
                         "other rules?")
    return decisions


def _replayed(rules: Rules, written: WrittenHand) -> HandRecord:
    """A written hand played again from its deal: completed, checked, and its result the one it states."""
    state = within("dealt", lambda: GameState.from_cards(rules, written.dealt, [written.upcard], list(written.stock),
                                                         written.dealer, scores=written.scores))
    decisions = _make_all(state, written.moves, written.reshuffles)
    found = _outcome(state)
    stated = written.result
    if stated is not None and stated != found:
        got = ("the hand unfinished" if found is None else
               f"{found.outcome}, winner {found.winner}, {found.points} points")
        raise InputError(f"result: the record says {stated.outcome}, winner {stated.winner}, {stated.points} points; "
                         f"the decisions give {got}")
    return HandRecord(written.dealer, written.dealt, written.upcard, written.stock, decisions, written.reshuffles,
                      written.scores, found, written.hand)


# --- positions ------------------------------------------------------------------------------------------

class Position(WrittenPosition):
    """One decision as its ``player`` sees it (the fields are those of
    :class:`~ginsim.gin.review.notation.WrittenPosition`), which can be set up as a full position. The
    cards the player has not seen are placed arbitrarily: an analysis deals them again from the
    player's information.

    >>> position = Position(player=0, dealer=1, hand=gincore.parse_cards("AC 2C 3C 4D 5D 6D 9H 9S 9C KD"),
    ...                     pile=(gincore.parse_cards("QS").bit_length() - 1,))
    >>> state = position.state(Rules())
    >>> state.phase, state.player, state.view(0).hand == position.hand
    (<Phase.OFFER: 0>, 0, True)
    """

    @classmethod
    def of_view(cls, view: View, took: int = 0, passed: int = 0, discarded: tuple[int, int] = (0, 0),
                ever_taken: tuple[int, int] = (0, 0)) -> Position:
        """The position a strategy's view shows, with what a view does not say: the player's own
        face-up cards taken and still held (``took``) and refused (``passed``), and by seat every
        face-up card discarded and taken so far in the hand (``discarded``, ``ever_taken``)."""
        drawn = view.drawn_card if view.drawn_card >= 0 else None
        return cls(view.player, view.dealer, view.hand, view.discard_pile, drawn, view.drawn_from_pile,
                   view.discarded_by, took & view.hand, passed, view.opponent_took, view.opponent_passed,
                   view.turns, view.scores, upcard=view.upcard, discarded=discarded, ever_taken=ever_taken)

    @property
    def kind(self) -> str:
        """The kind of decision, ``discard`` with eleven cards, ``offer`` at the deal, else ``draw``."""
        if bin(self.hand).count("1") == 11:
            return "discard"
        fresh = len(self.pile) == 1 and (self.turns or 0) == 0 and not self.opponent_took
        return "offer" if fresh else "draw"

    def state(self, rules: Rules) -> GameState:
        """A full position with this view for ``player`` (the unseen cards placed in card order)."""
        me, opponent = self.player, 1 - self.player
        hand, pile, took = self.hand, list(self.pile), self.took
        drawn = self.drawn
        if drawn is not None and not hand >> drawn & 1:
            raise InputError(f"drawn: {gincore.card_text(drawn)} is not in the hand")
        if drawn is not None:
            hand &= ~(1 << drawn)
            took &= ~(1 << drawn)
            if self.from_pile:
                pile.append(drawn)
        seen = hand | self.opponent_took | sum(1 << card for card in pile) | (
            1 << drawn if drawn is not None and not self.from_pile else 0)
        unseen = gincore.cards_of(gincore.FULL_DECK & ~seen)
        need = 10 - bin(self.opponent_took).count("1")
        if need < 0 or need > len(unseen):
            raise InputError(f"opponent.took: the opponent holds 10 cards, not {10 - need}")
        hands = [0, 0]
        hands[me] = hand
        hands[opponent] = self.opponent_took | sum(1 << card for card in unseen[:need])
        stock = ([drawn] if drawn is not None and not self.from_pile else []) + unseen[need:]
        taken = [0, 0]
        taken[me], taken[opponent] = took, self.opponent_took
        refused = [0, 0]
        refused[me], refused[opponent] = self.passed, self.opponent_passed
        upcard = pile[0] if self.upcard is None else self.upcard
        # A taken upcard can come back to the bottom of an empty pile, discarded again by a player (whom
        # discarded_by names, or the hand's discards hold it).
        discarded_again = self.discarded_by is not None and self.discarded_by[:1] in ((0,), (1,)) or \
            (self.discarded[0] | self.discarded[1]) >> upcard & 1
        dealt_upcard = len(pile) == 1 and pile[0] == upcard and not discarded_again
        owners = None if self.discarded_by is None else list(self.discarded_by) + (
            [-1 if dealt_upcard else opponent] if drawn is not None and self.from_pile else [])
        turns = None if self.turns is None else self.turns - (drawn is not None)
        # Both passed the upcard and the non-dealer drew: the move before is the dealer's pass.
        mover = self.dealer if drawn is not None and not self.from_pile and dealt_upcard and len(stock) == 31 else me
        state = GameState.from_cards(rules, hands, pile, stock, self.dealer, player=mover, discarded_by=owners,
                                     taken=taken, passed=refused, turns=turns, scores=self.scores, upcard=upcard,
                                     discarded=self.discarded, ever_taken=self.ever_taken)
        if drawn is not None:
            state.apply(TAKE if self.from_pile else REFUSE)
        if state.player != me or state.done:
            raise InputError(f"player: the position is player {state.player}'s move, not player {me}'s")
        return state


# --- the record -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRecord:
    """A game (or one hand) as a list of hands, or a single :class:`~ginsim.gin.review.replay.Position`,
    replayed and checked;
    :mod:`ginsim.gin.review.notation` reads and writes its file."""

    rules: Rules
    players: tuple[str, str] = ("player 0", "player 1")
    hands: tuple[HandRecord, ...] = ()
    position: Position | None = None
    seed: int | None = None
    match: int | None = None
    totals: tuple[int, int] | None = None

    @classmethod
    def of_hand(cls, result: HandResult) -> GameRecord:
        """The record of one traced hand (``play_hand``'s)."""
        return cls(result.rules, result.players, (HandRecord.of_result(result),), seed=result.seed)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """The record in the JSON file ``path`` (at most ``MAX_RECORD_BYTES``), every hand replayed and
        checked."""
        return cls.from_json(read_file(path))

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the record as JSON (whole or not at all; through a symbolic link, to its target; a
        read-only file is not replaced); the path written."""
        target = writable_file(path)
        text = (json.dumps(self.to_json(), indent=1) + "\n").encode()
        atomic_write(target, lambda handle: handle.write(text))
        return Path(path)

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """The record from parsed JSON (a record, or a traced hand's JSON), checked."""
        try:
            return cls.replayed(read_record(data))
        except RecursionError:
            raise InputError("the record is nested too deeply to be a game record") from None

    @classmethod
    def replayed(cls, written: WrittenRecord) -> GameRecord:
        """The record a file says (:func:`~ginsim.gin.review.notation.read_record`), every hand played
        again and the position set up: completed and checked."""
        hands = tuple(_under(hand.at, _replayed, written.rules, hand) for hand in written.hands)
        _check_scores(written.rules, hands, [hand.at for hand in written.hands], written.totals)
        position = None if written.position is None else Position(**vars(written.position))
        if position is not None:
            within("position", position.state, written.rules)
        return cls(written.rules, written.players, hands, position, written.seed, written.match, written.totals)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready values (see :mod:`ginsim.gin.review.notation`)."""
        hands = tuple(hand.written(f"hands[{index}]") for index, hand in enumerate(self.hands))
        return write_record(WrittenRecord(self.rules, self.players, hands, self.position, self.seed, self.match,
                                          self.totals))


# --- records of played games ----------------------------------------------------------------------------

def _check_scores(rules: Rules, hands: Sequence[HandRecord], places: Sequence[str],
                  totals: tuple[int, int] | None) -> None:
    """The hands of a game to a target follow one another as the rules score them: each hand's scores
    (where the record gives them) are those its hands before give, its dealer the one they name, and the
    game's totals (where given) those of its finished hands, with the bonuses. A record played under
    other rules (an Oklahoma game read as a standard one: a spade's doubled points) or edited is refused in
    one line, naming the first hand that does not follow."""
    if rules.target is None or not hands or hands[0].scores is None:
        return
    start = hands[0].scores if not rules.hollywood else (0, 0)
    try:
        score = MatchScore(rules, start, hands[0].dealer)
    except InputError as error:
        raise InputError(f"{places[0]}: scores: {error}") from None
    under = rules.label()
    for number, (hand, place) in enumerate(zip(hands, places, strict=True)):
        if score.over:
            raise InputError(f"{place}: the game was over before this hand: the hands before it end it under {under}")
        if hand.scores is not None and hand.scores != score.shown():
            raise InputError(f"{place}: scores: the record says {hand.scores[0]} to {hand.scores[1]} before this hand; "
                             f"the hands before it give {score.shown()[0]} to {score.shown()[1]} under {under}: were "
                             "they played under other rules?")
        if number and hand.dealer != score.dealer:
            raise InputError(f"{place}: dealer: the record says player {hand.dealer} deals; after the hand before it, "
                             f"player {score.dealer} does under {under} (next_dealer={rules.next_dealer})")
        if hand.result is None:  # an unfinished hand: the game stops here
            return
        score.add(hand.dealer, hand.result.winner, hand.result.points)
    if totals is None:
        return
    if not score.over:
        shown = score.shown()
        raise InputError(f"totals: the record gives the game's totals, {totals[0]} to {totals[1]}, but its hands end "
                         f"at {shown[0]} to {shown[1]} under {under}, short of the target {rules.target}")
    found = score.result()
    if (found["total_0"], found["total_1"]) != totals:
        raise InputError(f"totals: the record says {totals[0]} to {totals[1]}; its hands give {found['total_0']} to "
                         f"{found['total_1']} under {under}, with the bonuses")


def play_match_hand(table: Engine, rules: Rules, key: tuple[int, int], index: int, dealer: int,
                    match: MatchContext) -> TracedHand:
    """Hand ``index`` of a match, traced: the deal of the hand's stream, dealt by ``dealer`` (-1: drawn
    from the stream, as for a match's first hand), the strategies knowing ``match`` of it."""
    if dealer < 0:
        return table.play_traced(key[0], key[1], index, match=match)
    # Any native engine of the same rules deals the same deck from a hand's stream.
    deck = engine(rules, ("simple", "simple")).play_traced(key[0], key[1], index)["deck"]
    return table.play_traced(key[0], key[1], index, deck, dealer, match)


class _Recorder:
    """A hand source for ``play_match`` that keeps each hand's trace and the scores before it."""

    def __init__(self, rules: Rules, players: tuple[PlayerSpec, PlayerSpec]) -> None:
        self.rules = rules
        self.table = engine(rules, players)
        self.names = (player_name(players[0]), player_name(players[1]))
        self.hands: list[HandRecord] = []

    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1,
                    match: MatchContext | None = None) -> RecordRow:
        match = match or MatchContext()
        raw = play_match_hand(self.table, self.rules, (key0, key1), index, dealer, match)
        self.hands.append(hand_of_trace(self.rules, self.names, raw, match.scores, len(self.hands)))
        return record_row(raw)


def hand_of_trace(rules: Rules, names: tuple[str, str], raw: TracedHand, scores: tuple[int, int] | None,
                  hand: int) -> HandRecord:
    """The record of a hand the engine traced (``play_traced``)."""
    result = hand_result(rules, names, None, raw["record"], raw["deck"], raw["dealt"], raw["events"],
                         raw["reshuffles"], raw["final"], raw["knocker_sets"], raw["laid_off_cards"],
                         raw["stock_left"])
    return HandRecord.of_result(result, scores, hand)


def record_row(raw: TracedHand) -> RecordRow:
    """A traced hand's record as ``play_record`` returns it."""
    values = dict(raw["record"], outcome=OUTCOME_NAMES.index(raw["record"]["outcome"]))
    return RecordRow(*(values[column] for column in RECORD_COLUMNS))


def record_match(rules: Rules, players: Sequence[PlayerSpec] | str, seed: int, match: int) -> GameRecord:
    """Match ``match`` of ``simulate_matches(rules, players, ..., seed)`` played again with its
    trace, as a record (the first game of a duplicate pair; native strategies).

    >>> record = record_match(Rules(), "greedy,simple", seed=1, match=0)
    >>> record.totals[0] > record.totals[1], len(record.hands) > 1, record.hands[1].scores is not None
    (True, True, True)
    """
    names = resolve_players(players)
    integer("match", match, 0, (1 << 40) - 1)
    recorder = _Recorder(rules, names)
    row = play_match(recorder, rules, match_key(check_seed(seed)), match)
    return GameRecord(rules, recorder.names, tuple(recorder.hands), seed=seed, match=match,
                      totals=(row["total_0"], row["total_1"]))
