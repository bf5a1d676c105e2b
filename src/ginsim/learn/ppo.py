"""Proximal policy optimisation with action masks on the native vector environments.

Each opponent of the mix has a ``VectorGinRummyEnv`` (``ginsim.env.vector``) of its own (its share of the
tables); a rollout steps all of them ``rollout`` times with actions sampled from the masked policy, and
one update makes ``epochs`` passes of clipped policy-gradient steps over the whole rollout in
minibatches. Advantages by GAE; a hand's end stops the bootstrap (a hand pays its reward at its end).
In match episodes (``TrainConfig.episode``) too: each hand is paid what it did, in points or, with the
shaped reward, to the learner's chance to win the match, from the scores it saw. Every random draw (the
actions, the minibatches) comes from one ``torch.Generator``, so a run is a function of its seed and its
checkpoints.

>>> import torch
>>> from ginsim.gin.game.policy.network import ILLEGAL, PolicyNetwork
>>> sample(torch.tensor([[0.0, ILLEGAL, 0.0], [ILLEGAL, ILLEGAL, 5.0]]), torch.Generator().manual_seed(1))[1].item()
2
>>> evaluate(PolicyNetwork(), "random", hands=8, seed=1).hands   # the untrained network's greedy play
8
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from gincore.errors import InputError
from ginsim.env.vector import VectorGinRummyEnv
from ginsim.gin.game.players import PlayerSpec
from ginsim.gin.game.policy.network import PolicyNetwork
from ginsim.gin.game.rules import Rules
from ginsim.learn.config import TrainConfig

__all__ = ["LossNotFinite", "OpponentStats", "Rollout", "Tables", "evaluate", "ppo_update", "sample"]


class LossNotFinite(InputError):
    """The loss (or a weight) became NaN or infinite: the step size or the rewards' scale is too large."""


@dataclass
class OpponentStats:
    """The hands a rollout finished against one opponent: their number, the learner's points, its wins."""

    hands: int = 0
    points: float = 0.0
    wins: int = 0

    def add(self, points: npt.NDArray[np.float32]) -> None:
        self.hands += len(points)
        self.points += float(points.sum())
        self.wins += int((points > 0).sum())


@dataclass
class Rollout:
    """One update's experience, flattened over tables and steps."""

    observations: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    log_probs: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor
    stats: dict[str, OpponentStats] = field(default_factory=dict)


def sample(logits: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action per row of ``logits`` drawn from their softmax (the Gumbel-max trick, from ``generator``)."""
    uniform = torch.rand(logits.shape, generator=generator).clamp_(1e-20, 1.0)
    return (logits - torch.log(-torch.log(uniform))).argmax(-1)


class Tables:
    """The vector environments of an opponent mix: ``tables`` is (name, player, count) for each."""

    def __init__(self, rules: Rules, tables: list[tuple[str, PlayerSpec, int]], layout: str,
                 reward: str = "points", episode: str = "hand") -> None:
        self.names = [name for name, _, _ in tables]
        # single hands pay their points, turned into the reward here; matches pay what their Episodes say (the
        # shaped reward a change in 2P - 1, worth the target in points)
        self.match = episode == "match"
        self.n_envs = [VectorGinRummyEnv(count, opponent=player, rules=rules, reward=reward if self.match else "points",
                                         observation=layout, seed=0, episode=episode) for _, player, count in tables]
        self.paid_in_points = (rules.target or 0) if reward == "shaped" else 1.0
        self.seen: list[dict[str, npt.NDArray[np.int8]]] = []

    def deal(self, seeds: list[int]) -> None:
        """Every table starts over from hand 0 of its environment's seed."""
        self.seen = [env.reset(seed=seed)[0] for env, seed in zip(self.n_envs, seeds, strict=True)]

    def collect(self, network: PolicyNetwork, config: TrainConfig, generator: torch.Generator) -> Rollout:
        """``config.n_steps`` steps of every table with actions sampled from ``network``."""
        parts: list[dict[str, torch.Tensor]] = []
        stats = {name: OpponentStats() for name in self.names}
        for index, env in enumerate(self.n_envs):
            steps: dict[str, list[torch.Tensor]] = {name: [] for name in
                                                    ("observation", "mask", "action", "log_prob", "value", "reward",
                                                     "ended")}
            seen = self.seen[index]
            with torch.no_grad():
                for _ in range(config.n_steps):
                    observation, mask = torch.from_numpy(seen["observation"]), torch.from_numpy(seen["action_mask"])
                    logits, value = network(observation, mask)
                    action = sample(logits, generator)
                    seen, paid, ended, _, infos = env.step(action.numpy())
                    points = paid
                    if self.match:
                        points, ended = infos["points"], infos["hand_over"]
                    stats[self.names[index]].add(points[ended])
                    if config.reward == "win":
                        reward = paid if self.match else np.sign(points)
                    else:
                        reward = paid * self.paid_in_points / config.reward_scale
                    log_prob = torch.log_softmax(logits, -1).gather(-1, action[:, None]).squeeze(-1)
                    for name, item in (("observation", observation), ("mask", mask), ("action", action),
                                       ("log_prob", log_prob), ("value", value),
                                       ("reward", torch.from_numpy(reward.astype(np.float32))),
                                       ("ended", torch.from_numpy(ended.astype(np.float32)))):
                        steps[name].append(item)
                last_value = network(torch.from_numpy(seen["observation"]), torch.from_numpy(seen["action_mask"]))[1]
            self.seen[index] = seen
            stacked = {name: torch.stack(items) for name, items in steps.items()}
            advantages = _advantages(stacked["reward"], stacked["value"], stacked["ended"], last_value, config)
            stacked["advantage"] = advantages
            stacked["return"] = advantages + stacked["value"]
            parts.append({name: tensor.flatten(0, 1) for name, tensor in stacked.items()})
        joined = {name: torch.cat([part[name] for part in parts]) for name in parts[0]}
        return Rollout(joined["observation"], joined["mask"], joined["action"], joined["log_prob"],
                       joined["advantage"], joined["return"], stats)


def _advantages(rewards: torch.Tensor, values: torch.Tensor, ended: torch.Tensor, last_value: torch.Tensor,
                config: TrainConfig) -> torch.Tensor:
    """GAE over (steps, tables): a hand's end cuts the sums (the next observation is a new hand's)."""
    advantages = torch.zeros_like(rewards)
    following, running = last_value, torch.zeros_like(last_value)
    for step in reversed(range(len(rewards))):
        going_on = 1.0 - ended[step]
        delta = rewards[step] + config.gamma * going_on * following - values[step]
        running = delta + config.gamma * config.gae_lambda * going_on * running
        advantages[step] = running
        following = values[step]
    return advantages


def ppo_update(network: PolicyNetwork, optimizer: torch.optim.Optimizer, rollout: Rollout, config: TrainConfig,
               generator: torch.Generator) -> dict[str, float]:
    """``config.n_epochs`` passes of clipped PPO steps over ``rollout``; the mean losses, entropy, KL and
    clipped fraction. Raises :class:`LossNotFinite` before a NaN or infinite loss changes a weight."""
    size = len(rollout.actions)
    totals = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0, "clip_fraction": 0.0}
    batches = 0
    for _ in range(config.n_epochs):
        for chosen in torch.split(torch.randperm(size, generator=generator), config.batch_size):
            logits, value = network(rollout.observations[chosen], rollout.masks[chosen])
            log_probs = torch.log_softmax(logits, -1)
            new_log_prob = log_probs.gather(-1, rollout.actions[chosen, None]).squeeze(-1)
            change = new_log_prob - rollout.log_probs[chosen]
            ratio = change.exp()
            advantage = rollout.advantages[chosen]
            if len(chosen) > 1:
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            clipped = ratio.clamp(1 - config.clip_range, 1 + config.clip_range)
            policy_loss = -torch.min(ratio * advantage, clipped * advantage).mean()
            value_loss = 0.5 * (value - rollout.returns[chosen]).pow(2).mean()
            # illegal actions have probability 0: leave them out of the entropy (0 * -1e9 would be -0 anyway)
            entropy = -(log_probs.exp() * log_probs.clamp(min=-1e4)).sum(-1).mean()
            loss = policy_loss + config.vf_coef * value_loss - config.ent_coef * entropy
            if not torch.isfinite(loss):
                raise LossNotFinite(f"the loss became {loss.item()} (policy {policy_loss.item():.4g}, value "
                                    f"{value_loss.item():.4g})")
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(network.parameters(), config.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                totals["policy_loss"] += float(policy_loss)
                totals["value_loss"] += float(value_loss)
                totals["entropy"] += float(entropy)
                totals["approx_kl"] += float(((ratio - 1) - change).mean())
                totals["clip_fraction"] += float(((ratio - 1).abs() > config.clip_range).float().mean())
            batches += 1
    if not all(torch.isfinite(parameter).all() for parameter in network.parameters()):
        raise LossNotFinite("a weight became NaN or infinite")
    return {name: total / batches for name, total in totals.items()}


def evaluate(network: PolicyNetwork, opponent: PlayerSpec, rules: Rules | None = None, hands: int = 2000,
             seed: int = 0, tables: int = 256) -> OpponentStats:
    """The greedy policy (legal argmax) against ``opponent`` over ``hands`` single hands: hand ``k`` of
    table ``t`` of the vector environment with ``seed`` for k below the table's share of ``hands`` (a
    fixed set of deals for a seed, whatever the network). Sets PyTorch to one thread, as training does."""
    torch.set_num_threads(1)
    env = VectorGinRummyEnv(min(tables, hands), opponent=opponent, rules=rules, reward="points",
                            observation=network.layout, seed=seed, copy=False)
    seen, _ = env.reset()
    played = np.zeros(env.num_envs, np.int64)
    quota = np.full(env.num_envs, hands // env.num_envs) + (np.arange(env.num_envs) < hands % env.num_envs)
    stats = OpponentStats()
    while (played < quota).any():
        seen, points, ended, _, _ = env.step(network.greedy(seen["observation"], seen["action_mask"]))
        counted = ended & (played < quota)
        stats.add(points[counted])
        played += ended
    return stats
