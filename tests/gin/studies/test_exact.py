"""The exact enumeration of all hands (ginsim.gin.studies.exact, gincore._exact).

Small hand sizes are checked against every hand listed one by one; larger ones against a random
sample (any seed); the full 10- and 11-card enumerations are too slow for the suite.
"""
from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from scipy.stats import binom, norm

import gincore
from gincore import _exact
from ginsim.gin.studies import exact
from ginsim.gin.studies.exact import (
    ExactResult,
    cache_path,
    exact_distribution,
    sampled_distribution,
)
from tests.reference import oracle

# The one-sided tail beyond 5 standard deviations of a normal variable; the per-bin check below uses
# it with exact binomial tails, which stay right for bins expecting less than one sampled hand.
FIVE_SIGMA_TAIL = float(norm.sf(5))
SAMPLED_HANDS = 1_000_000


def all_hands(size: int) -> np.ndarray:
    """Every ``size``-card hand as a uint64 mask, built card by card in increasing card order."""
    masks = np.zeros(1, dtype=np.uint64)
    highest = np.full(1, -1, dtype=np.int8)
    for _ in range(size):
        grown, tops = [], []
        for card in range(gincore.NUM_CARDS):
            below = highest < card
            grown.append(masks[below] | np.uint64(1 << card))
            tops.append(np.full(int(below.sum()), card, dtype=np.int8))
        masks, highest = np.concatenate(grown), np.concatenate(tops)
    return masks


def padded(counts: np.ndarray | tuple[int, ...], length: int) -> np.ndarray:
    out = np.zeros(length, dtype=np.int64)
    out[: len(counts)] = counts
    return out


@pytest.mark.parametrize("cards", range(14))
@pytest.mark.slow
def test_weights_add_up_to_every_hand(cards: int) -> None:
    units = _exact.work_units(cards)
    hands, canonical = _exact.hand_counts(units), _exact.canonical_counts(units)
    assert int(hands.sum()) == comb(52, cards)
    # Each canonical hand stands for 1 to 4! hands.
    assert (canonical <= hands).all() and (hands <= 24 * canonical).all()


def test_work_units_are_partitions_and_first_masks() -> None:
    units = _exact.work_units(10)
    assert (units[:, :4].sum(axis=1) == 10).all()
    assert (np.diff(units[:, :4], axis=1) <= 0).all() and (units[:, :4] >= 0).all()
    assert len(np.unique(units, axis=0)) == len(units)
    sizes = {int(p): comb(13, int(p)) for p in range(14)}
    assert all(0 <= i1 < sizes[p1] for p1, i1 in units[:, [0, 4]])


@pytest.mark.parametrize("cards", range(6))
def test_matches_every_hand_listed(cards: int) -> None:
    hands = all_hands(cards)
    assert len(hands) == comb(52, cards)
    listed = np.bincount(gincore.deadwood_many(hands), minlength=_exact.HISTOGRAM_SIZE)
    enumerated = _exact.histogram(_exact.work_units(cards))
    np.testing.assert_array_equal(enumerated, listed)
    result = exact_distribution(cards, workers=2, cache=False, progress=False)
    np.testing.assert_array_equal(padded(result.histogram, _exact.HISTOGRAM_SIZE), listed)


def test_three_cards_match_the_brute_force_oracle() -> None:
    counts = np.zeros(31, dtype=np.int64)
    for cards in combinations(range(52), 3):
        counts[oracle.oracle_deadwood(sum(1 << card for card in cards))] += 1
    result = exact_distribution(3, workers=1, cache=False, progress=False)
    np.testing.assert_array_equal(padded(result.histogram, 31), counts)
    assert result.gin == 13 * 4 + 4 * 11  # the 3-sets and the 3-runs


@pytest.mark.parametrize("cards", [7, 9])
def test_agrees_with_a_random_sample(cards: int, test_seed: int) -> None:
    """Each bin's sampled count is within the 5-sigma tails of its exact binomial distribution."""
    result = exact_distribution(cards, cache=False, progress=False)
    sampled = sampled_distribution(cards, SAMPLED_HANDS, seed=test_seed)
    probability = padded(result.histogram, len(sampled)) / result.total
    low_tail = binom.cdf(sampled, SAMPLED_HANDS, probability)
    high_tail = binom.sf(sampled - 1, SAMPLED_HANDS, probability)
    outside = np.flatnonzero((low_tail < FIVE_SIGMA_TAIL) | (high_tail < FIVE_SIGMA_TAIL))
    assert not outside.size, [(int(value), int(sampled[value]), probability[value] * SAMPLED_HANDS)
                              for value in outside]
    assert sampled.sum() == SAMPLED_HANDS


def test_any_number_of_workers_gives_the_same_counts() -> None:
    one = exact_distribution(6, workers=1, cache=False, progress=False)
    three = exact_distribution(6, workers=3, cache=False, progress=False)
    assert one.histogram == three.histogram and (one.workers, three.workers) == (1, 3)


def test_pieces_cover_every_unit_once() -> None:
    units = _exact.work_units(8)
    pieces = exact._pieces(units, _exact.canonical_counts(units), workers=2)
    assert len(pieces) > 2
    np.testing.assert_array_equal(np.concatenate(pieces), units)


def test_derived_counts() -> None:
    result = exact_distribution(5, workers=1, cache=False, progress=False)
    histogram = np.array(result.histogram)
    assert result.total == comb(52, 5) == histogram.sum()
    assert result.gin == histogram[0]
    assert result.knock == tuple(int(histogram[: limit + 1].sum()) for limit in range(11))
    assert result.mean == Fraction(int((np.arange(len(histogram)) * histogram).sum()), comb(52, 5))
    assert result.canonical == int(_exact.canonical_counts(_exact.work_units(5)).sum())
    frame = result.to_frame()
    assert frame["hands"].sum() == result.total and frame["at_most"].iloc[-1] == result.total
    assert frame.loc[10, "at_most"] == result.knock[10]


def test_text_report() -> None:
    text = exact_distribution(2, workers=1, cache=False, progress=False).to_text()
    assert text.startswith("Minimum deadwood of all 1,326 hands of 2 cards (exact)")
    assert "fully melded (deadwood 0): 0 hands" in text
    assert "        10                        350   0.2639517345" in text
    assert text.endswith("mean deadwood: 170/13 = 13.0769230769")


def test_gin_names() -> None:
    histogram = (comb(52, 11),)
    assert ExactResult(11, histogram, 1, 0.0, 1).gin_name == "big gin"
    assert ExactResult(10, (comb(52, 10),), 1, 0.0, 1).gin_name == "gin"


def test_a_histogram_that_misses_hands_is_refused() -> None:
    with pytest.raises(ValueError, match=r"counts 1,325 hands, not C\(52, 2\) = 1,326"):
        ExactResult(2, (1325,), 169, 0.0, 1)


@pytest.mark.parametrize("cards", [-1, 53, True, 2.0, "3"])
def test_bad_card_counts_are_refused(cards: object) -> None:
    with pytest.raises(ValueError, match="cards must be an integer from 0 to 52"):
        exact_distribution(cards, cache=False)  # type: ignore[arg-type]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="workers must be a positive integer"):
        exact_distribution(3, workers=0, cache=False)
    with pytest.raises(ValueError, match="workers must be a positive integer of at most 1,024, got 10\\*\\*9"):
        exact_distribution(3, workers=10**9, cache=False)
    with pytest.raises(ValueError, match="hands must be a positive integer"):
        sampled_distribution(3, 0, seed=1)
    with pytest.raises(ValueError, match="not a work unit"):
        _exact.histogram(np.array([[3, 4, 2, 1, 0]], dtype=np.int32))
    with pytest.raises(ValueError, match="not a work unit"):
        _exact.histogram(np.array([[13, 0, 0, 0, 1]], dtype=np.int32))
    with pytest.raises(ValueError, match="rows"):
        _exact.histogram(np.zeros((2, 4), dtype=np.int32))


def test_sampling_is_reproducible() -> None:
    first = sampled_distribution(10, 5000, seed=3)
    np.testing.assert_array_equal(first, sampled_distribution(10, 5000, seed=3))
    assert not np.array_equal(first, sampled_distribution(10, 5000, seed=4))
    assert sampled_distribution(0, 10, seed=1).tolist() == [10]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GINSIM_CACHE", str(tmp_path))
    return tmp_path


def test_cache_round_trip(cache_dir) -> None:
    fresh = exact_distribution(4, workers=1, progress=False)
    assert not fresh.cached and cache_path(4).parent == cache_dir
    assert [path.name for path in cache_dir.iterdir()] == ["exact-deadwood-4.json"]  # no temporary left
    again = exact_distribution(4, workers=2, progress=False)
    assert again.cached and again == fresh and again.workers == 1  # who computed it
    assert "read from the cache" in again.to_text()


@pytest.mark.parametrize("damage", ["stale", "wrong counts", "not json", "not a record"])
def test_a_bad_cache_is_recomputed(cache_dir, damage: str) -> None:
    exact_distribution(3, workers=1, progress=False)
    path = cache_path(3)
    record = json.loads(path.read_text())
    if damage == "stale":
        record["algorithm"] = exact.ALGORITHM - 1
        record["histogram"] = [comb(52, 3)]
    elif damage == "wrong counts":
        record["histogram"][-1] += 1
    path.write_text("{oops" if damage == "not json" else "[]" if damage == "not a record" else json.dumps(record))
    result = exact_distribution(3, workers=1, progress=False)
    assert not result.cached and result.gin == 96
    assert json.loads(path.read_text())["histogram"] == list(result.histogram)


def test_no_cache_leaves_no_file(cache_dir) -> None:
    exact_distribution(3, workers=1, cache=False, progress=False)
    assert not any(cache_dir.iterdir())


def test_an_unwritable_cache_only_warns(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("GINSIM_CACHE", str(blocker / "cache"))
    with pytest.warns(UserWarning, match="could not cache"):
        result = exact_distribution(2, workers=1, progress=False)
    assert result.total == 1326
