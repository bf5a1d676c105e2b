"""Policy weights files: a masked multi-layer perceptron over an observation layout, as one ``.npz``.

The trainer writes them (:func:`save_policy`), the native ``learned`` strategy plays them, and
:func:`load_policy` reads and checks them, refusing any bad file in one line. The keys:

=================  =========================================================================
key                value
=================  =========================================================================
``format``         ``"ginsim-policy"``
``version``        1
``layout``         the observation layout the network reads (``ginsim.gin.game.policy.observations``)
``rules``          JSON: the fields of the :class:`~ginsim.Rules` it was trained for
``meta``           JSON: how it was made (command, seed, steps, seconds, ...); ``"sees_scores": true``
                   when it was trained on matches whose scores it saw (``learned`` then shows it
                   the scores in play; other networks see 0-0, as in the single hands they learnt on)
``input_scale``    float32 of the layout's size: the network's input is observation x scale
``layers``         L, the number of linear layers
``W0``, ``b0`` …   float32, ``W{i}`` of shape (out, in) as PyTorch's ``nn.Linear`` keeps it;
                   ReLU between layers; the last gives the 107 action logits
``value_W``, …     optional: a value head, kept for training and ignored in play
=================  =========================================================================

Play is the legal action of greatest logit (ties: the lowest action number).

>>> import tempfile, numpy as np
>>> from ginsim import Rules
>>> rng = np.random.default_rng(1)
>>> layers = [(rng.normal(size=(8, 636)), np.zeros(8)), (rng.normal(size=(107, 8)), np.zeros(107))]
>>> path = save_policy(tempfile.mkdtemp() + "/p.npz", layers, layout="learner", rules=Rules(), meta={"seed": 1})
>>> policy = load_policy(path)
>>> policy.layout, policy.sizes, policy.meta
('learner', (636, 8, 107), {'seed': 1})
"""
from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gincore.errors import InputError
from ginsim.gin.game.actions import NUM_ACTIONS
from ginsim.gin.game.native import LAYOUT_NAMES, OBSERVATION_SIZES
from ginsim.gin.game.rules import Rules

__all__ = ["FORMAT", "VERSION", "PolicyWeights", "load_policy", "save_policy"]

FORMAT: Final = "ginsim-policy"
"""The ``format`` every policy file carries."""
VERSION: Final = 1
"""The version of the format this module writes and reads."""

Floats = npt.NDArray[np.float32]


@dataclass(frozen=True, eq=False)
class PolicyWeights:
    """A policy read from a file: its layers as (weights of shape (out, in), biases), checked to chain
    from the layout's observation to the 107 actions, finite."""

    layout: str
    rules: dict[str, Any]
    meta: dict[str, Any]
    input_scale: Floats
    layers: tuple[tuple[Floats, Floats], ...]
    value_head: tuple[Floats, Floats] | None = None
    path: Path | None = field(default=None, compare=False)

    @property
    def sizes(self) -> tuple[int, ...]:
        """The width of the input, of each hidden layer and of the output."""
        return (self.layers[0][0].shape[1], *(weights.shape[0] for weights, _ in self.layers))

    @property
    def sees_scores(self) -> bool:
        """Whether the network was trained seeing the match scores (``meta["sees_scores"]``): ``learned``
        shows them to it in play, and hides them (0-0) from any other."""
        return self.meta.get("sees_scores") is True

    def logits(self, observations: npt.ArrayLike) -> Floats:
        """The action logits of one observation or a batch of them (numpy, float32): the reference the
        native forward pass is tested against."""
        values = np.asarray(observations, np.float32) * self.input_scale
        for index, (weights, biases) in enumerate(self.layers):
            values = values @ weights.T + biases
            if index < len(self.layers) - 1:
                values = np.maximum(values, np.float32(0))
        return values.astype(np.float32, copy=False)

    def action(self, observation: npt.ArrayLike, mask: npt.ArrayLike) -> int:
        """The legal action of greatest logit (ties: the lowest number); ``InputError`` when none is legal."""
        legal = np.asarray(mask).astype(bool)
        if not legal.any():
            raise InputError("no action is legal in this mask")
        logits = np.where(legal, self.logits(observation), -np.inf)
        return int(np.argmax(logits))

    def trained_for(self, rules: Rules) -> bool:
        """Whether it was trained for the hands of ``rules`` (:meth:`~ginsim.Rules.hand_play`: the game's
        target, bonuses and dealer may differ)."""
        return not self._differences(rules)

    def check_rules(self, rules: Rules) -> None:
        """``InputError`` naming the fields of a hand's play where ``rules`` differ from those it was
        trained for."""
        differ = self._differences(rules)
        if differ:
            theirs = self._trained().hand_play()
            wanted = rules.hand_play()
            # A field one side lacks follows from another that differs (oklahoma_ace_limit from oklahoma):
            # named alone, the first of the others keeps the line within 80 columns.
            named = [name for name in differ if name in theirs and name in wanted] or differ
            first = named[0]
            more = f", and {len(named) - 1} more" if len(named) > 1 else ""
            raise InputError(f"{self._name()} was trained for other rules: "
                             f"{first} {theirs.get(first)!r} (not {wanted.get(first)!r}){more}")

    def _trained(self) -> Rules:
        return Rules.from_dict(self.rules)  # checked when the file was read

    def _differences(self, rules: Rules) -> list[str]:
        theirs, wanted = self._trained().hand_play(), rules.hand_play()
        return sorted(name for name in set(wanted) | set(theirs) if wanted.get(name) != theirs.get(name))

    def _name(self) -> str:
        return Path(self.path).name if self.path is not None else "a policy in memory"


def save_policy(path: str | os.PathLike[str], layers: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]], *,
                layout: str, rules: Rules, meta: Mapping[str, Any] | None = None,
                input_scale: npt.ArrayLike | None = None,
                value_head: tuple[npt.ArrayLike, npt.ArrayLike] | None = None) -> Path:
    """Write a policy file at ``path`` (written whole, then renamed into place) and return its path.

    ``layers``: (weights (out, in), biases) per linear layer; ``input_scale`` defaults to 1 per slot.
    The result is checked as :func:`load_policy` checks a file, before anything is written.
    """
    target = Path(path)
    scale = np.ones(_size(layout, f"policy file {target}"), np.float32) if input_scale is None else input_scale
    arrays: dict[str, Any] = {
        "format": np.array(FORMAT), "version": np.array(VERSION), "layout": np.array(layout),
        "rules": np.array(json.dumps(rules.to_dict())), "meta": np.array(json.dumps(dict(meta or {}))),
        "input_scale": np.asarray(scale, np.float32), "layers": np.array(len(layers)),
    }
    for index, (weights, biases) in enumerate(layers):
        arrays[f"W{index}"] = np.asarray(weights, np.float32)
        arrays[f"b{index}"] = np.asarray(biases, np.float32)
    if value_head is not None:
        arrays["value_W"], arrays["value_b"] = (np.asarray(part, np.float32) for part in value_head)
    _checked(arrays, str(target))
    partial = target.with_name(f".{target.name}.partial")
    try:
        with open(partial, "wb") as out:
            np.savez(out, **arrays)
        os.replace(partial, target)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise InputError(f"cannot write policy file {target}: {error.strerror or error}") from None
    return target


def load_policy(path: str | os.PathLike[str]) -> PolicyWeights:
    """The policy in the file at ``path``; ``InputError`` in one line for any file that is not one.

    >>> load_policy("nowhere.npz")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: policy file nowhere.npz: no such file
    """
    source = Path(path)
    if source.is_dir():
        inside = source / "policy.npz"
        hint = f": did you mean {inside}, the policy of the training run there?" if inside.is_file() else \
            " (a policy file is a .npz file, e.g. a training run's DIR/policy.npz)"
        raise InputError(f"policy file {source}: a directory, not a file{hint}")
    if not source.is_file():
        raise InputError(f"policy file {source}: no such file")
    try:
        stored = np.load(source, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        damaged = isinstance(error, (EOFError, zipfile.BadZipFile))
        reason = "truncated or damaged" if damaged else "not a numpy .npz file"
        raise InputError(f"policy file {source}: {reason}") from None
    if not isinstance(stored, np.lib.npyio.NpzFile):
        raise InputError(f"policy file {source}: not a numpy .npz file (a single array)")
    try:
        with stored:
            arrays = {key: stored[key] for key in stored.files}
    except ValueError:  # numpy refuses object arrays without pickling
        raise InputError(f"policy file {source}: it holds Python objects, which a policy file never does") from None
    except (OSError, EOFError, KeyError, zipfile.BadZipFile):
        raise InputError(f"policy file {source}: truncated or damaged") from None
    if not arrays:
        raise InputError(f"policy file {source}: an empty .npz file")
    return _checked(arrays, str(source), source)


def _text(arrays: Mapping[str, Any], key: str, where: str) -> str:
    value = arrays.get(key)
    if value is None:
        raise InputError(f"{where}: no {key!r} entry")
    if not isinstance(value, np.ndarray) or value.shape != () or value.dtype.kind != "U":
        raise InputError(f"{where}: {key!r} must be a text value")
    return str(value)


def _integer(arrays: Mapping[str, Any], key: str, where: str) -> int:
    value = arrays.get(key)
    if value is None:
        raise InputError(f"{where}: no {key!r} entry")
    if not isinstance(value, np.ndarray) or value.shape != () or value.dtype.kind not in "iu":
        raise InputError(f"{where}: {key!r} must be a whole number")
    return int(value)


def _json(arrays: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    text = _text(arrays, key, where)
    try:
        data = json.loads(text)
    except ValueError:
        raise InputError(f"{where}: {key!r} is not valid JSON") from None
    if not isinstance(data, dict):
        raise InputError(f"{where}: {key!r} must be a JSON object")
    return data


def _floats(arrays: Mapping[str, Any], key: str, where: str, dimensions: int) -> Floats:
    value = arrays.get(key)
    if value is None:
        raise InputError(f"{where}: no {key!r} entry")
    if not isinstance(value, np.ndarray) or value.ndim != dimensions or value.dtype.kind not in "fiu":
        raise InputError(f"{where}: {key!r} must be a {dimensions}-dimensional array of numbers")
    floats = np.ascontiguousarray(value, np.float32)
    if not np.isfinite(floats).all():
        raise InputError(f"{where}: {key!r} holds NaN or infinite values")
    return floats


def _size(layout: str, where: str) -> int:
    """The observation size of ``layout`` (ginsim.gin.game.policy.observations documents the layouts)."""
    if layout not in LAYOUT_NAMES:
        raise InputError(f"{where}: unknown observation layout {layout!r}; layouts: {', '.join(LAYOUT_NAMES)}")
    size: int = OBSERVATION_SIZES[LAYOUT_NAMES.index(layout)]
    return size


def _checked(arrays: Mapping[str, Any], where: str, path: Path | None = None) -> PolicyWeights:
    """The policy held by ``arrays`` (a file's entries), every entry checked."""
    where = f"policy file {where}"
    kind = _text(arrays, "format", where)
    if kind != FORMAT:
        raise InputError(f"{where}: format {kind!r} is not {FORMAT!r}")
    version = _integer(arrays, "version", where)
    if version != VERSION:
        raise InputError(f"{where}: version {version} (this ginsim reads version {VERSION})")
    layout = _text(arrays, "layout", where)
    size = _size(layout, where)
    rules = _json(arrays, "rules", where)
    try:
        Rules.from_dict(rules)
    except InputError as error:
        raise InputError(f"{where}: its rules are not valid: {error}") from None
    meta = _json(arrays, "meta", where)
    if not isinstance(meta.get("sees_scores", False), bool):
        raise InputError(f"{where}: meta's sees_scores must be true or false, got {meta['sees_scores']!r}")
    scale = _floats(arrays, "input_scale", where, 1)
    if scale.shape != (size,):
        raise InputError(f"{where}: input_scale has {scale.shape[0]} values; the {layout} layout has {size}")
    count = _integer(arrays, "layers", where)
    if not 1 <= count <= 16:
        raise InputError(f"{where}: layers must be from 1 to 16, got {count}")
    layers = []
    width = size
    for index in range(count):
        weights = _floats(arrays, f"W{index}", where, 2)
        biases = _floats(arrays, f"b{index}", where, 1)
        if weights.shape[1] != width:
            raise InputError(f"{where}: W{index} has shape {weights.shape}, which takes {weights.shape[1]} inputs, "
                             f"not {width}" + (f" (the {layout} layout's size)" if index == 0 else ""))
        if biases.shape != (weights.shape[0],):
            raise InputError(f"{where}: b{index} has shape {biases.shape}, not ({weights.shape[0]},)")
        layers.append((weights, biases))
        width = weights.shape[0]
    if width != NUM_ACTIONS:
        raise InputError(f"{where}: the last layer gives {width} values, not the {NUM_ACTIONS} action logits")
    value_head = None
    if "value_W" in arrays or "value_b" in arrays:
        value_head = (_floats(arrays, "value_W", where, 2), _floats(arrays, "value_b", where, 1))
    return PolicyWeights(layout, rules, meta, scale, tuple(layers), value_head, path)
