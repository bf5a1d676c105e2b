"""The game record's notation: how a recorded game is written as JSON and read back, and nothing of
the game itself. :func:`read_record` turns a file's JSON (a ``ginsim-record``, or a traced hand's JSON as
``ginsim replay --json`` writes it) into a :class:`WrittenRecord` that says only what the file says, each
field checked for its form (cards, seats, numbers, no unknown keys) and each error one line naming the
field; a decision may leave out its player and kind, which stay ``None`` here. Whether the moves are
legal, who made each one and how the hand ends is the replay's to say (:mod:`ginsim.gin.review.replay`,
which completes the record and checks it). :func:`write_record` writes a record back; the format is
described on the documentation's analysis page.

>>> written = read_record({"format": "ginsim-record", "version": 1, "rules": "standard", "hands": [
...     {"dealer": 1, "dealt": ["AC 2C 3C 4C 5C 6C 7C 8C 9C TC", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD"],
...      "upcard": "AH", "stock": "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
...               " JC QC KC JD QD KD", "decisions": ["pass", {"player": 1, "choice": "take"}]}]})
>>> [(move.at, move.choice, move.player, move.kind) for move in written.hands[0].moves]
[('decisions[0]', 'pass', None, None), ('decisions[1]', 'take', 1, None)]
>>> choice_action("discard", "knock 7H"), choice_text("draw", choice_action("draw", "stock"))
(84, 'stock')
>>> read_record({"format": "ginsim-record", "version": 9})
Traceback (most recent call last):
    ...
gincore.errors.InputError: version: this is version 1 of the record format; the file has version 9
"""
from __future__ import annotations

import json
import os
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import gincore
from gincore.errors import InputError
from ginsim.core import text
from ginsim.core.checks import as_integer, check_seed, integer, within
from ginsim.gin.game.actions import BIG_GIN, KNOCK, REFUSE, TAKE, Action, MoveKind
from ginsim.gin.game.hand import Outcome
from ginsim.gin.game.rules import PRESETS, Rules

__all__ = ["DECISION_KINDS", "FORMAT", "MAX_RECORD_BYTES", "VERSION", "Decision", "HandOutcome", "WrittenHand",
           "WrittenMove", "WrittenPosition", "WrittenRecord", "choice_action", "choice_text", "read_file",
           "read_record", "write_record"]

FORMAT: Final = "ginsim-record"
"""The ``format`` of every record file."""
VERSION: Final = 1
"""The version of the format this module reads and writes."""
MAX_RECORD_BYTES: Final = 64 << 20
"""The largest record file read, 64 MiB (a game of a thousand hands takes about 2.5 MiB)."""
DECISION_KINDS: Final = ("offer", "draw", "discard")
"""The kinds of decision a record names, the upcard offer, the draw and the discard."""


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
    """The action number of a choice written in a record (see :data:`DECISION_KINDS` for the kinds).

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
        raise InputError(f"kind must be one of {', '.join(DECISION_KINDS)}, got {kind!r}")
    if words == ["big", "gin"]:
        return BIG_GIN
    if len(words) == 2 and words[0] in ("knock", "gin", "discard"):
        return gincore.parse_card(words[1]) + (0 if words[0] == "discard" else KNOCK)
    if len(words) == 1:
        return gincore.parse_card(words[0])
    raise InputError(f"a discard is a card (KD), 'knock KD', 'gin KD' or 'big gin', got {choice!r}")


# --- what a record says ---------------------------------------------------------------------------------

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
class WrittenMove:
    """One move as a file writes it: ``at``, its place in the file (``decisions[3]``, or ``actions[3]`` in
    a traced hand's JSON); the ``choice`` in words (``pass``, ``KD``, ``knock KD``), or an action number in a
    traced hand's JSON; the ``player`` and ``kind`` when written (``None``: for the replay to fill in)."""

    at: str
    choice: str | int
    player: int | None = None
    kind: str | None = None


@dataclass(frozen=True)
class WrittenHand:
    """One hand as a file writes it: ``at``, its place in the file (``hands[2]``; empty for a traced
    hand's JSON, whose fields are at the top), the deal (dealer, both hands dealt as card masks, the
    upcard, the stock top first), the ``moves``, the new stocks of any ``reshuffles``, the ``scores``
    before the hand, the ``result`` it states (``None``: not stated) and its number ``hand``."""

    at: str
    dealer: int
    dealt: tuple[int, int]
    upcard: int
    stock: tuple[int, ...]
    moves: tuple[WrittenMove, ...]
    reshuffles: tuple[tuple[int, ...], ...] = ()
    scores: tuple[int, int] | None = None
    result: HandOutcome | None = None
    hand: int = 0


@dataclass(frozen=True)
class WrittenPosition:
    """One decision as its ``player`` sees it, as a file writes it: the hand (11 cards to discard, with
    the card just ``drawn`` and whether it came ``from_pile``), the ``pile`` bottom first with who
    discarded each card (``None``: in turn), the face-up cards the player ``took`` (and holds) and
    ``passed``, those of the opponent, the draws made (``turns``, ``None``: from the stock's size), the
    ``scores``, the ``choice`` made (``None``: not made yet), the ``upcard`` (``None``: the pile's first
    card) and, by seat, the face-up cards ``discarded`` and ``ever_taken`` earlier in the hand that the
    pile and the hands no longer show (the opponent model reads them). Cards are card indices, sets
    of cards masks."""

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


@dataclass(frozen=True)
class WrittenRecord:
    """A record as a file writes it: the ``rules``, the ``players``' names, the ``hands`` or a single
    ``position``, and where the game came from (``seed``, ``match``, the game's ``totals``)."""

    rules: Rules
    players: tuple[str, str] = ("player 0", "player 1")
    hands: tuple[WrittenHand, ...] = ()
    position: WrittenPosition | None = None
    seed: int | None = None
    match: int | None = None
    totals: tuple[int, int] | None = None


# --- reading --------------------------------------------------------------------------------------------

def read_file(path: str | os.PathLike[str]) -> object:
    """The JSON in the file ``path``, read whole up to ``MAX_RECORD_BYTES``; one line naming the file
    when it cannot be read, is too large or is not JSON."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise InputError(f"{name} cannot be read: {error.strerror or error}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise InputError(f"{name} is larger than a game record can be ({MAX_RECORD_BYTES:,} bytes)")
    try:
        return json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as error:
        raise InputError(f"{name} is not JSON: {error.msg} at line {error.lineno}") from None
    except UnicodeDecodeError:
        raise InputError(f"{name} is not a text file") from None
    except RecursionError:
        raise InputError(f"{name} is nested too deeply to be a game record") from None


def read_record(data: object) -> WrittenRecord:
    """What a record's parsed JSON (or a traced hand's) says, every field checked for its form."""
    if not isinstance(data, Mapping):
        raise InputError(f"a record is a JSON object, got {type(data).__name__}")
    if "format" not in data and "deck" in data and "actions" in data:
        return _read_trace(data)
    if data.get("format") != FORMAT:
        raise InputError(f"format: a record says \"format\": \"{FORMAT}\", got {data.get('format')!r}")
    if as_integer(data.get("version")) != VERSION:
        raise InputError(f"version: this is version {VERSION} of the record format; the file has version "
                         f"{data.get('version')!r}")
    _fields(data, ("format", "version", "game", "rules", "players", "seed", "match", "totals", "hands",
                   "position"))
    rules, players, seed = _source(data)
    match = within("match", lambda: None if data.get("match") is None else integer("match", data["match"], 0))
    totals = within("totals", lambda: None if data.get("totals") is None else _pair_of_ints(data["totals"]))
    hands_data = data.get("hands", [])
    if not isinstance(hands_data, list):
        raise InputError("hands: a list of hands")
    hands = tuple(within(f"hands[{index}]", _hand, item, index) for index, item in enumerate(hands_data))
    position = None if data.get("position") is None else within("position", _position, data["position"])
    if (position is None) == (not hands):
        raise InputError("hands: a record holds hands or a position (one of them)")
    return WrittenRecord(rules, players, hands, position, seed, match, totals)


def _source(data: Mapping[str, Any]) -> tuple[Rules, tuple[str, str], int | None]:
    """The game, rules, players and seed of a record (or of a traced hand's JSON)."""
    if data.get("game", "gin") != "gin":
        raise InputError(f"game: records are of Gin games, got {data.get('game')!r}")
    rules = within("rules", _rules, data.get("rules"))
    players = within("players", _players, data.get("players", ["player 0", "player 1"]))
    seed = within("seed", lambda: None if data.get("seed") is None else check_seed(data["seed"]))
    return rules, players, seed


def _read_trace(data: Mapping[str, Any]) -> WrittenRecord:
    """A record of one hand from the JSON of a traced hand (``HandResult.to_json``): its moves are
    action numbers."""
    rules, players, seed = _source(data)
    deck = within("deck", _card_list, data["deck"])
    if sorted(deck) != list(range(52)):
        raise InputError("deck: each of the 52 cards once, top first")
    dealer = within("dealer", _seat, data.get("dealer"))
    dealt = data.get("dealt")
    if not isinstance(dealt, list) or len(dealt) != 2:
        raise InputError("dealt: the ten cards dealt to each seat, two entries")
    masks = within("dealt", lambda: (_mask(dealt[0]), _mask(dealt[1])))
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(action, int) for action in actions):
        raise InputError("actions: a list of action numbers")
    moves = tuple(WrittenMove(f"actions[{position}]", action) for position, action in enumerate(actions))
    stated = {key: data[key] for key in ("outcome", "winner", "points")} if all(
        key in data for key in ("outcome", "winner", "points")) else None
    hand = WrittenHand("", dealer, masks, deck[20], tuple(deck[21:]), moves, _reshuffles(data), None,
                       within("result", _result, stated) if stated is not None else None,
                       within("hand", integer, "hand", data.get("hand", 0), 0))
    return WrittenRecord(rules, players, (hand,), seed=seed)


def _hand(data: object, index: int) -> WrittenHand:
    if not isinstance(data, Mapping):
        raise InputError("a hand is an object (dealer, dealt, upcard, stock, decisions)")
    _fields(data, ("hand", "dealer", "scores", "dealt", "upcard", "stock", "decisions", "reshuffles", "result"))
    dealer = within("dealer", lambda: _seat(_require(data, "dealer")))
    dealt_data = _require(data, "dealt")
    if not isinstance(dealt_data, list) or len(dealt_data) != 2:
        raise InputError("dealt: the ten cards dealt to each seat, two entries")
    dealt = (within("dealt[0]", _mask, dealt_data[0]), within("dealt[1]", _mask, dealt_data[1]))
    upcard = within("upcard", lambda: _card(_require(data, "upcard")))
    stock = tuple(within("stock", lambda: _card_list(_require(data, "stock"))))
    scores = within("scores", lambda: None if data.get("scores") is None else _pair_of_ints(data["scores"]))
    hand = within("hand", lambda: integer("hand", data.get("hand", index), 0))
    moves = data.get("decisions", [])
    if not isinstance(moves, list):
        raise InputError("decisions: a list of decisions")
    written = tuple(within(f"decisions[{position}]", _move, item, f"decisions[{position}]")
                    for position, item in enumerate(moves))
    stated = data.get("result")
    result = None if stated is None else within("result", _result, stated)
    return WrittenHand(f"hands[{index}]", dealer, dealt, upcard, stock, written, _reshuffles(data), scores, result,
                       hand)


def _move(item: object, at: str) -> WrittenMove:
    if isinstance(item, str):
        return WrittenMove(at, item)
    if not isinstance(item, Mapping):
        raise InputError(f"a decision is an object with player, kind and choice, got {item!r}")
    _fields(item, ("player", "kind", "choice"))
    player = within("player", lambda: None if item.get("player") is None else _seat(item["player"]))
    kind = item.get("kind")
    if kind is not None and kind not in DECISION_KINDS:
        raise InputError(f"kind: one of {', '.join(DECISION_KINDS)}, got {kind!r}")
    choice = _require(item, "choice")
    if not isinstance(choice, str):
        raise InputError(f"choice: text such as 'pass', 'stock' or 'KD', got {choice!r}")
    return WrittenMove(at, choice, player, kind)


def _reshuffles(data: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(within(f"reshuffles[{position}]", _card_list, item))
                 for position, item in enumerate(data.get("reshuffles") or []))


def _result(data: object) -> HandOutcome:
    if not isinstance(data, Mapping):
        raise InputError("an object with outcome, winner and points")
    _fields(data, ("outcome", "winner", "points"))
    outcome = _require(data, "outcome")
    if outcome not in tuple(Outcome):
        raise InputError(f"outcome: one of {', '.join(Outcome)}, got {outcome!r}")
    return HandOutcome(Outcome(outcome), integer("winner", _require(data, "winner"), -1, 1),
                       integer("points", _require(data, "points"), 0))


def _position(data: object) -> WrittenPosition:
    if not isinstance(data, Mapping):
        raise InputError("a position is an object (player, dealer, hand, pile, ...)")
    _fields(data, ("player", "dealer", "hand", "drawn", "from_pile", "pile", "discarded_by", "upcard", "took",
                   "passed", "opponent", "turns", "scores", "choice", "history"))
    opponent = data.get("opponent") or {}
    if not isinstance(opponent, Mapping):
        raise InputError("opponent: an object with took and passed")
    within("opponent", _fields, opponent, ("took", "passed"))
    history = data.get("history") or {}
    if not isinstance(history, Mapping):
        raise InputError("history: an object with discarded and taken")
    within("history", _fields, history, ("discarded", "taken"))
    drawn = within("drawn", lambda: None if data.get("drawn") is None else _card(data["drawn"]))
    by = data.get("discarded_by")
    if by is not None and (not isinstance(by, list) or not all(isinstance(who, int) for who in by)):
        raise InputError("discarded_by: a list of -1 (the upcard), 0 or 1 per pile card")
    from_pile = data.get("from_pile", False)
    if not isinstance(from_pile, bool):
        raise InputError(f"from_pile: true or false, got {from_pile!r}")
    choice = data.get("choice")
    if choice is not None and not isinstance(choice, str):
        raise InputError(f"choice: text such as 'pass', 'stock' or 'KD', got {choice!r}")
    return WrittenPosition(
        player=within("player", lambda: _seat(_require(data, "player"))),
        dealer=within("dealer", lambda: _seat(_require(data, "dealer"))),
        hand=within("hand", lambda: _mask(_require(data, "hand"))),
        pile=tuple(within("pile", lambda: _pile(_require(data, "pile")))),
        drawn=drawn, from_pile=from_pile, discarded_by=None if by is None else tuple(by),
        took=within("took", _mask, data.get("took", "")),
        passed=within("passed", _mask, data.get("passed", "")),
        opponent_took=within("opponent.took", _mask, opponent.get("took", "")),
        opponent_passed=within("opponent.passed", _mask, opponent.get("passed", "")),
        turns=within("turns", lambda: None if data.get("turns") is None else integer("turns", data["turns"], 0)),
        scores=within("scores", lambda: None if data.get("scores") is None else _pair_of_ints(data["scores"])),
        choice=choice, upcard=within("upcard", lambda: None if data.get("upcard") is None else _card(data["upcard"])),
        discarded=within("history.discarded", _seat_masks, history.get("discarded")),
        ever_taken=within("history.taken", _seat_masks, history.get("taken")))


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


MAX_NAME: Final = 1000
"""The longest player name a record may give (a strategy's name with the path of its weights fits)."""


def _players(value: object) -> tuple[str, str]:
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(name, str) for name in value):
        raise InputError(f"two names, got {reprlib.repr(value)}")
    for name in value:
        if len(name) > MAX_NAME:
            raise InputError(f"a name of at most {MAX_NAME:,} characters, got one of {len(name):,}")
        if not name.isprintable():
            raise InputError(f"a name without control characters, got {reprlib.repr(name)}")
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


def _seat_masks(value: object) -> tuple[int, int]:
    if value is None:
        return 0, 0
    if not isinstance(value, list) or len(value) != 2:
        raise InputError(f"cards for each seat, two entries, got {value!r}")
    return _mask(value[0]), _mask(value[1])


# --- writing --------------------------------------------------------------------------------------------

def write_record(record: WrittenRecord) -> dict[str, Any]:
    """The record as JSON-ready values, as :func:`read_record` reads them.

    >>> written = read_record({"format": "ginsim-record", "version": 1, "rules": "standard",
    ...                        "position": {"player": 0, "dealer": 1, "hand": "AC 2C", "pile": "KD"}})
    >>> write_record(written)["position"]
    {'player': 0, 'dealer': 1, 'hand': 'AC 2C', 'pile': 'KD'}
    """
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": "gin", "rules": record.rules.to_dict(),
                            "players": list(record.players)}
    for name in ("seed", "match"):
        if getattr(record, name) is not None:
            data[name] = getattr(record, name)
    if record.totals is not None:
        data["totals"] = list(record.totals)
    if record.hands:
        data["hands"] = [_hand_json(hand) for hand in record.hands]
    if record.position is not None:
        data["position"] = _position_json(record.position)
    return data


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(gincore.card_text(card) for card in cards)


def _move_json(move: WrittenMove) -> dict[str, Any]:
    data: dict[str, Any] = {"player": move.player, "kind": move.kind, "choice": move.choice}
    return {key: value for key, value in data.items() if value is not None}


def _hand_json(hand: WrittenHand) -> dict[str, Any]:
    data: dict[str, Any] = {"hand": hand.hand, "dealer": hand.dealer}
    if hand.scores is not None:
        data["scores"] = list(hand.scores)
    data.update({
        "dealt": [gincore.format_cards(mask) for mask in hand.dealt], "upcard": gincore.card_text(hand.upcard),
        "stock": _cards_text(hand.stock), "decisions": [_move_json(move) for move in hand.moves],
    })
    if hand.reshuffles:
        data["reshuffles"] = [_cards_text(stock) for stock in hand.reshuffles]
    if hand.result is not None:
        data["result"] = {"outcome": hand.result.outcome, "winner": hand.result.winner,
                          "points": hand.result.points}
    return data


def _position_json(position: WrittenPosition) -> dict[str, Any]:
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
