"""The native hand loop, single core: hands per second by strategy pair and preset."""
from __future__ import annotations

import pytest

from bench_inputs import rate
from ginsim import Rules
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine

HANDS = 200_000


@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
@pytest.mark.parametrize("strategy", ["simple", "greedy", "random"])
def test_hand_loop(benchmark, scale: float, preset: str, strategy: str) -> None:
    count = int(HANDS * scale)
    hand_engine = engine(Rules.preset(preset), (strategy, strategy))
    key = run_key(1)
    benchmark.group = "hand loop (one core)"
    columns = benchmark.pedantic(hand_engine.play_hands, (key[0], key[1], 0, count), rounds=5,
                                 warmup_rounds=1)
    assert len(columns["points"]) == count
    rate(benchmark, count)
