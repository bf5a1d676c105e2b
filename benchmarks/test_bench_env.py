"""The environments, single core: agent steps per second of the vector environment (1,024 tables, a native
opponent answering in the same call), the single-agent and the AEC environment."""
from __future__ import annotations

import numpy as np
import pytest

from bench_inputs import rate

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from ginsim.env import GinRummyEnv, VectorGinRummyEnv, aec_env  # noqa: E402

TABLES = 1024
STEPS = 50  # vector steps per round


@pytest.mark.parametrize("copy", [False, True])
@pytest.mark.parametrize("opponent", ["simple", "random"])
def test_vector_env(benchmark, scale: float, opponent: str, copy: bool) -> None:
    tables = max(2, int(TABLES * scale))
    env = VectorGinRummyEnv(tables, opponent=opponent, seed=1, copy=copy)
    env.reset()

    def steps() -> None:
        for _ in range(STEPS):
            env.step(env.random_legal_actions())

    benchmark.group = "vector environment, agent steps (one core)"
    benchmark.pedantic(steps, rounds=5, warmup_rounds=1)
    rate(benchmark, STEPS * tables)


def test_single_env(benchmark, scale: float) -> None:
    count = max(10, int(5_000 * scale))
    env = GinRummyEnv(opponent="simple")
    env.reset(seed=1)
    env.action_space.seed(1)

    def steps() -> None:
        for _ in range(count):
            _, _, terminated, _, _ = env.step(env.action_space.sample())
            if terminated:
                env.reset()

    benchmark.group = "single environments, agent steps (one core)"
    benchmark.pedantic(steps, rounds=5, warmup_rounds=1)
    rate(benchmark, count)


def test_aec_env(benchmark, scale: float) -> None:
    count = max(10, int(5_000 * scale))
    env = aec_env()
    env.reset(seed=1)
    choose = np.random.default_rng(1)

    def steps() -> None:
        for _ in range(count):
            seen, _, terminated, _, _ = env.last()
            if terminated:
                env.reset()
                continue
            env.step(int(choose.choice(np.flatnonzero(seen["action_mask"]))))

    benchmark.group = "single environments, agent steps (one core)"
    benchmark.pedantic(steps, rounds=5, warmup_rounds=1)
    rate(benchmark, count)
