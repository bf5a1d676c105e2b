"""Time a strategy's decisions hand by hand: the mean per decision and the slowest hands.

Each hand is played alone (``Engine.play_record``) and timed; its decisions (the upcard offer, each
draw and each discard of player 0) are counted from the same hand's trace, outside the timing. The
time is the thread's CPU time by default (``--clock cpu``: what the hand costs, whatever else the
machine runs), or the wall clock (``--clock wall``). The opponent's decisions are inside the timing.

Usage: python benchmarks/decision_times.py [--strategy search] [--opponents simple,marjj] [--hands 400]
                                          [--rules standard] [--clock cpu|wall]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ginsim import Rules
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine

DECISIONS = ("take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock", "gin")


CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}


def decision_times(strategy: str, opponent: str, hands: int, seed: int, rules: str = "standard",
                   clock: str = "cpu") -> str:
    """One line: the mean time per decision, and per hand the median, 99th percentile and slowest."""
    now = CLOCKS[clock]
    hand_engine = engine(Rules.preset(rules), (strategy, opponent))
    key = run_key(seed)
    seconds = np.zeros(hands)
    decisions = np.zeros(hands)
    for index in range(hands):
        start = now()
        hand_engine.play_record(key[0], key[1], index)
        seconds[index] = now() - start
        events = hand_engine.play_traced(key[0], key[1], index)["events"]
        decisions[index] = sum(1 for kind, player, _ in events if player == 0 and kind in DECISIONS)
    per_hand = 1000 * seconds / np.maximum(decisions, 1)
    return (f"{strategy} vs {opponent} ({rules}, {clock} time): {hands} hands, mean "
            f"{1000 * seconds.sum() / decisions.sum():.3f} ms per decision; per hand: median "
            f"{np.median(per_hand):.3f}, 99th percentile "
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
