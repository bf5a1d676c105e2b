"""The law of the search's deals: the opponent's unknown cards drawn one by one without replacement, each
in proportion to its weight among the cards left (``draw_hidden`` in ``_gin/playouts.pxi``, by an alias
table and redraws).

The reference is numpy's own weighted choice without replacement, which draws the same way: both are
sampled and every card's share of the draws compared, within five standard errors of the difference
(a false alarm about once in two million cards). An exact law is checked where it is small enough to
write down."""
from __future__ import annotations

import numpy as np
import pytest

from gincore import InputError
from gincore._engine import _draw_hidden_counts

SAMPLES = 40_000


def reference_counts(weights: np.ndarray, need: int, samples: int, rng: np.random.Generator) -> np.ndarray:
    counts = np.zeros(len(weights), np.int64)
    chance = weights / weights.sum()
    for _ in range(samples):
        counts[rng.choice(len(weights), size=need, replace=False, p=chance)] += 1
    return counts


def assert_same_shares(got: np.ndarray, want: np.ndarray, samples: int) -> None:
    mine, theirs = got / samples, want / samples
    spread = np.sqrt((mine * (1 - mine) + theirs * (1 - theirs)) / samples) + 1e-9
    worst = int(np.argmax(np.abs(mine - theirs) / spread))
    assert np.all(np.abs(mine - theirs) <= 5 * spread + 1e-12), \
        f"card {worst}: drawn in {mine[worst]:.4f} of the deals, the reference {theirs[worst]:.4f}"


@pytest.mark.parametrize("shape", ["model-like", "one-heavy", "tiny-tail", "uniform"])
def test_each_card_drawn_as_often_as_by_weighted_choice(shape: str, rng: np.random.Generator,
                                                        test_seed: int) -> None:
    # Shapes that send the draw down each of its paths: redraws while most weight is left, the walk once
    # a few heavy cards are taken, cards of 1e-6 that must still come up when nothing else is left.
    count, need = int(rng.integers(12, 40)), int(rng.integers(3, 11))
    weights = {"model-like": rng.beta(0.5, 2.0, count) + 1e-6,
               "one-heavy": np.r_[50.0, rng.random(count - 1) + 1e-6],
               "tiny-tail": np.r_[rng.random(need - 1) + 0.5, np.full(count - need + 1, 1e-6)],
               "uniform": np.ones(count)}[shape]
    got = _draw_hidden_counts(weights, need, SAMPLES, test_seed)
    assert got.sum() == need * SAMPLES, "a deal drew the wrong number of cards"
    assert_same_shares(got, reference_counts(weights, need, SAMPLES, rng), SAMPLES)


def test_the_exact_law_of_two_cards_of_three(test_seed: int) -> None:
    # Two of three cards weighted 1, 2, 7: card 0 is left out with chance P(first 1, then 2) + P(first 2, then 1).
    weights = np.array([1.0, 2.0, 7.0])
    chance = weights / weights.sum()
    left_out = [sum(chance[a] * chance[b] / (1 - chance[a]) for a, b in ((i, j), (j, i)))
                for i, j in ((1, 2), (0, 2), (0, 1))]
    want = SAMPLES * (1 - np.array(left_out))
    got = _draw_hidden_counts(weights, 2, SAMPLES, test_seed)
    spread = np.sqrt(want * (1 - want / SAMPLES))
    assert np.all(np.abs(got - want) <= 5 * spread), f"drew {got}, expected about {want.round()}"


def test_the_same_key_draws_the_same_cards() -> None:
    weights = np.linspace(0.1, 2.0, 30)
    assert (_draw_hidden_counts(weights, 9, 500, 7) == _draw_hidden_counts(weights, 9, 500, 7)).all()


@pytest.mark.parametrize("weights, need", [([], 0), ([1.0, 0.0], 1), ([1.0, 2.0], 3), ([1.0] * 53, 1)])
def test_bad_weights_are_refused(weights: list[float], need: int) -> None:
    with pytest.raises(InputError, match="weights"):
        _draw_hidden_counts(weights, need, 1, 0)
