"""The ASGI app of ``ginsim serve``: the play page, the review page, the list of your games and the runs
page, with the JSON API they call.

The fairness boundary is here: the pages get only what :meth:`PlayedGame.public
<ginsim.web.game.PlayedGame.public>` gives, so no response carries the opponent's hidden cards, the
stock's order or the game's seed while they matter. A game's id is unguessable and it answers only the
browser that started it (an ``HttpOnly`` cookie). A request body is bounded, bad input gets a 4xx with a
one-line ``error``, and a refused move leaves the game as it was. Strategies choose their moves in worker
threads (the native code releases the GIL), one request at a time per game, so a slow strategy holds up
only its own game. At most ``live`` games are kept in memory; the least recently used one beyond that is
dropped from memory and played again from the database when next asked for.

>>> from starlette.testclient import TestClient
>>> client = TestClient(app(book=":memory:"))
>>> [level["name"] for level in client.get("/api/options").json()["opponents"]][::4]
['random', 'gin', 'reader']
"""
from __future__ import annotations

import asyncio
import functools
import json
import math
import os
import queue
import secrets
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gincore.errors import InputError
from ginsim.gin.game.rules import PRESETS
from ginsim.gin.game.specs import describe
from ginsim.gin.review.notation import MAX_RECORD_BYTES
from ginsim.gin.review.replay import GameRecord
from ginsim.gin.studies import rating_list
from ginsim.web import explorer
from ginsim.web.book import GameBook, default_path
from ginsim.web.game import HUMAN, OPPONENTS, OWN_KNOCK_LIMIT, TARGETS, GameSettings, OutOfTurn, PlayedGame
from ginsim.web.review import analysis_of, hint_of, positions

__all__ = ["LOOPBACK_HOSTS", "MOST_BODY", "MOST_RECORD_BODY", "MOST_REVIEW_HANDS", "app"]

STATIC: Final = Path(__file__).parent / "static"
MOST_BODY: Final = 16 << 10
"""The largest request body of a move or a new game, 16 KiB."""
MOST_RECORD_BODY: Final = 4 << 20
"""The largest record sent to the review page, 4 MiB."""
MOST_REVIEW_HANDS: Final = 200
"""The most hands of a record sent to the review page (a game to 250 points is seldom 30)."""
LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "::1", "[::1]")
"""The ``Host`` names a server on this machine only answers (against DNS rebinding)."""
OWNER_COOKIE: Final = "ginsim_player"
_PAGES: Final = {"/": "play", "/review": "review", "/games": "games", "/runs": "runs", "/how-to-play": "howto"}
"""Each page's path and its script: the pages are one HTML file, each running its own module."""
_SECURITY_HEADERS: Final = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                 b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class HTTPProblem(Exception):
    """A request refused: its status and one line saying why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass
class _Live:
    game: PlayedGame
    owner: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Requests holding the game: it stays in memory until they are done (else a second copy could be
    loaded from the book and moved on beside it)."""


@dataclass
class _Job:
    """An analysis for the review page: its record, then its result or its error."""

    record: GameRecord
    result: dict[str, Any] | None = None
    error: str | None = None


class _Server:
    def __init__(self, book: GameBook, runs: Path | None, live: int, threads: int, analysis_deals: int,
                 hint_deals: int) -> None:
        self.book, self.runs, self.most_live = book, runs, live
        self.live: OrderedDict[str, _Live] = OrderedDict()
        self.moves = anyio.CapacityLimiter(threads)
        self.reading = anyio.CapacityLimiter(1)  # the runs page's summaries, one at a time
        self.loading = asyncio.Lock()  # games loaded from the book one at a time, each once
        self.analysis_deals, self.hint_deals = analysis_deals, hint_deals
        self.jobs: OrderedDict[str, _Job] = OrderedDict()
        self.jobs_lock = threading.Lock()
        # The reviews' analyses, one at a time in a daemon thread (started with the first): a stopping server
        # does not wait for them (an analysis is saved whole or not at all).
        self.queued: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.analyst: threading.Thread | None = None

    # --- games in memory --------------------------------------------------------------------------------

    def remember(self, game_id: str, live: _Live) -> None:
        self.live[game_id] = live
        self.live.move_to_end(game_id)
        # Beyond the bound the least recently used games leave memory (kept in the book: played again from
        # their moves when next asked for), but never one with a request under way, which would then be
        # loaded twice, nor the one remembered now.
        idle = [key for key, held in self.live.items()
                if key != game_id and held.users == 0 and not held.lock.locked()]
        for key in idle[:max(0, len(self.live) - self.most_live)]:
            del self.live[key]

    def _held(self, game_id: str, owner: str) -> _Live | None:
        live = self.live.get(game_id)
        if live is None or not secrets.compare_digest(live.owner, owner):
            return None
        self.live.move_to_end(game_id)
        return live

    @asynccontextmanager
    async def game(self, request: Request) -> AsyncIterator[tuple[str, _Live]]:
        """The request's game (404 unless its browser started it), kept in memory while it is used."""
        game_id = request.path_params["game"]
        owner = _owner(request)
        live = self._held(game_id, owner)
        if live is None:
            async with self.loading:
                live = self._held(game_id, owner)  # loaded by another request while this one waited
                if live is None:
                    row = self.book.get(game_id, owner) if owner else None
                    if row is None:
                        raise HTTPProblem(404, "no such game (or not yours)")
                    settings = GameSettings.stored(row["settings"])
                    game = await anyio.to_thread.run_sync(lambda: PlayedGame(settings, row["seed"], row["log"]),
                                                          limiter=self.moves)
                    live = _Live(game, owner)
                    self.remember(game_id, live)
        live.users += 1
        try:
            yield game_id, live
        finally:
            live.users -= 1

    def save(self, game_id: str, game: PlayedGame) -> None:
        result = game.score.result() if game.over else None
        self.book.save_moves(game_id, game.log(), "over" if game.over else "playing", result)

    # --- analyses ---------------------------------------------------------------------------------------

    def start_job(self, job_id: str, record: GameRecord, game_id: str | None = None) -> None:
        with self.jobs_lock:
            if job_id in self.jobs:
                return
            self.jobs[job_id] = _Job(record)
            while len(self.jobs) > 64:
                self.jobs.popitem(last=False)

        def work() -> None:
            job = self.jobs.get(job_id)
            if job is None:
                return
            try:
                job.result = analysis_of(record, self.analysis_deals)
                if game_id is not None:
                    self.book.save_analysis(game_id, job.result)
            except InputError as error:
                job.error = str(error)

        self.queued.put(work)
        with self.jobs_lock:
            if self.analyst is None:
                self.analyst = threading.Thread(target=self._analyse, name="ginsim-analyses", daemon=True)
                self.analyst.start()

    def _analyse(self) -> None:
        while True:
            self.queued.get()()


def _owner(request: Request) -> str:
    value = request.cookies.get(OWNER_COOKIE, "")
    return value if 16 <= len(value) <= 64 and value.isascii() else ""


async def _body(request: Request, most: int) -> Any:
    """The request's JSON body, at most ``most`` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPProblem(415, "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > most):
        raise HTTPProblem(413, f"the request body is larger than {most:,} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise HTTPProblem(413, f"the request body is larger than {most:,} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):
        raise HTTPProblem(400, "the request body is not JSON") from None


def _field(data: Any, name: str) -> Any:
    if not isinstance(data, dict) or name not in data:
        raise HTTPProblem(400, f"the request needs a field {name!r}")
    return data[name]


def _handled(handler: Callable[[_Server, Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """A route whose refusals (``HTTPProblem``, ``InputError``) answer 4xx with one line."""

    async def route(request: Request) -> Response:
        server: _Server = request.app.state.server
        try:
            found = await handler(server, request)
        except HTTPProblem as problem:
            return JSONResponse({"error": str(problem)}, status_code=problem.status)
        except InputError as error:
            return JSONResponse({"error": str(error).splitlines()[0]}, status_code=400)
        return found if isinstance(found, Response) else JSONResponse(found)

    return route


# --- the API ------------------------------------------------------------------------------------------------

def _plays(opponent: str, preset: str, knock_limit: int | None) -> bool:
    try:
        GameSettings(preset=preset, knock_limit=knock_limit, opponent=opponent)
    except InputError:
        return False
    return True


@functools.cache
def _levels() -> list[dict[str, Any]]:
    """The opponents as levels, weakest first by the shipped rating list, each with its ``rating`` (``beyond``:
    above or below every other, when it has none) and the rules it ``cannot_play``, as the presets and knock
    limits the form offers (``learned`` has weights for some hands only; the target and Hollywood do not
    matter to any strategy)."""
    listed = {row["player"]: row for row in (rating_list.shipped() or {}).get("players", [])}

    def strength(name: str) -> float:  # one missing from the list is shown last, unrated
        row = listed.get(name)
        if row is None or row["beyond"] == "above":
            return math.inf
        return -math.inf if row["rating"] is None else float(row["rating"])

    return [{"name": name, "description": describe(name), "rating": listed.get(name, {}).get("rating"),
             "beyond": listed.get(name, {}).get("beyond"),
             "cannot_play": [{"preset": preset, "knock_limit": limit} for preset in PRESETS
                             for limit in ((None,) if preset in OWN_KNOCK_LIMIT else (None, 10, 5))
                             if not _plays(name, preset, limit)]}
            for name in sorted(OPPONENTS, key=strength)]


async def options(server: _Server, request: Request) -> Any:
    return {"presets": list(PRESETS), "own_knock_limit": list(OWN_KNOCK_LIMIT), "targets": list(TARGETS),
            "knock_limit": {name: rules.knock_limit for name, rules in PRESETS.items()}, "opponents": _levels(),
            "runs": server.runs is not None, "defaults": GameSettings().to_json()}


async def new_game(server: _Server, request: Request) -> Any:
    settings = GameSettings.of(await _body(request, MOST_BODY))
    owner = _owner(request) or secrets.token_urlsafe(24)
    game = await anyio.to_thread.run_sync(lambda: PlayedGame(settings), limiter=server.moves)
    game_id = secrets.token_urlsafe(18)
    server.book.add(game_id, owner, settings.to_json(), game.seed)
    server.save(game_id, game)
    server.remember(game_id, _Live(game, owner))
    response = JSONResponse({"id": game_id, **game.public()})
    response.set_cookie(OWNER_COOKIE, owner, max_age=10 * 365 * 86400, httponly=True, samesite="strict")
    return response


async def show_game(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live):
        return {"id": game_id, **live.game.public()}


def _whole(data: dict[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is not None and type(value) is not int:
        raise HTTPProblem(400, f"{name}: a whole number, got {value!r}")
    return value


async def move(server: _Server, request: Request) -> Any:
    data = await _body(request, MOST_BODY)
    action = _field(data, "action")
    if type(action) is not int:
        raise HTTPProblem(400, f"action: a whole number, got {action!r}")
    hand_number, move_count = _whole(data, "hand"), _whole(data, "move_count")
    async with server.game(request) as (game_id, live), live.lock:
        # A move sent again (a retry, a second tab) is refused, not read as the next one: the same action
        # number may mean another move once the position has changed.
        shown = live.game.public()
        if hand_number is not None and hand_number != shown["hand_number"]:
            raise HTTPProblem(409, "that move was for another hand")
        if move_count is not None and move_count != shown["move_count"]:
            raise HTTPProblem(409, "that move was for an earlier position: the game has moved on")
        try:
            await anyio.to_thread.run_sync(live.game.act, action, limiter=server.moves)
        except OutOfTurn as error:
            raise HTTPProblem(409, str(error)) from None
        server.save(game_id, live.game)
        if live.game.over:
            server.start_job(f"game:{game_id}", live.game.record(), game_id)
        return {"id": game_id, **live.game.public()}


async def next_hand(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live), live.lock:
        try:
            await anyio.to_thread.run_sync(live.game.next_hand, limiter=server.moves)
        except OutOfTurn as error:
            raise HTTPProblem(409, str(error)) from None
        server.save(game_id, live.game)
        return {"id": game_id, **live.game.public()}


async def hint(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live), live.lock:
        game = live.game
        hand = game.hand
        if game.over or hand is None or hand.state.done or hand.state.player != HUMAN:
            raise HTTPProblem(409, "there is no decision of yours to hint at")
        state = hand.state.clone()
    return await anyio.to_thread.run_sync(hint_of, state, server.hint_deals, limiter=server.moves)


async def record(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live):
        data = live.game.record().to_json()
    return Response(json.dumps(data, indent=1), media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="ginsim-{game_id[:8]}.json"'})


async def review_game(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live):
        game = live.game
        record = game.record()
    board = await anyio.to_thread.run_sync(positions, record, limiter=server.moves)
    row = server.book.get(game_id, live.owner)
    analysis = row["analysis"] if row else None
    if analysis is None and game.over:
        server.start_job(f"game:{game_id}", record, game_id)
        job = server.jobs.get(f"game:{game_id}")
        analysis = job.result if job else None
    return {"id": game_id, "board": board, "analysis": analysis, "over": game.over}


async def review_upload(server: _Server, request: Request) -> Any:
    data = await _body(request, min(MOST_RECORD_BODY, MAX_RECORD_BYTES))
    try:
        record = await anyio.to_thread.run_sync(GameRecord.from_json, data)
    except InputError as error:
        raise HTTPProblem(400, f"not a game record: {str(error).splitlines()[0]}") from None
    if len(record.hands) > MOST_REVIEW_HANDS:
        raise HTTPProblem(413, f"the record has {len(record.hands):,} hands; the review reads at most "
                               f"{MOST_REVIEW_HANDS}")
    board = await anyio.to_thread.run_sync(positions, record, limiter=server.moves)
    job_id = secrets.token_urlsafe(18)
    server.start_job(f"upload:{job_id}", record)
    return {"job": job_id, "board": board}


async def review_job(server: _Server, request: Request) -> Any:
    job = server.jobs.get(f"upload:{request.path_params['job']}")
    if job is None:
        raise HTTPProblem(404, "no such analysis")
    if job.error is not None:
        raise HTTPProblem(400, job.error)
    return {"analysis": job.result}


async def my_games(server: _Server, request: Request) -> Any:
    owner = _owner(request)
    rows = server.book.games(owner) if owner else []
    listed = []
    for row in rows:
        analysis = row.get("analysis") or {}
        rates = {item["player"]: item["error_rate"] for item in analysis.get("players", [])}
        listed.append({"id": row["id"], "created": row["created"], "updated": row["updated"],
                       "opponent": row["settings"].get("opponent"), "preset": row["settings"].get("preset"),
                       "target": row["settings"].get("target"), "status": row["status"], "result": row["result"],
                       "error_rate": [rates.get(0), rates.get(1)], "unit": analysis.get("unit")})
    return {"games": listed}


def _runs_root(server: _Server) -> Path:
    if server.runs is None:
        raise HTTPProblem(404, "no runs folder: start the server with --runs DIR")
    return server.runs


def _query(request: Request, name: str, default: str | None = None) -> str:
    value = request.query_params.get(name, default)
    if value is None:
        raise HTTPProblem(400, f"the request needs ?{name}=")
    return value


async def runs_list(server: _Server, request: Request) -> Any:
    root = _runs_root(server)
    return {"runs": await anyio.to_thread.run_sync(explorer.listing, root)}


async def runs_summary(server: _Server, request: Request) -> Any:
    root = _runs_root(server)
    path, by = _query(request, "path"), request.query_params.get("by") or None
    return await anyio.to_thread.run_sync(explorer.summary, root, path, by, limiter=server.reading)


async def runs_sweep(server: _Server, request: Request) -> Any:
    root = _runs_root(server)
    return await anyio.to_thread.run_sync(explorer.sweep_cells, root, _query(request, "path"), limiter=server.reading)


async def runs_hand(server: _Server, request: Request) -> Any:
    root = _runs_root(server)
    hand = _query(request, "hand")
    if not (hand.isascii() and hand.isdigit() and len(hand) <= 12):
        raise HTTPProblem(400, f"hand: a hand number, got {hand[:40]!r}")
    return await anyio.to_thread.run_sync(explorer.hand_steps, root, _query(request, "path"), int(hand))


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    html = (STATIC / "page.html").read_text(encoding="utf-8").replace("{page}", name)

    async def page(request: Request) -> Response:
        return HTMLResponse(html)
    return page


async def _refused(request: Request, problem: Exception) -> Response:
    """A path or method the app does not have, in one line (JSON under /api/)."""
    status = getattr(problem, "status_code", 404)
    reason = "no such page" if status == 404 else f"{request.method} is not allowed here"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": reason}, status_code=status)
    return PlainTextResponse(reason, status_code=status)


class _Guard:
    """The security headers on every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, guarded)


def app(book: str | os.PathLike[str] | GameBook | None = None, runs: str | os.PathLike[str] | None = None, *,
        live: int = 512, threads: int = 8, analysis_deals: int = 32, hint_deals: int = 64,
        hosts: Sequence[str] | None = None) -> Starlette:
    """The web app: games kept in ``book`` (a database file; by default ``games.sqlite3`` in the user's
    data directory), the runs page reading ``runs`` (none by default), at most ``live`` games in memory,
    ``threads`` worker threads for the strategies' moves, ``analysis_deals`` and ``hint_deals``
    play-outs an option behind the review and the hints; with ``hosts``, only requests whose ``Host``
    is one of them are answered (``ginsim serve`` gives :data:`LOOPBACK_HOSTS` unless ``--public``)."""
    games = book if isinstance(book, GameBook) else GameBook(default_path() if book is None else book)
    folder = None
    if runs is not None:
        folder = Path(runs).resolve()
        if not folder.is_dir():
            raise InputError(f"--runs: {runs} is not a folder")
    server = _Server(games, folder, live, threads, analysis_deals, hint_deals)
    api = [
        Route("/api/options", _handled(options)),
        Route("/api/games", _handled(new_game), methods=["POST"]),
        Route("/api/games", _handled(my_games), methods=["GET"]),
        Route("/api/games/{game}", _handled(show_game)),
        Route("/api/games/{game}/move", _handled(move), methods=["POST"]),
        Route("/api/games/{game}/next", _handled(next_hand), methods=["POST"]),
        Route("/api/games/{game}/hint", _handled(hint), methods=["POST"]),
        Route("/api/games/{game}/record", _handled(record)),
        Route("/api/games/{game}/review", _handled(review_game)),
        Route("/api/review", _handled(review_upload), methods=["POST"]),
        Route("/api/review/{job}", _handled(review_job)),
        Route("/api/runs", _handled(runs_list)),
        Route("/api/runs/summary", _handled(runs_summary)),
        Route("/api/runs/sweep", _handled(runs_sweep)),
        Route("/api/runs/hand", _handled(runs_hand)),
    ]
    pages = [Route(path, _page(name)) for path, name in _PAGES.items()]
    web = Starlette(routes=[*api, *pages, Mount("/static", StaticFiles(directory=STATIC))],
                    middleware=[Middleware(_Guard)] + ([Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))]
                                                       if hosts is not None else []),
                    exception_handlers={404: _refused, 405: _refused})
    web.state.server = server
    return web
