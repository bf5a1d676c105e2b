"""The worked examples run end to end on a tiny budget (their real budgets are in docs/environments.md)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow  # runs whole notebooks, scripts, trainings or clusters

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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
    results = example.main(["--out", str(tmp_path / "run"), "--quiet", "--imitate-hands", "40", "--imitate-epochs", "1",
                            "--steps", "1024", "--envs", "16", "--matches", "2", "--against", "random,simple",
                            "--json", str(tmp_path / "results.json")])
    assert (tmp_path / "run" / "curve.png").stat().st_size > 0 and (tmp_path / "results.json").exists()
    assert results["steps"] == 1024
    for opponent in ("random", "simple"):
        assert 0 <= results[f"against_{opponent}"]["win_rate"] <= 1


def test_train_ppo_help_is_whole(capsys: pytest.CaptureFixture[str]) -> None:
    example = train_ppo()
    with pytest.raises(SystemExit):
        example.main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "and play it in duplicate-deal tournaments." in shown


def test_selfplay_aec_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("pettingzoo")
    spec = importlib.util.spec_from_file_location("selfplay_aec", EXAMPLES / "selfplay_aec.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    results = example.main(["--hands", "40", "--batch", "20", "--matches", "2", "--json", str(tmp_path / "r.json")])
    assert results["hands"] == 40 and len(results["curve"]) == 2 and (tmp_path / "r.json").exists()
    assert 0 <= results["win_rate_against_random"] <= 1
    progress = capsys.readouterr().err.splitlines()
    assert len(progress) == 10 and progress[-1].startswith("self-play: 40 of 40 hands in ")  # no silent wait
    with pytest.raises(SystemExit):
        example.main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "(default: 20000)" in shown and "(default: 200)" in shown and "(default: 1)" in shown


def test_the_benchmark_report_reads_help_as_help(tmp_path: Path) -> None:
    """``benchmarks/report.py --help`` prints its usage (it read "--help" as a file name), and a file that
    is not a pytest-benchmark JSON file is one line."""
    report = str(Path(__file__).resolve().parents[2] / "benchmarks" / "report.py")
    shown = subprocess.run([sys.executable, report, "--help"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "Usage: python benchmarks/report.py bench.json" in shown.stdout
    (tmp_path / "bad.json").write_text("{}")
    refused = subprocess.run([sys.executable, report, str(tmp_path / "bad.json")], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "not a pytest-benchmark JSON file" in refused.stderr
