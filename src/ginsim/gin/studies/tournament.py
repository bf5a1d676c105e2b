"""Round-robin tournaments of matches between strategies.

Every pair of players plays ``matches`` games to ``rules.target``. By default on duplicate deals
(:func:`~ginsim.simulate_matches` with ``duplicate=True``): ``matches / 2`` deal sequences,
each played twice with the seats swapped, so that luck of the deal mostly cancels within a pair of
games and the intervals are taken over the pairs. Without duplicate deals each player has seat 0 in
half of the games.

A pairing's seed is a stable hash (SHA-256) of the tournament's seed and the two players' names in
sorted order, and the first-sorted name takes seat 0 first: a pairing's games do not depend on the
other players or on the order of the list, so adding a player leaves every other pairing as it was.

With ``out`` each pairing's games are stored as a run of matches in a directory of its own, named
after the two players (``out/greedy-vs-simple``; ``ginsim summary`` and :func:`~ginsim.summarize_run`
read it): a round robin that was stopped resumes where it stopped, a pairing already played is read
back rather than played again (also when players are added), and the table is the same as without
``out``.

>>> from ginsim import Rules, tournament
>>> table = tournament(Rules(), ["simple", "random"], matches=20, seed=1, workers=1)
>>> table[["player", "opponent", "matches"]].values.tolist()
[['simple', 'random', 20]]
>>> float(table["win_rate"].iloc[0]) > 0.9
True
"""
from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, Unpack
from urllib.parse import quote

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.checks import as_integer, check_seed, count
from ginsim.core.execution import RunFields, RunOptions, interruptible
from ginsim.core.intervals import grouped_mean_interval, grouped_rate_interval, mean_interval, width_ratio, wilson
from ginsim.core.store import RUN_FILE
from ginsim.core.streams import LIMITS, derived_seed
from ginsim.gin.game.players import Player, PlayerSpec
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.simulate import MATCHES_PER_CHUNK, simulate_matches

__all__ = ["CHUNKS_PER_PAIRING", "DETAIL_COLUMNS", "pairing_directory", "pairing_seed", "tournament", "win_matrix"]

DETAIL_COLUMNS = ("wins", "losses", "pair_score_sd")
"""Columns of a tournament table kept for :func:`~ginsim.ratings` and CSV or JSON, left out
of its compact text."""

CHUNKS_PER_PAIRING: Final = 64
"""Unless a chunk size is given, each run of a pairing is cut into about this many chunks (of at most
``MATCHES_PER_CHUNK`` deals): every worker has work until the pairing's end, and a stopped round robin
loses little. It depends on the games alone, so a stored round robin resumes with any worker count."""


def pairing_seed(seed: int, *labels: str) -> int:
    """The seed of one pairing (and seating): a stable hash of the tournament seed and ``labels``
    (the players' names in sorted order, then the seating), the same in every Python process.

    >>> pairing_seed(1, "greedy", "simple") != pairing_seed(2, "greedy", "simple")
    True
    >>> pairing_seed(1, "greedy", "simple")   # the same in every process and on every machine
    3392308617463495569
    """
    return derived_seed(seed, "tournament_pairings", *labels)


def pairing_directory(out: str | os.PathLike[str], first: str, second: str) -> Path:
    """Where a tournament into ``out`` stores the games of ``first`` and ``second``: one directory per
    pairing, the names in sorted order, a parameter's colon as an underscore and any other character
    that could not be in a file name escaped. (Two pairings that came to the same name would not mix:
    the directory's identity names its players.)

    >>> pairing_directory("rr", "simple", "reader:1024:3:0:50").as_posix()
    'rr/reader_1024_3_0_50-vs-simple'
    >>> pairing_directory("rr", "bots/mine.py:Bot", "gin").name
    'bots%2Fmine.py_Bot-vs-gin'
    """
    return Path(out) / "-vs-".join(quote(name.replace(":", "_"), safe="") for name in sorted((first, second)))


def _games(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], names: tuple[str, str], matches: int, seed: int,
           duplicate: bool, run: RunOptions) -> pd.DataFrame:
    """The games of one pairing, in the terms of ``players[0]`` (whose name sorts first): ``deal`` (the
    deal sequence of a duplicate pair, -1 without), ``won``, ``lost``, ``margin`` and ``hands``. With
    ``run.out``, stored in the pairing's directory (without duplicate deals, one run per seating in it)."""
    out = run.out

    def placed(runs: int, folder: Path | None) -> RunOptions:
        chunk = run.chunk_size or max(1, min(MATCHES_PER_CHUNK, -(-runs // CHUNKS_PER_PAIRING)))
        return dataclasses.replace(run, out=folder, chunk_size=chunk)

    def terms(table: pd.DataFrame, seat: int, deal: Any) -> pd.DataFrame:
        mine = table["total_0"] - table["total_1"]
        return pd.DataFrame({"deal": deal, "won": table["winner"] == seat, "lost": table["winner"] == 1 - seat,
                             "margin": mine if seat == 0 else -mine, "hands": table["hands"]})

    if duplicate:
        folder = None if out is None else pairing_directory(out, *names)
        table = simulate_matches(rules, players, matches // 2, pairing_seed(seed, *names), duplicate=True,
                                 options=placed(matches // 2, folder))
        return terms(table, 0, table["match"])
    halves = [terms(simulate_matches(rules, seated, count, pairing_seed(seed, *names, f"seat {seat}"),
                                     options=placed(count, None if out is None else
                                                    pairing_directory(out, *names) / f"seat-{seat}")), seat, -1)
              for seat, seated, count in ((0, players, matches - matches // 2),
                                          (1, (players[1], players[0]), matches // 2))]
    return pd.concat(halves, ignore_index=True)


def _row(player: str, opponent: str, games: pd.DataFrame, duplicate: bool) -> dict[str, Any]:
    count = len(games)
    wins, losses = int(games["won"].sum()), int(games["lost"].sum())
    margin = games["margin"].astype(float)
    row: dict[str, Any] = {"player": player, "opponent": opponent, "matches": count, "win_rate": wins / count}
    if duplicate:
        row["win_rate_low"], row["win_rate_high"] = grouped_rate_interval(games["won"], games["deal"])
    else:
        row["win_rate_low"], row["win_rate_high"] = (float(bound[0]) for bound in wilson([wins], [count]))
    row["mean_margin"] = float(margin.mean())
    row["mean_margin_low"], row["mean_margin_high"] = (
        grouped_mean_interval(margin, games["deal"]) if duplicate else mean_interval(margin))
    row["mean_hands"] = float(games["hands"].mean())
    row["width_ratio"] = width_ratio(games["won"], games["deal"]) if duplicate else np.nan
    row["wins"], row["losses"] = wins, losses
    score = games["won"].astype(float) + 0.5 * ~(games["won"] | games["lost"])
    row["pair_score_sd"] = float(score.groupby(games["deal"]).mean().std(ddof=1)) if duplicate else np.nan
    return row


def tournament(rules: Rules, players: Sequence[PlayerSpec], matches: int, seed: int, *, duplicate: bool = True,
               options: RunOptions | None = None, **run_options: Unpack[RunFields]) -> pd.DataFrame:
    """Play every pair of ``players`` for ``matches`` games each; one row per pair (see the module).

    ``matches`` counts the games of a pair; with ``duplicate`` (the default) it must be even, each deal
    sequence being played twice. Columns: ``player``, ``opponent``, ``matches``, ``win_rate`` (of
    ``player``; a tied Hollywood match is won by neither) with 95% bounds ``win_rate_low`` and
    ``win_rate_high``, ``mean_margin`` (``player``'s total minus the opponent's, per game) with its
    bounds, ``mean_hands``, ``width_ratio``, and the counts ``wins`` and ``losses``. With duplicate
    deals the intervals are t-intervals over the deal pairs (each the mean of its two games),
    ``width_ratio`` is the win-rate interval's width over the Wilson interval's on the same games
    taken one by one, and ``pair_score_sd`` is the standard deviation of ``player``'s score per pair
    (win 1, tie ½, loss 0, averaged over its two games); without, the win rate has a Wilson interval,
    the margin a t-interval over the games, and both of those columns are NaN.

    The run options (``workers``, ``backend``, ``scheduler``, ``chunk_size``, ``progress`` and ``repair`` as
    keywords, or ``options=``) work as in
    :func:`~ginsim.simulate_matches`, for each pairing in turn (by default a pairing is cut into
    :data:`~ginsim.gin.studies.tournament.CHUNKS_PER_PAIRING` chunks); ``out`` stores and resumes the
    pairings (see the module).
    """
    if len(players) < 2:
        raise InputError(f"a tournament needs at least two players, got {len(players)}")
    if not isinstance(duplicate, bool):
        raise InputError(f"duplicate must be True or False, got {duplicate!r}")
    number = as_integer(matches)
    if number is None or number < 2:
        raise InputError(f"matches must be an integer of at least 2 (half in each seat), got {matches!r}")
    matches = count("matches", number, LIMITS["gin_matches"])
    if duplicate and matches % 2:
        raise InputError(f"matches must be even with duplicate deals (every deal is played twice, seats swapped), "
                         f"got {matches}")
    seed = check_seed(seed)
    run = RunOptions.of(options, **run_options)
    if run.out is not None and (Path(run.out) / RUN_FILE).exists():
        raise InputError(f"{os.fspath(run.out)} holds a run; a tournament stores its pairings in a directory of "
                         "their own")
    entrants = [Player.of(player) for player in players]
    names = [player.name for player in entrants]
    if len(set(names)) != len(names):
        raise InputError(f"each player may enter once: {', '.join(names)}")
    rows: list[dict[str, Any]] = []
    pairs = list(itertools.combinations(enumerate(entrants), 2))

    def kept() -> str:
        return (f"{len(rows)} of {len(pairs)} pairings are finished in {run.out}; the same call again "
                "resumes the tournament")

    # Into a directory, Ctrl-C between two pairings says what is kept, as within one.
    with interruptible(kept) if run.out is not None else contextlib.nullcontext():
        for (i, first), (j, second) in pairs:
            # Played in the order of the names, whatever the order of the list; then seen from the list's.
            flip = names[j] < names[i]
            ordered = ((second, first), (names[j], names[i])) if flip else ((first, second), (names[i], names[j]))
            games = _games(rules, *ordered, matches, seed, duplicate, run)
            if flip:
                games = games.assign(won=games["lost"], lost=games["won"], margin=-games["margin"])
            rows.append(_row(names[i], names[j], games, duplicate))
    return pd.DataFrame(rows)


def win_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """The tournament as a matrix: the row player's match win rate against the column player.

    >>> import pandas as pd
    >>> matrix = win_matrix(pd.DataFrame({"player": ["a"], "opponent": ["b"], "win_rate": [0.75]}))
    >>> float(matrix.loc["a", "b"]), float(matrix.loc["b", "a"]), bool(matrix.isna().loc["a", "a"])
    (0.75, 0.25, True)
    """
    both = pd.concat([
        table[["player", "opponent", "win_rate"]],
        table.rename(columns={"player": "opponent", "opponent": "player"}).assign(
            win_rate=lambda frame: 1 - frame["win_rate"])[["player", "opponent", "win_rate"]],
    ])
    order = list(dict.fromkeys(list(table["player"]) + list(table["opponent"])))
    return both.pivot(index="player", columns="opponent", values="win_rate").reindex(index=order, columns=order)
