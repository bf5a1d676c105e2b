"""The cost of a sweep: 11 knock limits x 2 player pairs x N hands (default 10**6) of ``simple`` play.

Usage: python benchmarks/sweep_speed.py [--hands N] [--workers W] [--runs R] [--out DIR] [--json out.json]

Three ways to play the same 22 cells (``{"knock_limit": "0..10"}`` with ``simple,simple`` and
``greedy,simple``, seed 1), each R times (default 3), in turn:

- ``sweep``: ``ginsim.sweep(...)``, every cell summarised and compared hand by hand with the first;
- ``loop``: the loop a user would write, ``summarize(simulate(rules, pair, N))`` for each cell;
- ``hand loop``: the native hand loop alone (``Engine.play_hands``, in chunks of 100,000 hands, in
  this process): the least any of them can cost.

For each, the wall time and the CPU time (this process and its workers, ``resource.getrusage``) are
reported, medians over the runs, and the ratios of the sweep's to the others' from the same runs:
on a machine shared with other work the CPU time is what to read, the wall time says how long it took
there. With ``--out`` the sweep writes its cells there (emptied before each run).
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from ginsim import simulate, summarize, sweep
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine
from ginsim.gin.studies.grid import sweep_cells

GRID = {"knock_limit": "0..10"}
PAIRS = ["simple,simple", "greedy,simple"]
SEED = 1
CHUNK = 100_000


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds (this process and the workers it waited for) of ``work()``."""
    cpu, wall = _cpu(), time.perf_counter()
    work()
    return time.perf_counter() - wall, _cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10**6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write the sweep's cells under this directory (emptied first)")
    parser.add_argument("--json", type=Path)
    arguments = parser.parse_args()
    cells = sweep_cells(GRID, PAIRS)
    hands = arguments.hands

    def play_sweep() -> None:
        if arguments.out is not None:
            shutil.rmtree(arguments.out, ignore_errors=True)
        sweep(GRID, PAIRS, hands, seed=SEED, workers=arguments.workers, out=arguments.out, progress=False)

    def play_loop() -> None:
        for cell in cells:
            summarize(simulate(cell.rules, cell.players, hands, SEED, workers=arguments.workers, progress=False),
                      by=None)

    def play_hand_loop() -> None:
        for cell in cells:
            native = engine(cell.rules, cell.players)
            for first in range(0, hands, CHUNK):
                native.play_hands(*run_key(SEED), first, min(CHUNK, hands - first))

    measured: dict[str, list[tuple[float, float]]] = {"sweep": [], "loop": [], "hand_loop": []}
    for _ in range(arguments.runs):
        for name, work in (("sweep", play_sweep), ("loop", play_loop), ("hand_loop", play_hand_loop)):
            measured[name].append(_timed(work))
    result: dict[str, object] = {"cells": len(cells), "hands_per_cell": hands, "workers": arguments.workers,
                                 "runs": arguments.runs, "out": arguments.out is not None}
    for name, times in measured.items():
        result[f"{name}_wall_seconds"] = [round(wall, 2) for wall, _ in times]
        result[f"{name}_cpu_seconds"] = [round(cpu, 2) for _, cpu in times]
        result[f"{name}_wall_median"] = round(statistics.median(wall for wall, _ in times), 2)
        result[f"{name}_cpu_median"] = round(statistics.median(cpu for _, cpu in times), 2)
    for other in ("loop", "hand_loop"):  # the ratio of each run, paired with the other's of the same round
        result[f"cpu_ratio_sweep_to_{other}"] = round(statistics.median(
            mine[1] / theirs[1] for mine, theirs in zip(measured["sweep"], measured[other], strict=True)), 3)
    result["sweep_hands_per_cpu_second"] = round(len(cells) * hands / statistics.median(
        cpu for _, cpu in measured["sweep"]))
    print(json.dumps(result, indent=2))
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
