"""Summaries of runs: knock, undercut, gin and draw rates with 95% Wilson intervals, by group.

Every summary goes through one exact intermediate, :class:`Counts`: hands, points and turns per
(dealer, upcard, outcome, winner) cell. Per-hand records reduce to it, streamed runs produce it
natively, and a group (``upcard``, ``upcard_rank``, ``upcard_suit``, ``knock_limit``, ``dealer``) is a
function of (dealer, upcard), so both paths give the same table.

>>> from ginsim import Rules, simulate, summarize
>>> records = simulate(Rules(), "simple,simple", hands=2000, seed=1, workers=1)
>>> table = summarize(records, by=None)
>>> int(table["hands"].iloc[0]), bool(0 < table["knock_rate"].iloc[0] < 1)
(2000, True)
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.comparison import Measures
from ginsim.core.execution import RunIdentity, RunKind, load_run
from ginsim.core.intervals import (
    grouped_mean_interval,
    grouped_rate_interval,
    mean_bounds,
    mean_interval,
    width_ratio,
    wilson,
)
from ginsim.core.store import RunDirectory
from ginsim.gin.game.hand import HandResult, Outcome, play_hand
from ginsim.gin.game.native import OUTCOME_NAMES
from ginsim.gin.game.players import stored_player
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.groups import GROUPS, group_columns, knocker_of

__all__ = ["COUNTS", "Counts", "GROUPS", "HANDS", "MATCHES", "RUN_KINDS", "summarize", "summarize_matches",
           "widest_halfwidth"]

SHAPE = (2, 52, len(OUTCOME_NAMES), 3)
POINTS_BINS = 1024


@dataclass
class Counts:
    """Hands, points and turns (and their squares) per (dealer, upcard, outcome, winner + 1) cell, and
    points histograms.

    ``knock_limit[u]`` is the knock limit of a hand with upcard ``u`` (-1 where no hand had it). The
    sums of squares are ``None`` for counts stored before they were kept (their means get no interval).
    """

    hands: np.ndarray = field(default_factory=lambda: np.zeros(SHAPE, np.int64))
    points: np.ndarray = field(default_factory=lambda: np.zeros(SHAPE, np.int64))
    turns: np.ndarray = field(default_factory=lambda: np.zeros(SHAPE, np.int64))
    points_histogram: np.ndarray = field(
        default_factory=lambda: np.zeros((len(OUTCOME_NAMES), POINTS_BINS), np.int64))
    knock_limit: np.ndarray = field(default_factory=lambda: np.full(52, -1, np.int8))
    points_squares: np.ndarray | None = field(default_factory=lambda: np.zeros(SHAPE, np.int64))
    turns_squares: np.ndarray | None = field(default_factory=lambda: np.zeros(SHAPE, np.int64))
    identity: RunIdentity | None = field(default=None, compare=False, repr=False)
    """The run the counts are of, when they come from one (:func:`~ginsim.simulate`)."""

    @property
    def total(self) -> int:
        """The number of hands counted."""
        return int(self.hands.sum())

    def add(self, other: Counts) -> Counts:
        """The counts of both runs together."""
        def both(mine: np.ndarray | None, theirs: np.ndarray | None) -> np.ndarray | None:
            return None if mine is None or theirs is None else mine + theirs

        return Counts(hands=self.hands + other.hands, points=self.points + other.points,
                      turns=self.turns + other.turns, points_histogram=self.points_histogram + other.points_histogram,
                      knock_limit=np.where(self.knock_limit >= 0, self.knock_limit, other.knock_limit),
                      points_squares=both(self.points_squares, other.points_squares),
                      turns_squares=both(self.turns_squares, other.turns_squares))

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], knock_limit: Sequence[int]) -> Counts:
        """Counts from the native ``play_counts`` arrays of a run with these knock limits by upcard."""
        return cls(hands=arrays["hands"], points=arrays["points"], turns=arrays["turns"],
                   points_histogram=arrays["points_histogram"], knock_limit=np.asarray(knock_limit, np.int8),
                   points_squares=arrays.get("points_squares"), turns_squares=arrays.get("turns_squares"))

    @classmethod
    def from_records(cls, records: pd.DataFrame) -> Counts:
        """Counts of per-hand records (the columns of ``simulate``)."""
        _check_columns(records)
        outcome = _outcome_codes(records)
        dealer = records["dealer"].to_numpy(np.int64)
        upcard = records["upcard"].to_numpy(np.int64)
        cell = ((dealer * 52 + upcard) * len(OUTCOME_NAMES) + outcome) * 3 + records["winner"].to_numpy(np.int64) + 1
        size = int(np.prod(SHAPE))
        points = records["points"].to_numpy(np.int64)
        turns = records["turns"].to_numpy(np.int64)

        def tally(weights: np.ndarray | None) -> np.ndarray:
            counted = np.bincount(cell, weights=weights, minlength=size)
            return np.rint(counted).astype(np.int64).reshape(SHAPE)

        histogram = np.bincount(outcome * POINTS_BINS + np.minimum(points, POINTS_BINS - 1),
                                minlength=len(OUTCOME_NAMES) * POINTS_BINS)
        limits = np.full(52, -1, np.int8)
        limits[upcard] = records["knock_limit"].to_numpy(np.int8)
        return cls(hands=tally(None), points=tally(points.astype(np.float64)), turns=tally(turns.astype(np.float64)),
                   points_histogram=histogram.reshape(len(OUTCOME_NAMES), POINTS_BINS), knock_limit=limits,
                   points_squares=tally((points * points).astype(np.float64)),
                   turns_squares=tally((turns * turns).astype(np.float64)))


def _by(by: str | Iterable[str] | None) -> list[str]:
    columns = [] if by is None else [by] if isinstance(by, str) else list(by)
    unknown = [name for name in columns if name not in GROUPS]
    if unknown:
        raise InputError(f"cannot group by {unknown[0]!r}; choose from {', '.join(GROUPS)} (or none)")
    return columns


def _with_sums(cells: pd.DataFrame, outcome: np.ndarray, winner: np.ndarray, hands: np.ndarray, points: np.ndarray,
               turns: np.ndarray, points_squares: np.ndarray | None, turns_squares: np.ndarray | None) -> pd.DataFrame:
    """``cells`` (group columns) with what a summary adds up: hands, hands of each outcome, points, turns,
    hands won by each player, and the squares when known."""
    def of(*names: str) -> np.ndarray:
        return np.where(np.isin(outcome, [OUTCOME_NAMES.index(name) for name in names]), hands, 0)

    cells["hands"], cells["knock"], cells["undercut"] = hands, of("knock", "undercut"), of("undercut")
    cells["gin"], cells["draw"] = of("gin", "big_gin"), of("draw")
    cells["points"], cells["turns"] = points, turns
    cells["won_0"], cells["won_1"] = np.where(winner == 0, hands, 0), np.where(winner == 1, hands, 0)
    if points_squares is not None and turns_squares is not None:
        cells["points_squares"], cells["turns_squares"] = points_squares, turns_squares
    return cells


def _count_cells(counts: Counts) -> pd.DataFrame:
    """One row per (dealer, upcard, outcome, winner) cell of ``counts`` that holds hands."""
    held = counts.hands.reshape(-1) > 0
    dealer, upcard, outcome, winner = (axis.reshape(-1)[held] for axis in np.indices(SHAPE))
    winner = winner - 1

    def flat(array: np.ndarray | None) -> np.ndarray | None:
        return None if array is None else array.reshape(-1)[held]

    cells = pd.DataFrame(group_columns(dealer, upcard, counts.knock_limit[upcard], winner,
                                       knocker_of(outcome, winner)))
    return _with_sums(cells, outcome, winner, counts.hands.reshape(-1)[held], counts.points.reshape(-1)[held],
                      counts.turns.reshape(-1)[held], flat(counts.points_squares), flat(counts.turns_squares))


def _outcome_codes(records: pd.DataFrame) -> np.ndarray:
    outcome = pd.Categorical(records["outcome"], categories=OUTCOME_NAMES).codes.astype(np.int64)
    if (outcome < 0).any():
        raise InputError(f"records hold an unknown outcome; known: {', '.join(OUTCOME_NAMES)}")
    return outcome


def _check_columns(records: pd.DataFrame) -> None:
    missing = {"dealer", "upcard", "outcome", "winner", "points", "turns", "knock_limit"} - set(records)
    if missing:
        raise InputError(f"records lack the columns {', '.join(sorted(missing))}")


def _hand_columns(records: pd.DataFrame) -> dict[str, object]:
    """Every group's column of per-hand records (the hand's outcome, winner and draws decide the last ones)."""
    _check_columns(records)
    winner = records["winner"].to_numpy(np.int64)
    return group_columns(records["dealer"].to_numpy(), records["upcard"].to_numpy(), records["knock_limit"].to_numpy(),
                         winner, knocker_of(_outcome_codes(records), winner), records["turns"].to_numpy())


def _hand_cells(records: pd.DataFrame) -> pd.DataFrame:
    """One row per hand of ``records``, with every group's column."""
    cells = pd.DataFrame(_hand_columns(records))
    points, turns = records["points"].to_numpy(np.int64), records["turns"].to_numpy(np.int64)
    return _with_sums(cells, _outcome_codes(records), records["winner"].to_numpy(np.int64),
                      np.ones(len(records), np.int64), points, turns, points * points, turns * turns)


def summarize(records: pd.DataFrame | Counts | str | os.PathLike[str],
              by: str | Iterable[str] | None = "upcard") -> pd.DataFrame:
    """Rates per group: hands, knock/undercut/gin/draw rates with 95% Wilson bounds, means, win rates.

    ``records`` is a per-hand DataFrame, a ``Counts``, or the directory of a Gin run. Rates are
    fractions of all hands in the group: ``knock_rate`` counts every hand ended by a knock (undercut
    or not), ``gin_rate`` gin and big gin. ``win_rate_0``/``win_rate_1`` are the hands won by each
    player. A matches run (or DataFrame) is summarised by :func:`summarize_matches`; classic Rummy by
    :func:`ginsim.rummy.summarize`.

    >>> import pandas as pd
    >>> summarize(pd.DataFrame({"dealer": [0, 1], "upcard": [0, 0], "outcome": ["gin", "draw"],
    ...     "winner": [1, -1], "points": [30, 0], "turns": [10, 30], "knock_limit": [10, 10]}),
    ...     by="upcard_rank")[["upcard_rank", "hands", "gin_rate", "draw_rate", "mean_points"]]
      upcard_rank  hands  gin_rate  draw_rate  mean_points
    0           A      2       0.5        0.5         15.0
    """
    if isinstance(records, (str, os.PathLike)):
        _, _, records = load_run(records, RUN_KINDS)
    if isinstance(records, pd.DataFrame) and "match" in records:
        return summarize_matches(records)
    columns = _by(by)
    if "turn" in columns:
        if not isinstance(records, pd.DataFrame):
            raise InputError("grouping by turn needs a record per hand: a streamed run keeps counts only (play it "
                             "without --stream)")
        cells = _hand_cells(records)
    else:
        counts = records if isinstance(records, Counts) else Counts.from_records(cast(pd.DataFrame, records))
        cells = _count_cells(counts)
    squared = "points_squares" in cells
    sums = ["hands", "knock", "undercut", "gin", "draw", "points", "turns", "won_0", "won_1"]
    sums += ["points_squares", "turns_squares"] if squared else []
    if columns:
        grouped = cells.groupby(columns, observed=True, sort=True)[sums].sum().reset_index()
    else:
        grouped = cells[sums].sum().to_frame().T.astype(np.int64)
    table = grouped[columns + ["hands"]].copy()
    total = grouped["hands"].to_numpy()
    for name in ("knock", "undercut", "gin", "draw"):
        count = grouped[name].to_numpy()
        table[f"{name}_rate"] = count / total
        table[f"{name}_rate_low"], table[f"{name}_rate_high"] = wilson(count, total)
    for name in ("points", "turns"):
        table[f"mean_{name}"] = grouped[name].to_numpy() / total
        squares = grouped[f"{name}_squares"].to_numpy() if squared else None
        table[f"mean_{name}_low"], table[f"mean_{name}_high"] = mean_bounds(grouped[name], squares, total)
    table["win_rate_0"] = grouped["won_0"].to_numpy() / total
    table["win_rate_1"] = grouped["won_1"].to_numpy() / total
    return table.reset_index(drop=True)


def widest_halfwidth(table: pd.DataFrame) -> float:
    """The largest distance from a rate to either end of its 95% interval, over every rate and group of
    a :func:`~ginsim.summarize` table (the means are left out: they are not shares).

    >>> round(widest_halfwidth(pd.DataFrame({"gin_rate": [0.5], "gin_rate_low": [0.4], "gin_rate_high": [0.65]})), 9)
    0.15
    """
    rates = [column[:-4] for column in table.columns if column.endswith("_rate_low")]
    return float(max(np.maximum(table[rate] - table[f"{rate}_low"], table[f"{rate}_high"] - table[rate]).max()
                     for rate in rates))


def summarize_matches(matches: pd.DataFrame | str | os.PathLike[str]) -> pd.DataFrame:
    """Match win rates of each player with 95% Wilson bounds, mean margin, shutout rate, mean hands.

    ``mean_margin_0`` is player 0's total minus player 1's, averaged over matches; ``shutout_rate`` is
    the fraction of games (three per Hollywood match, one per pair in team play) won by a shutout.

    A table of duplicate deals (``simulate_matches(..., duplicate=True)``, with its ``swapped`` column)
    is summarised by its pairs: the win rates and the mean margin get 95% t-intervals over the deal
    sequences, each contributing the mean of its two games (player 0 means the first-named player).
    ``width_ratio`` is the paired interval's width of ``win_rate_0`` over the Wilson interval's on the
    same games taken one by one: below 1, the pairing narrows it by that factor. (Where one player won
    every game the pairs show no spread: the interval is Wilson's over the deals, the ratio NaN.)

    >>> import pandas as pd
    >>> games = pd.DataFrame({"match": [0, 0, 1, 1, 2, 2], "swapped": [False, True] * 3,
    ...     "winner": [0, 1, 1, 0, 0, 1], "total_0": [150, 90, 60, 140, 130, 70],
    ...     "total_1": [40, 160, 170, 50, 80, 120], "hands": [5] * 6, "games": [1] * 6, "shutouts": [0] * 6})
    >>> row = summarize_matches(games).iloc[0]   # every deal split one game each: the rate is exact
    >>> [float(row[name]) for name in ("win_rate_0", "win_rate_0_low", "win_rate_0_high", "width_ratio")]
    [0.5, 0.5, 0.5, 0.0]
    """
    if isinstance(matches, (str, os.PathLike)):
        _, _, matches = load_run(matches, RUN_KINDS)
    if not isinstance(matches, pd.DataFrame) or "match" not in matches:
        raise InputError("summarize_matches needs the matches DataFrame of simulate_matches")
    count = len(matches)
    paired = "swapped" in matches
    table = pd.DataFrame({"matches": [count]})
    margin = matches["total_0"] - matches["total_1"]
    by_deal = matches["match"].to_numpy()
    for player in (0, 1):
        won = (matches["winner"] == player).to_numpy(int)
        table[f"win_rate_{player}"] = won.mean() if count else np.nan
        if paired:
            low, high = grouped_rate_interval(won, by_deal)
        else:
            low, high = (float(bound[0]) for bound in wilson([won.sum()], [max(count, 1)]))
        table[f"win_rate_{player}_low"], table[f"win_rate_{player}_high"] = low, high
    table["mean_margin_0"] = float(margin.mean())
    table["mean_margin_0_low"], table["mean_margin_0_high"] = (
        grouped_mean_interval(margin, by_deal) if paired else mean_interval(margin))
    table["shutout_rate"] = float(matches["shutouts"].sum() / matches["games"].sum())
    table["mean_hands"] = float(matches["hands"].mean())
    table["mean_hands_low"], table["mean_hands_high"] = mean_interval(matches["hands"])
    if paired:
        table["width_ratio"] = width_ratio(matches["winner"] == 0, by_deal)
    return table


def _read_counts(run: RunDirectory) -> Counts:
    limits = run.identity["knock_limit"]
    total = Counts(knock_limit=np.asarray(limits, np.int8))
    for arrays in run.read_arrays():
        total = total.add(Counts.from_arrays(arrays, limits))
    return total


def _summarize_matches(matches: Any, by: Any) -> pd.DataFrame:
    return summarize_matches(matches)


def _hand_measures(records: pd.DataFrame) -> Measures:
    outcome = _outcome_codes(records)

    def of(*names: str) -> np.ndarray:
        return np.isin(outcome, [OUTCOME_NAMES.index(name) for name in names]).astype(int)

    frame = pd.DataFrame({
        "item": records["hand"].to_numpy(),
        **_hand_columns(records),
        "knock_rate": of(Outcome.KNOCK, Outcome.UNDERCUT),
        "undercut_rate": of(Outcome.UNDERCUT),
        "gin_rate": of(Outcome.GIN, Outcome.BIG_GIN),
        "draw_rate": of(Outcome.DRAW),
        "win_rate_0": (records["winner"] == 0).to_numpy(int),
        "mean_points": records["points"].to_numpy(),
        "mean_turns": records["turns"].to_numpy(),
    })
    return Measures(frame, ["knock_rate", "undercut_rate", "gin_rate", "draw_rate", "win_rate_0"],
                    ["mean_points", "mean_turns"])


def _match_measures(matches: pd.DataFrame) -> Measures:
    # Duplicate deals: the two games of match m are items 2m and 2m + 1 (swapped), so two such runs of
    # one seed pair game by game.
    item = matches["match"].to_numpy() * 2 + matches["swapped"].to_numpy(int) if "swapped" in matches \
        else matches["match"].to_numpy()
    frame = pd.DataFrame({"item": item, "win_rate_0": (matches["winner"] == 0).to_numpy(int),
                          "mean_margin_0": (matches["total_0"] - matches["total_1"]).to_numpy(),
                          "mean_hands": matches["hands"].to_numpy()})
    return Measures(frame, ["win_rate_0"], ["mean_margin_0", "mean_hands"])


def _replay(identity: Mapping[str, Any], index: int) -> HandResult:
    names = list(identity["players"])
    origins = identity.get("python_players") or [None] * len(names)
    if not isinstance(origins, list) or len(origins) != len(names):
        raise InputError(f"the run's python_players does not match its players: {origins!r}")
    players = [stored_player(name, origin, seat)
               for seat, (name, origin) in enumerate(zip(names, origins, strict=True))]
    return play_hand(Rules.from_dict(identity["rules"]), players, identity["seed"], index)


HANDS = RunKind("hands", "gin", "hands", Rules, RunDirectory.read_frame, summarize, GROUPS, "upcard",
                _hand_measures, _replay)
"""A run of Gin hands with a record per hand."""
COUNTS = RunKind("counts", "gin", "hands", Rules, _read_counts, summarize, GROUPS, "upcard", None, _replay)
"""A streamed run of Gin hands: counts per (dealer, upcard, outcome, winner), no records."""
MATCHES = RunKind("matches", "gin", "matches", Rules, RunDirectory.read_frame, _summarize_matches, (), None,
                  _match_measures)
"""A run of Gin matches to the rules' target, a row per match."""
RUN_KINDS = {kind.name: kind for kind in (HANDS, COUNTS, MATCHES)}
"""The kinds of Gin runs by name."""
