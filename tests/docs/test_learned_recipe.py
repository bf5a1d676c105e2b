"""``tools/make_learned.py`` is the recipe of each shipped ``learned`` policy: its last stage is the run whose
settings the shipped file's ``meta`` holds, each stage goes on from the one before, and docs/learning.md prints
the commands it runs."""
from __future__ import annotations

import runpy
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginsim.cli import main
from ginsim.gin.game.policy.file import load_policy
from ginsim.learn.config import TrainConfig

ROOT = Path(__file__).resolve().parents[2]
TOOL = runpy.run_path(str(ROOT / "tools" / "make_learned.py"), run_name="tool")
POLICIES = sorted(TOOL["RECIPES"])


def _shipped(policy: str) -> Path:
    return ROOT / "src" / "ginsim" / "gin" / "data" / f"learned_{policy}.npz"


def _config(command: list[str], monkeypatch: pytest.MonkeyPatch, policy: str) -> TrainConfig:
    """The settings ``ginsim train`` makes of ``command`` (the run itself is not started); the stage before's
    policy file is the shipped one, as the settings are checked against the file they start from."""
    if "--start-from" in command:
        start = Path(command[command.index("--start-from") + 1])
        start.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_shipped(policy), start)
    made: list[TrainConfig] = []

    def capture(config: TrainConfig, out: Any, **_: Any) -> Any:
        made.append(config)
        raise SystemExit(0)

    monkeypatch.setattr("ginsim.learn.training.train", capture)
    result = CliRunner().invoke(main, command[1:])
    assert result.exit_code == 0 and made, result.output
    return made[0]


@pytest.mark.parametrize("policy", POLICIES)
def test_the_last_stage_is_the_shipped_files_run(policy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = load_policy(_shipped(policy)).meta
    stages = TOOL["commands"](policy, tmp_path)
    made = _config(stages[-1], monkeypatch, policy).to_dict()
    # the file it started from is a path on the machine that made it
    made.pop("start_from")
    expected = TrainConfig.from_dict({key: value for key, value in shipped["config"].items() if key != "start_from"})
    assert made == {key: value for key, value in expected.to_dict().items() if key != "start_from"}
    assert shipped["seed"] == made["seed"]


@pytest.mark.parametrize("policy", POLICIES)
def test_each_stage_goes_on_from_the_one_before(policy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stages = TOOL["commands"](policy, tmp_path)
    configs = [_config(command, monkeypatch, policy) for command in stages]
    assert configs[0].imitate == "marjj:5" and configs[0].start_from is None
    for before, command, config in zip(stages[:-1], stages[1:], configs[1:], strict=True):
        assert config.imitate is None
        assert Path(str(config.start_from)) == Path(before[3]) / "policy.npz"
        assert command[3] != before[3]
    assert len({config.seed for config in configs}) == len(configs)


@pytest.mark.parametrize("policy", POLICIES)
def test_the_page_prints_the_commands(policy: str) -> None:
    page = (ROOT / "docs" / "learning.md").read_text()
    assert f"python tools/make_learned.py {policy} --install" in page
    for command in TOOL["commands"](policy, Path("runs/learned")):
        assert shlex.join(command) in page, f"docs/learning.md lacks the command {shlex.join(command)}"
