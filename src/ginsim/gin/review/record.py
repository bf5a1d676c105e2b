"""Game records: a hand, a whole game or a single position of Gin Rummy as a versioned JSON file.

A record holds what is needed to play a game again move by move and nothing the moves can tell: the
rules, the players' names, and for each hand the deal (both hands dealt, the upcard and the stock, top
first), every decision (who, which kind, the choice), the stock after each reshuffle, the scores before
the hand and, as a check, its result. ``GameRecord.load`` replays every hand through
:class:`~ginsim.gin.game.state.GameState` and refuses a record whose moves are illegal or do not give the
result it states, with one line naming the field. A *position* (one decision, as a player sees it:
own hand, the pile, what is known of the opponent) can be written by hand instead of hands.

Version 1 of the format (``"format": "ginsim-record"``; cards are text, ``"7H 8H 9H"``)::

    {"format": "ginsim-record", "version": 1, "game": "gin",
     "rules": {...} or a preset name,         "players": ["you", "greedy"],
     "seed": 7, "match": 0,                   (optional: where the deals came from)
     "totals": [212, 64],                     (optional: the game's totals with bonuses)
     "hands": [{"hand": 0, "dealer": 1, "scores": [0, 0],
                "dealt": ["<10 cards of seat 0>", "<10 cards of seat 1>"], "upcard": "9H",
                "stock": "<31 cards, top first>",
                "decisions": [{"player": 0, "kind": "offer", "choice": "pass"}, ...],
                "reshuffles": ["<the new stock, top first>", ...],
                "result": {"outcome": "knock", "winner": 1, "points": 10}}, ...]}

Decision kinds and their choices: ``offer`` (the upcard): ``take`` or ``pass``; ``draw``: ``pile`` or
``stock``; ``discard``: a card (``KD``), ``knock KD`` (``gin KD`` when nothing is left unmelded) or
``big gin``. ``player`` and ``kind`` may be left out of a decision (the replay knows them); when given
they are checked. A position replaces ``hands`` by::

    "position": {"player": 0, "dealer": 1, "hand": "<10 cards, or 11 to discard>",
                 "drawn": "KD", "from_pile": false,        (the card just drawn, if 11 cards)
                 "pile": "<bottom first>", "discarded_by": [-1, 1, 0, ...],   (default: in turn)
                 "upcard": "QS",                          (default: the pile's first card)
                 "took": "", "passed": "",                  (own face-up cards taken and held, refused)
                 "opponent": {"took": "<face-up cards it took and holds>", "passed": "<it refused>"},
                 "turns": 6, "scores": [0, 0], "choice": "KD",
                 "history": {"discarded": ["<seat 0's>", "<seat 1's>"], "taken": [...]}}   (all optional)

The JSON of a traced hand (``ginsim replay ... --json``, ``HandResult.to_json``) loads as a record too.

>>> from ginsim import Rules, play_hand
>>> record = GameRecord.of_hand(play_hand(Rules(), "simple,greedy", seed=1, index=5))
>>> hand = record.hands[0]
>>> hand.decisions[0], hand.result
(Decision(player=1, kind='offer', choice='pass'), HandOutcome(outcome=<Outcome.KNOCK: 'knock'>, winner=1, points=20))
>>> GameRecord.from_json(record.to_json()) == record
True
>>> GameRecord.from_json({**record.to_json(), "version": 9})
Traceback (most recent call last):
    ...
gincore.errors.InputError: version: this is version 1 of the record format; the file has version 9
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

import gincore
from gincore.errors import InputError
from ginsim import text
from ginsim.checks import as_integer, check_seed, integer
from ginsim.gin.game.actions import BIG_GIN, KNOCK, REFUSE, TAKE, Action, MoveKind
from ginsim.gin.game.hand import HandResult, MatchContext, Outcome, hand_result
from ginsim.gin.game.native import OUTCOME_NAMES, RECORD_COLUMNS, Engine, RecordRow, engine, match_key
from ginsim.gin.game.rules import PRESETS, Rules
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.game.strategies import PlayerSpec, View, player_name, resolve_players
from ginsim.gin.runs.matches import play_match
from ginsim.store import atomic_write, writable_file

if TYPE_CHECKING:
    from ginsim.gin.game.native import TracedHand

__all__ = ["FORMAT", "KINDS", "MAX_RECORD_BYTES", "VERSION", "Decision", "GameRecord", "HandOutcome", "HandRecord",
           "Position", "apply_recorded", "choice_action", "choice_text", "hand_of_trace", "play_match_hand",
           "record_match", "record_row"]

FORMAT: Final = "ginsim-record"
"""The ``format`` of every record file."""
VERSION: Final = 1
"""The version of the format this module reads and writes."""
MAX_RECORD_BYTES: Final = 64 << 20
"""The largest record file read: 64 MiB (a game of a thousand hands takes about 2.5 MiB)."""
KINDS: Final = {Phase.OFFER: "offer", Phase.DRAW: "draw", Phase.DISCARD: "discard"}
"""The kind of decision each phase asks for."""

_T = TypeVar("_T")


def _at(path: str, read: Callable[..., _T], *arguments: Any) -> _T:
    """``read(*arguments)``, with the message of any ``InputError`` prefixed by ``path``, the field it is about."""
    try:
        return read(*arguments)
    except ValueError as error:  # InputError, and card text's errors
        raise InputError(f"{path}: {error}") from None


# --- choices --------------------------------------------------------------------------------------------

def choice_text(kind: str, action: int, gin: bool = False) -> str:
    """A decision's choice as a record writes it.

    >>> choice_text("offer", TAKE), choice_text("draw", REFUSE), choice_text("discard", 25)
    ('take', 'stock', 'KD')
    >>> choice_text("discard", KNOCK + 25), choice_text("discard", KNOCK + 25, gin=True)
    ('knock KD', 'gin KD')
    >>> choice_text("discard", BIG_GIN)
    'big gin'
    """
    move = Action(action)
    if kind in ("offer", "draw"):
        if move.kind not in (MoveKind.TAKE, MoveKind.REFUSE):
            raise InputError(f"action {action} is not a choice of the {kind}")
        return {"offer": ("take", "pass"), "draw": ("pile", "stock")}[kind][move.kind is MoveKind.REFUSE]
    if move.kind is MoveKind.BIG_GIN:
        return "big gin"
    if move.kind is MoveKind.DISCARD:
        return gincore.card_text(move.card)
    if move.kind is MoveKind.KNOCK:
        return f"{'gin' if gin else 'knock'} {gincore.card_text(move.card)}"
    raise InputError(f"action {action} is not a choice of the discard")


def choice_action(kind: str, choice: str) -> int:
    """The action number of a choice written in a record (see the module for the words).

    >>> choice_action("offer", "pass"), choice_action("draw", "pile"), choice_action("discard", "gin 7h")
    (105, 104, 84)
    >>> choice_action("draw", "7H")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: 'draw' choices are pile or stock, got '7H'
    """
    words = str(choice).strip().lower().split()
    if kind == "offer" or kind == "draw":
        take, refuse = ("take", "pass") if kind == "offer" else ("pile", "stock")
        if words in ([take], ["take"]):
            return TAKE
        if words in ([refuse], ["refuse"]):
            return REFUSE
        raise InputError(f"{kind!r} choices are {take} or {refuse}, got {choice!r}")
    if kind != "discard":
        raise InputError(f"kind must be one of {', '.join(KINDS.values())}, got {kind!r}")
    if words == ["big", "gin"]:
        return BIG_GIN
    if len(words) == 2 and words[0] in ("knock", "gin", "discard"):
        return gincore.parse_card(words[1]) + (0 if words[0] == "discard" else KNOCK)
    if len(words) == 1:
        return gincore.parse_card(words[0])
    raise InputError(f"a discard is a card (KD), 'knock KD', 'gin KD' or 'big gin', got {choice!r}")


# --- hands ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Decision:
    """One move of a hand: the ``player`` (seat) who made it, its ``kind`` (``offer``, ``draw`` or
    ``discard``) and the ``choice`` as the record writes it."""

    player: int
    kind: str
    choice: str

    @property
    def action(self) -> int:
        """The move as a :class:`ginsim.GameState` action number."""
        return choice_action(self.kind, self.choice)


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended: its ``outcome``, the ``winner`` (-1 for none) and the ``points`` it scored."""

    outcome: Outcome
    winner: int
    points: int


@dataclass(frozen=True)
class HandRecord:
    """One hand: the deal, the decisions, the new stocks of any reshuffles, the scores before it (seat
    0's, seat 1's; ``None`` outside a game to a target) and its result."""

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
        for position, decision in enumerate(self.decisions):
            yield state.clone(), decision
            _at(f"decisions[{position}]", _move, state, decision, self.reshuffles)

    def final(self, rules: Rules) -> GameState:
        """The position once every decision is made (the hand over, for a complete record)."""
        state = self.start(rules)
        for position, decision in enumerate(self.decisions):
            _at(f"decisions[{position}]", _move, state, decision, self.reshuffles)
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
        decisions = _decisions(state, result.actions, result.reshuffles)
        outcome = HandOutcome(result.outcome, result.winner, result.points)
        if _outcome(state) != outcome:
            raise AssertionError("a traced hand replayed to another result")
        return cls(result.dealer, result.dealt, result.upcard, tuple(result.deck[21:]), tuple(decisions),
                   result.reshuffles, scores, outcome, result.hand if hand is None else hand)


def _decisions(state: GameState, actions: Sequence[int], reshuffles: Sequence[tuple[int, ...]]) -> list[Decision]:
    """The decisions of ``actions`` made from ``state`` on (which they move to the end)."""
    decisions = []
    stocks = iter(reshuffles)
    for position, action in enumerate(actions):
        if state.done:
            raise InputError(f"actions[{position}]: the hand is already over")
        kind = KINDS[state.phase]
        move = _at(f"actions[{position}]", Action, action)
        gin = kind == "discard" and move.kind is MoveKind.KNOCK and gincore.deadwood(
            state.hands[state.player] & ~(1 << move.card)) == 0
        decisions.append(Decision(state.player, kind, _at(f"actions[{position}]", choice_text, kind, action, gin)))
        _at(f"actions[{position}]", apply_recorded, state, action, stocks)
    return decisions


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


def _move(state: GameState, decision: Decision, reshuffles: Sequence[tuple[int, ...]]) -> None:
    if state.done:
        raise InputError("the hand is already over")
    kind = KINDS[state.phase]
    if decision.player != state.player:
        raise InputError(f"player: it is player {state.player}'s {kind}, not player {decision.player}'s")
    if decision.kind != kind:
        raise InputError(f"kind: player {state.player} has a {kind} to make here, not a {decision.kind}")
    action = _at("choice", lambda: decision.action)
    used = sum(kind == "reshuffle" for kind, _, _ in state.events())
    _at("choice", lambda: apply_recorded(state, action, iter(reshuffles[used:])))


def _outcome(state: GameState) -> HandOutcome | None:
    result = state.result
    return None if result is None else HandOutcome(result.outcome, result.winner, result.points)


# --- positions ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """One decision as its ``player`` sees it: the hand (11 cards to discard, with the card just
    ``drawn`` and whether it came ``from_pile``), the ``pile`` bottom first with who discarded each
    card (``None``: in turn), the face-up cards the player ``took`` (and holds) and ``passed``, those of
    the opponent, the draws made (``turns``, ``None``: from the stock's size), the ``scores``, the
    ``choice`` made (``None``: not made yet), the ``upcard`` (``None``: the pile's first card) and, by
    seat, the face-up cards ``discarded`` and ``ever_taken`` earlier in the hand that the pile and the
    hands no longer show (the opponent model reads them).
    The cards the player has not seen are placed arbitrarily: an analysis deals them again from the
    player's information.

    >>> position = Position(player=0, dealer=1, hand=gincore.parse_cards("AC 2C 3C 4D 5D 6D 9H 9S 9C KD"),
    ...                     pile=(gincore.parse_cards("QS").bit_length() - 1,))
    >>> state = position.state(Rules())
    >>> state.phase, state.player, state.view(0).hand == position.hand
    (<Phase.OFFER: 0>, 0, True)
    """

    player: int
    dealer: int
    hand: int
    pile: tuple[int, ...]
    drawn: int | None = None
    from_pile: bool = False
    discarded_by: tuple[int, ...] | None = None
    took: int = 0
    passed: int = 0
    opponent_took: int = 0
    opponent_passed: int = 0
    turns: int | None = None
    scores: tuple[int, int] | None = None
    choice: str | None = None
    upcard: int | None = None
    discarded: tuple[int, int] = (0, 0)
    ever_taken: tuple[int, int] = (0, 0)

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
        owners = None if self.discarded_by is None else list(self.discarded_by) + (
            [-1 if len(pile) == 1 and drawn == upcard else opponent] if drawn is not None and self.from_pile else [])
        turns = None if self.turns is None else self.turns - (drawn is not None)
        # Both passed the upcard and the non-dealer drew: the move before is the dealer's pass.
        mover = self.dealer if drawn is not None and not self.from_pile and pile == [upcard] and len(stock) == 31 \
            else me
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
    """A game (or one hand) as a list of hands, or a single :class:`~ginsim.gin.review.record.Position`; see
    :mod:`ginsim.gin.review.record` for the file format."""

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
        name = os.fspath(path)
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_RECORD_BYTES + 1)
        except OSError as error:
            raise InputError(f"{name} cannot be read: {error.strerror or error}") from None
        if len(raw) > MAX_RECORD_BYTES:
            raise InputError(f"{name} is larger than a game record can be ({MAX_RECORD_BYTES:,} bytes)")
        try:
            data = json.loads(raw.decode("utf-8"))
        except json.JSONDecodeError as error:
            raise InputError(f"{name} is not JSON: {error.msg} at line {error.lineno}") from None
        except UnicodeDecodeError:
            raise InputError(f"{name} is not a text file") from None
        except RecursionError:
            raise InputError(f"{name} is nested too deeply to be a game record") from None
        return cls.from_json(data)

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
            return cls._checked(data)
        except RecursionError:
            raise InputError("the record is nested too deeply to be a game record") from None

    @classmethod
    def _checked(cls, data: object) -> GameRecord:
        if not isinstance(data, Mapping):
            raise InputError(f"a record is a JSON object, got {type(data).__name__}")
        if "format" not in data and "deck" in data and "actions" in data:
            return _from_trace(data)
        if data.get("format") != FORMAT:
            raise InputError(f"format: a record says \"format\": \"{FORMAT}\", got {data.get('format')!r}")
        if as_integer(data.get("version")) != VERSION:
            raise InputError(f"version: this is version {VERSION} of the record format; the file has version "
                             f"{data.get('version')!r}")
        _fields(data, ("format", "version", "game", "rules", "players", "seed", "match", "totals", "hands",
                       "position"))
        if data.get("game", "gin") != "gin":
            raise InputError(f"game: records are of Gin games, got {data.get('game')!r}")
        rules = _at("rules", lambda: _rules(data.get("rules")))
        players = _at("players", lambda: _players(data.get("players", ["player 0", "player 1"])))
        seed = _at("seed", lambda: None if data.get("seed") is None else check_seed(data["seed"]))
        match = _at("match", lambda: None if data.get("match") is None else integer("match", data["match"], 0))
        totals = _at("totals", lambda: None if data.get("totals") is None else _pair_of_ints(data["totals"]))
        hands_data = data.get("hands", [])
        if not isinstance(hands_data, list):
            raise InputError("hands: a list of hands")
        hands = tuple(_at(f"hands[{index}]", _hand, rules, item, index) for index, item in enumerate(hands_data))
        position = None if data.get("position") is None else _at("position", lambda: _position(data["position"]))
        if (position is None) == (not hands):
            raise InputError("hands: a record holds hands or a position (one of them)")
        if position is not None:
            _at("position", lambda: position.state(rules))
        return cls(rules, players, hands, position, seed, match, totals)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready values (see the module)."""
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": "gin", "rules": self.rules.to_dict(),
                                "players": list(self.players)}
        for name in ("seed", "match"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.totals is not None:
            data["totals"] = list(self.totals)
        if self.hands:
            data["hands"] = [_hand_json(hand) for hand in self.hands]
        if self.position is not None:
            data["position"] = _position_json(self.position)
        return data


def _fields(data: Mapping[str, Any], known: Sequence[str]) -> None:
    """Refuse a key that is none of ``known`` (a misspelt field would otherwise be ignored)."""
    for key in data:
        if key not in known:
            raise InputError(f"{key}: no such field here (the fields are {', '.join(known)})")


def _rules(value: object) -> Rules:
    if isinstance(value, str):
        return Rules.preset(value)
    if isinstance(value, Mapping):
        return Rules.from_dict(value)
    raise InputError(f"the rules are a preset name ({', '.join(PRESETS)}) or an object of rule fields, "
                     f"got {value!r}")


def _players(value: object) -> tuple[str, str]:
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(name, str) for name in value):
        raise InputError(f"two names, got {value!r}")
    return value[0], value[1]


def _pair_of_ints(value: object) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise InputError(f"two numbers (seat 0's, seat 1's), got {value!r}")
    return integer("a score", value[0], 0), integer("a score", value[1], 0)


def _seat(value: object) -> int:
    return integer("a seat", value, 0, 1)


def _card_list(value: object) -> list[int]:
    if isinstance(value, list):
        value = " ".join(str(item) for item in value)
    if not isinstance(value, str):
        raise InputError(f"cards are text such as \"7H 8H 9H\", got {value!r}")
    cards = text.parse_card_list(value)
    if len(set(cards)) != len(cards):
        raise InputError(f"a card is written twice in {value!r}")
    return cards


def _pile(value: object) -> list[int]:
    cards = _card_list(value)
    if not cards:
        raise InputError("the pile holds at least one card (the upcard, or the last discard)")
    return cards


def _mask(value: object) -> int:
    return sum(1 << card for card in _card_list(value))


def _card(value: object) -> int:
    return gincore.parse_card(str(value))


def _require(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise InputError(f"{key}: missing")
    return data[key]


def _decision(item: object) -> tuple[int | None, str | None, str]:
    if isinstance(item, str):
        return None, None, item
    if not isinstance(item, Mapping):
        raise InputError(f"a decision is an object with player, kind and choice, got {item!r}")
    _fields(item, ("player", "kind", "choice"))
    player = _at("player", lambda: None if item.get("player") is None else _seat(item["player"]))
    kind = item.get("kind")
    if kind is not None and kind not in KINDS.values():
        raise InputError(f"kind: one of {', '.join(KINDS.values())}, got {kind!r}")
    choice = _require(item, "choice")
    if not isinstance(choice, str):
        raise InputError(f"choice: text such as 'pass', 'stock' or 'KD', got {choice!r}")
    return player, kind, choice


def _hand(rules: Rules, data: object, index: int) -> HandRecord:
    if not isinstance(data, Mapping):
        raise InputError("a hand is an object (dealer, dealt, upcard, stock, decisions)")
    _fields(data, ("hand", "dealer", "scores", "dealt", "upcard", "stock", "decisions", "reshuffles", "result"))
    dealer = _at("dealer", lambda: _seat(_require(data, "dealer")))
    dealt_data = _require(data, "dealt")
    if not isinstance(dealt_data, list) or len(dealt_data) != 2:
        raise InputError("dealt: the ten cards dealt to each seat, two entries")
    dealt = (_at("dealt[0]", lambda: _mask(dealt_data[0])), _at("dealt[1]", lambda: _mask(dealt_data[1])))
    upcard = _at("upcard", lambda: _card(_require(data, "upcard")))
    stock = tuple(_at("stock", lambda: _card_list(_require(data, "stock"))))
    scores = _at("scores", lambda: None if data.get("scores") is None else _pair_of_ints(data["scores"]))
    reshuffles = tuple(tuple(_at(f"reshuffles[{position}]", _card_list, item))
                       for position, item in enumerate(data.get("reshuffles") or []))
    hand = _at("hand", lambda: integer("hand", data.get("hand", index), 0))
    moves = data.get("decisions", [])
    if not isinstance(moves, list):
        raise InputError("decisions: a list of decisions")
    written = [_at(f"decisions[{position}]", _decision, item) for position, item in enumerate(moves)]
    start = _at("dealt", lambda: GameState.from_cards(rules, dealt, [upcard], list(stock), dealer, scores=scores))
    decisions = []
    state = start
    for position, (player, kind, choice) in enumerate(written):
        here = f"decisions[{position}]"
        if state.done:
            raise InputError(f"{here}: the hand is already over")
        actual = Decision(state.player if player is None else player,
                          KINDS[state.phase] if kind is None else kind, choice)
        _at(here, _move, state, actual, reshuffles)
        decisions.append(actual)
    record = HandRecord(dealer, dealt, upcard, stock, tuple(decisions), reshuffles, scores, None, hand)
    stated = data.get("result")
    if stated is not None:
        outcome = _at("result", lambda: _result(stated))
        if outcome != _outcome(state):
            found = _outcome(state)
            got = "the hand unfinished" if found is None else \
                f"{found.outcome}, winner {found.winner}, {found.points} points"
            raise InputError(f"result: the record says {outcome.outcome}, winner {outcome.winner}, "
                             f"{outcome.points} points; the decisions give {got}")
    return replace(record, result=_outcome(state))


def _result(data: object) -> HandOutcome:
    if not isinstance(data, Mapping):
        raise InputError("an object with outcome, winner and points")
    _fields(data, ("outcome", "winner", "points"))
    outcome = _require(data, "outcome")
    if outcome not in tuple(Outcome):
        raise InputError(f"outcome: one of {', '.join(Outcome)}, got {outcome!r}")
    return HandOutcome(Outcome(outcome), integer("winner", _require(data, "winner"), -1, 1),
                       integer("points", _require(data, "points"), 0))


def _position(data: object) -> Position:
    if not isinstance(data, Mapping):
        raise InputError("a position is an object (player, dealer, hand, pile, ...)")
    _fields(data, ("player", "dealer", "hand", "drawn", "from_pile", "pile", "discarded_by", "upcard", "took",
                   "passed", "opponent", "turns", "scores", "choice", "history"))
    opponent = data.get("opponent") or {}
    if not isinstance(opponent, Mapping):
        raise InputError("opponent: an object with took and passed")
    _at("opponent", _fields, opponent, ("took", "passed"))
    history = data.get("history") or {}
    if not isinstance(history, Mapping):
        raise InputError("history: an object with discarded and taken")
    _at("history", _fields, history, ("discarded", "taken"))
    drawn = _at("drawn", lambda: None if data.get("drawn") is None else _card(data["drawn"]))
    by = data.get("discarded_by")
    if by is not None and (not isinstance(by, list) or not all(isinstance(who, int) for who in by)):
        raise InputError("discarded_by: a list of -1 (the upcard), 0 or 1 per pile card")
    from_pile = data.get("from_pile", False)
    if not isinstance(from_pile, bool):
        raise InputError(f"from_pile: true or false, got {from_pile!r}")
    choice = data.get("choice")
    if choice is not None and not isinstance(choice, str):
        raise InputError(f"choice: text such as 'pass', 'stock' or 'KD', got {choice!r}")
    return Position(
        player=_at("player", lambda: _seat(_require(data, "player"))),
        dealer=_at("dealer", lambda: _seat(_require(data, "dealer"))),
        hand=_at("hand", lambda: _mask(_require(data, "hand"))),
        pile=tuple(_at("pile", lambda: _pile(_require(data, "pile")))),
        drawn=drawn, from_pile=from_pile, discarded_by=None if by is None else tuple(by),
        took=_at("took", lambda: _mask(data.get("took", ""))),
        passed=_at("passed", lambda: _mask(data.get("passed", ""))),
        opponent_took=_at("opponent.took", lambda: _mask(opponent.get("took", ""))),
        opponent_passed=_at("opponent.passed", lambda: _mask(opponent.get("passed", ""))),
        turns=_at("turns", lambda: None if data.get("turns") is None else integer("turns", data["turns"], 0)),
        scores=_at("scores", lambda: None if data.get("scores") is None else _pair_of_ints(data["scores"])),
        choice=choice, upcard=_at("upcard", lambda: None if data.get("upcard") is None else _card(data["upcard"])),
        discarded=_at("history.discarded", _seat_masks, history.get("discarded")),
        ever_taken=_at("history.taken", _seat_masks, history.get("taken")))


def _seat_masks(value: object) -> tuple[int, int]:
    if value is None:
        return 0, 0
    if not isinstance(value, list) or len(value) != 2:
        raise InputError(f"cards for each seat, two entries, got {value!r}")
    return _mask(value[0]), _mask(value[1])


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(gincore.card_text(card) for card in cards)


def _hand_json(hand: HandRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"hand": hand.hand, "dealer": hand.dealer}
    if hand.scores is not None:
        data["scores"] = list(hand.scores)
    data.update({
        "dealt": [gincore.format_cards(mask) for mask in hand.dealt], "upcard": gincore.card_text(hand.upcard),
        "stock": _cards_text(hand.stock),
        "decisions": [{"player": move.player, "kind": move.kind, "choice": move.choice} for move in hand.decisions],
    })
    if hand.reshuffles:
        data["reshuffles"] = [_cards_text(stock) for stock in hand.reshuffles]
    if hand.result is not None:
        data["result"] = {"outcome": hand.result.outcome, "winner": hand.result.winner,
                          "points": hand.result.points}
    return data


def _position_json(position: Position) -> dict[str, Any]:
    data: dict[str, Any] = {"player": position.player, "dealer": position.dealer,
                            "hand": gincore.format_cards(position.hand)}
    if position.drawn is not None:
        data.update(drawn=gincore.card_text(position.drawn), from_pile=position.from_pile)
    data["pile"] = _cards_text(position.pile)
    if position.upcard is not None:
        data["upcard"] = gincore.card_text(position.upcard)
    if position.discarded_by is not None:
        data["discarded_by"] = list(position.discarded_by)
    for name in ("took", "passed"):
        if getattr(position, name):
            data[name] = gincore.format_cards(getattr(position, name))
    if position.opponent_took or position.opponent_passed:
        data["opponent"] = {"took": gincore.format_cards(position.opponent_took),
                            "passed": gincore.format_cards(position.opponent_passed)}
    if position.turns is not None:
        data["turns"] = position.turns
    if position.scores is not None:
        data["scores"] = list(position.scores)
    if position.choice is not None:
        data["choice"] = position.choice
    if any(position.discarded) or any(position.ever_taken):
        data["history"] = {"discarded": [gincore.format_cards(mask) for mask in position.discarded],
                           "taken": [gincore.format_cards(mask) for mask in position.ever_taken]}
    return data


def _from_trace(data: Mapping[str, Any]) -> GameRecord:
    """A record of the JSON of a traced hand (``HandResult.to_json``)."""
    if data.get("game", "gin") != "gin":
        raise InputError(f"game: records are of Gin games, got {data.get('game')!r}")
    rules = _at("rules", lambda: _rules(data.get("rules")))
    deck = _at("deck", lambda: _card_list(data["deck"]))
    if sorted(deck) != list(range(52)):
        raise InputError("deck: each of the 52 cards once, top first")
    dealer = _at("dealer", lambda: _seat(data.get("dealer")))
    dealt = data.get("dealt")
    if not isinstance(dealt, list) or len(dealt) != 2:
        raise InputError("dealt: the ten cards dealt to each seat, two entries")
    moves = data["actions"]
    if not isinstance(moves, list) or not all(isinstance(action, int) for action in moves):
        raise InputError("actions: a list of action numbers")
    reshuffles = [tuple(_at(f"reshuffles[{position}]", _card_list, stock))
                  for position, stock in enumerate(data.get("reshuffles") or [])]
    state = _at("dealt", lambda: GameState.from_cards(rules, [_mask(dealt[0]), _mask(dealt[1])], [deck[20]],
                                                      deck[21:], dealer))
    decisions = _decisions(state, moves, reshuffles)
    hand = {"hand": data.get("hand", 0), "dealer": dealer, "dealt": dealt, "upcard": gincore.card_text(deck[20]),
            "stock": _cards_text(deck[21:]),
            "decisions": [{"player": move.player, "kind": move.kind, "choice": move.choice} for move in decisions],
            "reshuffles": [_cards_text(stock) for stock in reshuffles]}
    if all(key in data for key in ("outcome", "winner", "points")):
        hand["result"] = {key: data[key] for key in ("outcome", "winner", "points")}
    record = {"format": FORMAT, "version": VERSION, "rules": rules.to_dict(),
              "players": data.get("players", ["player 0", "player 1"]), "seed": data.get("seed"), "hands": [hand]}
    return GameRecord.from_json(record)


# --- producers ------------------------------------------------------------------------------------------

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
