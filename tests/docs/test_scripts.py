"""The scripts of ``benchmarks/`` and ``tools/`` load against the package as it is: each one imports, and one
that takes arguments prints its ``--help`` and exits 0 (a script is run by hand, rarely, so a renamed module
would otherwise break it unseen). Run in this process: the package is imported once for all of them."""
from __future__ import annotations

import importlib.util
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(path for folder in ("benchmarks", "tools") for path in (ROOT / folder).glob("*.py")
                 if not path.name.startswith("test_") and path.name != "conftest.py")
"""Every script; the benchmarks' test files (``test_*.py``, with their conftest) are collected by pytest itself."""


def test_the_scripts_are_found() -> None:
    assert {"learned_speed.py", "peers.py", "make_equity_tables.py"} <= {path.name for path in SCRIPTS}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_script_loads(script: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.syspath_prepend(str(script.parent))  # as when run: its folder first on the path
    source = script.read_text()
    if "from locust import" in source:
        # A Locust file patches the whole process (gevent) when imported: Locust itself loads it, apart.
        if importlib.util.find_spec("locust") is None:  # (importing it here would patch this process)
            pytest.skip("Locust files load with the load extra installed")
        listed = subprocess.run([str(Path(sys.executable).with_name("locust")), "-f", str(script), "--list"],
                                capture_output=True, text=True, timeout=120, cwd=script.parent)
        assert listed.returncode == 0, listed.stderr
        return
    if "argparse" not in source:
        runpy.run_path(str(script), run_name=script.stem)
        return
    monkeypatch.setattr(sys, "argv", [str(script), "--help"])
    with pytest.raises(SystemExit) as exited:
        runpy.run_path(str(script), run_name="__main__")
    assert exited.value.code in (0, None)
    assert capsys.readouterr().out.startswith("usage: ")
