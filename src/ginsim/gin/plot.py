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
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.store import atomic_write

__all__ = ["RATES", "figure_format", "plot_rates"]

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
    if list(by) in (["upcard_rank"], ["knock_limit"]):
        return [slice(0, len(table))]
    return []


def plot_rates(table: pd.DataFrame, by: Sequence[str], path: str | os.PathLike[str], subtitle: str = "") -> Path:
    """Draw the rates of a ``summarize`` table (grouped by the columns ``by``) with their 95% Wilson
    intervals as error bars, and write the figure to ``path`` in the format of its extension."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    path = Path(path)
    chosen = figure_format(path)
    missing = [column for name, _ in RATES for column in (name, f"{name}_low", f"{name}_high")
               if column not in table]
    if missing:
        raise InputError(f"the table has no {missing[0]} column: plot needs a summary of hands")
    if not path.parent.is_dir():
        raise InputError(f"cannot write {os.fspath(path)!r}: no directory {os.fspath(path.parent)!r}")
    labels = _labels(table, by)
    count = len(labels)
    figure = Figure(figsize=(min(20.0, max(6.5, 3.5 + 0.28 * count)), 4.8), layout="constrained")
    FigureCanvasAgg(figure)
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
    axes.set_xlabel(" / ".join(by) if by else "")
    axes.set_ylabel("share of hands (%)")
    axes.grid(axis="y", alpha=0.3)
    axes.legend(title="hands ending in", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    hands = int(table["hands"].sum()) if "hands" in table else None
    heading = f"Outcome rates by {' and '.join(by)}" if by else "Outcome rates"
    figure.suptitle(heading, fontweight="bold")
    note = "bars: 95% Wilson intervals" + (f"; {hands:,} hands in the table" if hands is not None else "")
    axes.set_title(f"{subtitle}\n{note}" if subtitle else note, fontsize="small")
    atomic_write(path, lambda handle: figure.savefig(handle, format=chosen))
    return path


