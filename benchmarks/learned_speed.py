"""Decisions per second of learned play and of the decision recorder, on one core.

Usage: python benchmarks/learned_speed.py [--policy FILE | --hidden 256,256] [--hands N] [--seconds S]
       [--seed S] [--json out.json]

* forward pass: the native ``learned`` network (default: the shipped standard policy; ``--policy`` another
  policy file; ``--hidden`` random He-scaled weights of those hidden widths over the learner layout's 636
  inputs, input scale 0.1) on a batch of real observations and masks: every decision of ``marjj``
  against itself over ``--hands`` hands. The network's work at a decision, without writing the
  observation.
* learned in whole hands: ``learned`` (the same network) against ``simple``, hands played natively; its
  decisions per second include writing each observation and mask (the learner layout's deadwood plane
  solves every discard) and simple's moves between them.
* the decision recorder: ``marjj`` against itself with both seats recorded in the compact and the learner
  layout, beside the same hands played without recording.

Rates are medians of 5 timed runs of at least ``--seconds`` / 5 each, as wall-clock and process-CPU rates
(on a shared machine the CPU rate is the one-core rate; the wall rate is what this run saw).
"""
from __future__ import annotations

import argparse
import json
import platform
import tempfile
from pathlib import Path

import numpy as np

from bench_inputs import RUNS, median_rates
from gincore._engine import Engine, record_decisions
from ginsim import Rules
from ginsim.gin.game.native import native_config, run_key
from ginsim.gin.game.players import engine, native_spec
from ginsim.gin.game.policy.file import save_policy
from ginsim.gin.game.policy.learned import default_network, learned_player, network_of
from ginsim.gin.game.policy.observations import LAYOUTS


def random_policy(directory: Path, hidden: tuple[int, ...], seed: int) -> Path:
    rng = np.random.default_rng(seed)
    sizes = (636, *hidden, 107)
    layers = [(rng.normal(size=(out, inputs)) * np.sqrt(2 / inputs), rng.normal(size=out) * 0.1)
              for inputs, out in zip(sizes, sizes[1:], strict=False)]
    return save_policy(directory / "random.npz", layers, layout="learner", rules=Rules(),
                       input_scale=np.full(sizes[0], 0.1), meta={"made by": "benchmarks/learned_speed.py"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", type=Path, help="a policy file (default: the shipped standard policy)")
    parser.add_argument("--hidden", help="random weights of these hidden widths instead, e.g. 256,256")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    rules = Rules()
    key0, key1 = run_key(options.seed)
    marjj = engine(rules, "marjj,marjj")
    rows = record_decisions(marjj, key0, key1, 0, options.hands, LAYOUTS.index("learner"), 3)
    observations, masks = rows["observation"], rows["action_mask"]
    results: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as directory:
        if options.hidden:
            path = random_policy(Path(directory), tuple(int(w) for w in options.hidden.split(",")), options.seed)
        else:
            path = options.policy or default_network(rules).path
        network = network_of(path)
        shape = "-".join(map(str, network.weights.sizes))

        def forward() -> int:
            network.forward(observations, masks)
            return len(observations)

        results[f"forward pass, {shape}, decisions"] = median_rates(forward, options.seconds)
        versus = Engine(native_config(rules), [learned_player(path), native_spec("simple", rules)])
        hands = max(10, options.hands // 5)
        decisions = len(record_decisions(versus, key0, key1, 0, hands, LAYOUTS.index("learner"), 1)["action"])

        def whole_hands() -> int:
            versus.play_hands(key0, key1, 0, hands)
            return decisions

        results["learned vs simple, whole hands, learned's decisions"] = median_rates(whole_hands, options.seconds)
    total = len(rows["action"])

    def unrecorded() -> int:
        marjj.play_hands(key0, key1, 0, options.hands)
        return total

    results["marjj vs marjj, hands played (not recorded), decisions"] = median_rates(unrecorded, options.seconds)
    for layout in ("compact", "learner"):
        def recorded(layout: str = layout) -> int:
            return len(record_decisions(marjj, key0, key1, 0, options.hands, LAYOUTS.index(layout), 3)["action"])

        results[f"marjj vs marjj, recorded ({layout}), decisions"] = median_rates(recorded, options.seconds)
    print(f"{platform.processor() or platform.machine()}, one core; medians of {RUNS} runs")
    for name, (wall, cpu) in results.items():
        print(f"{name:70s} {wall:>12,.0f}/s wall {cpu:>12,.0f}/s CPU")
    if options.json:
        options.json.write_text(json.dumps({name: {"wall": wall, "cpu": cpu} for name, (wall, cpu) in results.items()},
                                           indent=2))


if __name__ == "__main__":
    main()
