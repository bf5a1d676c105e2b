"""Classic Rummy (RULES.md §12) on the native engine: rules, a traced hand, seeded runs, games, summaries.

Two to six players, one strategy each; the number of strategies is the number of players. Hand ``i`` of
a run with seed ``s`` draws all its randomness from a stream keyed by ``(k0, k1, i)``, where ``(k0, k1)``
are the first two 64-bit words of ``SeedSequence(s, spawn_key=(2,))`` — a stream family of its own,
apart from Gin runs (no spawn key) and Gin matches (``(1,)``); games to a target use
``spawn_key=(3,)``, hand ``j`` of game ``g`` being stream ``(g << 24) | j``. A hand is therefore a pure
function of (rules, players, s, i), whatever the number of workers or the chunk size.

Readings of the rules text (see ``gincore._rummy`` for the engine's side):

- The stock runs out: the whole discard pile is turned over, not shuffled, as the new stock (the
  oldest discard on top) and the pile starts again empty. ``max_turnovers`` (default 3) bounds the
  turnovers; the next time the stock runs out the hand is drawn: no score, and in a game the deal
  passes on as after any hand (with two players the same dealer deals again).
- Rummy: going out in a turn before which the player had laid down nothing, neither a meld nor a
  lay-off; lay-offs in that turn and a final discard are allowed. It doubles the score
  (``rummy_doubles``).
- A game is played to ``target`` points (default 100, the target RULES.md §11 gives a game; §12 only
  says "an agreed target"); only a hand's winner scores, so the first player to reach it wins.

>>> from ginsim.rummy import RummyRules, simulate_rummy, summarize_rummy
>>> records = simulate_rummy(RummyRules(), "greedy,greedy,greedy", hands=2000, seed=1, workers=1)
>>> len(records), int(records["players"].iloc[0])
(2000, 3)
>>> table = summarize_rummy(records, by="players")
>>> bool(abs(table[["win_rate_0", "win_rate_1", "win_rate_2", "draw_rate"]].sum(axis=1).iloc[0] - 1) < 1e-9)
True
"""
from __future__ import annotations

import dataclasses
import difflib
import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple

import numpy as np
import pandas as pd

import gincore
from gincore._rummy import (
    GAME_COLUMNS,
    HAND_SIZES,
    RECORD_COLUMNS,
    STRATEGY_KINDS,
    RummyEngine,
)
from gincore.errors import InputError
from ginsim._native import stream_key
from ginsim.checks import check_seed, integer, positive
from ginsim.rules import (
    _Flag,
    _Integer,
    _Kind,
    _option,
    _shown,
    _unknown,
    parse_field_texts,
)
from ginsim.simulate import run_chunks, worker_count
from ginsim.summary import wilson

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RUMMY_STRATEGIES",
    "RummyEvent",
    "RummyHandResult",
    "RummyRules",
    "play_rummy_hand",
    "resolve_rummy_players",
    "rummy_engine",
    "rummy_game_key",
    "rummy_games_frame",
    "rummy_records_frame",
    "rummy_run_key",
    "simulate_rummy",
    "simulate_rummy_games",
    "summarize_rummy",
    "summarize_rummy_games",
]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
HANDS_PER_CHUNK: Final = 100_000
GAMES_PER_CHUNK: Final = 5_000
OUTCOMES: Final = ("out", "rummy", "draw")
"""A hand's outcome: won by going out, won by going out rummy, or drawn (the stock ran out too often)."""
GROUPS: Final = ("players", "seat", "position")
"""What :func:`summarize_rummy` groups by (or ``None``: every hand together)."""

RUMMY_STRATEGIES: Final = MappingProxyType(
    {
        "random": "Uniformly random legal choices: a coin decides the draw, then at each step any legal "
        "meld or lay-off or stopping is equally likely, and the discard is any legal card.",
        "greedy": "Melds and lays off all it can at once; keeps the discard that leaves its hand the least "
        "deadwood (the highest card on ties) and takes the discard pile's top card only if that lowers "
        "its deadwood after the best discard; lay-offs onto the table count in the deadwood.",
    }
)
"""Every built-in classic Rummy strategy by name, with one line on what it does."""


# --- the rules ----------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RummyRules:
    """The rules of classic Rummy that can vary; the number of players is the number of strategies.

    >>> RummyRules().target, RummyRules().max_turnovers
    (100, 3)
    >>> RummyRules(max_turnovers=-1)
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: max_turnovers must be an integer from 0 to 50, got -1
    """

    target: int = _option(100, _Integer(1), "points that end a game")
    max_turnovers: int = _option(
        3, _Integer(0, 50), "times the discard pile may be turned over as a new stock in a hand"
    )
    rummy_doubles: bool = _option(True, _Flag(), "going out rummy doubles the hand's score")

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            kind: _Kind = field.metadata["kind"]
            value = getattr(self, field.name)
            if not kind.accepts(value):
                raise InputError(f"{field.name} must be {kind.describe()}, got {_shown(value, kind.type_ok(value))}")

    def replace(self, **changes: object) -> RummyRules:
        """A copy with the given fields changed, validated like a new ``RummyRules``.

        >>> RummyRules().replace(target=250).target
        250
        """
        _refuse_unknown_fields(changes)
        checked_later: dict[str, Any] = dict(changes)
        return dataclasses.replace(self, **checked_later)

    def to_dict(self) -> dict[str, int | bool]:
        """Every field by name; JSON-ready.

        >>> RummyRules.from_dict(RummyRules(target=50).to_dict()) == RummyRules(target=50)
        True
        """
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RummyRules:
        """The rules saved by :meth:`to_dict`; missing fields take their defaults, unknown ones are refused."""
        if not isinstance(data, Mapping):
            raise InputError(f"rules data must be a mapping of field names to values, got {type(data).__name__}")
        _refuse_unknown_fields(data)
        return cls().replace(**data)

    @classmethod
    def parse_overrides(cls, items: Iterable[str] = ()) -> RummyRules:
        """The default rules with ``field=value`` overrides typed on a command line.

        >>> RummyRules.parse_overrides(["target=250", "rummy-doubles=no"]).rummy_doubles
        False
        """
        return cls().replace(**parse_field_texts(items, _KINDS))

    @classmethod
    def fields_help(cls) -> list[tuple[str, object, str]]:
        """``(name, default, description)`` of every field, each description ending with the allowed values.

        >>> RummyRules.fields_help()[1][:2]
        ('max_turnovers', 3)
        """
        return [(field.name, field.default,
                 f"{field.metadata['description']} (allowed: {field.metadata['kind'].describe()})")
                for field in dataclasses.fields(cls)]


_KINDS: Final[Mapping[str, _Kind]] = MappingProxyType(
    {field.name: field.metadata["kind"] for field in dataclasses.fields(RummyRules)})
_FIELD_NAMES: Final = tuple(_KINDS)


def _refuse_unknown_fields(names: Iterable[object]) -> None:
    unknown = [name for name in names if name not in _KINDS]
    if unknown:
        raise _unknown("field", unknown, _FIELD_NAMES)


def _check_rules(rules: object) -> RummyRules:
    if not isinstance(rules, RummyRules):
        raise TypeError(f"rules must be a ginsim.rummy.RummyRules, got {type(rules).__name__}")
    return rules


# --- players, keys and the engine ----------------------------------------------------------------------


def resolve_rummy_players(players: str | Iterable[str]) -> tuple[str, ...]:
    """Two to six strategy names, from ``"a,b,c"`` text or a sequence; checked and normalised.

    >>> resolve_rummy_players("Greedy, random,greedy")
    ('greedy', 'random', 'greedy')
    >>> resolve_rummy_players("greedy")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: classic Rummy needs 2 to 6 players, got 1: ['greedy']
    """
    names = players.split(",") if isinstance(players, str) else list(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InputError(f"classic Rummy needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}: {names!r}")
    return tuple(_known(name) for name in names)


def _known(name: object) -> str:
    if not isinstance(name, str):
        raise TypeError(f"a strategy is named by a str, got {type(name).__name__}")
    key = name.strip().lower()
    if key in RUMMY_STRATEGIES:
        return key
    close = difflib.get_close_matches(key, RUMMY_STRATEGIES, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InputError(f"unknown Rummy strategy {name!r}{hint}; known: {', '.join(RUMMY_STRATEGIES)}")


def rummy_run_key(seed: int) -> tuple[int, int]:
    """The two 64-bit words keying every hand stream of a Rummy run with this seed.

    >>> from ginsim._native import run_key
    >>> rummy_run_key(1) != run_key(1)
    True
    """
    return stream_key(seed, "rummy_hands")


def rummy_game_key(seed: int) -> tuple[int, int]:
    """The key of a run of Rummy games, apart from a run of hands with that seed.

    >>> rummy_game_key(1) != rummy_run_key(1)
    True
    """
    return stream_key(seed, "rummy_games")


@functools.lru_cache(maxsize=64)
def _engine(rules: RummyRules, players: tuple[str, ...]) -> RummyEngine:
    config = {"max_turnovers": rules.max_turnovers, "rummy_doubles": rules.rummy_doubles}
    return RummyEngine(config, [STRATEGY_KINDS[name] for name in players])


def rummy_engine(rules: RummyRules, players: Sequence[str] | str) -> RummyEngine:
    """The native engine for a rule set and a table of strategies (built once, then reused).

    >>> rummy_engine(RummyRules(), "greedy,random,greedy").players
    3
    """
    return _engine(_check_rules(rules), resolve_rummy_players(players))


# --- one traced hand --------------------------------------------------------------------------------------


class RummyEvent(NamedTuple):
    """One step of a hand.

    ``kind`` is one of ``draw_stock``, ``draw_discard``, ``meld`` (``cards``: the meld, ``meld``: its
    index on the table), ``lay_off`` (``card`` onto table meld ``meld``), ``discard``, ``go_out``
    (``cards``: 1 for rummy), ``turnover`` (``cards``: the new stock) and ``drawn``; ``player``,
    ``card`` and ``meld`` are -1 where none applies.
    """

    kind: str
    player: int
    card: int
    meld: int
    cards: int


@dataclass(frozen=True)
class RummyHandResult:
    """A played hand: its record, the deal, every event and the final table. Cards are indices, hands masks."""

    rules: RummyRules
    players: tuple[str, ...]
    seed: int | None
    hand: int
    dealer: int
    winner: int
    points: int
    rummy: bool
    turns: int
    turnovers: int
    cards_left: tuple[int, ...]
    deck: tuple[int, ...]
    dealt: tuple[int, ...]
    events: tuple[RummyEvent, ...]
    final_hands: tuple[int, ...]
    melds: tuple[tuple[int, int], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]

    @property
    def outcome(self) -> str:
        """``"out"``, ``"rummy"`` or ``"draw"``."""
        return "draw" if self.winner < 0 else "rummy" if self.rummy else "out"

    @property
    def upcard(self) -> int:
        """The card that started the discard pile."""
        return self.deck[len(self.players) * HAND_SIZES[len(self.players)]]

    def to_text(self) -> str:
        """The hand as readable text, step by step."""
        seats = [f"seat {seat} ({name})" for seat, name in enumerate(self.players)]
        card = gincore.card_text
        origin = f"of seed {self.seed}" if self.seed is not None else "from a given deal"
        lines = [
            f"Rummy hand {self.hand} {origin}: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(self.players)),
            f"Dealer: seat {self.dealer}. {HAND_SIZES[len(self.players)]} cards each; upcard {card(self.upcard)}.",
        ]
        lines += [f"{seats[seat]} is dealt {gincore.format_cards(cards)}" for seat, cards in enumerate(self.dealt)]
        for step, event in enumerate(self.events, 1):
            who = seats[event.player] if event.player >= 0 else ""
            if event.kind == "draw_stock":
                text = f"{who} draws {card(event.card)} from the stock"
            elif event.kind == "draw_discard":
                text = f"{who} takes {card(event.card)} from the discard pile"
            elif event.kind == "meld":
                text = f"{who} melds {gincore.format_cards(event.cards)} (meld {event.meld})"
            elif event.kind == "lay_off":
                text = f"{who} lays {card(event.card)} off onto meld {event.meld}"
            elif event.kind == "discard":
                text = f"{who} discards {card(event.card)}"
            elif event.kind == "go_out":
                text = f"{who} goes out" + (" rummy" if event.cards else "")
            elif event.kind == "turnover":
                text = (f"the stock is empty: the discard pile is turned over as the new stock "
                        f"({bin(event.cards).count('1')} cards)")
            else:
                text = "the stock is empty once more: the hand is drawn"
            lines.append(f"{step:3}. {text}")
        if self.winner < 0:
            lines.append("No score.")
            return "\n".join(lines)
        left = [f"{seats[seat]} {gincore.format_cards(cards)}" for seat, cards in enumerate(self.final_hands)
                if seat != self.winner]
        doubled = " (doubled for rummy)" if self.rummy and self.rules.rummy_doubles else ""
        lines.append(f"{seats[self.winner]} wins {self.points} points{doubled}; cards left: " + "; ".join(left))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def _deck_order(deck: Sequence[int] | str) -> list[int]:
    cards = ([gincore.parse_cards(token).bit_length() - 1 for token in deck.replace(",", " ").split()]
             if isinstance(deck, str) else [int(card) for card in deck])
    if sorted(cards) != list(range(52)):
        missing = sorted(set(range(52)) - set(cards))
        detail = (f"missing {gincore.format_cards(sum(1 << c for c in missing))}" if missing
                  else f"{len(cards)} cards with repeats")
        raise InputError(f"deck must hold each of the 52 cards once, top first ({detail})")
    return cards


def play_rummy_hand(
    rules: RummyRules,
    players: Sequence[str] | str,
    seed: int | None = 0,
    index: int = 0,
    *,
    deck: Sequence[int] | str | None = None,
    dealer: int | None = None,
) -> RummyHandResult:
    """Play one hand with its full trace: hand ``index`` of every Rummy run with that ``seed``.

    With ``deck`` (the 52 cards top first, as indices or card text) and ``dealer`` (a seat), that deal
    is played instead: cards go one at a time round the table from the dealer's left, the next card
    is the upcard, the rest is the stock; the strategies' choices still come from (seed, index).

    >>> result = play_rummy_hand(RummyRules(), "greedy,greedy,random", seed=1, index=3)
    >>> result.winner in (-1, 0, 1, 2), len(result.final_hands)
    (True, 3)
    >>> print(result.to_text().splitlines()[0])
    Rummy hand 3 of seed 1: seat 0 greedy, seat 1 greedy, seat 2 random
    """
    names = resolve_rummy_players(players)
    _check_rules(rules)
    integer("hand index", index, low=0)
    if (deck is None) != (dealer is None):
        raise InputError("give both deck and dealer for an explicit deal, or neither")
    if dealer is not None and (isinstance(dealer, bool) or dealer not in range(len(names))):
        raise InputError(f"dealer must be a seat 0..{len(names) - 1}, got {dealer!r}")
    order = None if deck is None else _deck_order(deck)
    key0, key1 = rummy_run_key(0 if seed is None else check_seed(seed))
    raw = _engine(rules, names).play_traced(key0, key1, index, order, dealer)
    record = raw["record"]
    if raw["audit_failures"]:
        raise RuntimeError(f"the engine broke a table invariant in hand {index} (please report it)")

    def unset(value: int, none: int) -> int:
        return -1 if value == none else value

    return RummyHandResult(
        rules=rules,
        players=names,
        seed=None if deck is not None else seed,
        hand=index,
        dealer=record["dealer"],
        winner=record["winner"],
        points=record["points"],
        rummy=bool(record["rummy"]),
        turns=record["turns"],
        turnovers=record["turnovers"],
        cards_left=tuple(record[f"cards_left_{seat}"] for seat in range(len(names))),
        deck=tuple(raw["deck"]),
        dealt=tuple(raw["dealt"]),
        events=tuple(RummyEvent(kind, unset(player, 255), unset(card, 255), unset(meld, 255), cards)
                     for kind, player, card, meld, cards in raw["events"]),
        final_hands=tuple(raw["final"]),
        melds=tuple(raw["melds"]),
        stock=tuple(raw["stock"]),
        pile=tuple(raw["pile"]),
    )


# --- runs of hands -------------------------------------------------------------------------------------------


def rummy_records_frame(columns: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """The per-hand DataFrame of the native columns, with ``outcome`` (out, rummy, draw) after ``winner``.

    >>> frame = rummy_records_frame(rummy_engine(RummyRules(), "greedy,greedy").play_hands(1, 2, 0, 3))
    >>> list(frame.columns[:6])
    ['hand', 'players', 'dealer', 'winner', 'outcome', 'points']
    """
    frame = pd.DataFrame({name: columns[name] for name in RECORD_COLUMNS})
    winner = frame["winner"].to_numpy()
    codes = np.where(winner < 0, 2, np.where(frame["rummy"].to_numpy() > 0, 1, 0))
    frame.insert(4, "outcome", pd.Categorical.from_codes(codes, categories=list(OUTCOMES)))
    return frame


def _play_chunk(first: int, count: int, engine: RummyEngine, key: tuple[int, int]) -> pd.DataFrame:
    return rummy_records_frame(engine.play_hands(key[0], key[1], first, count))


def _run(kind: str, task: Any, engine: RummyEngine, key: tuple[int, int], extra: tuple[Any, ...],
         rules: RummyRules, names: tuple[str, ...], total: int, seed: int, size: int, workers: int | None,
         backend: str, scheduler: str | None, progress: bool | None,
         out: str | os.PathLike[str] | None) -> pd.DataFrame:
    identity = {"kind": kind, "game": "rummy", "rules": rules.to_dict(), "players": list(names),
                "seed": seed, "size": total, "chunk_size": size}
    parts = run_chunks(identity, task, (engine, key) + extra, worker_count(workers), backend, scheduler,
                       progress, out, "hands" if kind == "rummy_hands" else "games")
    return pd.concat(parts, ignore_index=True)


def simulate_rummy(
    rules: RummyRules,
    players: Sequence[str] | str,
    hands: int,
    seed: int,
    workers: int | None = None,
    chunk_size: int | None = None,
    *,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Play ``hands`` seeded hands of classic Rummy; one row per hand (see :func:`rummy_records_frame`).

    Columns: ``hand``, ``players``, ``dealer`` (drawn at random for every hand), ``winner`` (-1 for a
    drawn hand), ``outcome``, ``points`` (after doubling), ``rummy``, ``turns`` (draws), ``turnovers``,
    ``cards_left_0..5`` (-1 for absent seats), ``melds`` and ``table_cards`` (on the table at the end),
    ``stock_left``, ``pile_left``. Workers, backends (``"local"`` or ``"dask"``), ``out=DIR`` with
    resuming and the progress bar work as in :func:`ginsim.simulate`; the rows do not depend on them.

    >>> frame = simulate_rummy(RummyRules(), ["greedy", "random"], hands=100, seed=2, workers=1)
    >>> frame.equals(simulate_rummy(RummyRules(), ["greedy", "random"], hands=100, seed=2, workers=2, chunk_size=7))
    True
    """
    _check_rules(rules)
    names = resolve_rummy_players(players)
    total = positive("hands", hands)
    seed = check_seed(seed)
    size = positive("chunk_size", chunk_size) if chunk_size is not None else HANDS_PER_CHUNK
    return _run("rummy_hands", _play_chunk, _engine(rules, names), rummy_run_key(seed), (), rules, names,
                total, seed, size, workers, backend, scheduler, progress, out)


# --- games to a target ----------------------------------------------------------------------------------------


def rummy_games_frame(columns: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """The per-game DataFrame of the native ``play_games`` columns."""
    return pd.DataFrame({name: columns[name] for name in GAME_COLUMNS})


def _play_game_chunk(first: int, count: int, engine: RummyEngine, key: tuple[int, int],
                     target: int) -> pd.DataFrame:
    return rummy_games_frame(engine.play_games(key[0], key[1], first, count, target))


def simulate_rummy_games(
    rules: RummyRules,
    players: Sequence[str] | str,
    games: int,
    seed: int,
    workers: int | None = None,
    chunk_size: int | None = None,
    *,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Play ``games`` games to ``rules.target``; one row per game.

    Columns: ``game``, ``players``, ``winner`` (the first to reach the target), ``hands`` (played,
    drawn ones included), ``drawn_hands``, ``rummies``, ``first_dealer`` (drawn at random), ``total_0..5``
    and ``hands_won_0..5`` (-1 for absent seats). The deal passes to the left after every hand; with
    two players the winner deals, and after a drawn hand the same dealer deals again.

    >>> table = simulate_rummy_games(RummyRules(target=50), "greedy,greedy,greedy", games=20, seed=1, workers=1)
    >>> len(table), bool((table[["total_0", "total_1", "total_2"]].max(axis=1) >= 50).all())
    (20, True)
    """
    _check_rules(rules)
    names = resolve_rummy_players(players)
    total = positive("games", games)
    seed = check_seed(seed)
    size = positive("chunk_size", chunk_size) if chunk_size is not None else GAMES_PER_CHUNK
    return _run("rummy_games", _play_game_chunk, _engine(rules, names), rummy_game_key(seed), (rules.target,),
                rules, names, total, seed, size, workers, backend, scheduler, progress, out)


# --- summaries ---------------------------------------------------------------------------------------------------


def _rate(table: pd.DataFrame, name: str, count: np.ndarray, total: np.ndarray) -> None:
    with np.errstate(invalid="ignore", divide="ignore"):
        table[name] = np.where(total > 0, count / np.maximum(total, 1), np.nan)
    table[f"{name}_low"], table[f"{name}_high"] = wilson(count, total)


def summarize_rummy(records: pd.DataFrame, by: str | None = "players") -> pd.DataFrame:
    """Outcome rates of Rummy hands with 95% Wilson intervals (``proportion_confint(method="wilson")``).

    ``by="players"`` (one row per number of players) or ``None`` (one row): ``hands``, ``win_rate_0..5``
    (fraction of the hands won by each seat; NaN for seats absent from every hand), ``rummy_rate``
    (hands won rummy), ``draw_rate``, each with ``_low``/``_high`` bounds, and ``mean_points`` (drawn
    hands count 0), ``mean_turns``, ``mean_turnovers``.

    ``by="seat"`` or ``by="position"``: one row per (players, seat) — or per position at the table,
    0 being the first to play (the dealer's left) and ``players - 1`` the dealer — with ``hands``,
    ``wins``, ``win_rate`` and its bounds, ``rummy_wins``, ``mean_points_won`` (points that seat scored
    per hand) and ``mean_cards_left``.

    A games DataFrame (of :func:`simulate_rummy_games`) is passed on to :func:`summarize_rummy_games`.

    >>> frame = pd.DataFrame({"players": [2, 2, 2], "dealer": [0, 1, 0], "winner": [0, 0, -1],
    ...     "rummy": [1, 0, 0], "points": [20, 5, 0], "turns": [10, 20, 30], "turnovers": [0, 0, 3],
    ...     "cards_left_0": [0, 0, 3], "cards_left_1": [4, 2, 3]})
    >>> summarize_rummy(frame)[["players", "hands", "win_rate_0", "rummy_rate", "draw_rate", "mean_points"]]
       players  hands  win_rate_0  rummy_rate  draw_rate  mean_points
    0        2      3    0.666667    0.333333   0.333333     8.333333
    """
    if not isinstance(records, pd.DataFrame):
        raise TypeError(f"records must be a pandas DataFrame, got {type(records).__name__}")
    if "game" in records:
        return summarize_rummy_games(records)
    if by is not None and by not in GROUPS:
        raise InputError(f"cannot group Rummy hands by {by!r}; choose from {', '.join(GROUPS)} (or None)")
    needed = {"players", "winner", "rummy", "points", "turns"} | (
        {"turnovers"} if by in (None, "players") else {"dealer", "cards_left_0"})
    missing = needed - set(records)
    if missing:
        raise InputError(f"records lack the columns {', '.join(sorted(missing))}")
    if by in ("seat", "position"):
        return _by_seat(records, by)
    groups = _groups(records, by is not None)
    table = pd.DataFrame({"players": [players for players, _ in groups]}) if by is not None else pd.DataFrame(
        index=range(1))
    total = np.array([len(frame) for _, frame in groups])
    table["hands"] = total
    for seat in range(MAX_PLAYERS):
        # A seat's rate is over all the hands of the group; NaN where nobody sat there.
        wins = np.array([(frame["winner"] == seat).sum() for _, frame in groups])
        seated = np.array([(frame["players"] > seat).any() for _, frame in groups])
        _rate(table, f"win_rate_{seat}", wins, np.where(seated, total, 0))
    _rate(table, "rummy_rate", np.array([((frame["rummy"] > 0) & (frame["winner"] >= 0)).sum()
                                         for _, frame in groups]), total)
    _rate(table, "draw_rate", np.array([(frame["winner"] < 0).sum() for _, frame in groups]), total)
    for name, column in (("mean_points", "points"), ("mean_turns", "turns"), ("mean_turnovers", "turnovers")):
        table[name] = [float(frame[column].mean()) for _, frame in groups]
    return table


def _groups(frame: pd.DataFrame, by_players: bool) -> list[tuple[int, pd.DataFrame]]:
    """(players, rows) per number of players, or one group of every row (players -1)."""
    if not by_players:
        return [(-1, frame)]
    return [(int(players), rows) for players, rows in frame.groupby("players", sort=True)]


def _by_seat(records: pd.DataFrame, by: str) -> pd.DataFrame:
    players = records["players"].to_numpy(np.int64)
    dealer = records["dealer"].to_numpy(np.int64)
    winner = records["winner"].to_numpy(np.int64)
    rummy = records["rummy"].to_numpy() > 0
    points = records["points"].to_numpy(np.int64)
    rows = []
    for count in sorted(set(players.tolist())):
        in_group = players == count
        for place in range(count):
            # ``place`` is a seat, or a position: seat (dealer + 1 + position) % players.
            seat = place if by == "seat" else (dealer[in_group] + 1 + place) % count
            won = winner[in_group] == seat
            left = records.loc[in_group, [f"cards_left_{s}" for s in range(count)]].to_numpy(np.int64)
            cards = left[np.arange(len(left)), seat] if by == "position" else left[:, place]
            rows.append({"players": count, by: place, "hands": int(in_group.sum()), "wins": int(won.sum()),
                         "rummy_wins": int((won & rummy[in_group]).sum()),
                         "mean_points_won": float(np.where(won, points[in_group], 0).mean()),
                         "mean_cards_left": float(cards.mean())})
    table = pd.DataFrame(rows, columns=["players", by, "hands", "wins", "rummy_wins", "mean_points_won",
                                        "mean_cards_left"])
    _rate(table, "win_rate", table["wins"].to_numpy(), table["hands"].to_numpy())
    order = ["players", by, "hands", "wins", "win_rate", "win_rate_low", "win_rate_high", "rummy_wins",
             "mean_points_won", "mean_cards_left"]
    return table[order]


def summarize_rummy_games(games: pd.DataFrame) -> pd.DataFrame:
    """Game win rates of each seat with 95% Wilson bounds, per number of players; mean hands per game.

    >>> frame = pd.DataFrame({"game": [0, 1], "players": [2, 2], "winner": [1, 1], "hands": [3, 5],
    ...                       "drawn_hands": [0, 1], "rummies": [0, 1]})
    >>> summarize_rummy_games(frame)[["players", "games", "win_rate_0", "win_rate_1", "mean_hands"]]
       players  games  win_rate_0  win_rate_1  mean_hands
    0        2      2         0.0         1.0         4.0
    """
    if not isinstance(games, pd.DataFrame) or "game" not in games:
        raise InputError("summarize_rummy_games needs the games DataFrame of simulate_rummy_games")
    groups = _groups(games, True)
    table = pd.DataFrame({"players": [players for players, _ in groups]})
    total = np.array([len(frame) for _, frame in groups])
    table["games"] = total
    for seat in range(MAX_PLAYERS):
        wins = np.array([(frame["winner"] == seat).sum() for _, frame in groups])
        seated = np.array([seat < players for players, _ in groups])
        _rate(table, f"win_rate_{seat}", wins, np.where(seated, total, 0))
    table["mean_hands"] = [float(frame["hands"].mean()) for _, frame in groups]
    table["drawn_hand_rate"] = [float(frame["drawn_hands"].sum() / frame["hands"].sum()) for _, frame in groups]
    table["rummies_per_game"] = [float(frame["rummies"].mean()) for _, frame in groups]
    return table
