"""Self-play on the PettingZoo AEC environment: one network plays both seats and learns from both.

Usage: python examples/selfplay_aec.py [--hands N] [--batch B] [--matches M] [--seed S] [--json PATH]

Needs the ``train`` extra (PyTorch on CPU). The network is ``ginsim.learn.PolicyNetwork`` (the masked
actor-critic of ``ginsim train``). Each agent's turn in ``env.agent_iter()`` samples an action from the
masked policy for the agent to move; when a hand ends, both agents' decisions of that hand are paid
the hand's points for their seat (zero-sum: one's gain is the other's loss). Every ``--batch`` hands,
an actor-critic step: each decision's advantage is the hand's reward less the critic's value. This is
the plain loop a PettingZoo user writes; ``ginsim train --opponents league`` trains against earlier
snapshots much faster, on the native vector environment.

At the end the greedy policy plays ``random`` in a duplicate-deal tournament, matches to 100. A line on
stderr after each tenth of the hands says how far it is and about how long is left (the default size
is a long run on one core; ``--hands 2000`` tries it in about a tenth of the time).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from ginsim import Rules, tournament
from ginsim.env import PolicyStrategy, aec_env
from ginsim.learn import PolicyNetwork

REWARD_SCALE = 25.0


def self_play(network: PolicyNetwork, hands: int, batch: int, seed: int, progress: bool = True) -> list[float]:
    """``hands`` hands of self-play; the mean points per hand won or lost over each batch (how decided
    the hands are: it rises as the network learns to win hands rather than draw them out). With
    ``progress``, a line on stderr after each tenth of the hands."""
    started = time.monotonic()
    step = max(1, hands // 10)
    optimizer = torch.optim.Adam(network.parameters(), lr=3e-4)
    env = aec_env(reward="points")
    generator = torch.Generator().manual_seed(seed)
    items: list[tuple[Any, Any, int, float]] = []
    curve: list[float] = []
    points: list[float] = []
    for hand in range(hands):
        env.reset(seed=seed if hand == 0 else None)
        decisions: dict[str, list[tuple[Any, Any, int]]] = {agent: [] for agent in env.possible_agents}
        for agent in env.agent_iter():
            seen, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:  # the hand is over: pay this agent's decisions its result
                items.extend((observation, mask, action, reward / REWARD_SCALE)
                             for observation, mask, action in decisions[agent])
                points.append(abs(reward))
                env.step(None)
                continue
            with torch.no_grad():
                logits, _ = network(torch.from_numpy(seen["observation"]), torch.from_numpy(seen["action_mask"]))
            action = int(torch.multinomial(torch.softmax(logits, -1), 1, generator=generator))
            decisions[agent].append((seen["observation"], seen["action_mask"], action))
            env.step(action)
        if (hand + 1) % batch == 0:
            learn(network, optimizer, items)
            curve.append(float(np.mean(points)))
            items, points = [], []
        if progress and ((hand + 1) % step == 0 or hand + 1 == hands):
            spent = time.monotonic() - started
            left = spent / (hand + 1) * (hands - hand - 1)
            last = f"; {curve[-1]:.1f} points a hand in the last batch" if curve else ""
            print(f"self-play: {hand + 1:,} of {hands:,} hands in {spent / 60:.1f} min, about {left / 60:.1f} min "
                  f"left{last}", file=sys.stderr, flush=True)
    return curve


def learn(network: PolicyNetwork, optimizer: torch.optim.Optimizer, items: list[tuple[Any, Any, int, float]]) -> None:
    """One actor-critic step: the log-probability of each action times its advantage, the critic's error."""
    observations = torch.from_numpy(np.stack([item[0] for item in items]))
    masks = torch.from_numpy(np.stack([item[1] for item in items]))
    actions = torch.tensor([item[2] for item in items])
    rewards = torch.tensor([item[3] for item in items], dtype=torch.float32)
    logits, values = network(observations, masks)
    log_probs = torch.log_softmax(logits, -1)
    advantage = (rewards - values).detach()
    chosen = log_probs.gather(-1, actions[:, None]).squeeze(-1)
    entropy = -(log_probs.exp() * log_probs.clamp(min=-1e4)).sum(-1).mean()
    loss = -(chosen * advantage).mean() + 0.5 * (values - rewards).pow(2).mean() - 0.01 * entropy
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(network.parameters(), 0.5)
    optimizer.step()


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000, help="hands of self-play (progress on stderr)")
    parser.add_argument("--batch", type=int, default=200, help="hands per learning step")
    parser.add_argument("--matches", type=int, default=100, help="tournament matches against random (even)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals, the sampling and the network")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    network = PolicyNetwork("compact", (128, 128))
    curve = self_play(network, args.hands, args.batch, args.seed)
    strategy = PolicyStrategy(lambda observation, mask: int(network.greedy(observation, mask)), name="selfplay")
    table = tournament(Rules(), [strategy, "random"], matches=args.matches, seed=args.seed, workers=1)
    row = table.iloc[0]
    rate = float(row["win_rate"]) if row["player"] == "selfplay" else 1 - float(row["win_rate"])
    print(f"{args.hands:,} hands of self-play; against random: won {rate:.1%} of {int(row['matches'])} matches")
    results = {"hands": args.hands, "curve": curve, "win_rate_against_random": rate, "matches": int(row["matches"])}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump(results, stream, indent=1)
    return results


if __name__ == "__main__":
    main()
    sys.exit(0)
