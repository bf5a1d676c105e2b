"""The networks the native ``learned`` strategy plays: policy files loaded once per process.

A policy file (:mod:`ginsim.gin.game.policy.file`) is read, checked and copied into the native registry the
first time a process needs it; a player's parameter is then its :class:`Network` number. A
``Network`` pickles as its file and content hash, so a worker process loads the same file again (and
refuses it if it changed).

The strategy is written ``learned(weights=PATH)``; ``learned`` alone plays the shipped weights of the
game's variant (``SHIPPED``). Either way the network must have been trained for the hands of the
game's rules (:meth:`~ginsim.Rules.hand_play`; a game's target and bonuses may differ), or it is
refused in one line:

>>> import tempfile, numpy as np
>>> from ginsim import Rules, simulate
>>> from ginsim.gin.game.policy.file import save_policy
>>> rng = np.random.default_rng(1)
>>> path = save_policy(tempfile.mkdtemp() + "/p.npz", [(rng.normal(size=(107, 636)), np.zeros(107))],
...                    layout="learner", rules=Rules())
>>> hands = simulate(Rules(), [f"learned(weights='{path}')", "simple"], hands=5, seed=1, workers=1)
>>> len(hands)
5
"""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np

from gincore.errors import InputError
from ginsim.gin.game.native import LAYOUT_NAMES, STRATEGY_KINDS, load_network, network_forward
from ginsim.gin.game.policy.file import PolicyWeights, load_policy
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.specs import SHIPPED_POLICIES

__all__ = ["SHIPPED", "Network", "default_network", "learned_player", "lower_learned", "network_of"]

SHIPPED: Final = SHIPPED_POLICIES
"""The policy files in ``ginsim/gin/data`` that ``learned`` plays when it is given no weights (declared with
its parameter, whose run identity digests them)."""


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
    if not source.is_file():
        raise InputError(f"policy file {path}: no such file")
    try:
        data = source.read_bytes()
    except OSError as error:
        raise InputError(f"policy file {path}: cannot be read ({error.strerror or error})") from None
    found = hashlib.sha256(data).hexdigest()
    if digest is not None and found != digest:
        raise InputError(f"policy file {path} changed after it was loaded: it is not the network that was chosen")
    key = (str(source), found)
    if key not in _LOADED:
        weights = load_policy(source)
        number = load_network(LAYOUT_NAMES.index(weights.layout), weights.input_scale, list(weights.layers),
                              weights.sees_scores)
        _LOADED[key] = Network(number, source, found, weights)
    return _LOADED[key]


@functools.lru_cache(maxsize=64)  # the shipped files do not change in a process: not read again per player
def default_network(rules: Rules) -> Network:
    """The network ``learned`` plays by default in a game under ``rules``: the shipped policy trained for
    its hands; ``InputError`` naming the variants there are weights for when none was.

    >>> default_network(Rules.preset("eaai")).path.name
    'learned_standard.npz'
    >>> default_network(Rules.preset("knock5"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: learned: no shipped weights were trained for the hands of knock5 rules (shipped: ...
    """
    folder = resources.files("ginsim.gin") / "data"
    networks = [network_of(str(folder / name)) for name in SHIPPED if (folder / name).is_file()]
    for network in networks:
        if network.weights.trained_for(rules):
            return network
    variants = ", ".join(Rules.from_dict(network.weights.rules).label() for network in networks) or "none"
    raise InputError(f"learned: no shipped weights were trained for the hands of {rules.label()} (shipped: "
                     f"{variants}); train a policy for them (ginsim train --help) and play it as "
                     "learned(weights=FILE)")


def lower_learned(values: Mapping[str, object], rules: Rules) -> tuple[int, ...]:
    """``learned``'s native parameter in a game under ``rules``: the network of its ``weights`` (the
    variant's shipped one when None), which pickles as its file so that worker processes load it too."""
    weights = values["weights"]
    if weights is None:
        return (default_network(rules),)
    network = network_of(str(weights))
    network.weights.check_rules(rules)
    return (network,)



def learned_player(path: str | Path, rules: Rules | None = None) -> tuple[int, Network]:
    """The native player that plays the policy file at ``path``, as ``gincore``'s ``Engine`` and
    ``NativePlayers`` take one; with ``rules``, refused unless the file was trained for them."""
    network = network_of(path)
    if rules is not None:
        network.weights.check_rules(rules)
    return (STRATEGY_KINDS["learned"], network)
