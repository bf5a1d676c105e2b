"""The Dask backend against real processes: a ``dask scheduler`` and ``dask worker`` over TCP on the
loopback address, and a user's script without a ``__main__`` guard."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from ginsim import Rules, simulate, simulate_matches

pytestmark = pytest.mark.slow  # runs whole notebooks, scripts, trainings or clusters

DASK = Path(sys.executable).with_name("dask")
STARTUP_SECONDS = 60


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scheduler and one worker process with two single-threaded workers, on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("dask")
    address_file = folder / "scheduler.json"
    started = [subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0",
                                 "--no-dashboard", "--scheduler-file", str(address_file)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not address_file.exists():
            assert time.monotonic() < deadline, "the dask scheduler did not start"
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written whole, but give it a moment to be complete
        address = json.loads(address_file.read_text())["address"]
        started.append(subprocess.Popen([str(DASK), "worker", address, "--nworkers", "2", "--nthreads", "1",
                                         "--host", "127.0.0.1", "--no-dashboard"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=STARTUP_SECONDS)
        yield address
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def test_a_real_scheduler_plays_the_same_hands(scheduler: str, test_seed: int) -> None:
    rules = Rules.preset("oklahoma")
    local = simulate(rules, "greedy,simple", 4000, test_seed, workers=1)
    remote = simulate(rules, "greedy,simple", 4000, test_seed, backend="dask", scheduler=scheduler,
                      chunk_size=700, progress=False)
    pd.testing.assert_frame_equal(local, remote)


def test_a_real_scheduler_plays_matches_into_a_run_directory(scheduler: str, tmp_path: Path,
                                                             test_seed: int) -> None:
    local = simulate_matches(Rules(), "gin,simple", 30, test_seed, workers=1)
    remote = simulate_matches(Rules(), "gin,simple", 30, test_seed, backend="dask", scheduler=scheduler,
                              chunk_size=7, out=tmp_path / "matches", progress=False)
    pd.testing.assert_frame_equal(local, remote)
    assert len(list((tmp_path / "matches").glob("part-*.parquet"))) == 5
    doubled = simulate_matches(Rules(), "gin,simple", 30, test_seed, workers=1, duplicate=True)
    remote = simulate_matches(Rules(), "gin,simple", 30, test_seed, backend="dask", scheduler=scheduler,
                              chunk_size=7, progress=False, duplicate=True)
    pd.testing.assert_frame_equal(doubled, remote)


def test_a_script_without_a_main_guard_runs_on_a_local_cluster(tmp_path: Path) -> None:
    script = tmp_path / "study.py"
    script.write_text("from ginsim import Rules, simulate\n"
                      "records = simulate(Rules(), 'simple,simple', hands=1000, seed=1, workers=2,\n"
                      "                   backend='dask', progress=False)\n"
                      "print(len(records), int(records['points'].sum()))\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    expected = simulate(Rules(), "simple,simple", hands=1000, seed=1, workers=1)
    assert done.stdout.split() == ["1000", str(int(expected["points"].sum()))]
