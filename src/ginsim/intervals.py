"""Confidence intervals of the rates in every summary: 95% Wilson score intervals.

>>> low, high = wilson(np.array([5]), np.array([10]))
>>> round(float(low[0]), 4), round(float(high[0]), 4)
(0.2366, 0.7634)
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["wilson"]


def wilson(count: npt.ArrayLike, total: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson score interval bounds of the proportions ``count / total`` (NaN where ``total`` is 0).

    >>> wilson(np.array([0, 3]), np.array([0, 3]))[1]  # no hands; all three hands
    array([nan,  1.])
    """
    from statsmodels.stats.proportion import proportion_confint  # slow to import: only when needed

    counts, totals = np.asarray(count, float), np.asarray(total, float)
    low, high = proportion_confint(counts, np.maximum(totals, 1), alpha=0.05, method="wilson")
    low, high = np.asarray(low, float), np.asarray(high, float)
    # At 0 or all, the bound is exactly the rate (the formula leaves a rounding error); no hands: NaN.
    low = np.where(counts == 0, 0.0, low)
    high = np.where(counts == totals, 1.0, high)
    empty = totals == 0
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)
