"""Confidence intervals of the rates in every summary: 95% Wilson score intervals.

>>> low, high = wilson(np.array([5]), np.array([10]))
>>> round(float(low[0]), 4), round(float(high[0]), 4)
(0.2366, 0.7634)
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["mean_bounds", "mean_interval", "wilson"]


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


def mean_bounds(total: npt.ArrayLike, squares: npt.ArrayLike | None,
                count: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """95% t-interval bounds of means given as sums: ``total`` of the values and ``squares`` of their
    squares over ``count`` items (NaN below two items, or without ``squares``).

    >>> values = np.array([1.0, 2.0, 3.0, 4.0])
    >>> low, high = mean_bounds([values.sum()], [(values ** 2).sum()], [4])
    >>> round(float(low[0]), 4), round(float(high[0]), 4)
    (0.4457, 4.5543)
    """
    from scipy.stats import t  # statsmodels' own dependency

    sums, counts = np.asarray(total, float), np.asarray(count, float)
    if squares is None:
        nothing = np.full(sums.shape, np.nan)
        return nothing, nothing.copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / counts
        variance = np.maximum(np.asarray(squares, float) - sums * mean, 0.0) / (counts - 1)
        half = t.ppf(0.975, np.maximum(counts - 1, 1)) * np.sqrt(variance / counts)
    half = np.where(counts >= 2, half, np.nan)
    return mean - half, mean + half


def mean_interval(values: npt.ArrayLike) -> tuple[float, float]:
    """95% t-interval bounds of the mean of ``values``.

    >>> [round(bound, 4) for bound in mean_interval([1, 2, 3, 4])]
    [0.4457, 4.5543]
    """
    items = np.asarray(values, float)
    low, high = mean_bounds([items.sum()], [(items * items).sum()], [len(items)])
    return float(low[0]), float(high[0])
