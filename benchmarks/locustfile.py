"""Locust's players for ``benchmarks/shared_load.py``: each simulated player starts a game to 100 against
``GINSIM_LOAD_OPPONENT`` and plays it by random legal moves, thinking one to three seconds before each,
then starts another. Its requests are named ``move``, ``next hand`` and ``new game`` in Locust's
statistics. Every answered move is counted by game; at the end the counts are written as JSON to
``GINSIM_LOAD_ANSWERED``, so that the driver can check that the database kept every one.

Run it through the driver (it starts the server, runs Locust headless and reads its figures):

    python benchmarks/shared_load.py --players 200 --seconds 60
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

from locust import HttpUser, between, events, task

OPPONENT = os.environ.get("GINSIM_LOAD_OPPONENT", "marjj")
ANSWERED: Counter[str] = Counter()
"""Moves (and deals) answered 200, by game: each is one write of the game's version in the database."""


class Player(HttpUser):
    wait_time = between(1, 3)

    def on_start(self) -> None:
        self.rng = random.Random()
        self.answer: dict[str, Any] | None = None

    def _post(self, path: str, body: dict[str, Any], name: str) -> dict[str, Any] | None:
        with self.client.post(path, json=body, name=name, catch_response=True) as response:
            if response.status_code == 200:
                response.success()
                return response.json()  # type: ignore[no-any-return]
            if response.status_code == 409:  # a stale position: not the server's failure; read the game again
                response.success()
                return None
            response.failure(f"{response.status_code}: {response.text[:200]}")
            return None

    @task
    def turn(self) -> None:
        answer = self.answer
        if answer is None or answer["phase"] == "game_over":
            self.answer = self._post("/api/games", {"opponent": OPPONENT, "target": 100}, "new game")
            return
        game = answer["id"]
        if answer["phase"] == "hand_over":
            moved = self._post(f"/api/games/{game}/next", {}, "next hand")
        else:
            choice = self.rng.choice(answer["legal"])
            moved = self._post(f"/api/games/{game}/move", {"action": choice["action"], "hand": answer["hand_number"],
                                                           "move_count": answer["move_count"]}, "move")
        if moved is None:
            shown = self.client.get(f"/api/games/{game}", name="read game")
            self.answer = shown.json() if shown.status_code == 200 else None
            return
        ANSWERED[game] += 1
        self.answer = moved


@events.quitting.add_listener
def _write_answered(environment: Any, **_: Any) -> None:
    path = os.environ.get("GINSIM_LOAD_ANSWERED")
    if path:
        with open(path, "w", encoding="utf-8") as file:
            json.dump(dict(ANSWERED), file)
