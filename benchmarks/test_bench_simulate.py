"""End-to-end ``simulate``: records or streamed counts, one and two worker processes."""
from __future__ import annotations

import pytest

from bench_inputs import rate
from ginsim import Rules, simulate

HANDS = 2_000_000


@pytest.mark.parametrize("stream", [False, True], ids=["records", "stream"])
@pytest.mark.parametrize("workers", [1, 2])
def test_simulate(benchmark, scale: float, workers: int, stream: bool) -> None:
    count = int(HANDS * scale)
    benchmark.group = "simulate simple vs simple, standard"
    result = benchmark.pedantic(
        simulate, (Rules(), "simple,simple", count, 1),
        kwargs={"workers": workers, "stream": stream, "progress": False}, rounds=3, warmup_rounds=0)
    assert (result.total if stream else len(result)) == count
    rate(benchmark, count)
