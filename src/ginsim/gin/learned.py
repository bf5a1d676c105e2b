"""The networks the native ``learned`` strategy plays: policy files loaded once per process.

A policy file (:mod:`ginsim.gin.policy_file`) is read, checked and copied into the native registry the
first time a process needs it; a player's parameter is then its :class:`Network` number. A
``Network`` pickles as its file and content hash, so a worker process loads the same file again (and
refuses it if it changed).

>>> import tempfile, numpy as np
>>> from ginsim import Rules
>>> from ginsim.gin.engine import native_config
>>> from ginsim.gin.policy_file import save_policy
>>> from ginsim.gin.strategies import native_spec
>>> from gincore._engine import Engine
>>> rng = np.random.default_rng(1)
>>> path = save_policy(tempfile.mkdtemp() + "/p.npz", [(rng.normal(size=(107, 636)), np.zeros(107))],
...                    layout="learner", rules=Rules())
>>> hands = Engine(native_config(Rules()), [learned_player(path), native_spec("simple")]).play_hands(1, 2, 0, 5)
>>> len(hands["points"])
5
"""
from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np

from gincore._engine import LAYOUT_NAMES, STRATEGY_KINDS, load_network, network_forward
from gincore.errors import InputError
from ginsim.gin.policy_file import PolicyWeights, load_policy
from ginsim.gin.rules import Rules

__all__ = ["SHIPPED", "Network", "default_network", "learned_player", "network_of"]

SHIPPED: Final = "learned_standard.npz"
"""The file in ``ginsim/gin/data`` that ``learned`` plays when it is given no weights."""


class Network(int):
    """The number of a network loaded in this process's native registry, with the file it came from."""

    path: Path
    digest: str
    weights: PolicyWeights

    def __new__(cls, number: int, path: Path, digest: str, weights: PolicyWeights) -> Network:
        network = super().__new__(cls, number)
        network.path, network.digest, network.weights = path, digest, weights
        return network

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (network_of, (str(self.path), self.digest))

    def forward(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The native forward pass on a batch: the legal actions' logits (``-inf`` for the others) and the
        chosen action of each row."""
        rows = np.ascontiguousarray(np.atleast_2d(observations), np.int8)
        legal = np.ascontiguousarray(np.atleast_2d(masks), np.int8)
        logits = np.full((len(rows), legal.shape[1]), -np.inf, np.float32)
        actions = np.zeros(len(rows), np.int64)
        network_forward(int(self), rows, legal, logits, actions)
        return logits, actions


_LOADED: dict[tuple[str, str], Network] = {}
"""The networks loaded in this process, by (resolved path, SHA-256 of the file)."""


def network_of(path: str | Path, digest: str | None = None) -> Network:
    """The network of the policy file at ``path``, loaded into the native registry on first use;
    ``digest``: the SHA-256 the file must still have (a worker loading what its parent loaded)."""
    source = Path(path).expanduser().resolve()
    try:
        data = source.read_bytes()
    except OSError:
        raise InputError(f"policy file {path}: no such file") from None
    found = hashlib.sha256(data).hexdigest()
    if digest is not None and found != digest:
        raise InputError(f"policy file {path} changed after it was loaded: it is not the network that was chosen")
    key = (str(source), found)
    if key not in _LOADED:
        weights = load_policy(source)
        number = load_network(LAYOUT_NAMES.index(weights.layout), weights.input_scale, list(weights.layers))
        _LOADED[key] = Network(number, source, found, weights)
    return _LOADED[key]


def default_network() -> Network:
    """The network ``learned`` plays by default: the shipped weights; ``InputError`` while none are."""
    shipped = resources.files("ginsim.gin") / "data" / SHIPPED
    if not shipped.is_file():
        raise InputError("learned: no trained weights are shipped with this ginsim yet; play a policy file of "
                         "your own (ginsim.gin.learned.learned_player(path))")
    return network_of(str(shipped))


def learned_player(path: str | Path, rules: Rules | None = None) -> tuple[int, Network]:
    """The native player that plays the policy file at ``path``, as ``gincore``'s ``Engine`` and
    ``NativePlayers`` take one; with ``rules``, refused unless the file was trained for them."""
    network = network_of(path)
    if rules is not None:
        network.weights.check_rules(rules)
    return (STRATEGY_KINDS["learned"], network)
