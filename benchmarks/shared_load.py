"""Many players on one shared server: Locust's simulated players (``benchmarks/locustfile.py``) against
``ginsim serve --workers N`` on this machine, for each opponent in turn, with the median and 95th
percentile of a move's answer (the opponent's replies included), the requests that failed and the 5xx
answers; then, with ``--kill-after S``, one of the server's processes killed with SIGKILL S seconds into
each run, and every answered move looked for in the database afterwards.

    python benchmarks/shared_load.py --players 200 --seconds 60 --opponents learned,marjj,reader
    python benchmarks/shared_load.py --players 200 --seconds 60 --opponents marjj --kill-after 30

It needs the ``web`` and ``load`` extras (``pip install -e '.[web,load]'``). The server and Locust share
this machine's cores. Every request goes to 127.0.0.1, and each run stops by itself after ``--seconds``.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def serve(database: Path, workers: int) -> tuple[subprocess.Popen[str], str]:
    """``ginsim serve`` on a free port of 127.0.0.1, and its address once every process answers."""
    child = subprocess.Popen([str(Path(sys.executable).with_name("ginsim")), "serve", "--db", str(database),
                              "--workers", str(workers)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line.startswith("Serving the game at "):
        raise SystemExit(f"the server did not start: {line}{child.stderr.read() if child.stderr else ''}")
    url = line.split()[4].rstrip("/")
    for _ in range(1200):
        try:
            with urllib.request.urlopen(f"{url}/api/options", timeout=30):
                break
        except OSError:
            time.sleep(0.05)
    time.sleep(2)  # every process has started by now (the first answer came from one of them)
    return child, url


def workers_of(server: subprocess.Popen[str]) -> list[int]:
    """The process ids of the server's processes (the supervisor's children that serve)."""
    import psutil
    return [process.pid for process in psutil.Process(server.pid).children(recursive=True)
            if "spawn_main" in " ".join(process.cmdline())]


def figures(prefix: Path) -> dict[str, dict[str, str]]:
    with open(f"{prefix}_stats.csv", encoding="utf-8") as file:
        return {row["Name"]: row for row in csv.DictReader(file)}


def server_errors(prefix: Path) -> int:
    """Requests answered 5xx (or not answered at all: the connection lost)."""
    count = 0
    with open(f"{prefix}_failures.csv", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            error = row["Error"]
            if not error.split(":")[0].strip().isdigit() or error.startswith("5"):
                count += int(row["Occurrences"])
    return count


def lost_moves(database: Path, answered: dict[str, int]) -> tuple[int, int]:
    """Answered moves missing from the database (a game whose version is below its answered moves), and
    the games checked."""
    from ginsim.web.book import GameBook
    book = GameBook(database)
    lost = 0
    for game, count in answered.items():
        row = book.get(game, None)
        kept = 0 if row is None else row["version"]
        lost += max(0, count - kept)
    book.close()
    return lost, len(answered)


def run(opponent: str, players: int, seconds: int, workers: int, kill_after: float | None) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="ginsim-load-"))
    database, prefix, answered_file = folder / "games.sqlite3", folder / "locust", folder / "answered.json"
    server, url = serve(database, workers)
    killed: list[int] = []
    try:
        if kill_after is not None:
            def kill() -> None:
                time.sleep(kill_after)
                victims = workers_of(server)
                if victims:
                    os.kill(victims[0], signal.SIGKILL)
                    killed.append(victims[0])
            threading.Thread(target=kill, daemon=True).start()
        locust = subprocess.run(
            [str(Path(sys.executable).with_name("locust")), "-f", str(HERE / "locustfile.py"), "--headless",
             "--users", str(players), "--spawn-rate", str(max(1, players // 10)), "--run-time", f"{seconds}s",
             "--host", url, "--csv", str(prefix), "--only-summary", "--stop-timeout", "10", "--loglevel", "WARNING"],
            env={**os.environ, "GINSIM_LOAD_OPPONENT": opponent, "GINSIM_LOAD_ANSWERED": str(answered_file)},
            capture_output=True, text=True)
        if not Path(f"{prefix}_stats.csv").exists():
            raise SystemExit(f"Locust failed: {locust.stderr[-2000:]}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    stats = figures(prefix)
    move = stats.get("move", {})
    answered = json.loads(answered_file.read_text()) if answered_file.exists() else {}
    lost, games = lost_moves(database, answered)
    return {"opponent": opponent, "moves": int(move.get("Request Count", 0)),
            "median": float(move.get("50%", "nan")), "p95": float(move.get("95%", "nan")),
            "failed": int(stats.get("Aggregated", {}).get("Failure Count", 0)), "errors_5xx": server_errors(prefix),
            "answered": sum(answered.values()), "games": games, "lost": lost, "killed": bool(killed)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponents", default="learned,marjj,reader")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kill-after", type=float, default=None,
                        help="kill one server process with SIGKILL this many seconds into each run")
    arguments = parser.parse_args(argv)
    print(f"{arguments.players} players, {arguments.seconds} s a run, {arguments.workers} server processes"
          + (f", one killed with SIGKILL after {arguments.kill_after:g} s" if arguments.kill_after else ""))
    print("| opponent | moves | median (ms) | 95th percentile (ms) | failed | 5xx | answered moves lost |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for opponent in arguments.opponents.split(","):
        found = run(opponent, arguments.players, arguments.seconds, arguments.workers, arguments.kill_after)
        print(f"| {opponent} | {found['moves']:,} | {found['median']:.0f} | {found['p95']:.0f} | {found['failed']} | "
              f"{found['errors_5xx']} | {found['lost']} of {found['answered']:,} |", flush=True)


if __name__ == "__main__":
    main()
