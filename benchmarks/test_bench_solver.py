"""Solver kernels: batch deadwood, best discard and lay-off; the per-hand API calls."""
from __future__ import annotations

import numpy as np
import pytest

import gincore
from bench_inputs import dense_hands, random_hands, rate

HANDS = 1_000_000


@pytest.mark.parametrize("kind, size", [("random", 10), ("random", 11), ("dense", 10), ("dense", 11)])
def test_deadwood_many(benchmark, scale: float, kind: str, size: int) -> None:
    count = int(HANDS * scale)
    hands = random_hands(count, size) if kind == "random" else dense_hands(count, size)
    benchmark.group = "deadwood_many"
    result = benchmark.pedantic(gincore.deadwood_many, (hands,), rounds=7, warmup_rounds=1)
    assert result.shape == (count,) and result.min() >= 0
    rate(benchmark, count)


@pytest.mark.parametrize("kind", ["random", "dense"])
def test_best_discards_many(benchmark, scale: float, kind: str) -> None:
    count = int(HANDS * scale)
    hands = random_hands(count, 11) if kind == "random" else dense_hands(count, 11)
    benchmark.group = "best_discards_many"
    left, discards = benchmark.pedantic(gincore.best_discards_many, (hands,), rounds=5, warmup_rounds=1)
    assert (discards & ~hands == 0).all() and (discards != 0).all()
    rate(benchmark, count)


def _knock_pairs(count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Defenders against the first minimum arrangement of a disjoint random knocker hand."""
    rng = np.random.default_rng(3)
    defenders, runs, sets = [], [], []
    while len(defenders) < count:
        cards = rng.permutation(52)
        knocker = sum(1 << int(card) for card in cards[:10])
        melds = gincore.arrangements(knocker)[0]
        defenders.append(sum(1 << int(card) for card in cards[10:20]))
        runs.append(sum(m for m in melds if len({c % 13 for c in gincore.cards_of(m)}) > 1))
        sets.append(sum(m for m in melds if len({c % 13 for c in gincore.cards_of(m)}) == 1))
    return tuple(np.array(column, dtype=np.uint64) for column in (defenders, runs, sets))


@pytest.fixture(scope="module")
def knock_pairs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pairs = _knock_pairs(20_000)
    return tuple(np.tile(column, 10) for column in pairs)


def test_layoff_many(benchmark, scale: float, knock_pairs) -> None:
    count = max(1, int(len(knock_pairs[0]) * scale))
    columns = tuple(column[:count] for column in knock_pairs)
    benchmark.group = "layoff"
    left, laid = benchmark.pedantic(gincore.layoff_many, columns, rounds=7, warmup_rounds=1)
    assert (laid & ~columns[0] == 0).all()
    rate(benchmark, count)


@pytest.mark.parametrize("function", ["arrangements", "deadwood_after_discard", "layoff"])
def test_per_hand_api(benchmark, function: str) -> None:
    hands = [int(hand) for hand in random_hands(1000, 11 if function == "deadwood_after_discard" else 10)]
    knocker = [gincore.parse_cards(t) for t in ("6H 7H 8H", "9C 9D 9S", "2S 3S 4S")]
    defender = gincore.parse_cards("2H 3H 4H QC QD QH QS 9H 7S AC")
    calls = {
        "arrangements": lambda: [gincore.arrangements(hand) for hand in hands],
        "deadwood_after_discard": lambda: [gincore.deadwood_after_discard(hand) for hand in hands],
        "layoff": lambda: [gincore.layoff(defender, knocker) for _ in hands],
    }
    benchmark.group = "per-hand API (1000 calls)"
    benchmark.pedantic(calls[function], rounds=5, warmup_rounds=1)
    rate(benchmark, len(hands))
