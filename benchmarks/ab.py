"""Two builds of gincore timed alternately on the same machine: medians and their ratio.

On a shared, noisy machine two benchmark runs taken minutes apart differ by more than most changes do;
alternating the builds round by round puts both under the same load. Each build is a Python that has
ginsim installed (e.g. the virtual environments of two clones at different commits).

Usage: python benchmarks/ab.py BEFORE_PYTHON AFTER_PYTHON [--rounds N] [--calls K]

Each round times every workload in each build as the least of K calls (default 3): another job's load
only ever adds time, so the least of more calls comes closer to the work's own cost.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

# Run in each build: the best of CALLS calls of every workload (CPU seconds of this process: every
# workload runs in it, so another process's load moves the figure less than it moves the wall clock), as JSON.
WORKLOADS = r'''
import json, sys, time
import numpy as np
import gincore
from ginsim import Rules, rummy, simulate
try:
    from ginsim.gin.game.native import run_key
    from ginsim.gin.game.players import engine
except ImportError:  # a build from before ginsim.gin's sub-packages
    from ginsim.gin.engine import engine, run_key

simple, greedy, key = engine(Rules(), "simple,simple"), engine(Rules.preset("oklahoma"), "greedy,greedy"), run_key(1)
table, table_key = rummy.engine(rummy.Rules(), ["greedy"] * 4), rummy.run_key(1)
cards = np.random.default_rng(0).random((1 << 14, 52)).argsort(axis=1)

def hands(size):
    masks = (np.uint64(1) << cards[:, :size].astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    return np.resize(masks, 2_000_000)

ten, eleven = hands(10), hands(11)
workloads = {
    "play_hands, simple, 200k hands": lambda: simple.play_hands(key[0], key[1], 0, 200_000),
    "play_hands, greedy, Oklahoma, 100k": lambda: greedy.play_hands(key[0], key[1], 0, 100_000),
    "play_counts, simple, 200k": lambda: simple.play_counts(key[0], key[1], 0, 200_000),
    "Rummy, 4 greedy players, 30k": lambda: table.play_hands(table_key[0], table_key[1], 0, 30_000),
    "simulate with records, 200k, 1 worker": lambda: simulate(Rules(), "simple,simple", 200_000, 1, workers=1,
                                                              progress=False),
    "deadwood_many, 2M": lambda: gincore.deadwood_many(ten),
    "best_discards_many, 2M": lambda: gincore.best_discards_many(eleven),
}
try:  # the search strategies' decisions, on every decision of 10 hands of marjj against marjj (eaai rules)
    sys.path.insert(0, BENCHMARKS)
    from decision_speed import decision_seconds, positions

    eaai = Rules.preset("eaai")
    states = positions(eaai, 10, 11)
    for strategy in ("search", "reader"):
        workloads[f"{strategy} decisions, {len(states)} positions"] = \
            lambda s=strategy: decision_seconds(s, eaai, states, "cpu")
except (ImportError, AttributeError):  # a build from before GameState.choose
    pass

try:  # learned: the network's forward pass at each of its decisions, in whole hands against simple
    from gincore._engine import Engine
    from ginsim.gin.game.native import native_config
    from ginsim.gin.game.players import native_spec
    from ginsim.gin.game.policy.learned import default_network, learned_player

    versus = Engine(native_config(Rules()), [learned_player(default_network(Rules()).path),
                                             native_spec("simple", Rules())])
    workloads["learned vs simple, 5k hands"] = lambda: versus.play_hands(key[0], key[1], 0, 5_000)
except ImportError:  # a build from before the learned strategy
    pass

def best(run):
    run()
    times = []
    for _ in range(CALLS):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)

print(json.dumps({name: best(run) for name, run in workloads.items()}))
'''


def timings(python: str, calls: int) -> dict[str, float]:
    code = WORKLOADS.replace("BENCHMARKS", repr(str(Path(__file__).parent))).replace("CALLS", str(calls))
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the Python of the first build")
    parser.add_argument("after", help="the Python of the second build")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of the two builds (default 4)")
    parser.add_argument("--calls", type=int, default=3,
                        help="calls of each workload a round, the least kept (default 3)")
    arguments = parser.parse_args()
    if arguments.rounds < 1 or arguments.calls < 1:
        parser.error("--rounds and --calls must be at least 1")
    rounds: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(arguments.rounds):
        rounds["before"].append(timings(arguments.before, arguments.calls))
        rounds["after"].append(timings(arguments.after, arguments.calls))
    print(f"medians of {arguments.rounds} alternations, each the best of {arguments.calls} calls (CPU seconds)\n")
    print("| measure | before | after | after / before |")
    print("| --- | ---: | ---: | ---: |")
    for name in rounds["before"][0]:
        before = statistics.median(run[name] for run in rounds["before"])
        after = statistics.median(run[name] for run in rounds["after"])
        print(f"| {name} | {before:.4f} | {after:.4f} | {after / before:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
