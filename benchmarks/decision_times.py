"""Time a strategy's decisions hand by hand: the mean per decision and the slowest hands.

Each hand is played alone and timed, its decisions counted outside the timing
(:mod:`ginsim.gin.studies.decision_times`, which the rating list's decision times also use): the thread's
CPU time by default (``--clock cpu``: what the hand costs, whatever else the machine runs), or the wall
clock (``--clock wall``). The opponent's decisions are inside the timing.

Usage: python benchmarks/decision_times.py [--strategy search] [--opponents simple,marjj] [--hands 400]
                                          [--rules standard] [--clock cpu|wall]
"""
from __future__ import annotations

import argparse

import numpy as np

from ginsim import Rules
from ginsim.gin.studies.decision_times import CLOCKS, hand_times, median_ms


def decision_times(strategy: str, opponent: str, hands: int, seed: int, rules: str = "standard",
                   clock: str = "cpu") -> str:
    """One line: the mean time per decision, and per hand the median, 99th percentile and slowest."""
    seconds, decisions = hand_times(Rules.preset(rules), strategy, opponent, hands, seed, clock)
    per_hand = 1000 * seconds / np.maximum(decisions, 1)
    return (f"{strategy} vs {opponent} ({rules}, {clock} time): {hands} hands, mean "
            f"{1000 * seconds.sum() / decisions.sum():.3f} ms per decision; per hand: median "
            f"{median_ms(seconds, decisions):.3f}, 99th percentile "
            f"{np.percentile(per_hand, 99):.3f}, slowest {per_hand.max():.3f} ms per decision")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", default="search")
    parser.add_argument("--opponents", default="simple,marjj")
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    options = parser.parse_args()
    for opponent in options.opponents.split(","):
        print(decision_times(options.strategy, opponent, options.hands, options.seed, options.rules,
                             options.clock), flush=True)


if __name__ == "__main__":
    main()
