"""Behaviour cloning: the warm start of a training run, from a built-in strategy's decisions.

The expert's decisions (its observation, mask and action at each, and the points its hand ended
with) are recorded natively, ``imitate_hands`` hands of the expert in seat 0 against
``imitate_against`` from the run's seed. Each epoch is one pass over them in a random order (with
``imitate_fresh``, epoch *e* records hands ``e * imitate_hands`` onwards of the same run instead, so
that no decision is seen twice and a clone cannot learn its sample by heart): the
policy learns the expert's action (cross-entropy over the legal actions), the value head the hand's
reward as PPO will pay it, so that PPO starts from a policy that plays like the expert and a critic
that knows what its positions are worth.

>>> decisions = record_expert(TrainConfig(imitate="marjj", imitate_hands=10, layout="learner"))
>>> decisions["observation"].shape[1], bool((decisions["points"] != 0).any())
(636, True)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn
from tqdm import tqdm

from ginsim.gin.game.players import Player
from ginsim.gin.game.policy.network import PolicyNetwork
from ginsim.learn.config import TrainConfig
from ginsim.learn.ppo import LossNotFinite

__all__ = ["clone_epoch", "clone_step_size", "record_expert"]


def record_expert(config: TrainConfig, shown: bool = False, epoch: int = 0) -> dict[str, npt.NDArray[Any]]:
    """The expert's decisions (:func:`~ginsim.gin.studies.decisions.record_decisions`) to clone in ``epoch``:
    ``observation``, ``action_mask``, ``action`` and ``points`` (the hand's, for the expert), among
    others. The same hands for every epoch, or with ``imitate_fresh`` the epoch's own; with
    ``imitate_decisions``, the rows of that recording (:func:`~ginsim.gin.studies.decisions.load_recording`)."""
    from ginsim.gin.studies.decisions import load_recording, record_decisions

    assert config.imitate is not None
    if config.imitate_decisions is not None:  # recorded beforehand, on the run layer's workers
        return load_recording(config.imitate_decisions)
    players = (Player.of(config.imitate), Player.of(config.imitate_against))
    first = epoch * config.imitate_hands if config.imitate_fresh else 0
    with tqdm(total=config.imitate_hands, unit="hand", unit_scale=True, disable=not shown, dynamic_ncols=True,
              desc=f"recording {config.imitate}", leave=False) as bar:
        def advance(done: int) -> None:
            bar.update(done - bar.n)

        return record_decisions(config.rules, players, config.imitate_hands, config.seed, layout=config.layout,
                                seats=(0,), first=first, progress=advance)


def clone_step_size(config: TrainConfig, done: float) -> float:
    """Adam's step size when ``done`` (0 to 1) of the cloning's decisions have been learned: ``imitate_lr``
    throughout, or from it to ``imitate_lr_end`` on a half cosine.

    >>> config = TrainConfig(imitate_lr=1e-3, imitate_lr_end=1e-4)
    >>> [round(clone_step_size(config, done), 6) for done in (0.0, 0.5, 1.0)]
    [0.001, 0.00055, 0.0001]
    """
    if config.imitate_lr_end is None:
        return config.imitate_lr
    return config.imitate_lr_end + (config.imitate_lr - config.imitate_lr_end) * 0.5 * (1 + math.cos(math.pi * done))


def clone_epoch(network: PolicyNetwork, optimizer: torch.optim.Optimizer, decisions: dict[str, npt.NDArray[Any]],
                config: TrainConfig, generator: torch.Generator, bar: tqdm[Any] | None = None,
                epoch: int = 0) -> dict[str, float]:
    """Epoch ``epoch``'s pass over ``decisions`` in minibatches of ``config.batch_size``; the mean loss and
    the share of the expert's actions the policy gave the highest probability (before each step: with
    ``imitate_fresh``, on decisions it has not seen)."""
    observations = torch.from_numpy(np.ascontiguousarray(decisions["observation"]))
    masks = torch.from_numpy(np.ascontiguousarray(decisions["action_mask"]))
    actions = torch.from_numpy(np.asarray(decisions["action"], np.int64))
    points = np.asarray(decisions["points"], np.float32)
    rewards = torch.from_numpy(np.sign(points) if config.reward == "win" else points / config.reward_scale)
    total_loss, agreed, seen = 0.0, 0, 0
    for chosen in torch.split(torch.randperm(len(actions), generator=generator), config.batch_size):
        for group in optimizer.param_groups:
            group["lr"] = clone_step_size(config, (epoch + seen / len(actions)) / config.imitate_epochs)
        logits, value = network(observations[chosen], masks[chosen])
        loss = nn.functional.cross_entropy(logits, actions[chosen]) + \
            config.vf_coef * 0.5 * (value - rewards[chosen]).pow(2).mean()
        if not torch.isfinite(loss):
            raise LossNotFinite(f"the imitation loss became {float(loss)}")
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(network.parameters(), config.max_grad_norm)
        optimizer.step()
        total_loss += loss.item() * len(chosen)
        agreed += int((logits.argmax(-1) == actions[chosen]).sum())
        seen += len(chosen)
        if bar is not None:
            bar.update(len(chosen))
    return {"imitation_loss": total_loss / seen, "accuracy": agreed / seen}
