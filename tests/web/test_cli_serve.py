"""``ginsim serve`` from the command line: one-line refusals with exit status 2, the address printed, and
Ctrl-C stopping it with every game kept."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.cli_runner import ctrl_c_as_from_a_terminal, one_line_error

pytest.importorskip("starlette")


@pytest.mark.parametrize("args, message", [
    (["--host", "0.0.0.0"], "not a loopback address: add --public"),
    (["--host", "192.0.2.1"], "not a loopback address"),
    (["--runs", "/no/such/folder"], "does not exist"),
    (["--port", "70000"], "70000 is not in the range"),
])
def test_refusals_are_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    one_line_error(["serve", "--db", str(tmp_path / "g.sqlite3"), *args], message)


def test_a_damaged_database_is_one_line(tmp_path: Path) -> None:
    damaged = tmp_path / "g.sqlite3"
    damaged.write_bytes(b"not a database at all" * 100)
    one_line_error(["serve", "--db", str(damaged)], "is not a games database")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_stops_the_server_and_keeps_the_games(tmp_path: Path, stop: int) -> None:
    database = tmp_path / "games.sqlite3"
    child = subprocess.Popen([str(Path(sys.executable).with_name("ginsim")), "serve", "--db", str(database)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=ctrl_c_as_from_a_terminal, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("Serving the game at http://127.0.0.1:"), line
        url = line.split()[4]
        request = urllib.request.Request(f"{url}api/games", data=json.dumps({"opponent": "simple"}).encode(),
                                         headers={"content-type": "application/json"})
        for _ in range(200):  # the address is printed just before the server listens
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    game = json.load(response)
                break
            except OSError:
                time.sleep(0.05)
        child.send_signal(stop)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert "Stopped; every answered move is saved." in out and "Traceback" not in err
    from ginsim.web.book import GameBook
    kept = GameBook(database).get(game["id"], None)
    assert kept is not None and kept["version"] == 0
