"""The time ``ginsim.analyze`` takes on a game of 10 hands: both players' decisions at the default deals.

The game is the first match of ``record_match(rules, players, seed, m)`` (m = 0, 1, ...) that lasts
exactly ``--hands`` hands. Each repeat analyses it whole (a fresh analysis, the per-rules profiles
already measured by a first, untimed run) and the median wall time and process CPU time are printed,
with the load average of the machine before the runs (other processes share its cores).

Usage: python benchmarks/analysis_speed.py [--players search,marjj] [--seed 1] [--hands 10]
       [--repeats 3] [--deals 64] [--workers 2]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from ginsim import Rules
from ginsim.gin.review.analysis import DEFAULT_DEALS, analyze
from ginsim.gin.review.replay import GameRecord, record_match


def game_of(players: str, seed: int, hands: int) -> GameRecord:
    """The first match of ``players`` under the standard rules with ``seed`` that lasts ``hands`` hands."""
    for match in range(1000):
        record = record_match(Rules(), players, seed, match)
        if len(record.hands) == hands:
            return record
    raise SystemExit(f"no match of {hands} hands among the first 1,000")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("players", "search,marjj"), ("seed", 1), ("hands", 10), ("repeats", 3),
                          ("deals", DEFAULT_DEALS), ("workers", 2)):
        parser.add_argument(f"--{name}", type=type(default), default=default)
    options = parser.parse_args()
    record = game_of(options.players, options.seed, options.hands)
    decisions = sum(len(hand.decisions) for hand in record.hands)
    analyze(GameRecord(record.rules, record.players, record.hands[:1]), deals=2)  # profiles, outside the timing
    load = os.getloadavg()[0]
    walls, cpus = [], []
    for _ in range(options.repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        table = analyze(record, deals=options.deals, workers=options.workers)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"{options.players} (match {record.match} of seed {options.seed}): {len(record.hands)} hands, "
          f"{decisions} decisions, {len(table)} analysed; {options.deals} deals, {options.workers} threads; "
          f"load average before {load:.1f}")
    print(f"median of {options.repeats}: wall {statistics.median(walls):.1f} s, CPU {statistics.median(cpus):.1f} s "
          f"(walls {', '.join(f'{value:.1f}' for value in walls)})")


if __name__ == "__main__":
    main()
