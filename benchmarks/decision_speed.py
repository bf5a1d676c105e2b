"""Decisions per second of each strategy, on the same positions.

The positions are every decision of ``--hands`` hands of ``marjj`` against ``marjj`` (the upcard offer,
each draw and each discard; seeded by ``--seed``), the same for every strategy. Each strategy is asked
for its move at each position (``GameState.choose``, its random choices keyed by the position's
number) and timed alone, on the thread's CPU clock (``--clock wall`` for the wall clock). Printed per
strategy: the median and 95th percentile of a decision, the mean, and decisions per second
(1 / mean).

Usage: python benchmarks/decision_speed.py [--strategies simple,marjj,search,reader,learned]
                                          [--hands 100] [--rules eaai] [--seed 11] [--clock cpu|wall]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ginsim import Rules
from ginsim.gin.game.native import NativePlayers
from ginsim.gin.game.players import Player
from ginsim.gin.game.state import GameState

CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}
DEFAULT = "random,simple,greedy,defensive,marjj,learned,search,reader"


def positions(rules: Rules, hands: int, seed: int) -> list[GameState]:
    """Every decision of ``hands`` hands of marjj against marjj, as states to decide from."""
    marjj = NativePlayers([Player.of("marjj").native(rules)] * 2)
    found = []
    for index in range(hands):
        state = GameState.deal(rules, seed, index)
        while not state.done:
            found.append(state.clone())
            state.apply(state.choose(marjj, len(found)))
    return found


def decision_seconds(strategy: str, rules: Rules, states: list[GameState], clock: str) -> np.ndarray:
    """The time ``strategy`` takes to choose at each of ``states``."""
    now = CLOCKS[clock]
    players = NativePlayers([Player.of(strategy).native(rules)] * 2)
    seconds = np.empty(len(states))
    for number, state in enumerate(states):
        start = now()
        state.choose(players, number)
        seconds[number] = now() - start
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", default=DEFAULT, help=f"comma-separated (default {DEFAULT})")
    parser.add_argument("--hands", type=int, default=100, help="hands whose decisions are the positions (default 100)")
    parser.add_argument("--rules", default="eaai", help="a preset (default eaai)")
    parser.add_argument("--seed", type=int, default=11, help="the hands' seed (default 11)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default) or wall")
    options = parser.parse_args()
    rules = Rules.preset(options.rules)
    states = positions(rules, options.hands, options.seed)
    print(f"{len(states)} positions: every decision of {options.hands} hands of marjj against marjj "
          f"({options.rules}, seed {options.seed}), {options.clock} time")
    print(f"{'strategy':<24} {'median ms':>10} {'p95 ms':>8} {'mean ms':>8} {'decisions/s':>12}")
    for strategy in options.strategies.split(","):
        seconds = 1000 * decision_seconds(strategy, rules, states, options.clock)
        print(f"{strategy:<24} {np.median(seconds):>10.3f} {np.percentile(seconds, 95):>8.3f} "
              f"{seconds.mean():>8.3f} {1000 / seconds.mean():>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
