"""When hands end: the cumulative share of a run's hands over by each draw, per outcome.

``turn_curves(records)`` is the table behind ``ginsim plot DIR --curves``: for every draw ``t`` (the
``turns`` of a record: draws in the hand) and every outcome, the share of all the run's hands that had
ended with that outcome by draw ``t``, with its 95% Wilson interval. The ``all`` curve is every hand
over by then; at the last draw each curve reaches its outcome's rate in ``ginsim summary``.

>>> from ginsim import Rules, simulate
>>> curves = turn_curves(simulate(Rules(), "simple,simple", hands=1000, seed=2, workers=1))
>>> list(curves.columns)
['turn', 'outcome', 'hands', 'share', 'share_low', 'share_high']
>>> float(curves[curves["outcome"] == "all"]["share"].iloc[-1])
1.0
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.intervals import wilson

__all__ = ["CURVES", "plot_turn_curves", "turn_curves"]

CURVES: Final = (
    ("all", ("knock", "undercut", "gin", "big_gin", "draw"), "every hand"),
    ("knock", ("knock", "undercut"), "knock (undercut or not)"),
    ("undercut", ("undercut",), "undercut"),
    ("gin", ("gin", "big_gin"), "gin (or big gin)"),
    ("draw", ("draw",), "drawn"),
)
"""Each curve as (name, the outcomes it counts, legend label)."""


def turn_curves(records: pd.DataFrame) -> pd.DataFrame:
    """The cumulative share of hands over by each draw, per curve of :data:`CURVES` (see the module);
    ``records`` is a run's per-hand DataFrame (a streamed run keeps no draws per hand)."""
    if not isinstance(records, pd.DataFrame) or not {"turns", "outcome"} <= set(records):
        raise InputError("the turn curves need a record per hand (with turns and outcome): a streamed run keeps "
                         "counts only (play it without --stream)")
    if not len(records):
        raise InputError("the run has no hands to draw")
    turns = records["turns"].to_numpy(np.int64)
    outcome = records["outcome"].astype(str).to_numpy()
    last = int(turns.max())
    rows = []
    for name, outcomes, _ in CURVES:
        over = np.cumsum(np.bincount(turns[np.isin(outcome, outcomes)], minlength=last + 1))
        low, high = wilson(over, np.full(last + 1, len(records)))
        rows.append(pd.DataFrame({"turn": np.arange(last + 1), "outcome": name, "hands": over,
                                  "share": over / len(records), "share_low": low, "share_high": high}))
    return pd.concat(rows, ignore_index=True)


def plot_turn_curves(curves: pd.DataFrame, path: str | os.PathLike[str], subtitle: str = "", *,
                     size: tuple[float, float] | None = None, dpi: int | None = None) -> Path:
    """Draw a :func:`turn_curves` table: each curve's share of hands over by each draw, its 95% interval
    as a band, and write it to ``path`` (format from the extension).

    >>> import tempfile, pathlib
    >>> from ginsim import Rules, simulate
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "curves.svg"
    >>> table = turn_curves(simulate(Rules(), "simple,simple", hands=500, seed=1, workers=1))
    >>> plot_turn_curves(table, path, "standard rules") == path
    True
    """
    from ginsim.gin.studies.plot import new_figure, write_figure

    path = Path(path)
    figure = new_figure(path, size or (7.5, 4.6))
    axes = figure.add_subplot()
    for name, _, label in CURVES:
        rows = curves[curves["outcome"] == name]
        if rows.empty:
            continue
        drawn = axes.step(rows["turn"], 100 * rows["share"], where="post", linewidth=1.4, label=label)
        axes.fill_between(rows["turn"], 100 * rows["share_low"], 100 * rows["share_high"], step="post", alpha=0.2,
                          color=drawn[0].get_color(), linewidth=0)
    axes.set_xlabel("draws in the hand (both players)")
    axes.set_ylabel("hands over by then (%)")
    axes.set_ylim(0, 100)
    axes.set_xlim(left=0)
    axes.grid(alpha=0.3)
    axes.legend(title="ended by", loc="upper left", fontsize="small")
    hands = int(curves.loc[curves["outcome"] == "all", "hands"].max()) if "hands" in curves else 0
    figure.suptitle("When hands end", fontweight="bold")
    note = f"cumulative share of {hands:,} hands; bands: 95% Wilson intervals"
    axes.set_title(f"{subtitle}\n{note}" if subtitle else note, fontsize="small")
    return write_figure(figure, path, dpi)
