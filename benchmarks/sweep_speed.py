"""Wall time of a sweep: 11 knock limits x 2 player pairs x N hands (default 10**6) of ``simple`` play.

Usage: python benchmarks/sweep_speed.py [--hands N] [--workers W] [--runs R] [--out DIR] [--json out.json]

The sweep is ``ginsim.sweep({"knock_limit": "0..10"}, ["simple,simple", "greedy,simple"], hands=N)``:
22 cells, each a run of N records, summarised and compared hand by hand with the knock-limit-0 cell.
Reported: the median wall time of R runs (default 3), the hands per second it makes, and the hand
loop's own rate on the same workers (for each pair one ``simulate`` of 11 x N hands, summarised once),
so their ratio is what the sweep costs beyond playing the hands. With ``--out`` every run writes its
cells there (a fresh directory each run: nothing is read back from an earlier one).
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import time
from pathlib import Path

from ginsim import Rules, simulate, summarize, sweep

GRID = {"knock_limit": "0..10"}
PAIRS = ["simple,simple", "greedy,simple"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10**6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write the cells under this directory (emptied first)")
    parser.add_argument("--json", type=Path)
    arguments = parser.parse_args()
    cells = 11 * len(PAIRS)
    sweeps, loops = [], []
    for _ in range(arguments.runs):
        folder = None
        if arguments.out is not None:
            shutil.rmtree(arguments.out, ignore_errors=True)
            folder = arguments.out
        start = time.perf_counter()
        sweep(GRID, PAIRS, arguments.hands, seed=1, workers=arguments.workers, out=folder, progress=False)
        sweeps.append(time.perf_counter() - start)
        start = time.perf_counter()
        for pair in PAIRS:
            summarize(simulate(Rules(), pair, 11 * arguments.hands, seed=1, workers=arguments.workers,
                               progress=False), by=None)
        loops.append(time.perf_counter() - start)
    total = cells * arguments.hands
    result = {"cells": cells, "hands_per_cell": arguments.hands, "workers": arguments.workers, "runs": arguments.runs,
              "out": arguments.out is not None, "sweep_seconds_median": statistics.median(sweeps),
              "sweep_seconds": sweeps, "sweep_hands_per_second": total / statistics.median(sweeps),
              "loop_seconds_median": statistics.median(loops), "loop_seconds": loops,
              "loop_hands_per_second": total / statistics.median(loops),
              "ratio": statistics.median(sweeps) / statistics.median(loops)}
    print(json.dumps(result, indent=2))
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
