"""``learned`` on the vector unit against the baseline kernels: its speed, its decisions and its strength.

* speed: the forward pass (every decision of ``marjj`` against itself, as a batch) and ``learned`` against
  ``simple`` in whole hands (its decisions per second include writing each observation), each kind of
  kernel in turn within every round (``--rounds``), CPU time of this process: medians and their ratio to
  the baseline's.
* decisions: the action the network chooses at ``--positions`` real positions (every decision of seeded
  hands of ``marjj`` against itself, in the learner layout), under each kind of kernel: how many differ
  from the baseline's, and the largest gap between the two logits where they do (a near-tie broken the
  other way).
* strength: ``--games`` duplicate games to 100 of ``learned`` against ``marjj`` (seed ``--seed``) played under
  the baseline and again under the vector unit: learned's share of games won with its 95% interval each
  time, and the deal sequences whose games ended otherwise.

    python benchmarks/vector_unit.py --positions 120000 --games 2000
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np

from gincore._engine import VECTOR_UNIT_NAMES, Engine, record_decisions, vector_unit
from ginsim import Rules, simulate_matches
from ginsim.gin.game.native import native_config, run_key
from ginsim.gin.game.players import engine, native_spec
from ginsim.gin.game.policy.learned import default_network, learned_player, network_of
from ginsim.gin.game.policy.observations import LAYOUTS


def cpu_seconds(run: object) -> float:
    start = time.process_time()
    run()  # type: ignore[operator]
    return time.process_time() - start


def wilson(wins: float, games: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint
    low, high = proportion_confint(round(wins), games, method="wilson")
    return float(low), float(high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=120_000)
    parser.add_argument("--games", type=int, default=2000, help="duplicate games (an even number)")
    parser.add_argument("--hands", type=int, default=4000, help="hands of learned against simple a timing")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    units = [name for name in VECTOR_UNIT_NAMES if vector_unit(name) == name]
    rules = Rules()
    path = default_network(rules).path
    network = network_of(path)
    key0, key1 = run_key(arguments.seed)
    print(f"{platform.processor() or platform.machine()}; kernels this processor runs: {', '.join(units)}")

    marjj = engine(rules, "marjj,marjj")
    observations, masks, hands = [], [], 0
    while sum(len(rows) for rows in observations) < arguments.positions:
        rows = record_decisions(marjj, key0, key1, hands, 2000, LAYOUTS.index("learner"), 3)
        observations.append(rows["observation"])
        masks.append(rows["action_mask"])
        hands += 2000
    seen, legal = np.concatenate(observations)[:arguments.positions], np.concatenate(masks)[:arguments.positions]

    versus = Engine(native_config(rules), [learned_player(path), native_spec("simple", rules)])
    decisions = len(record_decisions(versus, key0, key1, 0, arguments.hands, LAYOUTS.index("learner"), 1)["action"])
    timed: dict[str, dict[str, list[float]]] = {unit: {"forward": [], "hands": []} for unit in units}
    for _ in range(arguments.rounds):
        for unit in units:
            vector_unit(unit)
            timed[unit]["forward"].append(len(seen) / cpu_seconds(lambda: network.forward(seen, legal)))
            timed[unit]["hands"].append(decisions / cpu_seconds(
                lambda: versus.play_hands(key0, key1, 0, arguments.hands)))
    print(f"\nspeed: medians of {arguments.rounds} rounds, CPU time of one process (decisions per second)\n")
    print("| kernels | forward pass | × baseline | learned vs simple, whole hands | × baseline |")
    print("| --- | ---: | ---: | ---: | ---: |")
    base = {part: statistics.median(timed["baseline"][part]) for part in ("forward", "hands")}
    for unit in units:
        forward, whole = (statistics.median(timed[unit][part]) for part in ("forward", "hands"))
        print(f"| {unit} | {forward:,.0f} | {forward / base['forward']:.2f} | {whole:,.0f} | "
              f"{whole / base['hands']:.2f} |")

    chosen = {}
    for unit in units:
        vector_unit(unit)
        chosen[unit] = network.forward(seen, legal)
    base_logits, base_actions = chosen["baseline"]
    print(f"\ndecisions: {len(seen):,} positions (every decision of {hands:,} hands of marjj against marjj)\n")
    print("| kernels | same action as the baseline | differ | largest logit gap where they differ |")
    print("| --- | ---: | ---: | ---: |")
    for unit in units:
        actions = chosen[unit][1]
        differ = np.flatnonzero(actions != base_actions)
        gap = max((abs(float(base_logits[row, actions[row]] - base_logits[row, base_actions[row]])) for row in differ),
                  default=0.0)
        print(f"| {unit} | {len(seen) - len(differ):,} | {len(differ)} | {gap:.2e} |")

    print(f"\nstrength: {arguments.games:,} duplicate games to 100, learned against marjj, seed {arguments.seed}\n")
    print("| kernels | learned's games won | 95% interval |")
    print("| --- | ---: | --- |")
    results = {}
    for unit in ("baseline", units[-1]):
        os.environ["GINCORE_VECTOR_UNIT"] = unit  # the worker processes too
        vector_unit(unit)
        table = simulate_matches(rules, "learned,marjj", arguments.games // 2, arguments.seed, duplicate=True,
                                 progress=False)
        won = (table["winner"] == 0).astype(float)  # each row in the players' order, whichever seat
        results[unit] = won.to_numpy()
        low, high = wilson(won.sum(), len(won))
        print(f"| {unit} | {won.mean():.1%} | [{low:.1%}, {high:.1%}] |")
    differ = int((results["baseline"] != results[units[-1]]).sum())
    print(f"\ngames won by the other player under {units[-1]} than under the baseline: {differ} of {len(won):,}")


if __name__ == "__main__":
    main()
