"""Ratings of a tournament's players: a Bradley–Terry model of the pairwise results, on the Elo scale.

Player ``i`` has a strength ``θ_i`` and scores against ``j`` with probability ``1 / (1 + exp(θ_j - θ_i))``
(a win counts 1, a tied Hollywood match ½ to each). The strengths are fitted by a binomial GLM (a logit
with one column per player but the reference, statsmodels) and shown as ``400 / ln 10 × θ``, so that a
difference of 400 points is 10 to 1 odds, as in Elo's scale.

Anchoring: the anchor player, by default ``simple`` (the EAAI baseline), is fixed at ``level`` (by
default 0) when it takes part, and then its interval is a point and the others' intervals are those of
their difference from it; without it the ratings have mean ``level``. The shipped rating list of the
built-in strategies (:mod:`ginsim.gin.studies.rating_list`) puts ``simple`` at 1500.

Intervals (95%, normal): without duplicate deals the games are independent and the binomial
covariance of the fit is used as it is. With duplicate deals (the tournament table has
``pair_score_sd``) the unit of independent information is the pair of games on one deal sequence, so
the model is read as a quasi-binomial GLM of the pairs' scores (each the mean of its two games): the
point ratings are the same, and the covariance is scaled by the dispersion of the pair scores about the
fitted probabilities (Pearson's χ² over the pairs, from each pairing's mean and standard deviation of
the pair scores, divided by its degrees of freedom). Pairs that split one game each carry no luck of the
deal, and the intervals narrow as the table's paired intervals do. A pairing of one deal sequence (two
games) has no standard deviation (NaN) and adds no spread within itself, only its pair's distance from
the fit. A table whose every pairing played two games cannot show whether they were paired: it is read
as independent games unless the caller says ``duplicate=True``.

A player that scored nothing against a group of players, or everything, has no finite strength
(Zermelo's condition): the fit keeps the players who all reach one another through results (the
group of ``simple``, or else the largest), and rates those above that group +inf, those below -inf,
with no interval.

>>> import pandas as pd
>>> table = pd.DataFrame({"player": ["simple", "simple", "gin"], "opponent": ["gin", "greedy", "greedy"],
...                       "matches": [1000, 1000, 1000], "wins": [330, 500, 680], "losses": [670, 500, 320]})
>>> rated = ratings(table)
>>> rated[["player", "games"]].values.tolist()
[['gin', 2000], ['simple', 2000], ['greedy', 2000]]
>>> [round(value) for value in rated["rating"]]
[126, 0, -2]
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from gincore.errors import InputError

__all__ = ["ANCHOR", "ELO_SCALE", "ratings"]

ANCHOR = "simple"
"""The player whose rating is 0 when it takes part."""
ELO_SCALE = 400 / math.log(10)
"""Elo points per unit of log-strength."""
_Z = 1.959963984540054  # the normal quantile of 97.5%


def _reach(beat: np.ndarray) -> np.ndarray:
    """``reach[i, j]``: a chain of results leads from ``i`` to ``j`` (``i`` scored against someone who
    scored against … ``j``), or ``i == j``."""
    reach = beat | np.eye(len(beat), dtype=bool)
    for middle in range(len(beat)):
        reach |= reach[:, [middle]] & reach[[middle], :]
    return reach


def _dispersion(fitted: np.ndarray, rows: pd.DataFrame, parameters: int) -> float:
    """Pearson's χ² of the pair scores about the fitted probabilities, per degree of freedom."""
    pairs = rows["matches"].to_numpy(float) / 2
    mean = rows["score"].to_numpy(float) / rows["matches"].to_numpy(float)
    spread = rows["pair_score_sd"].to_numpy(float)
    within = np.where(pairs > 1, (pairs - 1) * spread ** 2, 0.0)  # one pair: no spread within (its sd is NaN)
    squares = within + pairs * (mean - fitted) ** 2
    freedom = pairs.sum() - parameters
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.sum(squares / (fitted * (1 - fitted))) / freedom) if freedom > 0 else np.nan


def ratings(table: pd.DataFrame, anchor: str = ANCHOR, level: float = 0.0, *,
            duplicate: bool | None = None) -> pd.DataFrame:
    """Bradley–Terry ratings of the players of a :func:`~ginsim.tournament` table on
    the Elo scale with 95% intervals: ``anchor`` is fixed at ``level`` when it plays, else the mean is
    ``level`` (see the module for the anchoring and the intervals). ``duplicate`` says whether the games
    were played on duplicate deals; by default the table says so (some pairing has a ``pair_score_sd``).

    Columns: ``player``, ``games`` (played in the table), ``score`` (its share of the points, a win 1
    and a tie ½), ``rating``, ``rating_low``, ``rating_high``; best first.
    """
    import statsmodels.api as sm  # slow to import: only when needed
    from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

    missing = [name for name in ("player", "opponent", "matches", "wins", "losses") if name not in table]
    if missing:
        raise InputError(f"ratings need a tournament table; this one has no {', '.join(missing)} column")
    rows = table.reset_index(drop=True).copy()
    rows["score"] = rows["wins"] + (rows["matches"] - rows["wins"] - rows["losses"]) / 2
    names = list(dict.fromkeys([*rows["player"], *rows["opponent"]]))
    position = {name: number for number, name in enumerate(names)}
    first = rows["player"].map(position).to_numpy()
    second = rows["opponent"].map(position).to_numpy()
    if "pair_score_sd" not in rows:
        rows["pair_score_sd"] = np.nan
    spread = rows["pair_score_sd"].notna()
    paired = bool(spread.any()) if duplicate is None else bool(duplicate)
    unpaired = ~spread & (rows["matches"] != 2)  # one deal sequence has no spread: NaN, yet paired
    if paired and unpaired.any():
        row = rows[unpaired].iloc[0]
        raise InputError("ratings need one kind of tournament: some pairings played duplicate deals, some did not "
                         f"({row['player']} vs {row['opponent']}: {row['matches']} games with no pair_score_sd)")

    beat = np.zeros((len(names), len(names)), bool)
    np.logical_or.at(beat, (first, second), rows["score"].to_numpy() > 0)
    np.logical_or.at(beat, (second, first), rows["score"].to_numpy() < rows["matches"].to_numpy())
    reach = _reach(beat)
    groups = [frozenset(np.flatnonzero(reach[i] & reach[:, i])) for i in range(len(names))]
    anchored = groups[position[anchor]] if anchor in position else max(groups, key=len)  # the first largest
    members = sorted(anchored)
    reference = position[anchor] if anchor in position else members[0]
    free = [member for member in members if member != reference]

    strength = np.zeros(len(names))
    covariance = np.zeros((len(names), len(names)))
    inside = np.isin(first, members) & np.isin(second, members)
    if free:
        design = np.zeros((int(inside.sum()), len(free)))
        for column, member in enumerate(free):
            design[:, column] = (first[inside] == member).astype(float) - (second[inside] == member)
        scored = rows.loc[inside, "score"].to_numpy(float)
        outcome = np.column_stack([scored, rows.loc[inside, "matches"].to_numpy(float) - scored])
        # No residual freedom with one pairing, or a table the fit matches exactly: no matter, not a warning
        # (a group beyond the rest, the true separation, is left out of the fit above).
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", PerfectSeparationWarning)
            fit = sm.GLM(outcome, design, family=sm.families.Binomial()).fit()
        strength[free] = fit.params
        scale = 2 * _dispersion(fit.fittedvalues, rows.loc[inside], len(free)) if paired else 1.0
        covariance[np.ix_(free, free)] = scale * np.asarray(fit.cov_params())
    if anchor not in position:
        centre = np.zeros((len(names), len(names)))
        centre[np.ix_(members, members)] = np.eye(len(members)) - 1 / len(members)
        strength, covariance = centre @ strength, centre @ covariance @ centre.T
    error = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    rating = level + ELO_SCALE * strength
    low, high = rating - _Z * ELO_SCALE * error, rating + _Z * ELO_SCALE * error
    for number in set(range(len(names))) - anchored:
        above, below = reach[number, reference], reach[reference, number]
        rating[number] = np.inf if above and not below else -np.inf if below and not above else np.nan
        low[number] = high[number] = np.nan
    games = np.bincount(first, rows["matches"], len(names)) + np.bincount(second, rows["matches"], len(names))
    points = (np.bincount(first, rows["score"], len(names))
              + np.bincount(second, rows["matches"] - rows["score"], len(names)))
    result = pd.DataFrame({"player": names, "games": games.astype(np.int64), "score": points / games,
                           "rating": rating, "rating_low": low, "rating_high": high})
    order = np.lexsort((np.arange(len(names)), -np.nan_to_num(rating, nan=-np.inf)))
    return result.iloc[order].reset_index(drop=True)
