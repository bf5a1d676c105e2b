"""Rebuild ``docs/atlas.md``, the atlas of the variants: for every preset and two kinds of play, the
outcome rates, the non-dealer's edge, hand length, when gin comes, where to knock, match length and
how much skill matters, every number with its 95% interval.

Usage: python docs/atlas.py [--hands N] [--matches M] [--knock-hands K] [--deals D] [--seed S]
                            [--strong A,B] [--workers W] [--out DIR]

Every number comes from seeded runs of this script's arguments (written at the top of the page); the
cells of the hands sweep are kept under ``--out`` (default: a temporary directory), so a stopped
rebuild resumes. ``--strong`` names the second kind of play, the strongest fast pair (default
``marjj,marjj``; e.g. ``learned,learned``): its first player is the strong bot whose win rate against
``simple`` says how much skill matters, and the continuation of the knock study.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim import PRESETS, Rules, simulate_matches, summarize, summarize_matches, sweep
from ginsim.core.intervals import mean_interval
from ginsim.core.store import RunDirectory, atomic_write
from ginsim.gin.game.players import PlayerSpec, display_name, native_spec, resolve_players
from ginsim.gin.studies.curves import turn_curves
from ginsim.gin.studies.grid import sweep_cells
from ginsim.gin.studies.knocking import knock_values, threshold_table
from ginsim.gin.studies.sweep import cell_directory

PAGE = Path(__file__).resolve().parent / "atlas.md"
FIGURE = Path(__file__).resolve().parent / "atlas_gin_by_turn.png"
BASELINE = "simple,simple"
STRONG = "marjj,marjj"
"""The second kind of play unless ``--strong`` names another: the strongest fast pair."""


def pairs(arguments: argparse.Namespace) -> tuple[str, str]:
    """The two kinds of play: the baseline, and the strong pair."""
    return BASELINE, arguments.strong


def shown(pair: str) -> str:
    """A pair of players as the page and the figure name them (``marjj,marjj`` for ``marjj:5,marjj:5``)."""
    return ",".join(player.display for player in resolve_players(pair))


def playable(strong: str) -> dict[str, Rules]:
    """The presets the strong pair can play (``learned`` plays only the rules it has weights for)."""
    players = resolve_players(strong)
    found = {}
    for name, rules in PRESETS.items():
        try:
            [native_spec(player, rules) for player in players]
        except InputError:
            continue
        found[name] = rules
    return found


def _pm(value: float, low: float, high: float, percent: bool = True, decimals: int = 1) -> str:
    scale, unit = (100, "%") if percent else (1, "")
    return f"{scale * value:.{decimals}f} ± {scale * max(value - low, high - value):.{decimals}f}{unit}"


def _hand_rows(table: pd.DataFrame, folder: Path, kinds: tuple[str, str],
               presets: str) -> tuple[list[str], dict[tuple[str, str], pd.DataFrame]]:
    """The rates table, and every cell's gin curve."""
    rows, curves = [], {}
    cells = sweep_cells({"preset": presets}, list(kinds))
    for number, (cell, (_, row)) in enumerate(zip(cells, table.iterrows(), strict=True)):
        records = RunDirectory.read(cell_directory(folder, cell)).read_frame()
        edge = np.where(records["winner"] == 1 - records["dealer"], 1, np.where(records["winner"] < 0, 0, -1))
        low, high = mean_interval(edge)
        curve = turn_curves(records)
        curves[(row["preset"], kinds[number % len(kinds)])] = curve[curve["outcome"] == "gin"]  # pairs vary fastest
        over = curve[curve["outcome"] == "all"]
        half = int(over.loc[over["share"] >= 0.5, "turn"].iloc[0])
        rates = " | ".join(_pm(row[f"{name}_rate"], row[f"{name}_rate_low"], row[f"{name}_rate_high"])
                           for name in ("knock", "undercut", "gin", "draw"))
        rows.append(f"| {row['preset']} | {shown(row['players'])} | {rates} | {_pm(float(edge.mean()), low, high)} | "
                    f"{_pm(row['mean_turns'], row['mean_turns_low'], row['mean_turns_high'], False)} | {half} |")
    return rows, curves


def _upcard_rows(folder: Path, presets: str) -> list[str]:
    """The gin rate by upcard rank of simple against simple, a row per preset."""
    rows = []
    for cell in sweep_cells({"preset": presets}, [BASELINE]):
        by_rank = summarize(RunDirectory.read(cell_directory(folder, cell)).read_frame(), by="upcard_rank")
        shown = [_pm(row["gin_rate"], row["gin_rate_low"], row["gin_rate_high"])
                 for _, row in by_rank.iterrows()]
        rows.append(f"| {cell.values['preset']} | " + " | ".join(shown) + " |")
    return rows


def _figure(curves: dict[tuple[str, str], pd.DataFrame], kinds: tuple[str, str], subtitle: str,
            path: Path) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(11, 4.4), layout="constrained")
    FigureCanvasAgg(figure)
    for axes, pair in zip(figure.subplots(1, 2, sharey=True), kinds, strict=True):
        for (preset, players), curve in curves.items():
            if players == pair:
                drawn = axes.step(curve["turn"], 100 * curve["share"], where="post", label=preset, linewidth=1.2)
                axes.fill_between(curve["turn"], 100 * curve["share_low"], 100 * curve["share_high"], step="post",
                                  alpha=0.2, color=drawn[0].get_color(), linewidth=0)
        axes.set_title(shown(pair).replace(",", " vs "), fontsize="medium")
        axes.set_xlabel("draws in the hand (both players)")
        axes.grid(alpha=0.3)
    figure.axes[0].set_ylabel("hands ended by gin so far (%)")
    figure.axes[0].legend(fontsize="small")
    figure.suptitle("When gin comes: the cumulative share of hands ended by gin", fontweight="bold")
    figure.supxlabel(f"{subtitle}; bands: 95% Wilson intervals", fontsize="small")
    atomic_write(path, lambda handle: figure.savefig(handle, format="png", dpi=90))


def build(arguments: argparse.Namespace, folder: Path) -> str:
    kinds = pairs(arguments)
    strong = resolve_players(arguments.strong)
    bot, pair_name = display_name(strong[0]), " against ".join(f"`{display_name(player)}`" for player in strong)
    played = playable(arguments.strong)
    presets = ",".join(played)
    left_out = [name for name in PRESETS if name not in played]
    hands = sweep({"preset": presets}, list(kinds), arguments.hands, arguments.seed, workers=arguments.workers,
                  out=folder / "hands", progress=False)
    rate_rows, curves = _hand_rows(hands, folder / "hands", kinds, presets)
    matches = sweep({"preset": presets}, list(kinds), matches=arguments.matches, seed=arguments.seed,
                    workers=arguments.workers, progress=False)
    match_rows, knock_rows = [], []
    for name, rules in played.items():
        lengths = [_pm(row["mean_hands"], row["mean_hands_low"], row["mean_hands_high"], False)
                   for _, row in matches[matches["preset"] == name].iterrows()]
        skill = summarize_matches(simulate_matches(rules, [strong[0], "simple"], arguments.matches // 2,
                                                   arguments.seed, workers=arguments.workers, duplicate=True,
                                                   progress=False)).iloc[0]
        match_rows.append(f"| {name} | {' | '.join(lengths)} | "
                          f"{_pm(skill['win_rate_0'], skill['win_rate_0_low'], skill['win_rate_0_high'])} |")
        knock_rows.append(_knock_row(name, rules, arguments, strong[0]))
    run = (f"python docs/atlas.py --hands {arguments.hands} --matches {arguments.matches} --knock-hands "
           f"{arguments.knock_hands} --deals {arguments.deals} --seed {arguments.seed}"
           + ("" if arguments.strong == STRONG else f" --strong {arguments.strong}"))
    _figure(curves, kinds, f"{arguments.hands:,} hands per preset and pair, seed {arguments.seed}",
            arguments.page.with_name(FIGURE.name))
    ranks = "A 2 3 4 5 6 7 8 9 T J Q K".split()
    return "\n".join([
        "# An atlas of the variants", "",
        f"Every preset of [the rules](rules.md), played two ways: `simple` against `simple`, and {pair_name} "
        "(the strongest fast pair). Every number is given with its 95% interval. The page is made by one "
        "command, which plays every run again from its seed:", "",
        *([f"The presets {', '.join(left_out)} are left out: {pair_name} cannot play them (`learned` plays only the "
           "hands it has shipped weights for).", ""] if left_out else []),
        "```text", run, "```", "",
        f"The hands of every preset and pair are the same {arguments.hands:,} deals (a sweep: `ginsim sweep --rules "
        f"{presets} --players {BASELINE} --players {arguments.strong} --hands {arguments.hands} --seed "
        f"{arguments.seed}`).",
        "", "## Outcomes, the non-dealer's edge and hand length", "",
        "Rates are shares of all hands (knock counts undercut knocks too; gin counts big gin). The non-dealer's "
        "edge is the share of hands the non-dealer (offered the upcard first) won less the share the dealer won. "
        "Draws are both players' draws in a hand; half the hands are over by the draw in the last column.", "",
        "| preset | players | knock | undercut | gin | drawn | non-dealer's edge | draws per hand | half over by |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |", *rate_rows, "",
        "## Gin by upcard", "", "The gin rate of `simple` against `simple` by the rank of the upcard.", "",
        "| preset | " + " | ".join(ranks) + " |", "| --- |" + " --- |" * 13,
        *_upcard_rows(folder / "hands", presets), "",
        "## When gin comes", "", f"![The cumulative share of hands ended by gin, by draw]({FIGURE.name})", "",
        "## Match length and how much skill matters", "",
        f"Hands per match to the preset's target ({arguments.matches:,} matches per preset and pair), and "
        f"`{bot}`'s match win rate against `simple` under the preset ({arguments.matches // 2:,} deal sequences, "
        "each played in both seats; the interval is paired by deal).", "",
        f"| preset | hands per match, simple vs simple | hands per match, {pair_name.replace(' against ', ' vs ')} | "
        f"{bot}'s win rate "
        "against simple |", "| --- | --- | --- | --- |", *match_rows, "",
        "## Where to knock", "",
        f"The knock thresholds `ginsim when-to-knock` implies ({arguments.knock_hands:,} hands of `simple` against "
        f"`simple`, {arguments.deals} deals of the unseen cards per position, playing on as `{bot}` against "
        "`simple`, valued in points): by the draw the knock would end the hand on, the largest deadwood to knock "
        "with, at the preset's knock limit (Oklahoma: under a 10 or a face card, limit 10); `-` where the study "
        f"saw no position. Each threshold is followed by its 95% interval from {REPLICATES:,} bootstrap replicates "
        "that draw the hands the positions came from again, and by its agreement, the share of the replicates "
        "that find the same threshold: a threshold with a wide interval or a low agreement is not settled by "
        "this many hands. The guide has the full table, in points and in match equity.", "",
        "| preset | knock limit | " + " | ".join(_TURNS) + " |", "| --- | --- |" + " --- |" * len(_TURNS),
        *knock_rows, ""])


_TURNS = ("0-4", "5-9", "10-14", "15-19", "20-24", "25-29")
REPLICATES = 1_000


def _knock_row(name: str, rules: Rules, arguments: argparse.Namespace, continuation: PlayerSpec) -> str:
    limit = 10 if rules.oklahoma else rules.knock_limit
    if limit == 0:
        return f"| {name} | 0 | " + " | ".join("gin only" for _ in _TURNS) + " |"
    values = knock_values(rules, BASELINE, arguments.knock_hands, arguments.seed, deals=arguments.deals,
                          continuation=continuation)
    table = threshold_table(values[values["knock_limit"] == limit], replicates=REPLICATES, seed=arguments.seed)
    found = {row.turn: f"{row.threshold} [{row.threshold_low}–{row.threshold_high}] {row.agreement:.0%}"
             for row in table.itertuples()}
    return f"| {name} | {limit} | " + " | ".join(found.get(turn, "-") for turn in _TURNS) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--hands", type=int, default=200_000,
                        help="hands per preset and pair (the hands sweep; default %(default)s)")
    parser.add_argument("--matches", type=int, default=2_000,
                        help="matches per preset and pair (match length), and half of them of the strong bot "
                        "against simple (how much skill matters; default %(default)s)")
    parser.add_argument("--knock-hands", type=int, default=1_000,
                        help="hands of simple against simple whose knock positions the knock study values "
                        "(default %(default)s)")
    parser.add_argument("--deals", type=int, default=8,
                        help="deals of the unseen cards per knock position (default %(default)s)")
    parser.add_argument("--seed", type=int, default=2026, help="the seed of every run (default %(default)s)")
    parser.add_argument("--strong", default=STRONG, help="the strongest fast pair, the second kind of play "
                        "(default %(default)s; e.g. learned,learned)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument("--out", type=Path, help="keep the hands' cells here (default: a temporary directory)")
    parser.add_argument("--page", type=Path, default=PAGE, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    try:
        resolve_players(arguments.strong)
    except InputError as error:
        parser.error(f"--strong: {error}")
    with tempfile.TemporaryDirectory() as temporary:
        text = build(arguments, arguments.out or Path(temporary))
    atomic_write(arguments.page, lambda handle: handle.write(text.encode()))
    print(f"wrote {arguments.page} and {arguments.page.with_name(FIGURE.name)}", file=sys.stderr)


if __name__ == "__main__":
    main()
