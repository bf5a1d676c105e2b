"""Train a masked PPO policy on the vector environment, against ``random`` and then ``simple``, and play it in
duplicate-deal tournaments.

Usage: python examples/train_ppo.py [--random-steps N] [--simple-steps N] [--envs E] [--matches M]
                                    [--seed S] [--plot PATH] [--json PATH]

Needs the ``train`` extra (``pip install -e '.[train]'``: gymnasium, pettingzoo and a CPU PyTorch).
Everything runs on one core (``torch.set_num_threads(1)``). A progress bar on stderr follows the
training, update by update, with the last update's mean points per hand (``--quiet`` hides it).

The policy is a small actor-critic MLP over the compact observation (480 values in, 107 logits and a
value out), the logits of illegal actions set to -1e9 before sampling, so it only ever plays legal
moves. PPO: E tables step 64 times per update (``VectorGinRummyEnv``, same-step autoreset), advantages
by GAE (gamma 1: a hand's points are paid at its end; lambda 0.95), four epochs of clipped updates
(clip 0.2) in minibatches of 2,048 decisions, entropy bonus 0.01, Adam at 3e-4. The reward is the
hand's points for the agent, divided by 25. The first ``--random-steps`` agent steps are played
against ``random``, the next ``--simple-steps`` against ``simple``.

The learning curve is the mean reward per finished hand (in points) over each update, plotted to
``--plot``. At the end the greedy policy (its most likely legal action) plays as a strategy
(``ginsim.env.PolicyStrategy``) in ``ginsim.tournament`` — matches to 100 on duplicate deals — against
``random`` and against ``simple``.
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
from torch import nn
from tqdm import tqdm

from ginsim import Rules, tournament
from ginsim.env import PolicyStrategy, VectorGinRummyEnv, observation_size
from ginsim.gin.game.actions import NUM_ACTIONS

ROLLOUT = 64
EPOCHS = 4
MINIBATCH = 2048
CLIP = 0.2
ENTROPY = 0.01
LAMBDA = 0.95
REWARD_SCALE = 25.0


class ActorCritic(nn.Module):
    """Observation in; the logits of the 107 actions and the value of the position out."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(observation_size("compact"), hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.body(observation)
        logits = self.policy(features).masked_fill(mask == 0, -1e9)
        return logits, self.value(features).squeeze(-1)


def tensors(seen: dict[str, np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.from_numpy(seen["observation"]).float(), torch.from_numpy(seen["action_mask"])


def train(model: ActorCritic, optimizer: torch.optim.Optimizer, opponent: str, steps: int, envs: int,
          seed: int, curve: list[dict[str, Any]], progress: bool = True) -> None:
    """PPO against ``opponent`` for about ``steps`` agent steps; one point of the curve per update."""
    env = VectorGinRummyEnv(envs, opponent=opponent, seed=seed)
    seen, _ = env.reset()
    done_before = sum(point["steps"] for point in curve)
    updates = max(1, steps // (ROLLOUT * envs))
    bar = tqdm(total=updates * ROLLOUT * envs, unit=" steps", unit_scale=True, desc=f"against {opponent}",
               disable=not progress, file=sys.stderr)
    for _ in range(updates):
        batch: dict[str, list[torch.Tensor]] = {name: [] for name in
                                                 ("observation", "mask", "action", "log_prob", "value", "reward",
                                                  "ended")}
        finished: list[float] = []
        with torch.no_grad():
            for _ in range(ROLLOUT):
                observation, mask = tensors(seen)
                logits, value = model(observation, mask)
                distribution = torch.distributions.Categorical(logits=logits)
                action = distribution.sample()
                seen, reward, ended, _, _ = env.step(action.numpy())
                for name, item in (("observation", observation), ("mask", mask), ("action", action),
                                   ("log_prob", distribution.log_prob(action)), ("value", value),
                                   ("reward", torch.from_numpy(reward) / REWARD_SCALE),
                                   ("ended", torch.from_numpy(ended).float())):
                    batch[name].append(item)
                finished.extend(reward[ended].tolist())
            _, last_value = model(*tensors(seen))
        stacked = {name: torch.stack(items) for name, items in batch.items()}
        advantages = torch.zeros_like(stacked["reward"])
        following, running = last_value, torch.zeros(envs)
        for step in reversed(range(ROLLOUT)):
            going_on = 1.0 - stacked["ended"][step]  # a hand's end: nothing follows it in its episode
            delta = stacked["reward"][step] + going_on * following - stacked["value"][step]
            running = delta + LAMBDA * going_on * running
            advantages[step] = running
            following = stacked["value"][step]
        returns = advantages + stacked["value"]
        flat = {name: tensor.reshape(ROLLOUT * envs, *tensor.shape[2:]) for name, tensor in stacked.items()}
        flat_advantages, flat_returns = advantages.reshape(-1), returns.reshape(-1)
        for _ in range(EPOCHS):
            for chosen in torch.randperm(ROLLOUT * envs).split(MINIBATCH):
                logits, value = model(flat["observation"][chosen], flat["mask"][chosen])
                distribution = torch.distributions.Categorical(logits=logits)
                ratio = (distribution.log_prob(flat["action"][chosen]) - flat["log_prob"][chosen]).exp()
                advantage = flat_advantages[chosen]
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
                policy_loss = -torch.min(ratio * advantage, ratio.clamp(1 - CLIP, 1 + CLIP) * advantage).mean()
                value_loss = 0.5 * (value - flat_returns[chosen]).pow(2).mean()
                loss = policy_loss + value_loss - ENTROPY * distribution.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                optimizer.step()
        done_before += ROLLOUT * envs
        curve.append({"opponent": opponent, "steps": ROLLOUT * envs, "total_steps": done_before,
                      "hands": len(finished), "mean_points": float(np.mean(finished)) if finished else 0.0})
        bar.set_postfix_str(f"{curve[-1]['mean_points']:+.1f} points per hand", refresh=False)
        bar.update(ROLLOUT * envs)
    bar.close()


def greedy_policy(model: ActorCritic) -> PolicyStrategy:
    """The trained model's most likely legal action, as a strategy."""

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits, _ = model(torch.from_numpy(observation).float()[None], torch.from_numpy(mask)[None])
        return int(logits.argmax())

    return PolicyStrategy(act, name="ppo")


def plot(curve: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 3.6))
    for opponent, colour in (("random", "tab:orange"), ("simple", "tab:blue")):
        points = [(point["total_steps"], point["mean_points"]) for point in curve if point["opponent"] == opponent]
        if points:
            steps, means = zip(*points, strict=True)
            axis.plot(np.array(steps) / 1e6, means, color=colour, label=f"against {opponent}")
    axis.axhline(0, color="grey", linewidth=0.8)
    axis.set_xlabel("agent steps (millions)")
    axis.set_ylabel("mean points per hand")
    axis.set_title("Masked PPO on VectorGinRummyEnv (one core)")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--random-steps", type=int, default=1_000_000, help="agent steps against random")
    parser.add_argument("--simple-steps", type=int, default=7_000_000, help="agent steps against simple")
    parser.add_argument("--envs", type=int, default=256, help="tables of the vector environment")
    parser.add_argument("--matches", type=int, default=200, help="tournament matches per opponent (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="ppo_learning_curve.png", help="where to draw the learning curve")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    model = ActorCritic()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    curve: list[dict[str, Any]] = []
    started = time.process_time()
    train(model, optimizer, "random", args.random_steps, args.envs, args.seed, curve, not args.quiet)
    train(model, optimizer, "simple", args.simple_steps, args.envs, args.seed + 1, curve, not args.quiet)
    training_seconds = time.process_time() - started
    plot(curve, args.plot)
    policy = greedy_policy(model)
    results: dict[str, Any] = {"agent_steps": sum(point["steps"] for point in curve),
                               "training_cpu_seconds": round(training_seconds, 1), "curve": curve}
    for opponent in ("random", "simple"):
        table = tournament(Rules(), [policy, opponent], matches=args.matches, seed=args.seed, workers=1)
        row = table.iloc[0]
        ours = row["player"] == "ppo"
        rate = float(row["win_rate"]) if ours else 1 - float(row["win_rate"])
        low, high = (float(row["win_rate_low"]), float(row["win_rate_high"])) if ours else \
            (1 - float(row["win_rate_high"]), 1 - float(row["win_rate_low"]))
        results[f"against_{opponent}"] = {"matches": int(row["matches"]), "win_rate": rate,
                                          "interval": [low, high]}
        print(f"against {opponent}: won {rate:.1%} of {int(row['matches'])} matches (95% {low:.1%}-{high:.1%})")
    for opponent in ("random", "simple"):
        last = [point["mean_points"] for point in curve if point["opponent"] == opponent][-5:]
        print(f"training against {opponent}: last updates' mean points per hand {np.mean(last):+.1f}")
    print(f"{results['agent_steps']:,} agent steps in {training_seconds:,.0f} s of CPU")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump(results, stream, indent=1)
    return results


if __name__ == "__main__":
    main()
    sys.exit(0)
