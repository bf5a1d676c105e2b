"""The game in the browser (``ginsim serve``): play Gin against a built-in strategy, review every game,
and look at runs. ``ginsim.web.app(...)`` is the ASGI app, for tests and for hosting behind a server.

Needs the ``web`` extra: ``pip install 'gin-rummy-sim[web]'`` (in a clone: ``pip install '.[web]'``).

>>> from starlette.testclient import TestClient
>>> client = TestClient(app(":memory:"))
>>> game = client.post("/api/games", json={"opponent": "simple", "target": None}).json()
>>> game["phase"] in ("offer", "draw"), len(game["deadwood_cards"]) + sum(map(len, game["melds"]))
(True, 10)
"""
from __future__ import annotations

from ginsim.web.server import app

__all__ = ["app"]
