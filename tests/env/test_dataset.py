"""``ginsim dataset`` and ginsim.env.dataset: a Minari dataset that minari.load_dataset reads back as the recorded
decisions, episode by episode; bad input refused in one line, nothing left half-written."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.cli_runner import invoke

minari = pytest.importorskip("minari")
pytest.importorskip("h5py")

from gincore.errors import InputError  # noqa: E402
from ginsim import Rules  # noqa: E402
from ginsim.env.dataset import write_dataset  # noqa: E402
from ginsim.gin.studies.decisions import record_decisions  # noqa: E402


def test_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_seed: int) -> None:
    rules = Rules.preset("oklahoma")
    path = write_dataset("ginsim/okla-v0", rules, "marjj,greedy", hands=15, seed=test_seed, root=tmp_path)
    assert path == tmp_path / "ginsim" / "okla-v0"
    assert not [name for name in tmp_path.iterdir() if name.name.startswith(".")]
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    dataset = minari.load_dataset("ginsim/okla-v0")
    rows = record_decisions(rules, "marjj,greedy", hands=15, seed=test_seed)
    assert dataset.total_steps == len(rows["action"])
    assert dataset.total_episodes == len(set(zip(rows["hand"].tolist(), rows["seat"].tolist(), strict=True)))
    assert dataset.observation_space["observation"].shape == (636,)
    assert dataset.action_space.n == 107
    for episode in dataset.iterate_episodes():
        hand, seat = int(episode.infos["hand"][0]), int(episode.infos["seat"][0])
        mine = (rows["hand"] == hand) & (rows["seat"] == seat)
        np.testing.assert_array_equal(episode.actions, rows["action"][mine])
        np.testing.assert_array_equal(episode.observations["observation"][:-1], rows["observation"][mine])
        np.testing.assert_array_equal(episode.observations["action_mask"][:-1], rows["action_mask"][mine])
        assert not episode.observations["action_mask"][-1].any()  # the hand is over
        assert episode.observations["observation"][-1][468 + 3] == 1  # its phase: hand over
        points = int(rows["points"][mine][0])
        assert episode.rewards.tolist() == [0] * (len(episode.actions) - 1) + [points]
        assert episode.terminations[-1] and not episode.terminations[:-1].any() and not episode.truncations.any()
        assert (episode.infos["points"] == points).all() and "equity" in episode.infos


def test_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = invoke("dataset", "--players", "simple,random", "--hands", "5", "--seats", "1", "--layout",
                              "compact", "--id", "ginsim/tiny-v0", "--root", str(tmp_path), "--no-progress")
    assert status == 0, err
    assert out.startswith("ginsim/tiny-v0: 5 episodes,")
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    dataset = minari.load_dataset("ginsim/tiny-v0")
    assert dataset.observation_space["observation"].shape == (480,)
    assert {int(episode.infos["seat"][0]) for episode in dataset.iterate_episodes()} == {1}
    status, _, err = invoke("dataset", "--hands", "5", "--id", "ginsim/tiny-v0", "--root", str(tmp_path))
    assert status == 2 and err.strip() == (f"Error: dataset ginsim/tiny-v0 already exists in {tmp_path}: choose "
                                           "another id or version")
    assert minari.load_dataset("ginsim/tiny-v0").total_episodes == 5  # the first one is kept


@pytest.mark.parametrize("args, message", [
    (["--id", "bad id"], "dataset id 'bad id' must be (namespace/)name-vN"),
    (["--id", "../up-v0"], "dataset id '../up-v0' must be (namespace/)name-vN"),
    (["--id", "g/reader-v0"], "a namespace of two characters or more"),  # Minari's own check, before play
    (["--id", "ns/a.b-v0"], "dataset id 'ns/a.b-v0' must be (namespace/)name-vN"),
    (["--id", "ginsim/x-v0", "--seats", "2"], "--seats must be 0, 1 or 0,1, got '2'"),
    (["--id", "ginsim/x-v0", "--seats", "0,0"], "--seats must be 0, 1 or 0,1"),
    (["--id", "ginsim/x-v0", "--players", "marjj,nobody"], "unknown strategy 'nobody'"),
    (["--id", "ginsim/x-v0", "--layout", "pixels"], "Invalid value for '--layout'"),
    (["--id", "ginsim/x-v0", "--hands", "0"], "Invalid value for '--hands'"),
])
def test_cli_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    hands = [] if "--hands" in args else ["--hands", "3"]
    status, _, err = invoke("dataset", "--root", str(tmp_path), *hands, *args)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.iterdir())


def test_without_decisions_of_a_seat(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="seats must be 0, 1 or both"):
        write_dataset("ginsim/none-v0", Rules(), "simple,simple", hands=2, seed=1, seats=(), root=tmp_path)
