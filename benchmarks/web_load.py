"""How fast ``ginsim serve`` answers a move, and whether it holds many games at once.

Starts the app under uvicorn on 127.0.0.1 (a database in a temporary folder), then, for each opponent,
runs ``--games`` clients at once, each in its own thread playing games to 100 by random legal moves, one
game after another, until it has made ``--moves`` moves, and prints the median and 95th percentile
of the time from sending a move to its answer (the opponent's replies included) and the number of
errors. Every request goes to this
machine only, and the run stops by itself.

    taskset -c 0 python benchmarks/web_load.py --opponents learned,marjj,reader --games 1 --moves 400
    python benchmarks/web_load.py --opponents marjj --games 50 --moves 40
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any


def _request(connection: http.client.HTTPConnection, method: str, path: str, cookie: str,
             body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any], str]:
    headers = {"content-type": "application/json", "cookie": cookie} if cookie else {"content-type": "application/json"}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = connection.getresponse()
    data = json.loads(response.read() or b"{}")
    found = response.getheader("set-cookie") or ""
    return response.status, data, found.split(";")[0]


def play(port: int, opponent: str, moves: int, seed: int) -> tuple[list[float], int]:
    """Games by random legal moves until ``moves`` are made: the seconds each move took, and the errors."""
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    times: list[float] = []
    errors = 0
    cookie = ""
    while len(times) < moves and not errors:
        status, answer, given = _request(connection, "POST", "/api/games", cookie,
                                         {"opponent": opponent, "target": 100})
        cookie = cookie or given
        if status != 200:
            return times, errors + 1
        errors += _game(connection, cookie, answer, moves - len(times), rng, times)
    connection.close()
    return times, errors


def _game(connection: http.client.HTTPConnection, cookie: str, answer: dict[str, Any], moves: int,
          rng: random.Random, times: list[float]) -> int:
    """Play one game on (at most ``moves`` moves), each move's time added to ``times``; the errors."""
    game, errors = answer["id"], 0
    for _ in range(moves):
        if answer["phase"] == "game_over":
            break
        started = time.perf_counter()
        if answer["phase"] == "hand_over":
            status, answer, _ = _request(connection, "POST", f"/api/games/{game}/next", cookie, {})
        else:
            action = rng.choice(answer["legal"])["action"]
            status, answer, _ = _request(connection, "POST", f"/api/games/{game}/move", cookie, {"action": action})
        times.append(time.perf_counter() - started)
        if status != 200:
            errors += 1
            break
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponents", default="learned,marjj,reader", help="opponents, comma-separated")
    parser.add_argument("--games", type=int, default=1, help="games played at once per opponent (default 1)")
    parser.add_argument("--moves", type=int, default=300, help="the most moves of each game (default 300)")
    parser.add_argument("--threads", type=int, default=8, help="the server's threads for the strategies' moves")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' random moves (default 1)")
    options = parser.parse_args()
    import uvicorn

    from ginsim.web import app

    with tempfile.TemporaryDirectory() as folder:
        web = app(Path(folder) / "games.sqlite3", threads=options.threads)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(web, host="127.0.0.1", port=port, log_level="warning",
                                               lifespan="off", backlog=512))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        print(f"{'opponent':10} {'games':>5} {'moves':>6} {'median ms':>9} {'p95 ms':>7} {'errors':>6}")
        for opponent in options.opponents.split(","):
            seeds = [options.seed * 1000 + index for index in range(options.games)]
            with ThreadPoolExecutor(options.games) as pool:
                done = list(pool.map(play, [port] * options.games, [opponent] * options.games,
                                     [options.moves] * options.games, seeds))
            times = [moment * 1000 for found, _ in done for moment in found]
            errors = sum(error for _, error in done)
            p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else float("nan")
            print(f"{opponent:10} {options.games:5d} {len(times):6d} {statistics.median(times):9.1f} {p95:7.1f} "
                  f"{errors:6d}")
        server.should_exit = True
        thread.join(10)


if __name__ == "__main__":
    main()
