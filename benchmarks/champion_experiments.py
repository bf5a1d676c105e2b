"""Measure a player against an opponent on duplicate deals, as docs/champion.md does.

Prints the first player's match win rate with its 95% interval over the deal pairs (as
``summarize_matches``), the mean margin and the time. The experiments with knobs that needed their own
builds (``--tune``, ``--adapt``, ``--read-simple``) ran this script as it is in those commits (4ad31db
and 9e82b63, checked out in a worktree as docs/champion.md shows); on the current build it measures
any two strategies.

Usage: python benchmarks/champion_experiments.py PLAYER OPPONENT [--games N] [--seed S] [--rules R]
"""
from __future__ import annotations

import argparse
import time

import pandas as pd

from ginsim import Rules
from ginsim.gin.game.native import match_key
from ginsim.gin.game.players import engine
from ginsim.gin.studies.matches import play_duplicate
from ginsim.gin.studies.summary import summarize_matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player")
    parser.add_argument("opponent")
    parser.add_argument("--games", type=int, default=2000, help="games (two per deal sequence)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rules", default="eaai")
    parser.add_argument("--prior", type=float, default=0.0,
                        help="experiment: the weight of the shipped network's prior for reader:513")
    parser.add_argument("--leaf", action="store_true",
                        help="experiment: load the shipped network's value head for reader:525-527")
    options = parser.parse_args()
    rules = Rules.preset(options.rules)
    if options.prior:
        from gincore import _engine
        from ginsim.gin.game.policy.learned import default_network
        _engine.set_reader_prior(int(default_network(rules)), options.prior)
    if options.leaf:
        import numpy as np
        from gincore import _engine
        from ginsim.gin.game.policy.learned import default_network
        network = default_network(rules)
        with np.load(network.path) as saved:
            _engine.set_reader_value(int(network), saved["value_W"], float(saved["value_b"][0]))
    start = time.time()
    pair = (engine(rules, (options.player, options.opponent)), engine(rules, (options.opponent, options.player)))
    key = match_key(options.seed)
    rows = [row for match in range(options.games // 2) for row in play_duplicate(pair, rules, key, match)]
    summary = summarize_matches(pd.DataFrame(rows)).iloc[0]
    low, high = 100 * summary["win_rate_0_low"], 100 * summary["win_rate_0_high"]
    print(f"{options.player} vs {options.opponent}, {options.rules}: {len(rows)} games, win "
          f"{100 * summary['win_rate_0']:.1f}% [{low:.1f}, {high:.1f}] margin {summary['mean_margin_0']:.1f}"
          f" ({time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
