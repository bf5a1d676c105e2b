"""Whether two builds' strategy decides by the same law: for a change that keeps a random strategy's
law but not its random stream (its records change, so ``record_hashes.py`` cannot prove it).

Each build (a Python with ginsim installed, e.g. the virtual environments of two clones) asks the
strategy for its move ``--keys`` times, with different keys, at every decision of ``--hands`` hands of
``marjj`` against ``marjj`` (the positions ``decision_speed.py`` times; both builds must produce the same
positions, which is checked). Where every answer of both builds is the same move there is nothing to
compare; at the other positions the two builds' counts of each move are compared by Pearson's
chi-squared test of homogeneity, pooled over the positions. Printed: the positions, the contested ones,
the pooled statistic, its degrees of freedom and p-value. A small p-value says the builds decide
differently; a large one says no difference was found at this size.

Usage: python benchmarks/decision_law.py BEFORE_PYTHON AFTER_PYTHON [--strategy reader] [--hands 40]
                                         [--keys 24] [--rules eaai]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy.stats import chi2

# Run in each build: the positions' digest and every answer, as JSON.
ANSWERS = r'''
import hashlib, json, sys
sys.path.insert(0, {folder!r})
from decision_speed import positions
from ginsim import Rules
from ginsim.gin.game.native import NativePlayers
from ginsim.gin.game.players import Player
rules = Rules.preset({rules!r})
states = positions(rules, {hands}, 11)
digest = hashlib.sha256(repr([(s.hands, s.pile, s.player, s.phase_index) for s in states]).encode()).hexdigest()
players = NativePlayers([Player.of({strategy!r}).native(rules)] * 2)
answers = [[state.choose(players, 1_000_003 * key + number) for key in range({keys})]
           for number, state in enumerate(states)]
print(json.dumps({{"positions": digest, "answers": answers}}))
'''


def answers(python: str, strategy: str, hands: int, keys: int, rules: str) -> dict[str, object]:
    code = ANSWERS.format(folder=str(Path(__file__).parent), rules=rules, hands=hands, strategy=strategy,
                          keys=keys)
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def homogeneity(before: np.ndarray, after: np.ndarray) -> tuple[int, float, int]:
    """The contested positions, and the pooled chi-squared statistic and degrees of freedom."""
    contested, statistic, freedom = 0, 0.0, 0
    for mine, theirs in zip(before, after, strict=True):
        moves = np.union1d(mine, theirs)
        if len(moves) < 2:
            continue
        contested += 1
        counts = np.array([[(mine == move).sum(), (theirs == move).sum()] for move in moves], float)
        expected = counts.sum(axis=1, keepdims=True) * counts.sum(axis=0, keepdims=True) / counts.sum()
        statistic += float(((counts - expected) ** 2 / expected).sum())
        freedom += len(moves) - 1
    return contested, statistic, freedom


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the Python of the first build")
    parser.add_argument("after", help="the Python of the second build")
    parser.add_argument("--strategy", default="reader", help="the strategy compared (default reader)")
    parser.add_argument("--hands", type=int, default=40, help="hands whose decisions are the positions (default 40)")
    parser.add_argument("--keys", type=int, default=24, help="answers per position and build (default 24)")
    parser.add_argument("--rules", default="eaai", help="a preset (default eaai)")
    options = parser.parse_args()
    if options.hands < 1 or options.keys < 2:
        parser.error("--hands must be at least 1 and --keys at least 2")
    runs = [answers(python, options.strategy, options.hands, options.keys, options.rules)
            for python in (options.before, options.after)]
    if runs[0]["positions"] != runs[1]["positions"]:
        sys.exit("the two builds play the positions' hands differently (marjj changed): nothing to compare")
    before, after = (np.array(run["answers"]) for run in runs)
    contested, statistic, freedom = homogeneity(before, after)
    print(f"{options.strategy}: {len(before)} positions, {options.keys} answers each per build; "
          f"{contested} contested")
    if freedom:
        print(f"chi-squared {statistic:.1f} on {freedom} degrees of freedom: p = {chi2.sf(statistic, freedom):.3f}")


if __name__ == "__main__":
    main()
