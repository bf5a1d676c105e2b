"""Ctrl-C stops a run at once, whatever its strategies' speed and its workers: a chunk's native calls are
short, so the signal is seen within a moment, not when a chunk of slow hands ends. The kept chunks are
exact: the same command resumes, and the records are byte for byte those of a run never stopped. Through
the ``ginsim`` program, as a person at a terminal meets it."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ginsim import Rules
from ginsim.core.store import RunDirectory
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine
from ginsim.gin.studies.simulate import records_frame
from tests.cli_runner import ctrl_c_as_from_a_terminal

pytestmark = pytest.mark.hostile  # stops runs on purpose

GINSIM = str(Path(sys.executable).with_name("ginsim"))
STOPPED_WITHIN = 20
"""Seconds a stopped run may take to end: generous, where a chunk of slow hands runs for minutes."""
SLOW = "reader,reader"  # about a tenth of a second a hand: a chunk of 100,000 hands runs for hours


def start(command: list[str], out: Path, ready: str) -> subprocess.Popen[str]:
    """``ginsim`` running ``command`` once ``ready`` (a file pattern under ``out``) exists."""
    process = subprocess.Popen([GINSIM, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_from_a_terminal)
    deadline = time.monotonic() + 120
    while not list(out.glob(ready)):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    return process


def interrupt(process: subprocess.Popen[str]) -> str:
    """Ctrl-C to ``process``; its stderr once it has ended (within ``STOPPED_WITHIN`` seconds)."""
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=STOPPED_WITHIN)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"still running {STOPPED_WITHIN} s after Ctrl-C")
    return err


@pytest.mark.parametrize("command", [
    ["run", "--players", SLOW, "--hands", "100000", "--workers", "1"],
    ["run", "--players", SLOW, "--hands", "100000", "--chunk-size", "50000", "--workers", "2"],
    ["run", "--players", SLOW, "--matches", "2000", "--workers", "1"],
    ["record", "--expert", "reader", "--against", "reader", "--hands", "100000", "--workers", "1"],
    ["tournament", "--players", "reader,search", "--matches", "2000", "--workers", "1"],
    ["sweep", "--knock-limit", "5,10", "--players", SLOW, "--hands", "100000", "--workers", "1"],
], ids=["run-1-worker", "run-2-workers", "run-matches", "record", "tournament", "sweep"])
def test_ctrl_c_stops_a_slow_run_at_once(command: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    process = start([*command, "--out", str(out)], out, "**/_run.json")
    time.sleep(1)  # well into the first chunk's native play
    err = interrupt(process)
    assert process.returncode == 130, err
    said = err.strip().splitlines()[-1]  # a sweep says which cell it plays first
    assert said.startswith("Interrupted: ") and "; the same call again resumes the " in said, err
    assert "Traceback" not in err


def test_a_stopped_run_resumes_to_the_records_of_a_run_never_stopped(tmp_path: Path, test_seed: int) -> None:
    stopped, whole = tmp_path / "stopped", tmp_path / "whole"
    command = ["run", "--players", SLOW, "--hands", "48", "--chunk-size", "12", "--seed", str(test_seed)]
    process = start([*command, "--workers", "1", "--out", str(stopped)], stopped, "part-*")
    err = interrupt(process)
    if process.returncode == 0:
        pytest.skip("the run ended before Ctrl-C reached it")
    kept = len(list(stopped.glob("part-*")))
    assert process.returncode == 130 and kept < 4, err
    assert err.strip() == f"Interrupted: {kept} of 4 chunks are kept in {stopped}; the same call again resumes the run."
    resumed = subprocess.run([GINSIM, *command, "--workers", "1", "--out", str(stopped)], capture_output=True,
                             text=True, timeout=600)
    assert resumed.returncode == 0 and f"resuming: {kept} of 4 chunks were played before" in resumed.stderr
    done = subprocess.run([GINSIM, *command, "--workers", "2", "--out", str(whole)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    parts = sorted(path.name for path in whole.glob("part-*"))
    assert parts == sorted(path.name for path in stopped.glob("part-*")) and len(parts) == 4
    for name in parts:  # the stored records, byte for byte
        assert (stopped / name).read_bytes() == (whole / name).read_bytes(), name
    # and the hands those of one native call over the whole run, however a chunk's calls were sliced
    key = run_key(test_seed)
    one_call = records_frame(engine(Rules(), SLOW).play_hands(key[0], key[1], 0, 48))
    assert RunDirectory.read(stopped).read_frame().equals(one_call)
