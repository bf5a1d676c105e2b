"""The learner's network: a masked actor-critic MLP over one observation layout, and its weights as arrays.

The observation (int8) times a fixed ``input_scale`` (1 over each slot's highest value, so every input
is in [0, 1]) goes through ReLU layers of ``hidden`` widths; a linear head gives the 107 action logits,
another the value of the position (in the reward's scale). Illegal actions' logits are set to -1e9, so
the policy only ever plays legal moves; the greedy policy is the legal argmax.

:func:`save_network` writes it as a policy file (:mod:`ginsim.gin.game.policy.file`: ``W0, b0, ...`` as
``nn.Linear`` keeps them, the last layer the logits; the value head on the last hidden layer's output),
which the native ``learned`` strategy plays; :meth:`PolicyNetwork.from_weights` reads one back.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from gincore.errors import InputError
from ginsim.gin.game.actions import NUM_ACTIONS
from ginsim.gin.game.policy.file import PolicyWeights, save_policy
from ginsim.gin.game.policy.observations import field_slots, observation_bounds, observation_size
from ginsim.gin.game.rules import Rules

__all__ = ["ILLEGAL", "PolicyNetwork", "input_scale", "save_network"]

ILLEGAL = -1e9
"""The logit an illegal action gets."""


def input_scale(layout: str) -> npt.NDArray[np.float32]:
    """What each slot of ``layout`` is multiplied by: 1 over its highest value.

    >>> input_scale("compact")[:2].tolist(), float(input_scale("compact")[475])   # a card slot, the stock size
    ([1.0, 1.0], 0.019230769...)
    """
    high = observation_bounds(layout)[1].astype(np.float32)
    return np.divide(1.0, high, out=np.ones_like(high), where=high > 0).astype(np.float32)


class PolicyNetwork(nn.Module):
    """Observations (int8, any batch shape) and masks in; masked logits and values out."""

    input_scale: torch.Tensor

    def __init__(self, layout: str = "compact", hidden: Sequence[int] = (256, 256)) -> None:
        super().__init__()
        self.layout = layout
        widths = [observation_size(layout), *hidden]
        self.register_buffer("input_scale", torch.from_numpy(input_scale(layout)))
        self.body = nn.ModuleList(nn.Linear(into, out) for into, out in zip(widths, widths[1:], strict=False))
        self.policy = nn.Linear(widths[-1], NUM_ACTIONS)
        self.value = nn.Linear(widths[-1], 1)

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(layer.out_features for layer in self.body if isinstance(layer, nn.Linear))

    def features(self, observation: torch.Tensor) -> torch.Tensor:
        """The last hidden layer's output."""
        features = observation.float() * self.input_scale
        for layer in self.body:
            features = torch.relu(layer(features))
        return features

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.features(observation)
        logits = self.policy(features).masked_fill(mask == 0, ILLEGAL)
        return logits, self.value(features).squeeze(-1)

    def greedy(self, observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """The most likely legal action of each observation (one or a batch)."""
        with torch.no_grad():
            logits, _ = self(torch.from_numpy(np.asarray(observation)), torch.from_numpy(np.asarray(mask)))
        actions: npt.NDArray[np.int64] = logits.argmax(-1).numpy()
        return actions

    @classmethod
    def from_weights(cls, weights: PolicyWeights) -> PolicyNetwork:
        """The network of a policy file's weights (:func:`~ginsim.gin.game.policy.file.load_policy`), with a
        fresh value head where the file has none."""
        if not np.array_equal(weights.input_scale, input_scale(weights.layout)):
            raise InputError(f"policy {weights.path}: its input_scale is not the {weights.layout} layout's "
                             "1 over each slot's highest value, which the trainer uses")
        if len(weights.layers) < 2:
            raise InputError(f"policy {weights.path}: the trainer needs at least one hidden layer")
        network = cls(weights.layout, weights.sizes[1:-1])
        with torch.no_grad():
            for layer, (matrix, biases) in zip([*network.body, network.policy], weights.layers, strict=True):
                layer.weight.copy_(torch.from_numpy(matrix))
                layer.bias.copy_(torch.from_numpy(biases))
            if weights.value_head is not None and weights.value_head[0].shape == network.value.weight.shape:
                network.value.weight.copy_(torch.from_numpy(weights.value_head[0]))
                network.value.bias.copy_(torch.from_numpy(weights.value_head[1]))
        return network

    def blind_to_scores(self) -> None:
        """Zero the first layer's weights on the match scores' slots: a network trained on single hands
        (always 0-0 there, so those weights never learnt) starts a match run playing as it did."""
        if self.layout == "openspiel":
            return  # OpenSpiel's layout shows no scores
        first = self.body[0]
        assert isinstance(first, nn.Linear)
        with torch.no_grad():
            first.weight[:, field_slots("scores", self.layout)] = 0.0


def save_network(network: PolicyNetwork, path: str | os.PathLike[str], rules: Rules,
                 meta: Mapping[str, Any]) -> Path:
    """Write ``network`` as a policy file (:mod:`ginsim.gin.game.policy.file`): its layers, the input scale and
    the value head, for ``rules``, with ``meta`` saying how it was made."""
    def numpy(layer: nn.Linear) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        return layer.weight.detach().numpy().copy(), layer.bias.detach().numpy().copy()

    return save_policy(path, [numpy(layer) for layer in [*network.body, network.policy]], layout=network.layout,
                       rules=rules, meta=meta, input_scale=network.input_scale.numpy(),
                       value_head=numpy(network.value))
