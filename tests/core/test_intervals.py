"""The intervals of ginsim.core.intervals: the cluster-robust interval of a mean is the t-interval when
every cluster is one item, and the interval over the clusters when each repeats one value."""
from __future__ import annotations

import numpy as np
import pytest

from ginsim.core.intervals import cluster_mean_interval, mean_interval


def test_single_items_give_the_t_interval(rng: np.random.Generator) -> None:
    values = rng.normal(size=int(rng.integers(2, 50)))
    assert cluster_mean_interval(values, np.arange(len(values))) == pytest.approx(mean_interval(values))


def test_repeated_items_count_once(rng: np.random.Generator) -> None:
    """A hand that gives k positions of one value is one observation, not k: the clustered interval is the
    t-interval of the hands' values, where the one over the items would be about sqrt(k) times narrower."""
    hands = rng.normal(size=int(rng.integers(3, 30)))
    repeats = int(rng.integers(2, 6))
    values, clusters = np.repeat(hands, repeats), np.repeat(np.arange(len(hands)), repeats)
    clustered = cluster_mean_interval(values, clusters)
    assert clustered == pytest.approx(mean_interval(hands))
    low, high = mean_interval(values)
    assert clustered[1] - clustered[0] > 1.2 * (high - low)


def test_one_cluster_has_no_interval() -> None:
    assert np.isnan(cluster_mean_interval([1.0, 2.0, 3.0], [7, 7, 7])).all()
