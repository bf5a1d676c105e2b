"""A training run's learning curve: its rows written as CSV and JSON with the settings, and drawn (points per
hand and the win rates against each opponent, by decisions played).
"""
from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any, Final

import numpy as np

from ginsim.core.store import atomic_write
from ginsim.learn.config import TrainConfig

__all__ = ["CURVE_CSV", "CURVE_JSON", "CURVE_PLOT", "plot_curve", "write_curve"]

CURVE_CSV: Final = "curve.csv"
CURVE_JSON: Final = "curve.json"
CURVE_PLOT: Final = "curve.png"


def write_curve(folder: Path, config: TrainConfig, curve: list[dict[str, Any]], plot: bool) -> None:
    """Write ``curve`` into the training directory ``folder`` as CSV and JSON (with ``config``), and draw it
    when ``plot`` (and it has PPO rows).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_curve(folder, TrainConfig(), [{"phase": "imitate", "epoch": 1, "accuracy": 0.5}], plot=True)
    >>> sorted(path.name for path in folder.iterdir())
    ['curve.csv', 'curve.json']
    """
    import pandas as pd

    table = pd.DataFrame(curve)
    atomic_write(folder / CURVE_CSV, lambda handle: handle.write(table.to_csv(index=False).encode()))
    document = {"format": "ginsim-training-curve", "config": config.to_dict(), "rows": curve}
    atomic_write(folder / CURVE_JSON, lambda handle: handle.write(json.dumps(document, indent=1).encode()))
    if plot and any(row["phase"] == "ppo" for row in curve):
        plot_curve(curve, folder / CURVE_PLOT)


def plot_curve(curve: list[dict[str, Any]], path: Path, window: int = 5) -> None:
    """Draw the PPO rows of a curve: points per hand and the share of hands won against each opponent
    (means over ``window`` updates, fewer when there are few: a short run is drawn update by update, each
    a marker)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [row for row in curve if row["phase"] == "ppo"]
    names = [key[len("points["):-1] for key in rows[0] if key.startswith("points[")]
    steps = np.array([row["steps"] for row in rows]) / 1e6
    window = max(1, min(window, len(rows) // 4))  # at least four points drawn
    style = "o-" if len(rows) - window < 30 else "-"
    figure, (points_axis, wins_axis) = plt.subplots(1, 2, figsize=(10, 3.6))
    for name in names:
        for axis, key in ((points_axis, f"points[{name}]"), (wins_axis, f"win_rate[{name}]")):
            values = np.array([row.get(key, math.nan) for row in rows], float)
            smooth = np.convolve(values, np.ones(window) / window, mode="valid")
            axis.plot(steps[len(steps) - len(smooth):], smooth, style, markersize=3, label=f"against {name}")
    points_axis.axhline(0, color="grey", linewidth=0.8)
    points_axis.set_ylabel("points per hand")
    wins_axis.axhline(0.5, color="grey", linewidth=0.8)
    wins_axis.set_ylabel("share of hands won")
    for axis in (points_axis, wins_axis):
        axis.set_xlabel("learner decisions (millions)")
        axis.legend(fontsize="small")
    figure.suptitle("PPO training (sampled actions, the training tables' hands)", fontsize="medium")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    atomic_write(path, lambda handle: handle.write(buffer.getvalue()))
