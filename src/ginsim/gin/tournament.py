"""Round-robin tournaments of matches between strategies.

Every pair of players plays ``matches`` games to ``rules.target``, half with each player in seat 0.

>>> from ginsim import Rules, tournament
>>> table = tournament(Rules(), ["simple", "random"], matches=20, seed=1, workers=1)
>>> table[["player", "opponent", "matches"]].values.tolist()
[['simple', 'random', 20]]
>>> float(table["win_rate"].iloc[0]) > 0.9
True
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.checks import check_seed
from ginsim.gin.rules import Rules
from ginsim.gin.simulate import simulate_matches
from ginsim.gin.strategies import PlayerSpec, player_name, player_of, resolve_players
from ginsim.intervals import wilson

__all__ = ["tournament", "win_matrix"]


def _pair_seed(seed: int, first: int, second: int, seat: int) -> int:
    """A seed of its own for each pairing and seating, derived from the tournament's seed."""
    return int(np.random.SeedSequence([seed, first, second, seat]).generate_state(1, np.uint64)[0] >> 1)


def tournament(rules: Rules, players: Sequence[PlayerSpec], matches: int, seed: int,
               workers: int | None = None, *, progress: bool | None = None) -> pd.DataFrame:
    """Play every pair of ``players`` for ``matches`` matches (seats alternated); one row per pair.

    Columns: ``player``, ``opponent``, ``matches``, ``win_rate`` (of ``player``) with 95% Wilson
    bounds ``win_rate_low``/``win_rate_high``, ``mean_margin`` (``player``'s total minus the
    opponent's, per match), ``mean_hands``.
    """
    if len(players) < 2:
        raise InputError(f"a tournament needs at least two players, got {len(players)}")
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 2:
        raise InputError(f"matches must be an integer of at least 2 (half in each seat), got {matches!r}")
    seed = check_seed(seed)
    players = [player_of(player) if isinstance(player, str) else player for player in players]
    names = [player_name(player) for player in players]
    if len(set(names)) != len(names):
        raise InputError(f"each player may enter once: {', '.join(names)}")
    rows: list[dict[str, Any]] = []
    for (i, first), (j, second) in itertools.combinations(enumerate(players), 2):
        resolve_players([first, second])
        halves = []
        for seat, pair, count in ((0, (first, second), matches - matches // 2),
                                  (1, (second, first), matches // 2)):
            table = simulate_matches(rules, pair, count, _pair_seed(seed, i, j, seat), workers=workers,
                                     progress=progress)
            mine = table["total_0"] - table["total_1"] if seat == 0 else table["total_1"] - table["total_0"]
            won = table["winner"] == (0 if seat == 0 else 1)
            halves.append(pd.DataFrame({"won": won, "margin": mine, "hands": table["hands"]}))
        played = pd.concat(halves, ignore_index=True)
        wins = int(played["won"].sum())
        low, high = wilson(np.array([wins]), np.array([len(played)]))
        rows.append({"player": names[i], "opponent": names[j], "matches": len(played),
                     "win_rate": wins / len(played), "win_rate_low": float(low[0]),
                     "win_rate_high": float(high[0]), "mean_margin": float(played["margin"].mean()),
                     "mean_hands": float(played["hands"].mean())})
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
