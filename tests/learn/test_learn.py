"""ginsim.learn and ``ginsim train``: settings checked, training that learns, checkpoints that resume exactly,
and every kind of bad input refused in one line."""
from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gincore.errors import InputError
from ginsim import Rules
from ginsim.learn.config import TrainConfig, parse_opponents

torch = pytest.importorskip("torch")
pytest.importorskip("gymnasium")

from ginsim.gin.game.policy.file import load_policy  # noqa: E402
from ginsim.gin.game.policy.network import PolicyNetwork, input_scale  # noqa: E402
from ginsim.learn import ppo, training  # noqa: E402
from ginsim.learn.training import train  # noqa: E402
from tests.cli_runner import invoke  # noqa: E402

# a tiny run: 2 updates of 16 tables x 16 decisions, a checkpoint after each
TINY = dict(n_envs=16, n_steps=16, total_timesteps=512, n_epochs=2, batch_size=128, hidden=(32,), checkpoint_every=1)


def tiny(**changes: Any) -> TrainConfig:
    return TrainConfig(**{**TINY, "opponents": (("random", 1.0),), **changes})


@contextlib.contextmanager
def stopped_at_call(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, count: int) -> Iterator[None]:
    """``owner.name`` raising KeyboardInterrupt (a Ctrl-C) at its ``count``-th call, restored after."""
    original, calls = getattr(owner, name), []

    def stopping(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == count:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, stopping)
    try:
        yield
    finally:
        monkeypatch.setattr(owner, name, original)


def weights(network: PolicyNetwork) -> dict[str, Any]:
    return {name: tensor.clone() for name, tensor in network.state_dict().items()}


# --- settings -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "message"), [
    ({"learning_rate": 0.0}, "learning_rate must be a number above 0 and at most 1, got 0.0"),
    ({"learning_rate": float("nan")}, "learning_rate must be a number above 0 and at most 1, got nan"),
    ({"clip_range": 1.5}, "clip_range must be a number above 0 and at most 1, got 1.5"),
    ({"gamma": -0.1}, "gamma must be a number from 0 to 1, got -0.1"),
    ({"n_envs": 0}, "n_envs must be an integer from 1 to 65,536, got 0"),
    ({"total_timesteps": 2.5}, "total_timesteps must be an integer from 1 to 1,000,000,000,000, got 2.5"),
    ({"hidden": ()}, "hidden must be 1 to 8 layer widths, got []"),
    ({"hidden": (0,)}, "a hidden layer's width must be an integer from 1 to 4,096, got 0"),
    ({"reward": "money"}, "reward must be one of points, win, shaped, got 'money'"),
    ({"episode": "game"}, "episode must be one of hand, match, got 'game'"),
    ({"reward": "shaped"}, "it needs match episodes (--episode match)"),
    ({"reward": "shaped", "episode": "match", "rules": Rules(target=None)}, "these rules have none (give --target)"),
    ({"layout": "pixels"}, "unknown observation layout 'pixels'"),
    ({"opponents": (("nobody", 1.0),)}, "nobody"),
    ({"opponents": (("simple", 0.0),)}, "the share of opponent 'simple' must be a number above 0"),
    ({"imitate": "nobody"}, "nobody"),
    ({"imitate_lr_end": 2.0}, "imitate_lr_end must be a number from 0 to 1, got 2.0"),
    ({"imitate_fresh": "yes"}, "imitate_fresh must be True or False, got 'yes'"),
])
def test_settings_out_of_range_are_refused_in_one_line(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=None) as error:
        TrainConfig(**changes)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_opponent_mix_shares_the_tables() -> None:
    config = TrainConfig(opponents=parse_opponents("simple=3, threshold:7, marjj=4"), n_envs=80)
    assert config.tables() == (("simple", 30), ("threshold:7", 10), ("marjj:5", 40))
    assert TrainConfig.from_dict(config.to_dict()) == config
    with pytest.raises(InputError, match="share of opponent 'simple' must be a number"):
        parse_opponents("simple=lots")


# --- the network --------------------------------------------------------------------------------------

def test_policy_file_plays_as_the_network(tmp_path: Path) -> None:
    """The exported file's logits (numpy) are the network's, and its play is the network's legal argmax."""
    with torch.random.fork_rng():
        torch.manual_seed(3)
        network = PolicyNetwork("compact", (24, 16))
    from ginsim import Rules
    from ginsim.gin.game.policy.network import save_network
    path = save_network(network, tmp_path / "p.npz", Rules(), {"seed": 3})
    loaded = load_policy(path)
    generator = np.random.default_rng(4)
    high = 1 / input_scale("compact")
    observations = (generator.random((64, len(high))) * (high + 1)).astype(np.int8)
    masks = (generator.random((64, 107)) < 0.1).astype(np.int8)
    masks[:, 0] = 1
    logits, _ = network(torch.from_numpy(observations), torch.from_numpy(np.ones_like(masks)))
    assert np.allclose(loaded.logits(observations), logits.detach().numpy(), atol=1e-5)
    played = network.greedy(observations, masks)
    assert all(masks[row, action] for row, action in enumerate(played))
    assert [loaded.action(o, m) for o, m in zip(observations, masks, strict=True)] == played.tolist()
    again = PolicyNetwork.from_weights(loaded)
    assert all(torch.equal(a, b) for a, b in zip(network.state_dict().values(), again.state_dict().values(),
                                                  strict=True))


# --- training -----------------------------------------------------------------------------------------

@pytest.mark.slow
def test_short_training_improves_on_its_start_against_random(tmp_path: Path) -> None:
    """Cloning simple's decisions over 300 hands, then two PPO updates: the greedy policy gains points per hand
    against random over the same 2,000 deals."""
    config = TrainConfig(opponents=(("random", 1.0),), imitate="simple", imitate_against="random", imitate_hands=300,
                         imitate_epochs=3, n_envs=32, n_steps=32, total_timesteps=2048, batch_size=256,
                         hidden=(64,), seed=11)
    start = training._fresh(config).network
    before = ppo.evaluate(start, "random", hands=2000, seed=5)
    result = train(config, tmp_path / "run", progress=False)
    after = ppo.evaluate(PolicyNetwork.from_weights(load_policy(result.policy)), "random", hands=2000, seed=5)
    assert after.points / after.hands > before.points / before.hands + 5
    assert after.wins > before.wins
    phases = [(row["phase"], row["epoch"], row["update"]) for row in result.curve]
    assert phases == [("imitate", 1, 0), ("imitate", 2, 0), ("imitate", 3, 0), ("ppo", 3, 1), ("ppo", 3, 2)]
    assert result.curve[2]["accuracy"] > result.curve[0]["accuracy"]


def test_the_directory_holds_checkpoint_policy_and_curve(tmp_path: Path) -> None:
    result = train(tiny(), tmp_path / "run", progress=False, command="ginsim train --tiny")
    names = {path.name for path in (tmp_path / "run").iterdir()}
    assert {"training.json", "checkpoint.pt", "policy.npz", "curve.csv", "curve.json", "curve.png"} <= names
    policy = load_policy(result.policy)
    assert policy.layout == "compact" and policy.sizes == (480, 32, 107)
    assert policy.meta["command"] == "ginsim train --tiny" and policy.meta["seed"] == 0
    assert policy.meta["steps"] == 512 and policy.meta["config"]["n_envs"] == 16
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())
    assert [row["update"] for row in curve["rows"]] == [1, 2]
    header = (tmp_path / "run" / "curve.csv").read_text().splitlines()[0].split(",")
    assert {"steps", "points_per_hand", "points[random]", "win_rate[random]", "policy_loss"} <= set(header)


def test_resume_after_an_interruption_ends_as_the_uninterrupted_run(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    config = tiny(total_timesteps=1024, checkpoint_every=2)  # 4 updates, checkpoints after the 2nd and the 4th
    whole = train(config, tmp_path / "whole", progress=False)
    from ginsim.core.execution import RunInterrupted
    with stopped_at_call(monkeypatch, training, "ppo_update", 3), \
            pytest.raises(RunInterrupted, match="checkpoint of PPO update 2 and its policy are kept in"):
        train(config, tmp_path / "cut", progress=False)
    resumed = train(config, tmp_path / "cut", progress=False)
    assert resumed.resumed and not whole.resumed
    for name in ("W0", "b0", "W1", "b1", "value_W"):
        assert np.array_equal(np.load(whole.policy)[name], np.load(resumed.policy)[name])
    drop = {"seconds"}
    assert [{k: v for k, v in row.items() if k not in drop} for row in whole.curve] == \
        [{k: v for k, v in row.items() if k not in drop} for row in resumed.curve]


def test_fresh_cloning_sees_new_hands_each_pass_and_resumes_exactly(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With imitate_fresh each epoch clones hands of its own (the run's hands e * imitate_hands onwards), the
    step size falls on its cosine to imitate_lr_end, and a run stopped in the second epoch resumes to the
    weights of the one never stopped."""
    from ginsim.learn import imitation

    config = tiny(imitate="simple", imitate_against="random", imitate_hands=40, imitate_epochs=3, imitate_fresh=True,
                  imitate_lr_end=1e-5, total_timesteps=256)
    recorded: list[int] = []
    original_record = imitation.record_expert

    def record(config: TrainConfig, shown: bool = False, epoch: int = 0) -> dict[str, Any]:
        decisions = original_record(config, shown, epoch)
        recorded.append(int(decisions["hand"][0]))
        return decisions

    monkeypatch.setattr(imitation, "record_expert", record)
    whole = train(config, tmp_path / "whole", progress=False)
    assert recorded == [0, 40, 80]  # the first hand of each epoch's decisions
    from ginsim.core.execution import RunInterrupted
    with stopped_at_call(monkeypatch, imitation, "clone_epoch", 2), \
            pytest.raises(RunInterrupted, match="checkpoint of imitation"):
        train(config, tmp_path / "cut", progress=False)
    resumed = train(config, tmp_path / "cut", progress=False)
    for name in ("W0", "b0", "W1", "b1", "value_W"):
        assert np.array_equal(np.load(whole.policy)[name], np.load(resumed.policy)[name])
    assert imitation.clone_step_size(config, 1.0) == pytest.approx(1e-5)


def test_cloning_a_recording_is_cloning_its_hands_in_memory(tmp_path: Path, test_seed: int) -> None:
    """imitate_decisions: a recording (ginsim record) of the expert against one opponent, with the run's seed,
    holds the hands imitate_hands records in memory, so the clone ends with the same weights."""
    from ginsim.gin.studies.decisions import record_expert_decisions

    record_expert_decisions(TrainConfig().rules, "simple", "random", 30, test_seed, "compact",
                            out=tmp_path / "rec", workers=2, chunk_size=7, progress=False)
    settings = dict(imitate_epochs=2, total_timesteps=256, seed=test_seed)
    memory = train(tiny(imitate="simple", imitate_against="random", imitate_hands=30, **settings),
                   tmp_path / "memory", progress=False)
    recorded = tiny(imitate_decisions=str(tmp_path / "rec"), **settings)
    assert recorded.imitate == "simple"
    cloned = train(recorded, tmp_path / "recorded", progress=False)
    for name in ("W0", "b0", "W1", "b1", "value_W"):
        assert np.array_equal(np.load(memory.policy)[name], np.load(cloned.policy)[name])
    with pytest.raises(InputError, match="a recording's passes are over its decisions"):
        tiny(imitate_decisions=str(tmp_path / "rec"), imitate_fresh=True)


def test_a_run_starts_from_an_earlier_policy(tmp_path: Path) -> None:
    """start_from: the network begins as the file's (value head too), and a file another network's shape,
    layout or hands is refused in one line before anything is written."""
    from ginsim import Rules

    first = train(tiny(), tmp_path / "first", progress=False)
    config = tiny(start_from=str(first.policy), total_timesteps=256)
    assert training._fresh(config).network.state_dict()["body.0.weight"].equal(
        PolicyNetwork.from_weights(load_policy(first.policy)).state_dict()["body.0.weight"])
    assert train(config, tmp_path / "second", progress=False).steps == 256
    for changes, message in (({"hidden": (16,)}, "hidden layers [32]; this run's reads compact through [16]"),
                             ({"layout": "learner"}, "reads the compact layout"),
                             ({"rules": Rules.preset("oklahoma")}, "trained for other rules: oklahoma False"),
                             ({"start_from": str(tmp_path / "none.npz")}, "no such file")):
        with pytest.raises(InputError) as error:
            tiny(**{"start_from": str(first.policy), **changes})
        assert message in str(error.value) and "\n" not in str(error.value)


def test_a_match_run_learns_seeing_the_scores_from_a_policy_that_never_saw_them(tmp_path: Path) -> None:
    """episode="match": a run starting from a single-hand policy starts from its network with the score
    slots' weights zeroed (it plays as the file did, whatever the scores), and its policy file says that
    it sees the scores; a run on single hands keeps the file's network as it is, and says nothing."""
    from ginsim import Rules
    from ginsim.gin.game.policy.observations import field_slots

    first = train(tiny(layout="learner"), tmp_path / "hands", progress=False)
    assert not load_policy(first.policy).sees_scores
    config = tiny(layout="learner", start_from=str(first.policy), episode="match", reward="shaped",
                  rules=Rules.preset("eaai"), total_timesteps=256)
    started = training._fresh(config).network.state_dict()["body.0.weight"]
    original = PolicyNetwork.from_weights(load_policy(first.policy)).state_dict()["body.0.weight"]
    scores = field_slots("scores", "learner")
    assert started[:, scores].abs().sum() == 0 and original[:, scores].abs().sum() > 0
    others = np.ones(started.shape[1], bool)
    others[scores] = False
    assert started[:, others].equal(original[:, others])
    matches = train(config, tmp_path / "matches", progress=False)
    assert load_policy(matches.policy).sees_scores
    assert load_policy(matches.policy).meta["config"]["episode"] == "match"
    # going on from a policy that sees the scores keeps what it learnt of them
    again = tiny(layout="learner", start_from=str(matches.policy), episode="match", rules=Rules.preset("eaai"))
    assert training._fresh(again).network.state_dict()["body.0.weight"].equal(
        PolicyNetwork.from_weights(load_policy(matches.policy)).state_dict()["body.0.weight"])


def test_a_finished_run_is_read_back(tmp_path: Path) -> None:
    first = train(tiny(), tmp_path / "run", progress=False)
    again = train(tiny(), tmp_path / "run", progress=False)
    assert again.resumed and again.steps == first.steps
    assert np.array_equal(np.load(first.policy)["W0"], np.load(again.policy)["W0"])


def test_a_nan_loss_stops_and_keeps_the_last_good_checkpoint(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    original = ppo.Tables.collect
    calls = {"count": 0}

    def poisoned(self: ppo.Tables, *args: Any, **kwargs: Any) -> ppo.Rollout:
        rollout = original(self, *args, **kwargs)
        calls["count"] += 1
        if calls["count"] == 2:  # the second update's returns: as from a reward that overflowed
            rollout.returns[:] = float("nan")
        return rollout

    monkeypatch.setattr(ppo.Tables, "collect", poisoned)
    with pytest.raises(ppo.LossNotFinite) as error:
        train(tiny(), tmp_path / "run", progress=False)
    message = str(error.value)
    assert "the loss became nan" in message and "at PPO update 2" in message and "\n" not in message
    assert "the checkpoint of PPO update 1 and its policy are kept" in message
    stored = torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=True)
    assert stored["update"] == 1
    assert np.isfinite(load_policy(tmp_path / "run" / "policy.npz").layers[0][0]).all()


# --- bad directories and checkpoints ------------------------------------------------------------------

def test_another_runs_directory_is_refused(tmp_path: Path) -> None:
    train(tiny(), tmp_path / "run", progress=False)
    with pytest.raises(InputError, match=r"holds a different training run: config.learning_rate 0.0003 \(not 0.001\)"):
        train(tiny(learning_rate=1e-3), tmp_path / "run", progress=False)
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="foreign is not empty and is not a ginsim training directory"):
        train(tiny(), tmp_path / "foreign", progress=False)
    assert sorted(path.name for path in (tmp_path / "foreign").iterdir()) == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="exists and is not a directory"):
        train(tiny(), tmp_path / "file", progress=False)


@pytest.mark.parametrize("damage", ["truncated", "garbage", "foreign"])
def test_a_damaged_checkpoint_is_refused(tmp_path: Path, damage: str) -> None:
    train(tiny(total_timesteps=256), tmp_path / "run", progress=False)
    checkpoint = tmp_path / "run" / "checkpoint.pt"
    if damage == "truncated":
        checkpoint.write_bytes(checkpoint.read_bytes()[: checkpoint.stat().st_size // 2])
    elif damage == "garbage":
        checkpoint.write_bytes(b"not a checkpoint at all")
    else:
        torch.save({"format": "something else"}, checkpoint)
    with pytest.raises(InputError, match=r"checkpoint.pt is damaged \(.+\); delete it to train from the start"):
        train(tiny(total_timesteps=256), tmp_path / "run", progress=False)


# --- the command line ---------------------------------------------------------------------------------

def test_cli_trains_and_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--opponents", "random", "--steps", "256", "--envs", "16", "--rollout", "16",
            "--hidden", "16", "--minibatch", "64", "--epochs", "1", "--checkpoint-every", "1", "--no-progress"]
    status, output, errors = invoke(*args)
    assert status == 0, errors
    assert "policy: " in output and "hands won against random" in output and "imitation:" not in output
    assert load_policy(out / "policy.npz").meta["command"].startswith("ginsim")
    assert (out / "curve.png").read_bytes()[:4] == b"\x89PNG"  # one update: drawn as a marker
    cloned = tmp_path / "cloned"
    status, output, errors = invoke(*[str(cloned) if arg == str(out) else arg for arg in args], "--imitate", "greedy",
                                    "--imitate-hands", "20", "--imitate-epochs", "2")
    assert status == 0, errors
    assert re.search(r"^imitation: \d+\.\d% of the expert's decisions matched in the last of 2 passes$", output,
                     re.MULTILINE), output  # the closing summary gives the clone's agreement
    for bad, message in ((["--lr", "7"], "learning_rate must be a number above 0 and at most 1, got 7.0"),
                         (["--hidden", "a,b"], "--hidden takes layer widths separated by commas"),
                         (["--opponents", "nobody"], "nobody"),
                         (["--epochs", "2"], "holds a different training run: config.n_epochs 1 (not 2)")):
        status, output, errors = invoke(*args, *bad)
        lines = errors.strip().splitlines()
        assert status == 2 and len(lines) == 1 and message in lines[0], errors


def test_the_old_names_of_the_settings_are_accepted_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match=r"TrainConfig\(lr=\.\.\.\) is deprecated: write learning_rate"):
        config = TrainConfig(lr=1e-3)  # type: ignore[call-arg]
    assert config.learning_rate == 1e-3
    assert TrainConfig.from_dict({"lr": 1e-3}).learning_rate == 1e-3  # a directory written before the rename
    with pytest.raises(TypeError, match="both lr and learning_rate"):
        TrainConfig(lr=1e-3, learning_rate=1e-3)  # type: ignore[call-arg]
