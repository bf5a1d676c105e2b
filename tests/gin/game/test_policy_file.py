"""Policy weights files (ginsim.gin.game.policy.file): a round trip, and a one-line InputError for every kind of
bad file."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gincore.errors import InputError
from ginsim import Rules
from ginsim.gin.game.policy.file import load_policy, save_policy


def _layers(rng: np.random.Generator, sizes: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    return [(rng.normal(size=(out, inputs)).astype(np.float32), rng.normal(size=out).astype(np.float32))
            for inputs, out in zip(sizes, sizes[1:], strict=False)]


def _arrays(rng: np.random.Generator, layout: str = "compact", size: int = 480) -> dict[str, Any]:
    arrays: dict[str, Any] = {
        "format": np.array("ginsim-policy"), "version": np.array(1), "layout": np.array(layout),
        "rules": np.array(json.dumps(Rules().to_dict())), "meta": np.array(json.dumps({"seed": 3})),
        "input_scale": np.ones(size, np.float32), "layers": np.array(2),
    }
    for index, (weights, biases) in enumerate(_layers(rng, (size, 16, 107))):
        arrays[f"W{index}"], arrays[f"b{index}"] = weights, biases
    return arrays


def test_round_trip(tmp_path: Path, rng: np.random.Generator) -> None:
    layers = _layers(rng, (636, 32, 16, 107))
    scale = rng.uniform(0, 1, 636).astype(np.float32)
    path = save_policy(tmp_path / "p.npz", layers, layout="learner", rules=Rules.preset("oklahoma"),
                       meta={"command": "ginsim train", "seed": 7}, input_scale=scale,
                       value_head=(np.ones((1, 16)), np.zeros(1)))
    policy = load_policy(path)
    assert policy.layout == "learner" and policy.sizes == (636, 32, 16, 107)
    assert policy.meta == {"command": "ginsim train", "seed": 7}
    assert Rules.from_dict(policy.rules) == Rules.preset("oklahoma")
    np.testing.assert_array_equal(policy.input_scale, scale)
    for (weights, biases), (stored_weights, stored_biases) in zip(layers, policy.layers, strict=True):
        np.testing.assert_array_equal(weights, stored_weights)
        np.testing.assert_array_equal(biases, stored_biases)
    assert policy.value_head is not None and policy.value_head[0].shape == (1, 16)
    policy.check_rules(Rules.preset("oklahoma"))
    with pytest.raises(InputError, match="trained for other rules: oklahoma True \\(not False\\)"):
        policy.check_rules(Rules())
    assert not list(tmp_path.glob(".*partial"))


def test_numpy_forward_and_choice(rng: np.random.Generator) -> None:
    import tempfile
    path = save_policy(Path(tempfile.mkdtemp()) / "p.npz", _layers(rng, (480, 8, 107)), layout="compact",
                       rules=Rules())
    policy = load_policy(path)
    observation = rng.integers(0, 3, 480).astype(np.int8)
    weights, biases = policy.layers[0]
    hidden = np.maximum(observation.astype(np.float32) @ weights.T + biases, 0)
    expected = hidden @ policy.layers[1][0].T + policy.layers[1][1]
    np.testing.assert_allclose(policy.logits(observation), expected, rtol=1e-5, atol=1e-4)
    mask = np.zeros(107, np.int8)
    mask[[3, 40, 60]] = 1
    assert policy.action(observation, mask) == [3, 40, 60][int(np.argmax(expected[[3, 40, 60]]))]
    with pytest.raises(InputError, match="no action is legal"):
        policy.action(observation, np.zeros(107, np.int8))


def _bad(arrays: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    changed = {**arrays, **change}
    return {key: value for key, value in changed.items() if value is not None}


@pytest.mark.parametrize("change, message", [
    ({"format": np.array("other")}, "format 'other' is not 'ginsim-policy'"),
    ({"format": None}, "no 'format' entry"),
    ({"version": np.array(2)}, "version 2 \\(this ginsim reads version 1\\)"),
    ({"version": np.array("1")}, "'version' must be a whole number"),
    ({"layout": np.array("pixels")}, "unknown observation layout 'pixels'"),
    ({"layout": np.array("learner")}, "input_scale has 480 values; the learner layout has 636"),
    ({"rules": np.array("{")}, "'rules' is not valid JSON"),
    ({"rules": np.array(json.dumps({"knock_limit": 11}))}, "its rules are not valid: knock_limit"),
    ({"meta": np.array("[1]")}, "'meta' must be a JSON object"),
    ({"meta": np.array(json.dumps({"sees_scores": "yes"}))}, "meta's sees_scores must be true or false, got 'yes'"),
    ({"layers": np.array(3)}, "no 'W2' entry"),
    ({"layers": np.array(0)}, "layers must be from 1 to 16"),
    ({"W0": np.ones((16, 479), np.float32)}, "W0 has shape \\(16, 479\\), which takes 479 inputs, not 480"),
    ({"W1": np.ones((107, 15), np.float32)}, "W1 has shape \\(107, 15\\), which takes 15 inputs, not 16"),
    ({"b0": np.ones(15, np.float32)}, "b0 has shape \\(15,\\), not \\(16,\\)"),
    ({"W1": np.ones((106, 16), np.float32), "b1": np.ones(106, np.float32)}, "gives 106 values, not the 107"),
    ({"W1": np.full((107, 16), np.nan, np.float32)}, "'W1' holds NaN or infinite values"),
    ({"input_scale": np.full(480, np.inf, np.float32)}, "'input_scale' holds NaN or infinite values"),
    ({"W0": np.array(["a"] * 4)}, "'W0' must be a 2-dimensional array of numbers"),
])
def test_bad_files(tmp_path: Path, rng: np.random.Generator, change: dict[str, Any], message: str) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, **_bad(_arrays(rng), change))
    with pytest.raises(InputError, match=message) as caught:
        load_policy(path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_files_that_are_not_policies(tmp_path: Path, rng: np.random.Generator) -> None:
    good = tmp_path / "good.npz"
    np.savez(good, **_arrays(rng))
    load_policy(good)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    text = tmp_path / "text.npz"
    text.write_text("not numbers\n")
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, **_arrays(rng), extra=np.array([{"a": 1}], dtype=object))
    single = tmp_path / "single.npy"
    np.save(single, np.ones(3))
    for path, message in [(truncated, "truncated or damaged"), (text, "not a numpy .npz file"),
                          (pickled, "holds Python objects"), (tmp_path / "none.npz", "no such file"),
                          (tmp_path, "a directory, not a file"), (single, "not a numpy .npz file")]:
        with pytest.raises(InputError, match=message) as caught:
            load_policy(path)
        assert "\n" not in str(caught.value)
    run = tmp_path / "run"  # a training run's directory, given for its policy: the file is named
    run.mkdir()
    np.savez(run / "policy.npz", **_arrays(rng))
    with pytest.raises(InputError, match=f"a directory, not a file: did you mean {run / 'policy.npz'}, the policy "
                                         "of the training run there"):
        load_policy(run)


def test_save_refuses_bad_networks(tmp_path: Path, rng: np.random.Generator) -> None:
    with pytest.raises(InputError, match="which takes 480 inputs, not 636"):
        save_policy(tmp_path / "p.npz", _layers(rng, (480, 107)), layout="learner", rules=Rules())
    with pytest.raises(InputError, match="unknown observation layout"):
        save_policy(tmp_path / "p.npz", _layers(rng, (480, 107)), layout="pixels", rules=Rules())
    assert not list(tmp_path.iterdir())
