"""The native classic Rummy hand loop, single core: hands per second for 2, 4 and 6 greedy players."""
from __future__ import annotations

import pytest

from bench_inputs import rate
from ginsim import rummy

HANDS = 100_000


@pytest.mark.parametrize("players", [2, 4, 6])
def test_rummy_hand_loop(benchmark, scale: float, players: int) -> None:
    count = int(HANDS * scale)
    engine = rummy.engine(rummy.Rules(), ["greedy"] * players)
    key = rummy.run_key(1)
    benchmark.group = "rummy hand loop, greedy (one core)"
    columns = benchmark.pedantic(engine.play_hands, (key[0], key[1], 0, count), rounds=5, warmup_rounds=1)
    assert len(columns["points"]) == count
    rate(benchmark, count)
