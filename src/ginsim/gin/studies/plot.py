"""Figures of a run's summary: knock, undercut, gin and draw rates with 95% Wilson intervals.

``ginsim plot DIR --by upcard -o rates.png`` draws the table of ``ginsim summary DIR --by upcard``.
The figure is drawn on a bare Agg canvas (no pyplot, no global backend) and written atomically, so
an interrupted call never leaves half a file where the figure should be.

>>> import tempfile, pathlib
>>> from ginsim import Rules, simulate, summarize
>>> table = summarize(simulate(Rules(), "simple,simple", hands=500, seed=1, workers=1), by="upcard_suit")
>>> path = pathlib.Path(tempfile.mkdtemp()) / "rates.png"
>>> plot_rates(table, ["upcard_suit"], path, "standard rules | simple vs simple") == path
True
>>> path.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""
from __future__ import annotations

import itertools
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.store import atomic_write
from ginsim.gin.studies.equity import equity_arrays

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["RATES", "figure_format", "new_figure", "plot_equity", "plot_match_rates", "plot_rates", "plot_win_matrix",
           "write_figure"]

RATES: Final = (
    ("knock_rate", "knock (undercut or not)"),
    ("undercut_rate", "undercut"),
    ("gin_rate", "gin"),
    ("draw_rate", "draw"),
)
"""The rates drawn, as (summary column, legend label); each has ``_low`` and ``_high`` bounds."""


def figure_format(path: str | os.PathLike[str]) -> str:
    """The figure format named by the file extension; ``ValueError`` when there is none we can write.

    >>> figure_format("rates.PNG"), figure_format("out/rates.svg")
    ('png', 'svg')
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    supported = FigureCanvasAgg(Figure()).get_supported_filetypes()
    suffix = Path(path).suffix.lower().removeprefix(".")
    if suffix not in supported:
        known = ", ".join(sorted(supported))
        told = f"'.{suffix}' is not a figure format" if suffix else "it has no extension"
        raise InputError(f"cannot tell the figure format of {os.fspath(path)!r}: {told}; use one of {known}")
    return suffix


def _words(column: str) -> str:
    """A column's name as an axis or title says it: ``upcard_rank`` is ``upcard rank``."""
    return column.replace("_", " ")


def _fitted(text: str, figure: Figure) -> str:
    """``text`` in small type broken into lines that fit the width of ``figure``."""
    characters = max(20, int(figure.get_figwidth() * 14))  # small type: about 14 characters an inch
    return "\n".join(textwrap.fill(line, characters) for line in text.splitlines())


def _labels(table: pd.DataFrame, by: Sequence[str]) -> list[str]:
    if not by:
        return ["all hands"]
    return ["/".join(str(row[column]) for column in by) for _, row in table.iterrows()]


def _segments(table: pd.DataFrame, by: Sequence[str]) -> list[slice]:
    """Runs of groups that a line may join: the ranks of one suit by upcard, every group of an ordered
    single grouping; none for a grouping by dealer or by several columns."""
    if list(by) == ["upcard"]:
        suits = [str(card)[-1] for card in table["upcard"]]
        starts = [0] + [row for row in range(1, len(suits)) if suits[row] != suits[row - 1]] + [len(suits)]
        return [slice(start, end) for start, end in itertools.pairwise(starts)]
    if list(by) in (["upcard_rank"], ["knock_limit"], ["turn"]):
        return [slice(0, len(table))]
    return []


def new_figure(path: Path, size: tuple[float, float]) -> Figure:
    """A figure of ``size`` inches on its own Agg canvas, once ``path`` is known to be writable."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure_format(path)
    if not path.parent.is_dir():
        raise InputError(f"cannot write {os.fspath(path)!r}: no directory {os.fspath(path.parent)!r}")
    if not all(0 < side <= 100 for side in size):
        raise InputError(f"a figure's width and height are inches from 0 to 100, got {size[0]}x{size[1]}")
    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def write_figure(figure: Figure, path: Path, dpi: int | None) -> Path:
    if dpi is not None and not 10 <= dpi <= 1200:
        raise InputError(f"dpi must be from 10 to 1200, got {dpi}")
    atomic_write(path, lambda handle: figure.savefig(handle, format=figure_format(path), dpi=dpi or "figure"))
    return path


def plot_rates(table: pd.DataFrame, by: Sequence[str], path: str | os.PathLike[str], subtitle: str = "", *,
               size: tuple[float, float] | None = None, dpi: int | None = None) -> Path:
    """Draw the rates of a ``summarize`` table (grouped by the columns ``by``) with their 95% Wilson
    intervals as error bars, and write the figure to ``path`` in the format of its extension
    (``size`` in inches, default: wide enough for the groups; ``dpi`` for bitmaps, default 100)."""
    path = Path(path)
    missing = [column for name, _ in RATES for column in (name, f"{name}_low", f"{name}_high")
               if column not in table]
    if missing:
        raise InputError(f"the table has no {missing[0]} column: plot needs a summary of hands")
    labels = _labels(table, by)
    count = len(labels)
    per_label = 0.28 * max(1.0, max((len(label) for label in labels), default=1) / 3)  # "35-39" takes more room
    figure = new_figure(path, size or (min(20.0, max(6.5, 3.5 + per_label * count)), 4.8))
    axes = figure.add_subplot()
    positions = np.arange(count, dtype=float)
    spread = min(0.18, 0.8 / len(RATES))
    segments = _segments(table, by)
    for number, (name, label) in enumerate(RATES):
        rate = 100 * table[name].to_numpy(float)
        below = rate - 100 * table[f"{name}_low"].to_numpy(float)
        above = 100 * table[f"{name}_high"].to_numpy(float) - rate
        shifted = positions + (number - (len(RATES) - 1) / 2) * spread
        bars = axes.errorbar(shifted, rate, yerr=[below, above], fmt="o", markersize=3.5, elinewidth=1.2,
                             capsize=2, label=label)
        for segment in segments:
            axes.plot(shifted[segment], rate[segment], "-", linewidth=0.8, color=bars.lines[0].get_color())
    axes.set_xticks(positions, labels, rotation=90 if count > 13 else 0,
                    fontsize="small" if count > 13 else "medium")
    axes.set_xlim(-0.6, count - 0.4)
    axes.set_ylim(bottom=0)
    axes.set_xlabel(" / ".join(_words(column) for column in by) if by else "")
    axes.set_ylabel("share of hands (%)")
    axes.grid(axis="y", alpha=0.3)
    axes.legend(title="hands ending in", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    hands = int(table["hands"].sum()) if "hands" in table else None
    heading = f"Outcome rates by {' and '.join(_words(column) for column in by)}" if by else "Outcome rates"
    figure.suptitle(heading, fontweight="bold")
    note = "bars: 95% Wilson intervals" + (f"; {hands:,} hands in the table" if hands is not None else "")
    axes.set_title(_fitted(f"{subtitle}\n{note}" if subtitle else note, figure), fontsize="small")
    return write_figure(figure, path, dpi)


def plot_win_matrix(matrix: pd.DataFrame, path: str | os.PathLike[str], subtitle: str = "", *,
                    size: tuple[float, float] | None = None, dpi: int | None = None) -> Path:
    """Draw a tournament's :func:`~ginsim.win_matrix` as a heatmap: the row player's
    match win rate against the column player, in percent, 50% white.

    >>> import tempfile, pathlib
    >>> matrix = pd.DataFrame([[np.nan, 0.7], [0.3, np.nan]], index=["gin", "simple"], columns=["gin", "simple"])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "heat.svg"
    >>> plot_win_matrix(matrix, path, "standard rules") == path and b"<svg" in path.read_bytes()[:400]
    True
    """
    path = Path(path)
    count = len(matrix)
    figure = new_figure(path, size or (max(6.0, 1.8 + 0.9 * count), max(4.6, 1.4 + 0.8 * count)))
    axes = figure.add_subplot()
    values = 100 * matrix.to_numpy(float)
    image = axes.imshow(values, cmap="RdBu", vmin=0, vmax=100)
    for row in range(count):
        for column in range(count):
            if not np.isnan(values[row, column]):
                axes.text(column, row, f"{values[row, column]:.1f}", ha="center", va="center", fontsize="small",
                          color="white" if abs(values[row, column] - 50) > 30 else "black")
    axes.set_xticks(range(count), [str(name) for name in matrix.columns], rotation=45, ha="right")
    axes.set_yticks(range(count), [str(name) for name in matrix.index])
    axes.set_xlabel("opponent")
    axes.set_ylabel("player")
    figure.colorbar(image, ax=axes, label="match win rate of the row player (%)")
    figure.suptitle("Match win rates", fontweight="bold")
    if subtitle:
        axes.set_title(_fitted(subtitle, figure), fontsize="small")
    return write_figure(figure, path, dpi)


def plot_match_rates(table: pd.DataFrame, players: Sequence[str], path: str | os.PathLike[str],
                     subtitle: str = "", *, size: tuple[float, float] | None = None, dpi: int | None = None) -> Path:
    """Draw each player's match win rate of a :func:`~ginsim.summarize_matches` table with
    its 95% interval (Wilson's, or paired by deal for duplicate deals)."""
    path = Path(path)
    figure = new_figure(path, size or (5.5, 4.2))
    axes = figure.add_subplot()
    rates = [100 * float(table[f"win_rate_{seat}"].iloc[0]) for seat in (0, 1)]
    below = [rate - 100 * float(table[f"win_rate_{seat}_low"].iloc[0]) for seat, rate in enumerate(rates)]
    above = [100 * float(table[f"win_rate_{seat}_high"].iloc[0]) - rate for seat, rate in enumerate(rates)]
    axes.bar([0, 1], rates, yerr=[below, above], capsize=6, color=["tab:blue", "tab:orange"])
    axes.set_xticks([0, 1], [f"{name} (player {seat})" for seat, name in enumerate(players)])
    axes.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    axes.set_ylim(0, 100)
    axes.set_ylabel("matches won (%)")
    figure.suptitle("Match win rates", fontweight="bold")
    kind = "intervals paired by deal" if "width_ratio" in table else "Wilson intervals"
    note = f"bars: 95% {kind}; {int(table['matches'].iloc[0]):,} matches"
    axes.set_title(_fitted(f"{subtitle}\n{note}" if subtitle else note, figure), fontsize="small")
    return write_figure(figure, path, dpi)


def plot_equity(table: pd.DataFrame, path: str | os.PathLike[str], subtitle: str = "", *,
                size: tuple[float, float] | None = None, dpi: int | None = None) -> Path:
    """Draw a match equity table (:func:`~ginsim.gin.studies.equity.equity_table`) as two heatmaps over the
    player's score (up) and the opponent's (across): the chance to win the game in percent, averaged
    over who deals next, with its 25/50/75% contours; and the dealer's edge, the equity when the
    player deals the next hand minus when the opponent does, in percentage points.

    >>> import tempfile, pathlib
    >>> from ginsim.gin.studies.equity import equity_table
    >>> from ginsim import Rules
    >>> table = equity_table(Rules(), target=20, hands=5_000, seed=1, workers=1, replicates=10)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "equity.png"
    >>> plot_equity(table, path, "standard rules | simple vs simple") == path
    True
    """
    path = Path(path)
    target, arrays = equity_arrays(table)
    figure = new_figure(path, size or (11.0, 5.0))
    chance, edge = figure.subplots(1, 2)
    extent = (-0.5, target - 0.5, -0.5, target - 0.5)
    equity = 100 * arrays["equity"].mean(axis=0)
    image = chance.imshow(equity, origin="lower", cmap="RdBu", vmin=0, vmax=100, extent=extent)
    if target > 1:
        lines = chance.contour(np.arange(target), np.arange(target), equity, levels=[25, 50, 75], colors="black",
                               linewidths=0.7)
        chance.clabel(lines, fmt="%.0f%%", fontsize="x-small")
    figure.colorbar(image, ax=chance, label="chance to win the game (%)", shrink=0.85)
    dealing = 100 * (arrays["equity"][0] - arrays["equity"][1])
    reach = max(float(np.abs(dealing).max()), 0.1)
    shown = edge.imshow(dealing, origin="lower", cmap="PuOr", vmin=-reach, vmax=reach, extent=extent)
    figure.colorbar(shown, ax=edge, label="dealing next minus not (percentage points)", shrink=0.85)
    for axes, title in ((chance, "match equity (either dealer)"), (edge, "dealing the next hand")):
        axes.set_xlabel("opponent's score")
        axes.set_ylabel("player's score")
        axes.set_title(title, fontsize="medium")
    half = 100 * float(((table["high"] - table["low"]) / 2).max())
    figure.suptitle(f"Match equity to {target}", fontweight="bold")
    note = f"95% intervals within ±{half:.2f} percentage points"
    figure.supxlabel(_fitted(f"{subtitle}\n{note}" if subtitle else note, figure), fontsize="small")
    return write_figure(figure, path, dpi)


def plot_sweep(table: pd.DataFrame, x: str | None, path: str | os.PathLike[str], subtitle: str = "", *,
               size: tuple[float, float] | None = None, dpi: int | None = None) -> Path:
    """Draw each rate of a :func:`~ginsim.sweep` table (of hands: knock, undercut, gin and draw; of matches:
    player 0's win rate) against the swept field ``x`` (default: the one with most values), one line
    per player pair (and value of the other swept fields), the 95% intervals as bands.

    >>> import tempfile, pathlib
    >>> from ginsim import sweep
    >>> table = sweep({"knock_limit": "0..10:5"}, ["simple,simple", "greedy,simple"], hands=300, workers=1)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "sweep.png"
    >>> plot_sweep(table, "knock_limit", path, "standard rules") == path
    True
    """

    path = Path(path)
    if "players" not in table or "reference" not in table:
        raise InputError("plot_sweep draws the table of sweep()")
    swept = list(table.columns[:list(table.columns).index("players")])
    if "hands" in table and table.columns[list(table.columns).index("reference") + 1] != "hands":
        raise InputError("a sweep grouped by something is drawn whole: sweep without by to draw it")
    if x is None:
        x = max(swept, key=lambda name: table[name].nunique()) if swept else "players"
    if x not in [*swept, "players"]:
        raise InputError(f"cannot draw the sweep against {x!r}: it sweeps {', '.join([*swept, 'players'])}")
    rates = list(RATES) if "knock_rate" in table else [("win_rate_0", "player 0 wins the match")]
    lines = [name for name in [*swept, "players"] if name != x]
    order = list(dict.fromkeys(table[x]))
    numeric = all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in order)
    figure = new_figure(path, size or (4.2 * min(len(rates), 2) + 2.5, 3.4 * -(-len(rates) // 2)))
    panels = figure.subplots(-(-len(rates) // 2), min(len(rates), 2), squeeze=False).ravel()
    for axes, (rate, label) in zip(panels, rates, strict=False):
        for key, rows in table.groupby(lines, sort=False, dropna=False) if lines else [((), table)]:
            positions = (rows[x].to_numpy(float) if numeric else
                         np.array([order.index(value) for value in rows[x]], float))
            values = [100 * rows[column].to_numpy(float) for column in (rate, f"{rate}_low", f"{rate}_high")]
            named = ", ".join(f"{value}" if name == "players" else f"{name}={value}"
                              for name, value in zip(lines, key if isinstance(key, tuple) else (key,), strict=True))
            drawn = axes.plot(positions, values[0], "o-", markersize=3, linewidth=1.2, label=named or None)
            axes.fill_between(positions, values[1], values[2], alpha=0.2, color=drawn[0].get_color(), linewidth=0)
        if not numeric:
            axes.set_xticks(range(len(order)), [str(value) for value in order])
        axes.set_xlabel(x)
        axes.set_ylabel("share (%)")
        axes.set_title(label, fontsize="medium")
        axes.grid(alpha=0.3)
    for axes in panels[len(rates):]:
        axes.set_visible(False)
    if lines:
        panels[0].legend(fontsize="x-small")
    figure.suptitle(f"Rates against {x}", fontweight="bold")
    note = "bands: 95% intervals"
    figure.supxlabel(f"{subtitle}\n{note}" if subtitle else note, fontsize="small")
    return write_figure(figure, path, dpi)
