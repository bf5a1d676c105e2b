"""The rating list of the built-in strategies: a round robin on duplicate deals under ``eaai`` rules,
Bradley–Terry ratings with 95% intervals anchored at ``simple`` = 1500, and each one's decision time.

What it plays is fixed here (:data:`ENTRANTS`, :data:`RULES`, :data:`SEED`): every built-in strategy at
its defaults, and ``threshold`` at 5 (at 10 it plays as ``greedy`` and at 0 it is ``gin``). Every pairing
plays the same number of games, :data:`GAMES`, so that every rating rests on the same evidence against
each opponent; the slowest strategy, ``reader``, sets the number, for the list to take about an hour of
one core. Each pairing is :func:`~ginsim.tournament` of the two alone, whose games depend only on the
seed and the two names: the same games as one round robin of all of them, stored and resumed the same
way under ``out``.

``python tools/make_rating_list.py`` plays it and writes the shipped file (``ginsim/gin/data/ratings.json``,
read by :func:`shipped`) and the table of ``docs/strategies.md`` (:func:`markdown_block`).

>>> sorted(ENTRANTS)[:3], RULES, ANCHOR_LEVEL
(['defensive', 'gin', 'greedy'], 'eaai', 1500)
>>> pairings()[0], len(pairings()) == len(ENTRANTS) * (len(ENTRANTS) - 1) // 2
(('random', 'simple', 2000), True)
"""
from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Callable
from importlib import resources
from typing import Any, Final

import pandas as pd

from ginsim.core.execution import RunOptions
from ginsim.gin.game.players import Player
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.decision_times import hand_times, median_ms

__all__ = ["ANCHOR_LEVEL", "DATA_FILE", "ENTRANTS", "GAMES", "RULES", "SEED", "TIMED_HANDS", "TIMING_OPPONENT", "build",
           "markdown_block", "markdown_table", "milliseconds_text", "pairings", "play", "rating_text", "shipped",
           "time_decisions"]

ENTRANTS: Final = ("random", "simple", "greedy", "threshold:5", "gin", "defensive", "marjj", "learned", "search",
                   "sampler", "reader")
"""Each entrant, fastest first."""
GAMES: Final = 2_000
"""The games of every pairing, 1,000 deal sequences each played twice with the seats swapped. As many as
fit the list in about an hour of one core, most of it ``reader``'s."""
RULES: Final = "eaai"
"""The rules preset, the EAAI competition's, under which the strong bots were measured."""
SEED: Final = 2041
"""The seed of every pairing's deals."""
ANCHOR_LEVEL: Final = 1500
"""The rating of the anchor (``simple``, :data:`ginsim.gin.studies.ratings.ANCHOR`)."""
TIMED_HANDS: Final = 400
"""Hands timed per strategy, against :data:`TIMING_OPPONENT` (cheap: its decisions are inside the timing)."""
TIMING_OPPONENT: Final = "simple"
"""The opponent of the timed hands."""
DATA_FILE: Final = "ratings.json"
"""The shipped list, in ``ginsim/gin/data``."""


def pairings() -> list[tuple[str, str, int]]:
    """Every pair of entrants and its games, the slowest player's pairings last."""
    names = list(ENTRANTS)
    pairs = sorted(itertools.combinations(names, 2), key=lambda pair: (names.index(pair[1]), names.index(pair[0])))
    return [(first, second, GAMES) for first, second in pairs]


def play(out: str | os.PathLike[str] | None = None, workers: int = 1,
         report: Callable[[str], None] | None = None) -> pd.DataFrame:
    """The round robin's table (as :func:`~ginsim.tournament`'s, one row per pairing); with ``out`` each
    pairing is stored there and read back when played before. ``report`` hears one line per pairing."""
    from ginsim.gin.studies.tournament import tournament  # pandas-heavy: only when played

    rules = Rules.preset(RULES)
    rows = []
    plan = pairings()
    options = RunOptions(workers=workers, out=out, progress=False)
    for number, (first, second, games) in enumerate(plan, 1):
        row = tournament(rules, [first, second], games, SEED, options=options)
        rows.append(row)
        if report is not None:
            won = float(row["win_rate"].iloc[0])
            report(f"[{number}/{len(plan)}] {first} vs {second}: {games:,} games, {first} won {100 * won:.1f}%")
    return pd.concat(rows, ignore_index=True)


def time_decisions(hands: int = TIMED_HANDS) -> dict[str, float]:
    """Each entrant's milliseconds of CPU time per decision (the median over ``hands`` hands of each
    hand's mean, against :data:`TIMING_OPPONENT`, under :data:`RULES`)."""
    rules = Rules.preset(RULES)
    return {name: median_ms(*hand_times(rules, name, TIMING_OPPONENT, hands, SEED)) for name in ENTRANTS}


def build(table: pd.DataFrame, milliseconds: dict[str, float], **made: Any) -> dict[str, Any]:
    """The list as shipped: how it was made (``made``: the command, date, commit, times...), then one row per
    entrant, best first: ``player`` (as entered), ``strategy``, ``name`` (every parameter filled in), ``rating``,
    ``low`` and ``high`` (95%; None when it has no finite rating, and then ``beyond`` says whether it is
    ``above`` or ``below`` all the rest), ``games``, ``score`` and ``decision_ms``."""
    from ginsim.gin.studies.ratings import ANCHOR, ratings

    rated: dict[Any, dict[Any, Any]] = ratings(table, ANCHOR, ANCHOR_LEVEL).set_index("player").to_dict("index")
    players = []
    for entered in sorted(ENTRANTS, key=lambda name: -rated[Player.of(name).name]["rating"]):
        player = Player.of(entered)
        row = rated[player.name]
        finite = math.isfinite(row["rating"])  # not so for a player that lost (or won) every game
        players.append({
            "player": entered, "strategy": entered.split(":")[0], "name": player.name,
            "rating": round(float(row["rating"]), 1) if finite else None,
            "low": round(float(row["rating_low"]), 1) if finite else None,
            "high": round(float(row["rating_high"]), 1) if finite else None,
            "beyond": None if finite else "above" if row["rating"] > 0 else "below",
            "games": int(row["games"]), "score": round(float(row["score"]), 4),
            "decision_ms": round(milliseconds[entered], 4)})
    return {**made, "rules": RULES, "seed": SEED, "anchor": f"{ANCHOR} = {ANCHOR_LEVEL}", "entrants": list(ENTRANTS),
            "games": GAMES, "pairings": [list(pair) for pair in pairings()],
            "timing": {"hands": TIMED_HANDS, "opponent": TIMING_OPPONENT, "clock": "cpu"}, "players": players}


def rating_text(row: dict[str, Any]) -> str:
    """A row's rating as shown: ``1712 ± 8``, ``1500 (anchor)``, or why it has no finite one."""
    if row["rating"] is None:
        return f"{row['beyond']} all (no finite rating)"
    if row["low"] == row["high"]:
        return f"{row['rating']:.0f} (anchor)"
    return f"{row['rating']:.0f} ± {max(row['rating'] - row['low'], row['high'] - row['rating']):.0f}"


def milliseconds_text(value: float) -> str:
    """A decision time as shown: three significant figures, in ms."""
    return f"{value:.3g}"


def markdown_table(data: dict[str, Any]) -> str:
    """The list as ``docs/strategies.md`` shows it, one row per entrant, best first."""
    rows = ["| strategy | rating (95%) | games | share of points | ms per decision |",
            "| --- | ---: | ---: | ---: | ---: |"]
    rows += [f"| `{row['player']}` | {rating_text(row)} | {row['games']:,} | {row['score']:.3f} | "
             f"{milliseconds_text(row['decision_ms'])} |" for row in data["players"]]
    return "\n".join(rows) + "\n"


def markdown_block(data: dict[str, Any]) -> str:
    """What ``docs/strategies.md`` holds between its rating-list markers: the command and how it was run,
    then :func:`markdown_table`."""
    took = f"{data['cpu_seconds'] / 60:.0f} minutes of CPU time, {data['seconds'] / 60:.0f} on the clock"
    if data["invocations"] > 1:
        took += f" over {data['invocations']} runs of the command"
    return (f"`{data['command']}` (`{data['rules']}` rules, duplicate deals, seed {data['seed']}; commit "
            f"`{data['commit']}`, {data['date']}; {took}). Every pairing played {data['games']:,} games "
            f"({data['games'] // 2:,} deal sequences, each twice with the seats swapped).\n\n" + markdown_table(data))


def shipped() -> dict[str, Any] | None:
    """The shipped list (as :func:`build` made it), or None where the package has none."""
    path = resources.files("ginsim.gin").joinpath("data", DATA_FILE)
    if not path.is_file():
        return None
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded
