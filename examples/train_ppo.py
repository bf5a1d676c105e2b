"""Train a policy with ``ginsim.learn`` (cloning a strategy's decisions, then masked PPO on the native vector
environments) and play it in duplicate-deal tournaments.

Usage: python examples/train_ppo.py --out DIR [--rules PRESET] [--imitate S] [--imitate-hands N]
                                    [--imitate-epochs N] [--opponents A,B=2] [--steps N] [--envs E]
                                    [--matches M] [--against A,B] [--seed S] [--json PATH]

Needs the ``train`` extra (``pip install -e '.[train]'``). This is ``ginsim train`` from Python: the run
lives in ``--out`` (run the same command again to resume it), its learning curve in ``DIR/curve.png``.
At the end the policy file plays each of ``--against`` in ``ginsim.tournament`` (matches to the rules'
target on duplicate deals) as the built-in strategy ``learned(weights=FILE)``, natively.
docs/learning.md gives the recipe of the shipped policy and its measured strength.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ginsim import Rules, tournament
from ginsim.gin.game.players import player_name
from ginsim.learn import TrainConfig, parse_opponents, train


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--out", required=True, help="the training run's directory")
    parser.add_argument("--rules", default="eaai", help="a rules preset")
    parser.add_argument("--imitate", default="marjj", help="the strategy whose decisions are cloned first")
    parser.add_argument("--imitate-hands", type=int, default=30_000, help="hands of its decisions")
    parser.add_argument("--imitate-epochs", type=int, default=4, help="passes over them")
    parser.add_argument("--opponents", default="simple,marjj", help="PPO's opponents and their shares")
    parser.add_argument("--steps", type=int, default=1_500_000, help="learner decisions of PPO")
    parser.add_argument("--envs", type=int, default=128, help="tables played at once")
    parser.add_argument("--matches", type=int, default=400, help="tournament matches per opponent (even)")
    parser.add_argument("--against", default="simple,marjj", help="the tournaments' opponents")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.rules)
    config = TrainConfig(rules=rules, layout="learner", imitate=args.imitate, imitate_against=args.imitate,
                         imitate_hands=args.imitate_hands, imitate_epochs=args.imitate_epochs,
                         opponents=parse_opponents(args.opponents), total_timesteps=args.steps, n_envs=args.envs,
                         learning_rate=1e-4, ent_coef=0.003, seed=args.seed)
    result = train(config, args.out, progress=not args.quiet,
                   command=" ".join(["python examples/train_ppo.py", *sys.argv[1:]]))
    strategy = player_name(f"learned(weights='{result.policy}')")
    results: dict[str, Any] = {"steps": result.steps, "seconds": round(result.seconds, 1),
                               "policy": str(result.policy)}
    for opponent in args.against.split(","):
        row = tournament(rules, [strategy, opponent], matches=args.matches, seed=args.seed, workers=1).iloc[0]
        ours = row["player"] == strategy
        rate = float(row["win_rate"]) if ours else 1 - float(row["win_rate"])
        low, high = (float(row["win_rate_low"]), float(row["win_rate_high"])) if ours else \
            (1 - float(row["win_rate_high"]), 1 - float(row["win_rate_low"]))
        results[f"against_{opponent}"] = {"matches": int(row["matches"]), "win_rate": rate, "interval": [low, high]}
        print(f"against {opponent}: won {rate:.1%} of {int(row['matches'])} matches (95% {low:.1%}-{high:.1%})")
    print(f"{result.steps:,} PPO decisions in {result.seconds:,.0f} s; the learning curve: {result.out / 'curve.png'}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump(results, stream, indent=1)
    return results


if __name__ == "__main__":
    main()
    sys.exit(0)
