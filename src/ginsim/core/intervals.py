"""Every confidence interval of ginsim and its constants: 95% Wilson score intervals of rates, t-intervals
of means, both for items that come in groups (the two games of a duplicate deal) or in clusters of any
size (the knock positions of one hand), and the normal
interval of a mean of many play-outs (the analysis's, computed per option in its inner loop, where the
t quantile of hundreds of deals is the normal one to three digits). ``ALPHA`` and ``Z95`` are the one
copy of the level; :mod:`ginsim.core.comparison` and the match equity's bootstrap read them from here.

>>> low, high = wilson(np.array([5]), np.array([10]))
>>> round(float(low[0]), 4), round(float(high[0]), 4)
(0.2366, 0.7634)
"""
from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["ALPHA", "Z95", "cluster_mean_interval", "grouped_mean_interval", "grouped_rate_interval", "mean_bounds",
           "mean_interval", "normal_interval", "width_ratio", "wilson"]

ALPHA: Final = 0.05
"""One minus the level of every interval (95%), and the level of the comparisons' ``significant`` flag."""
Z95: Final = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval (``scipy.stats.norm.ppf(1 - ALPHA / 2)``)."""


def wilson(count: npt.ArrayLike, total: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson score interval bounds of the proportions ``count / total`` (NaN where ``total`` is 0).

    >>> wilson(np.array([0, 3]), np.array([0, 3]))[1]  # no hands; all three hands
    array([nan,  1.])
    """
    from statsmodels.stats.proportion import proportion_confint  # slow to import: only when needed

    counts, totals = np.asarray(count, float), np.asarray(total, float)
    low, high = proportion_confint(counts, np.maximum(totals, 1), alpha=ALPHA, method="wilson")
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
        half = t.ppf(1 - ALPHA / 2, np.maximum(counts - 1, 1)) * np.sqrt(variance / counts)
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


def normal_interval(values: np.ndarray) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% normal interval (unbounded below two values).

    >>> [round(float(bound), 4) for bound in normal_interval(np.array([1.0, 2.0, 3.0, 4.0]))]
    [2.5, 1.2348, 3.7652]
    """
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / np.sqrt(len(values)) if len(values) > 1 else float("inf")
    return mean, mean - half, mean + half


def grouped_mean_interval(values: npt.ArrayLike, groups: npt.ArrayLike) -> tuple[float, float]:
    """95% t-interval of the mean of ``values`` when the items come in ``groups`` (equal in size) that are
    independent of one another but not within: the t-interval over the groups' means.

    >>> [round(bound, 4) for bound in grouped_mean_interval([1, 3, 2, 4, 3, 5, 4, 6], [0, 0, 1, 1, 2, 2, 3, 3])]
    [1.4457, 5.5543]
    """
    import pandas as pd

    return mean_interval(pd.Series(np.asarray(values, float)).groupby(np.asarray(groups)).mean())


def cluster_mean_interval(values: npt.ArrayLike, clusters: npt.ArrayLike) -> tuple[float, float]:
    """95% interval of the mean of ``values`` when the items come in ``clusters`` of any size that are
    independent of one another but not within (the positions of one hand share its cards): the mean over
    all the items, its variance from the clusters' sums of deviations from it (the cluster-robust
    estimate, with the small-sample factor G / (G - 1)), t with G - 1 degrees of freedom for G clusters.
    NaN below two clusters. With every cluster a single item it is :func:`mean_interval`.

    >>> [round(bound, 4) for bound in cluster_mean_interval([1, 1, 3, 3], [0, 0, 1, 1])]   # two hands, not four
    [-10.7062, 14.7062]
    >>> [round(bound, 4) for bound in cluster_mean_interval([1, 2, 3, 4], [0, 1, 2, 3])]
    [0.4457, 4.5543]
    """
    import pandas as pd
    from scipy.stats import t

    items = np.asarray(values, float)
    sums = pd.Series(items).groupby(np.asarray(clusters)).agg(["sum", "size"])
    groups = len(sums)
    if groups < 2:
        return float("nan"), float("nan")
    mean = float(items.mean())
    deviations = sums["sum"].to_numpy(float) - sums["size"].to_numpy(float) * mean
    variance = groups / (groups - 1) * float((deviations ** 2).sum()) / len(items) ** 2
    half = float(t.ppf(1 - ALPHA / 2, groups - 1) * np.sqrt(variance))
    return mean - half, mean + half


def grouped_rate_interval(successes: npt.ArrayLike, groups: npt.ArrayLike) -> tuple[float, float]:
    """95% interval of a rate of 0/1 items in ``groups`` (see :func:`grouped_mean_interval`): the
    t-interval over the groups' means, within 0..1. Where every item is 0, or every item 1, there is no
    spread to measure and the interval is Wilson's with the groups counted as the items.

    >>> grouped_rate_interval([1, 0, 0, 1, 1, 0], [0, 0, 1, 1, 2, 2])   # every group split evenly
    (0.5, 0.5)
    >>> [round(bound, 4) for bound in grouped_rate_interval([1, 1, 1, 1], [0, 0, 1, 1])]
    [0.3424, 1.0]
    """
    items = np.asarray(successes, float)
    count = len(np.unique(np.asarray(groups)))
    if len(items) and (items.min() == items.max() == 0 or items.min() == items.max() == 1):
        low, high = wilson(np.array([count * items[0]]), np.array([count]))
        return float(low[0]), float(high[0])
    low_mean, high_mean = grouped_mean_interval(items, groups)
    return max(low_mean, 0.0), min(high_mean, 1.0)


def width_ratio(successes: npt.ArrayLike, groups: npt.ArrayLike) -> float:
    """How much the grouping narrows a rate's interval: the width of :func:`grouped_rate_interval` over
    the width of the Wilson interval of the items taken one by one. NaN where every item is alike (the
    groups then measure no spread).

    >>> width_ratio([1, 0, 0, 1, 1, 0], [0, 0, 1, 1, 2, 2])
    0.0
    """
    items = np.asarray(successes, float)
    if not len(items) or items.min() == items.max():
        return float("nan")
    low, high = grouped_rate_interval(items, groups)
    wilson_low, wilson_high = wilson(np.array([items.sum()]), np.array([len(items)]))
    return (high - low) / float(wilson_high[0] - wilson_low[0])
