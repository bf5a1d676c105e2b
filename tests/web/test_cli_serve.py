"""``ginsim serve`` from the command line: one-line refusals with exit status 2, the address printed, and
Ctrl-C stopping it with every game kept."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

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


def start_serving(*args: str) -> tuple[subprocess.Popen[str], str]:
    """``ginsim serve ARGS`` in a child process, and its address once it answers."""
    child = subprocess.Popen([str(Path(sys.executable).with_name("ginsim")), "serve", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=ctrl_c_as_from_a_terminal, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.startswith("Serving the game at http://127.0.0.1:"), line + (child.stderr.read()
                                                                             if child.stderr else "")
    url = line.split()[4]
    for _ in range(600):  # the socket listens already; the processes behind it may still be starting
        try:
            with urllib.request.urlopen(f"{url}api/options", timeout=30):
                return child, url
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the server never answered")


def call(url: str, path: str, body: dict[str, Any] | None = None, cookie: str = "") -> tuple[int, Any, str]:
    """One request on a connection of its own: its status, JSON answer and the cookie it set."""
    request = urllib.request.Request(f"{url}{path[1:]}", data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json", "cookie": cookie})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response), (response.headers.get("set-cookie") or "").split(";")[0]
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), ""


def test_a_taken_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        one_line_error(["serve", "--db", str(tmp_path / "g.sqlite3"), "--port", str(port)],
                       f"port {port} on 127.0.0.1 is taken (by another server?): choose another --port")


def test_sigterm_stops_the_server_with_requests_half_sent(tmp_path: Path) -> None:
    """Connections that sent half a request's headers, or its headers and half its body, do not keep a
    stopping server waiting."""
    child, url = start_serving("--db", str(tmp_path / "games.sqlite3"))
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    try:
        half_headers, half_body = socket.create_connection(("127.0.0.1", port)), socket.create_connection(
            ("127.0.0.1", port))
        half_headers.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
        half_body.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"opponent\"")
        time.sleep(0.5)  # let the server take both connections in
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=20)
    finally:
        child.kill()
    assert child.returncode == 0 and "Stopped" in out and "Traceback" not in err, err


def test_a_request_that_does_not_arrive_whole_is_cut_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from ginsim.web import app
    from ginsim.web.protocol import TimedH11Protocol
    monkeypatch.setattr(TimedH11Protocol, "deadline_seconds", 0.5)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app(tmp_path / "games.sqlite3"), host="127.0.0.1", port=port,
                                           http=TimedH11Protocol, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started:
                break
            time.sleep(0.01)
        for half in (b"GET /api/options HTTP/1.1\r\nHost: 127.", b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"):
            with socket.create_connection(("127.0.0.1", port)) as slow:
                slow.sendall(half)
                slow.settimeout(30)
                assert slow.recv(4096) == b"" or slow.recv(4096) == b""  # closed (a 400 may come first)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=30) as whole:
            assert whole.status == 200  # a request sent whole is answered as ever
    finally:
        server.should_exit = True
        thread.join(10)


def test_two_processes_serve_a_game_and_a_killed_one_loses_no_answered_move(tmp_path: Path) -> None:
    """``--workers 2``: each request on a connection of its own goes to either process; one is killed with
    SIGKILL midway (the supervisor starts another); every move answered before or after is in the game."""
    import psutil
    database = tmp_path / "games.sqlite3"
    child, url = start_serving("--db", str(database), "--workers", "2")
    try:
        status, answer, cookie = call(url, "/api/games", {"opponent": "simple", "target": 100})
        assert status == 200, answer
        processes = psutil.Process(child.pid).children(recursive=True)
        workers = [process for process in processes if "spawn_main" in " ".join(process.cmdline())]
        assert len(workers) == 2, [process.cmdline() for process in processes]
        answered, after_the_kill = 0, 0
        for turn in range(60):
            if turn == 10:
                workers[0].kill()  # kill -9 of one process, between or during requests
            if answer["phase"] == "game_over":
                break
            path = f"/api/games/{answer['id']}/" + ("next" if answer["phase"] == "hand_over" else "move")
            body = {} if answer["phase"] == "hand_over" else {
                "action": answer["legal"][0]["action"], "hand": answer["hand_number"],
                "move_count": answer["move_count"]}
            try:
                status, moved, _ = call(url, path, body, cookie)
            except OSError:  # the connection died with its process: not answered, so the game is re-read
                status, moved, _ = call(url, f"/api/games/{answer['id']}", None, cookie)
                answer = moved
                continue
            if status == 200:
                answer, answered = moved, answered + 1
                after_the_kill += turn >= 10
            else:  # a move already made by the killed process just before it answered (409): read again
                assert status == 409, moved
                answer = call(url, f"/api/games/{answer['id']}", None, cookie)[1]
        final = call(url, f"/api/games/{answer['id']}", None, cookie)[1]
        assert final == answer
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0, err
    from ginsim.web.book import GameBook
    kept = GameBook(database).get(answer["id"], None)
    assert kept is not None and kept["version"] >= answered and after_the_kill > 0


def test_public_on_a_loopback_address_keeps_the_host_check(tmp_path: Path) -> None:
    child, url = start_serving("--db", str(tmp_path / "games.sqlite3"), "--public")
    try:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as rebound:
            rebound.sendall(b"GET /api/options HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n")
            rebound.settimeout(30)
            assert rebound.recv(4096).startswith(b"HTTP/1.1 400")
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert "--public changes nothing" in err
