"""The error rates the analysis gives the built-in strategies: each plays hands against an opponent,
and its decisions are analysed (``ginsim.analyze``) from its seat.

A strategy's hands are hands ``0 .. hands-1`` of seed ``seed`` (``play_hand``), the strategy in seat 0;
every strategy plays the same deals. Printed per strategy: the decisions analysed, the error rate
(mean loss per decision, in points) with a 95% interval over the hands, the performance rating and the
marks per 100 decisions.

Usage: python benchmarks/analysis_validation.py [--strategies random,simple,greedy,gin,marjj,search]
       [--opponent marjj] [--hands 20] [--deals 64] [--seed 0]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ginsim import Rules, play_hand
from ginsim.gin.review.analysis import analyze
from ginsim.gin.review.replay import GameRecord


def validate(strategy: str, opponent: str, hands: int, deals: int, seed: int) -> str:
    """One line on ``strategy``'s analysed decisions over ``hands`` hands against ``opponent``."""
    rules = Rules()
    records = [GameRecord.of_hand(play_hand(rules, (strategy, opponent), seed, index)) for index in range(hands)]
    record = GameRecord(rules, records[0].players, tuple(record.hands[0] for record in records), seed=seed)
    start = time.perf_counter()
    table = analyze(record, player=0, deals=deals)
    seconds = time.perf_counter() - start
    per_hand = table.groupby("hand")["loss"].mean().to_numpy()
    half = 1.96 * per_hand.std(ddof=1) / np.sqrt(len(per_hand))
    marks = {mark: 100 * float((table["mark"] == mark).mean()) for mark in ("?!", "?", "??")}
    rate = float(table["loss"].mean())
    return (f"{strategy:<10} {len(table):5d} decisions  error rate {rate:5.2f} ± {half:4.2f}  "
            f"rating {100 * rate:4.0f}  marks per 100: ?! {marks['?!']:4.1f}  ? {marks['?']:4.1f}  "
            f"?? {marks['??']:4.1f}  ({seconds:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("strategies", "random,simple,greedy,gin,marjj,search"), ("opponent", "marjj"),
                          ("hands", 20), ("deals", 64), ("seed", 0)):
        parser.add_argument(f"--{name}", type=type(default), default=default)
    options = parser.parse_args()
    print(f"{options.hands} hands against {options.opponent}, {options.deals} deals per decision, seed {options.seed}")
    for strategy in options.strategies.split(","):
        print(validate(strategy, options.opponent, options.hands, options.deals, options.seed), flush=True)


if __name__ == "__main__":
    main()
