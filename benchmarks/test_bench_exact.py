"""The exact enumeration: canonical hands (suit-mask tuples) scored per second.

The whole 10-card run (671,225,412 canonical hands) is ``ginsim.gin.studies.exact.exact_distribution(10)``; here a
fixed, spread-out sample of its work units is timed on one core, plus all 7-card hands and a parallel
end-to-end run of all 8-card hands.
"""
from __future__ import annotations

import pytest

from bench_inputs import rate
from gincore import _exact
from ginsim.gin.studies.exact import exact_distribution


def _stride(scale: float, base: int) -> int:
    return max(1, round(base / scale))


@pytest.mark.parametrize("cards, base_stride", [(7, 1), (10, 64)])
def test_kernel(benchmark, scale: float, cards: int, base_stride: int) -> None:
    """One core: every ``base_stride``-th work unit of the ``cards``-card enumeration."""
    units = _exact.work_units(cards)[:: _stride(scale, base_stride)].copy()
    canonical = int(_exact.canonical_counts(units).sum())
    benchmark.group = "exact enumeration kernel (one core)"
    counts = benchmark.pedantic(_exact.histogram, (units,), rounds=5, warmup_rounds=1)
    assert int(counts.sum()) == int(_exact.hand_counts(units).sum())
    rate(benchmark, canonical)


def test_exact_distribution_all_cores(benchmark, scale: float) -> None:
    """Every 8-card hand, on all cores (threads), without the cache."""
    cards = 8 if scale == 1.0 else 5
    benchmark.group = "exact_distribution (all cores)"
    result = benchmark.pedantic(exact_distribution, (cards,), {"cache": False, "progress": False},
                                rounds=5, warmup_rounds=1)
    assert result.total == sum(result.histogram)
    rate(benchmark, result.canonical)
