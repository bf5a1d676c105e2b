"""The learning environments as a careless or hostile caller meets them: sizes beyond their bounds,
rules and agents of the wrong kind, seeds Gymnasium would refuse in its own words, and every call made
before ``reset``. Each mistake is one line of the project's own error (``InputError``; ``TypeError``
for rules that are no ``Rules``, as everywhere), never an ``AttributeError`` or a silent -1."""
from __future__ import annotations

import numpy as np
import pytest

from gincore.errors import InputError
from ginsim import Rules
from ginsim.env import GinRummyEnv, VectorGinRummyEnv, aec_env
from ginsim.env.vector import MAX_TABLES

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets

# --- the vector environment (items 11, 16) ------------------------------------------------------------

@pytest.mark.parametrize("tables", [10**9, MAX_TABLES + 1, 0, 2.0, True])
def test_the_number_of_tables_is_bounded(tables: object) -> None:
    with pytest.raises(InputError, match="num_envs must be a positive integer"):
        VectorGinRummyEnv(tables)  # type: ignore[arg-type]


def test_the_most_tables_step() -> None:
    env = VectorGinRummyEnv(np.int64(MAX_TABLES), seed=1)  # type: ignore[arg-type]
    seen, _ = env.reset()
    assert seen["observation"].shape[0] == MAX_TABLES
    env.step(env.random_legal_actions())


def test_random_legal_actions_before_reset() -> None:
    with pytest.raises(InputError, match="reset the environment before drawing actions"):
        VectorGinRummyEnv(3, seed=1).random_legal_actions()


@pytest.mark.parametrize("seed", [np.int64(7), np.uint32(7), 7])
def test_the_vector_environment_takes_any_integer_seed(seed: object) -> None:
    env = VectorGinRummyEnv(2, seed=0)
    first, _ = env.reset(seed=seed)  # type: ignore[arg-type]
    again, _ = VectorGinRummyEnv(2, seed=0).reset(seed=7)
    assert np.array_equal(first["observation"], again["observation"])


@pytest.mark.parametrize("seed, message", [
    (-1, "seed must be a non-negative integer"), (1.5, "one seed for all its tables .an integer., got 1.5"),
    ([1, 2], "one seed for all its tables"), (True, "one seed for all its tables"),
])
def test_bad_vector_seeds(seed: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        VectorGinRummyEnv(2).reset(seed=seed)  # type: ignore[arg-type]


# --- the single environment (item 16) -------------------------------------------------------------------

@pytest.mark.parametrize("seed", [-1, 1.5, "1", True, 2**70 + 0.5])
def test_bad_single_seeds_are_the_project_s_error(seed: object) -> None:
    with pytest.raises(InputError, match="seed must be a non-negative integer"):
        GinRummyEnv().reset(seed=seed)  # type: ignore[arg-type]


def test_a_large_seed_is_a_seed() -> None:
    first, _ = GinRummyEnv().reset(seed=2**70)
    again, _ = GinRummyEnv().reset(seed=2**70)
    assert np.array_equal(first["observation"], again["observation"])


def test_the_single_environment_before_reset() -> None:
    with pytest.raises(InputError, match="reset"):
        GinRummyEnv().step(104)


# --- the AEC environment (item 12) ----------------------------------------------------------------------

@pytest.mark.parametrize("rules", ["oklahoma", {"knock_limit": 5}, 5])
def test_aec_rules_must_be_rules(rules: object) -> None:
    with pytest.raises(TypeError, match="rules must be a ginsim.Rules, got"):
        aec_env(rules=rules)  # type: ignore[arg-type]


def test_aec_takes_rules() -> None:
    env = aec_env(rules=Rules.preset("oklahoma"))
    env.reset(seed=1)
    assert env.observe("player_0")["action_mask"].any() or env.observe("player_1")["action_mask"].any()


@pytest.mark.parametrize("call", [lambda env: env.step(104), lambda env: env.observe("player_0"),
                                  lambda env: env.last()])
def test_aec_before_reset(call: object) -> None:
    env = aec_env()
    with pytest.raises(InputError, match="reset the environment before using it"):
        call(env)  # type: ignore[operator]


@pytest.mark.parametrize("agent", ["player_9", "player_0 ", 0, None])
def test_aec_unknown_agents(agent: object) -> None:
    env = aec_env()
    env.reset(seed=1)
    with pytest.raises(InputError, match=r"unknown agent .*; the agents are player_0 and player_1"):
        env.observe(agent)  # type: ignore[arg-type]
