"""Summaries of classic Rummy runs: win, rummy and draw rates with 95% Wilson intervals.

>>> from ginsim.rummy import Rules, simulate
>>> table = summarize(simulate(Rules(), "greedy,greedy,greedy", hands=2000, seed=1, workers=1), by="players")
>>> bool(abs(table[["win_rate_0", "win_rate_1", "win_rate_2", "draw_rate"]].sum(axis=1).iloc[0] - 1) < 1e-9)
True
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.comparison import Measures
from ginsim.core.execution import RunKind, load_run
from ginsim.core.intervals import mean_interval, wilson
from ginsim.core.store import RunDirectory
from ginsim.rummy.hand import HandResult, Outcome, play_hand
from ginsim.rummy.rules import Rules
from ginsim.rummy.strategies import MAX_PLAYERS

__all__ = ["GAMES", "GROUPS", "HANDS", "OUTCOMES", "RUN_KINDS", "summarize", "summarize_games"]

OUTCOMES: Final = tuple(outcome.value for outcome in Outcome)
"""A hand's outcome: won by going out, won by going out rummy, or drawn (the stock ran out too often)."""
GROUPS: Final = ("players", "seat", "position")
"""What :func:`summarize` groups by (or ``None``: every hand together)."""


def _rate(table: pd.DataFrame, name: str, count: np.ndarray, total: np.ndarray) -> None:
    with np.errstate(invalid="ignore", divide="ignore"):
        table[name] = np.where(total > 0, count / np.maximum(total, 1), np.nan)
    table[f"{name}_low"], table[f"{name}_high"] = wilson(count, total)


def summarize(records: pd.DataFrame | str | os.PathLike[str], by: str | None = "players") -> pd.DataFrame:
    """Outcome rates of Rummy hands with 95% Wilson intervals (``proportion_confint(method="wilson")``).

    ``by="players"`` (one row per number of players) or ``None`` (one row): ``hands``, ``win_rate_0..5``
    (fraction of the hands won by each seat; NaN for seats absent from every hand), ``rummy_rate``
    (hands won rummy), ``draw_rate``, each with ``_low``/``_high`` bounds, and ``mean_points`` (drawn
    hands count 0), ``mean_turns``, ``mean_turnovers``.

    ``by="seat"`` or ``by="position"``: one row per (players, seat) — or per position at the table,
    0 being the first to play (the dealer's left) and ``players - 1`` the dealer — with ``hands``,
    ``wins``, ``win_rate`` and its bounds, ``rummy_wins``, ``mean_points_won`` (points that seat scored
    per hand) and ``mean_cards_left``.

    A games DataFrame (of :func:`~ginsim.rummy.simulate_games`) is passed on to :func:`summarize_games`;
    a run directory of either is read first.

    >>> frame = pd.DataFrame({"players": [2, 2, 2], "dealer": [0, 1, 0], "winner": [0, 0, -1],
    ...     "rummy": [1, 0, 0], "points": [20, 5, 0], "turns": [10, 20, 30], "turnovers": [0, 0, 3],
    ...     "cards_left_0": [0, 0, 3], "cards_left_1": [4, 2, 3]})
    >>> summarize(frame)[["players", "hands", "win_rate_0", "rummy_rate", "draw_rate", "mean_points"]]
       players  hands  win_rate_0  rummy_rate  draw_rate  mean_points
    0        2      3    0.666667    0.333333   0.333333     8.333333
    """
    if isinstance(records, (str, os.PathLike)):
        _, _, records = load_run(records, RUN_KINDS)
    if not isinstance(records, pd.DataFrame):
        raise TypeError(f"records must be a pandas DataFrame, got {type(records).__name__}")
    if "game" in records:
        return summarize_games(records)
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
        bounds = [mean_interval(frame[column]) for _, frame in groups]
        table[f"{name}_low"], table[f"{name}_high"] = [low for low, _ in bounds], [high for _, high in bounds]
    return table


def _groups(frame: pd.DataFrame, by_players: bool) -> list[tuple[int, pd.DataFrame]]:
    """(players, rows) per number of players, or one group of every row (players -1)."""
    if not by_players:
        return [(-1, frame)]
    return [(int(str(players)), rows) for players, rows in frame.groupby("players", sort=True)]


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


def summarize_games(games: pd.DataFrame | str | os.PathLike[str]) -> pd.DataFrame:
    """Game win rates of each seat with 95% Wilson bounds, per number of players; mean hands per game.

    >>> frame = pd.DataFrame({"game": [0, 1], "players": [2, 2], "winner": [1, 1], "hands": [3, 5],
    ...                       "drawn_hands": [0, 1], "rummies": [0, 1]})
    >>> summarize_games(frame)[["players", "games", "win_rate_0", "win_rate_1", "mean_hands"]]
       players  games  win_rate_0  win_rate_1  mean_hands
    0        2      2         0.0         1.0         4.0
    """
    if isinstance(games, (str, os.PathLike)):
        _, _, games = load_run(games, RUN_KINDS)
    if not isinstance(games, pd.DataFrame) or "game" not in games:
        raise InputError("summarize_games needs the games DataFrame of simulate_games")
    groups = _groups(games, True)
    table = pd.DataFrame({"players": [players for players, _ in groups]})
    total = np.array([len(frame) for _, frame in groups])
    table["games"] = total
    for seat in range(MAX_PLAYERS):
        wins = np.array([(frame["winner"] == seat).sum() for _, frame in groups])
        seated = np.array([seat < players for players, _ in groups])
        _rate(table, f"win_rate_{seat}", wins, np.where(seated, total, 0))
    table["mean_hands"] = [float(frame["hands"].mean()) for _, frame in groups]
    bounds = [mean_interval(frame["hands"]) for _, frame in groups]
    table["mean_hands_low"], table["mean_hands_high"] = [low for low, _ in bounds], [high for _, high in bounds]
    table["drawn_hand_rate"] = [float(frame["drawn_hands"].sum() / frame["hands"].sum()) for _, frame in groups]
    table["rummies_per_game"] = [float(frame["rummies"].mean()) for _, frame in groups]
    return table


def _summarize_hands(records: pd.DataFrame, by: list[str] | None) -> pd.DataFrame:
    if by is not None and len(by) > 1:
        raise InputError(f"classic Rummy hands are grouped by one of {', '.join(GROUPS)}, not several")
    return summarize(records, by=by[0] if by else None)


def _summarize_games(games: Any, by: Any) -> pd.DataFrame:
    return summarize_games(games)


def _hand_measures(records: pd.DataFrame) -> Measures:
    seats = int(records["players"].max())
    frame = pd.DataFrame({
        "item": records["hand"].to_numpy(), "players": records["players"].to_numpy(),
        **{f"win_rate_{seat}": (records["winner"] == seat).to_numpy(int) for seat in range(seats)},
        "rummy_rate": ((records["rummy"] > 0) & (records["winner"] >= 0)).to_numpy(int),
        "draw_rate": (records["winner"] < 0).to_numpy(int),
        "mean_points": records["points"].to_numpy(), "mean_turns": records["turns"].to_numpy(),
    })
    return Measures(frame, [*(f"win_rate_{seat}" for seat in range(seats)), "rummy_rate", "draw_rate"],
                    ["mean_points", "mean_turns"])


def _game_measures(games: pd.DataFrame) -> Measures:
    seats = int(games["players"].max())
    frame = pd.DataFrame({"item": games["game"].to_numpy(), "players": games["players"].to_numpy(),
                          **{f"win_rate_{seat}": (games["winner"] == seat).to_numpy(int) for seat in range(seats)},
                          "mean_hands": games["hands"].to_numpy()})
    return Measures(frame, [f"win_rate_{seat}" for seat in range(seats)], ["mean_hands"])


def _replay(identity: Mapping[str, Any], index: int) -> HandResult:
    return play_hand(Rules.from_dict(identity["rules"]), list(identity["players"]), identity["seed"], index)


HANDS = RunKind("rummy_hands", "rummy", "hands", Rules, RunDirectory.read_frame, _summarize_hands, GROUPS, "players",
                _hand_measures, _replay)
"""A run of classic Rummy hands, a record per hand."""
GAMES = RunKind("rummy_games", "rummy", "games", Rules, RunDirectory.read_frame, _summarize_games, (), None,
                _game_measures)
"""A run of classic Rummy games to the rules' target, a row per game."""
RUN_KINDS = {kind.name: kind for kind in (HANDS, GAMES)}
"""The kinds of classic Rummy runs by name."""
