"""Differences between two runs, measure by measure and group by group, with intervals and tests.

Each run is given as one row per item (hand, match or game) with its group columns, an ``item`` index,
0/1 columns for the rates and numeric columns for the means. When the two runs played the same items
(the same seed: hand ``i`` is the same deal in both) the comparison is paired, item by item — a
t-interval of the mean of the differences, far narrower than comparing two independent samples;
otherwise rates are compared as two independent proportions (Newcombe's interval, the Agresti–Caffo
test) and means by Welch's t. ``p_holm`` adjusts the p-values for the number of comparisons in the
table (Holm), and ``significant`` flags ``p_holm < 0.05``.

>>> import pandas as pd
>>> a = pd.DataFrame({"item": range(4), "win_rate": [1, 0, 0, 0], "mean_points": [10, 0, 0, 0]})
>>> b = pd.DataFrame({"item": range(4), "win_rate": [1, 1, 1, 0], "mean_points": [10, 20, 5, 0]})
>>> table = compare(a, b, [], ["win_rate"], ["mean_points"], paired=True)
>>> table[["measure", "a", "b", "difference"]].values.tolist()
[['win_rate', 0.25, 0.75, 0.5], ['mean_points', 2.5, 8.75, 6.25]]
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.intervals import ALPHA

__all__ = ["ALPHA", "Measures", "compare", "holm"]

COLUMNS = ("measure", "a", "b", "difference", "low", "high", "p_value", "p_holm", "significant", "paired")


class Measures(NamedTuple):
    """A run's items ready for comparison: one row per item, with ``item``, the group columns, the
    0/1 ``rates`` columns and the numeric ``means`` columns."""

    frame: pd.DataFrame
    rates: list[str]
    means: list[str]


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """The t-interval and t-test of the mean difference ``b - a`` (statsmodels' ``DescrStatsW`` gives the
    same, several times slower on a million pairs)."""
    from scipy.stats import t

    differences = b.astype(float) - a.astype(float)
    mean = float(differences.mean()) if len(a) else np.nan
    spread = float(differences.std(ddof=1)) if len(a) > 1 else 0.0
    if len(a) < 2 or spread == 0:
        # Every pair differs alike: the difference is exact, and a test has nothing to weigh.
        return mean, mean, 1.0 if mean == 0 else 0.0
    error = spread / np.sqrt(len(a))
    reach = float(t.ppf(1 - ALPHA / 2, len(a) - 1)) * error
    return mean - reach, mean + reach, float(2 * t.sf(abs(mean) / error, len(a) - 1))


def _proportions(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    counts = (int(b.sum()), len(b), int(a.sum()), len(a))
    with np.errstate(divide="ignore", invalid="ignore"):  # statsmodels also works out ratios, undefined at 0
        low, high = confint_proportions_2indep(*counts, method="newcomb", alpha=ALPHA)
        result = test_proportions_2indep(*counts, method="agresti-caffo")
    return float(low), float(high), float(result.pvalue)


def _means(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    if len(a) < 2 or len(b) < 2 or (np.std(a) == 0 and np.std(b) == 0):
        difference = float(np.mean(b) - np.mean(a))
        return difference, difference, 1.0 if difference == 0 else 0.0
    means = CompareMeans(DescrStatsW(b.astype(float)), DescrStatsW(a.astype(float)))
    low, high = means.tconfint_diff(alpha=ALPHA, usevar="unequal")
    return float(low), float(high), float(means.ttest_ind(usevar="unequal")[1])


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of p-values for testing them all at once (the same as statsmodels'
    ``multipletests(method="holm")``, without its forced garbage collection, slow in a large process).

    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    values = np.asarray(p_values, float)
    order = np.argsort(values, kind="stable")
    adjusted = np.empty(len(values))
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate((len(values) - np.arange(len(values))) * values[order]))
    return adjusted


def compare(a: pd.DataFrame, b: pd.DataFrame, by: Sequence[str], rates: Sequence[str], means: Sequence[str],
            paired: bool) -> pd.DataFrame:
    """``b`` against ``a``: per group of ``by`` and per measure, each run's value, the difference
    ``b - a`` with its 95% interval, the p-value, its Holm adjustment and the flag (see the module)."""
    by = list(by)
    groups: Iterable[tuple[Any, Any]]
    if paired:
        joined = a.merge(b, on="item", suffixes=("_a", "_b"))
        if len(joined) != len(a) or len(joined) != len(b):
            raise InputError("a paired comparison needs the same items in both runs")
        groups = joined.groupby([f"{column}_a" for column in by], observed=True, sort=True) if by else [((), joined)]
    else:
        groups = _unpaired_groups(a, b, by)
    rows = []
    frame: Any
    for key, frame in groups:
        labels = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
        for measure in [*rates, *means]:
            if paired:
                first, second = frame[f"{measure}_a"].to_numpy(), frame[f"{measure}_b"].to_numpy()
                low, high, p_value = _paired(first, second)
            else:
                first, second = frame[0][measure].to_numpy(), frame[1][measure].to_numpy()
                test = _proportions if measure in rates else _means
                low, high, p_value = test(first, second) if len(first) and len(second) else (np.nan,) * 3
            rows.append({**labels, "measure": measure, "a": float(np.mean(first)) if len(first) else np.nan,
                         "b": float(np.mean(second)) if len(second) else np.nan, "low": low, "high": high,
                         "p_value": p_value})
    table = pd.DataFrame(rows, columns=[*by, "measure", "a", "b", "low", "high", "p_value"])
    table.insert(len(by) + 3, "difference", table["b"] - table["a"])
    tested = table["p_value"].notna().to_numpy()
    table["p_holm"] = np.nan
    if tested.any():
        table.loc[tested, "p_holm"] = holm(table.loc[tested, "p_value"].to_numpy())
    table["significant"] = table["p_holm"] < ALPHA
    table["paired"] = paired
    return table[[*by, *COLUMNS]]


def _unpaired_groups(a: pd.DataFrame, b: pd.DataFrame,
                     by: list[str]) -> list[tuple[object, tuple[pd.DataFrame, pd.DataFrame]]]:
    if not by:
        return [((), (a, b))]
    first = dict(iter(a.groupby(by, observed=True, sort=True)))
    second = dict(iter(b.groupby(by, observed=True, sort=True)))
    empty = a.iloc[:0]
    return [(key, (first.get(key, empty), second.get(key, empty))) for key in sorted(first.keys() | second.keys())]
