"""Inputs and reporting shared by the benchmarks: random and meld-dense hands, items per second."""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

RUNS = 5
"""Timed runs of :func:`median_rates`."""


def random_hands(count: int, size: int, seed: int = 1) -> np.ndarray:
    """``count`` uniformly random hands of ``size`` cards as uint64 masks."""
    keys = np.random.default_rng(seed).random((count, 52)).argsort(axis=1)[:, :size]
    return (np.uint64(1) << keys.astype(np.uint64)).sum(axis=1, dtype=np.uint64)


def dense_hands(count: int, size: int, seed: int = 2) -> np.ndarray:
    """Meld-dense worst cases: all eight cards of two neighbouring ranks plus cards of the next,
    e.g. 4444 5555 66(6)."""
    rng = np.random.default_rng(seed)
    low = rng.integers(0, 11, count).astype(np.uint64)
    hands = np.zeros(count, np.uint64)
    for suit in range(4):
        for step in (0, 1):
            hands |= np.uint64(1) << (np.uint64(13 * suit + step) + low)
    extra = rng.random((count, 4)).argsort(axis=1)[:, : size - 8].astype(np.uint64)
    for column in range(size - 8):
        hands |= np.uint64(1) << (extra[:, column] * np.uint64(13) + low + np.uint64(2))
    return hands


def rate(benchmark, items: int) -> None:
    """Record items per second (from the median) in the benchmark's extra info."""
    if not benchmark.disabled:
        benchmark.extra_info["items"] = items
        benchmark.extra_info["per_second"] = items / benchmark.stats.stats.median


def median_rates(run: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Median items per second (wall, CPU) of ``run`` (one call: its number of items), each of ``RUNS`` timed
    runs repeating it for at least ``seconds / RUNS`` (after one call to warm up)."""
    run()  # warm up
    walls, cpus = [], []
    for _ in range(RUNS):
        items, wall_start, cpu_start = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - wall_start < seconds / RUNS:
            items += run()
        walls.append(items / (time.perf_counter() - wall_start))
        cpus.append(items / (time.process_time() - cpu_start))
    return statistics.median(walls), statistics.median(cpus)
