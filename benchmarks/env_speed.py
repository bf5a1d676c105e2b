"""Environment steps per second: ginsim.env beside the Gin Rummy environments of RLCard and OpenSpiel.

Usage: python benchmarks/env_speed.py [--tables N] [--seconds S] [--seed S] [--json out.json]

Everything runs in this one process, on one core. A step is one decision taken through an
environment's API with its observation and legal-action mask produced for the next one. ginsim's
single-agent environments count the learning agent's decisions only: the opponent (``simple``, or
``random``) answers natively inside the same step. The peers have no native opponent: every decision
of either player is a step, each a uniformly random legal action (their rule-based agents would run in
Python between steps and be slower still). Rules differ (see benchmarks/peers.py); the rates are of
the environments as their users drive them.

* ``VectorGinRummyEnv`` (N tables, default 1,024): ``step(random_legal_actions())`` — the legal
  actions are drawn natively; with ``copy=False`` the returned arrays are the environment's buffers,
  with ``copy=True`` (the default) fresh ones.
* ``GinRummyEnv`` (``gymnasium.make("ginsim/GinRummy-v0")``) and the PettingZoo AEC environment
  (``aec_env()``), stepped with a random legal action from the mask.
* RLCard's ``gin-rummy`` (``env.step`` with a random legal action of ``state["legal_actions"]``; its
  observation is built at every step) and OpenSpiel's ``gin_rummy`` through its
  ``rl_environment.Environment`` (observation tensor and legal actions at every step; chance outcomes
  sampled inside), and its bare ``State.apply_action`` with ``legal_actions()`` only.

Rates are medians of 5 timed runs of at least ``--seconds`` / 5 each, as wall-clock and process-CPU
rates (on a shared machine the CPU rate is the one-core rate; the wall rate is what this run saw).
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import ginsim
from bench_inputs import median_rates


def ours(tables: int, seed: int) -> dict[str, Callable[[], int]]:
    import gymnasium

    import ginsim.env
    from ginsim.env import VectorGinRummyEnv, aec_env

    runs: dict[str, Callable[[], int]] = {}
    for opponent in ("simple", "random"):
        for copy in (False, True):
            vector = VectorGinRummyEnv(tables, opponent=opponent, seed=seed, copy=copy)
            vector.reset()

            def step_vector(env: VectorGinRummyEnv = vector) -> int:
                for _ in range(20):
                    env.step(env.random_legal_actions())
                return 20 * env.num_envs

            runs[f"ginsim VectorGinRummyEnv, {tables:,} tables vs {opponent}, copy={copy}"] = step_vector
    single = gymnasium.make(ginsim.env.ENV_ID, opponent="simple").unwrapped
    single.reset(seed=seed)
    single.action_space.seed(seed)

    def step_single() -> int:
        for _ in range(1000):
            _, _, terminated, _, _ = single.step(single.action_space.sample())
            if terminated:
                single.reset()
        return 1000

    runs["ginsim GinRummyEnv (gymnasium.make) vs simple"] = step_single
    aec = aec_env()
    aec.reset(seed=seed)
    choose = np.random.default_rng(seed)

    def step_aec() -> int:
        for _ in range(1000):
            seen, _, terminated, _, _ = aec.last()
            if terminated:
                aec.reset()
                continue
            aec.step(int(choose.choice(np.flatnonzero(seen["action_mask"]))))
        return 1000

    runs["ginsim aec_env (PettingZoo AEC), both players"] = step_aec
    return runs


def rlcard_run(seed: int) -> Callable[[], int]:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    choose = np.random.default_rng(seed)
    state, _ = env.reset()

    def run() -> int:
        nonlocal state
        for _ in range(1000):
            if env.is_over():
                state, _ = env.reset()
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[choose.integers(len(legal))])
        return 1000

    return run


def openspiel_runs(seed: int) -> dict[str, Callable[[], int]]:
    import pyspiel
    from open_spiel.python import rl_environment

    sampler = rl_environment.ChanceEventSampler(seed=seed)
    environment = rl_environment.Environment("gin_rummy", chance_event_sampler=sampler)
    choose = np.random.default_rng(seed)
    time_step = environment.reset()

    def run_environment() -> int:
        nonlocal time_step
        for _ in range(1000):
            if time_step.last():
                time_step = environment.reset()
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            time_step = environment.step([legal[choose.integers(len(legal))]])
        return 1000

    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()

    def run_state() -> int:
        nonlocal state
        steps = 0
        while steps < 1000:
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[choose.integers(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[choose.integers(len(legal))])
            steps += 1
        return steps

    return {"OpenSpiel rl_environment.Environment('gin_rummy'), both players": run_environment,
            "OpenSpiel State.apply_action (no observation), both players": run_state}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=5.0, help="timing per environment (default 5)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    runs = ours(args.tables, args.seed)
    versions = {"ginsim": ginsim.__version__}
    for name, module, build in (("RLCard", "rlcard", lambda: {"RLCard gin-rummy env.step, both players":
                                                               rlcard_run(args.seed)}),
                                ("OpenSpiel", "open-spiel", lambda: openspiel_runs(args.seed))):
        try:
            runs.update(build())
            versions[name] = importlib.metadata.version(module)
        except ImportError as error:
            versions[name] = f"not installed ({error})"
    rows: list[dict[str, Any]] = []
    for label, run in runs.items():
        wall, cpu = median_rates(run, args.seconds)
        rows.append({"environment": label, "steps_per_second_wall": wall, "steps_per_second_cpu": cpu})
    fastest_peer = max((row["steps_per_second_cpu"] for row in rows if not row["environment"].startswith("ginsim")),
                       default=None)
    print("Versions: " + ", ".join(f"{name} {version}" for name, version in versions.items()))
    print("| environment | steps/s (CPU, one core) | steps/s (wall) | x the fastest peer (CPU) |")
    print("| --- | ---: | ---: | ---: |")
    for row in rows:
        ratio = f"{row['steps_per_second_cpu'] / fastest_peer:,.0f}" if fastest_peer else "-"
        print(f"| {row['environment']} | {row['steps_per_second_cpu']:,.0f} | {row['steps_per_second_wall']:,.0f} "
              f"| {ratio} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump({"format": "ginsim-env-speed", "versions": versions, "python": platform.python_version(),
                       "machine": platform.machine(), "tables": args.tables, "rows": rows}, stream, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
