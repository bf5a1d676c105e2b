"""Check a shipped match equity table against games simulated from its scores.

Draws ``--cells`` score pairs below the target and a dealer (seeded), plays ``--matches`` games of
``simple`` against itself from each (:func:`ginsim.gin.studies.equity.simulated_equity`) and prints the
table's equity beside the simulated share, with their 95% intervals and the difference in standard
errors of the difference::

    python benchmarks/validate_equity.py --rules standard --cells 24 --matches 20000
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.stats import chi2

from ginsim import Rules
from ginsim.gin.studies.equity import shipped_equity, simulated_equity


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--cells", type=int, default=24)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    rules = Rules.preset(arguments.rules)
    table = shipped_equity(rules)
    if table is None:
        raise SystemExit(f"no shipped table for {rules.label()}")
    cells = table.set_index(["score", "opponent_score", "dealer"])
    target = int(table.attrs["target"])
    rng = np.random.default_rng(arguments.seed)
    started = time.perf_counter()
    print(f"{table.attrs['run']}; {arguments.matches:,} games from each of {arguments.cells} cells (seed "
          f"{arguments.seed})")
    print("score opponent dealer   table [95%]               simulated [95%]            z")
    differences = []
    for number in range(arguments.cells):
        score, opponent, dealer = int(rng.integers(target)), int(rng.integers(target)), bool(rng.integers(2))
        share, low, high = simulated_equity(rules, score, opponent, dealer, matches=arguments.matches,
                                            seed=arguments.seed + number)
        cell = cells.loc[(score, opponent, dealer)]
        error = np.hypot((cell["high"] - cell["low"]) / 2, (high - low) / 2) / 1.96
        differences.append((share - cell["equity"]) / error)
        print(f"{score:5d} {opponent:8d} {dealer!s:>6} {cell['equity']:.4f} [{cell['low']:.4f}, {cell['high']:.4f}]"
              f"  {share:.4f} [{low:.4f}, {high:.4f}]  {differences[-1]:+.2f}")
    z = np.asarray(differences)
    print(f"largest |z| {np.abs(z).max():.2f}; within 1.96: {int((np.abs(z) <= 1.96).sum())} of {len(z)}; "
          f"sum of z^2 {float((z ** 2).sum()):.1f} on {len(z)} degrees of freedom (p = "
          f"{chi2.sf(float((z ** 2).sum()), len(z)):.2f}); "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
