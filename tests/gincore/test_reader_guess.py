"""reader's guess of its opponent's deadwood: the native network against torch's forward pass on the
shipped weights, the linear guess against the fitting tool's, and the loader's refusals."""
from __future__ import annotations

import importlib.util
import math
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from gincore._engine import _reader_guess, load_reader_guess
from gincore.errors import InputError

torch = pytest.importorskip("torch")

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fit_deadwood.py"


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fit_deadwood", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _shipped() -> dict[str, np.ndarray]:
    with resources.as_file(resources.files("gincore").joinpath("reader_guess.npz")) as path, np.load(path) as data:
        return {name: data[name] for name in data.files}


def _views(rng: np.random.Generator, count: int) -> dict[str, np.ndarray]:
    """Random views as ``Engine.model_inputs`` gives them: each card the player's, in the pile, a face-up
    card the opponent holds, or unknown; discards, refusals and takes among the cards not the player's."""
    columns: dict[str, list[int]] = {name: [] for name in ("mine", "pile", "holds", "took", "discarded", "passed",
                                                           "turns")}
    for _ in range(count):
        place = rng.choice(4, size=52, p=[0.2, 0.25, 0.05, 0.5])
        masks = {name: sum(1 << int(card) for card in np.flatnonzero(place == k))
                 for k, name in enumerate(("mine", "pile", "holds"))}
        others = ~masks["mine"] & ((1 << 52) - 1)
        for name, share in (("took", 0.05), ("discarded", 0.15), ("passed", 0.1)):
            masks[name] = sum(1 << int(card) for card in np.flatnonzero(rng.random(52) < share)) & others
        masks["took"] |= masks["holds"]
        for name, value in masks.items():
            columns[name].append(value)
        columns["turns"].append(int(rng.integers(0, 45)))
    return {name: np.array(values, dtype=np.int64 if name == "turns" else np.uint64)
            for name, values in columns.items()}


def _native(views: dict[str, np.ndarray], guess: int) -> np.ndarray:
    return np.array([_reader_guess(guess, *(int(views[name][i]) for name in ("mine", "pile", "holds", "took",
                                                                             "discarded", "passed", "turns")))
                     for i in range(len(views["turns"]))])


def test_the_network_guess_is_torchs_forward_pass_rounded(test_seed: int) -> None:
    weights = _shipped()
    width = weights["hidden_biases"].shape[0]
    network = torch.nn.Sequential(torch.nn.Linear(262, width), torch.nn.ReLU(), torch.nn.Linear(width, 1))
    with torch.no_grad():
        network[0].weight.copy_(torch.from_numpy(weights["hidden_weights"]))
        network[0].bias.copy_(torch.from_numpy(weights["hidden_biases"]))
        network[2].weight.copy_(torch.from_numpy(weights["output_weights"][None, :]))
        network[2].bias.copy_(torch.from_numpy(weights["output_bias"]))
    views = _views(np.random.default_rng(test_seed), 400)
    with torch.no_grad():
        tenths = 10 * network(torch.from_numpy(_tool().inputs(views)))[:, 0].double().numpy()
    native = _native(views, 1)
    near_a_tie = np.abs((tenths + 0.5) - np.round(tenths + 0.5)) < 1e-4  # float32 sums in another order
    expected = np.maximum(1, np.floor(tenths + 0.5))
    assert (native == expected)[~near_a_tie].all()
    assert (np.abs(native - expected) <= 1).all()
    assert len(set(native.tolist())) > 10  # the views are varied enough to test something


def test_the_linear_guess_is_the_tools(test_seed: int) -> None:
    views = _views(np.random.default_rng(test_seed), 200)
    tool = _tool()
    native, expected = _native(views, 0), tool.linear_guess(views)
    value = tool.linear_value(views) + 0.5
    near_a_tie = np.abs(value - np.round(value)) < 1e-9  # sums in another order
    assert (native == expected)[~near_a_tie].all()
    assert (np.abs(native - expected) <= 1).all()


def test_the_guess_moves_with_what_the_opponent_showed() -> None:
    """The same hand and draws, with and without a discard, a refusal and a face-up card taken."""
    quiet = _reader_guess(1, 0b1111111111, 0, 0, 0, 0, 0, 12)
    shown = _reader_guess(1, 0b1111111111, 1 << 20, 0, 0, (1 << 20) | (1 << 33), 1 << 46, 12)
    assert quiet >= 1 and shown >= 1 and quiet != shown


def test_the_loader_refuses_weights_that_do_not_fit() -> None:
    weights = _shipped()
    bad = [
        dict(weights, hidden_weights=weights["hidden_weights"][:, :-1]),
        dict(weights, output_weights=weights["output_weights"][:-1]),
        dict(weights, hidden_biases=np.zeros(257, np.float32), hidden_weights=np.zeros((257, 262), np.float32),
             output_weights=np.zeros(257, np.float32)),
        dict(weights, output_bias=np.zeros(2, np.float32)),
        dict(weights, output_bias=np.array([math.nan], np.float32)),
    ]
    before = _native(_views(np.random.default_rng(3), 50), 1)
    for arrays in bad:
        with pytest.raises(InputError, match="reader's guess takes"):
            load_reader_guess(arrays["hidden_weights"], arrays["hidden_biases"], arrays["output_weights"],
                              arrays["output_bias"])
    assert (_native(_views(np.random.default_rng(3), 50), 1) == before).all()  # the refusals changed nothing
