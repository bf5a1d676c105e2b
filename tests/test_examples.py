"""The worked examples run end to end on a tiny budget (their real budgets are in docs/environments.md)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def train_ppo() -> ModuleType:
    """The worked example as a module (the test is skipped without the train extra)."""
    pytest.importorskip("torch")
    pytest.importorskip("gymnasium")
    spec = importlib.util.spec_from_file_location("train_ppo", EXAMPLES / "train_ppo.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


def test_train_ppo_runs(tmp_path: Path) -> None:
    example = train_ppo()
    plot = tmp_path / "curve.png"
    results = example.main(["--random-steps", "2048", "--simple-steps", "2048", "--envs", "32", "--matches", "2",
                            "--plot", str(plot), "--json", str(tmp_path / "results.json")])
    assert plot.stat().st_size > 0 and (tmp_path / "results.json").exists()
    assert results["agent_steps"] == 4096
    assert {point["opponent"] for point in results["curve"]} == {"random", "simple"}
    for opponent in ("random", "simple"):
        assert 0 <= results[f"against_{opponent}"]["win_rate"] <= 1


def test_train_ppo_help_and_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = train_ppo()
    with pytest.raises(SystemExit):
        example.main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "and play it in duplicate-deal tournaments." in shown
    example.main(["--random-steps", "2048", "--simple-steps", "2048", "--envs", "32", "--matches", "2",
                  "--plot", str(tmp_path / "curve.png")])
    progress = capsys.readouterr().err
    assert "against random" in progress and "against simple" in progress and "points per hand" in progress
