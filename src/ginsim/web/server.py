"""The ASGI app of ``ginsim serve``: the play page, the review page, the list of your games and the runs
page, with the JSON API they call.

The fairness boundary is here: the pages get only what :meth:`PlayedGame.public
<ginsim.web.game.PlayedGame.public>` gives, so no response carries the opponent's hidden cards, the
stock's order or the game's seed while they matter. A game's id is unguessable and it answers only the
browser that started it (an ``HttpOnly`` cookie the server signed: any other value is replaced, never
adopted). A request body is bounded, bad input gets a 4xx with a one-line ``error``, and a refused move
leaves the game as it was.

The book (:mod:`ginsim.web.book`) is the one truth of every game: each request reads the game's version
there, a move is written conditionally on it (a move made meanwhile by another process answers 409), and
a busy or failing database answers 503 and changes nothing, in memory or on disk. Every call on the
database runs in a worker thread, never on the event loop, so several processes (``ginsim serve
--workers N``) and machines (PostgreSQL) can serve any request of any game. Strategies choose their moves
in worker threads (the native code releases the GIL), one request at a time per game; hints have threads
of their own and bounds per player and in all, and analyses are queued in the book and run one at a time
by each process. At most ``live`` games are kept in memory; the least recently used one beyond that is
dropped and read again from the book when next asked for.

>>> from starlette.testclient import TestClient
>>> client = TestClient(app(book=":memory:"))
>>> [level["name"] for level in client.get("/api/options").json()["opponents"]][::4]
['random', 'gin', 'reader']
"""
from __future__ import annotations

import asyncio
import functools
import hmac
import json
import logging
import math
import os
import secrets
import threading
from collections import Counter, OrderedDict
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
from starlette.requests import ClientDisconnect, Request
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
from ginsim.web.book import LEASE, Busy, Full, GameBook, Stale, default_path
from ginsim.web.game import HUMAN, OPPONENTS, OWN_KNOCK_LIMIT, TARGETS, GameSettings, OutOfTurn, PlayedGame
from ginsim.web.review import analysis_of, hint_of, positions

__all__ = ["LOOPBACK_HOSTS", "MOST_BODY", "MOST_ERROR", "MOST_RECORD_BODY", "MOST_REVIEW_HANDS", "SETTINGS_VARIABLE",
           "Analyst", "app", "from_environment", "signed"]

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
_log: Final = logging.getLogger("ginsim.web")
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
    """A game as this process last read it from the book, and the lock that puts its requests in a row."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    game: PlayedGame | None = None
    owner: str = ""
    version: int = -1
    """The book's version of the game that ``game`` stands at (-1: none read yet)."""
    users: int = 0
    """Requests waiting for or holding the game: it is not forgotten while they last."""

    def forget(self) -> None:
        """Drop the copy (a move made in it could not be written): the next request reads the book."""
        self.game, self.version = None, -1


class _Server:
    def __init__(self, book: GameBook, runs: Path | None, live: int, threads: int, analysis_deals: int,
                 hint_deals: int, hint_threads: int, secret: bytes) -> None:
        self.book, self.runs, self.most_live = book, runs, live
        self.secret = secret
        self.live: OrderedDict[str, _Live] = OrderedDict()
        self.moves = anyio.CapacityLimiter(threads)
        self.hints = anyio.CapacityLimiter(hint_threads)
        self.most_hints = 4 * hint_threads
        self.hinting: Counter[str] = Counter()
        self.database = anyio.CapacityLimiter(8)  # the book's calls; each waits for a lock at most its timeout
        self.reading = anyio.CapacityLimiter(1)  # the runs page's summaries, one at a time
        self.analysis_deals, self.hint_deals = analysis_deals, hint_deals
        self.analyst = Analyst(book, analysis_deals)

    async def db(self, call: Callable[..., Any], *values: Any) -> Any:
        """``call(*values)`` on the book, in a worker thread: the event loop never waits for the database."""
        return await anyio.to_thread.run_sync(call, *values, limiter=self.database)

    # --- games: the book is the truth, this process keeps copies -----------------------------------------

    def _entry(self, game_id: str) -> _Live:
        live = self.live.get(game_id)
        if live is None:
            live = self.live[game_id] = _Live()
            # Beyond the bound the least recently used copies are forgotten (the book has them), never one
            # with a request under way.
            idle = [key for key, held in self.live.items() if key != game_id and held.users == 0]
            for key in idle[:max(0, len(self.live) - self.most_live)]:
                del self.live[key]
        self.live.move_to_end(game_id)
        return live

    @asynccontextmanager
    async def game(self, request: Request) -> AsyncIterator[tuple[str, _Live, PlayedGame]]:
        """The request's game as the book has it now (404 unless its browser started it), held by this
        request alone until it is done: a read never sees half a move."""
        game_id = request.path_params["game"]
        owner = _owner(request)
        if not owner:
            raise HTTPProblem(404, "no such game (or not yours)")
        live = self._entry(game_id)
        live.users += 1
        try:
            async with live.lock:
                version = await self.db(self.book.version, game_id, owner)
                if version is None:
                    raise HTTPProblem(404, "no such game (or not yours)")
                if live.game is None or version != live.version:  # new here, or moved on by another process
                    live.forget()
                    row = await self.db(self.book.get, game_id, owner)
                    if row is None:
                        raise HTTPProblem(404, "no such game (or not yours)")
                    settings = GameSettings.stored(row["settings"])
                    live.game = await anyio.to_thread.run_sync(
                        lambda: PlayedGame(settings, row["seed"], row["log"]), limiter=self.moves)
                    live.owner, live.version = owner, row["version"]
                yield game_id, live, live.game
        finally:
            live.users -= 1

    async def change(self, game_id: str, live: _Live, change: Callable[[], Any]) -> None:
        """Make ``change`` on the game in a worker thread and write its moves to the book, conditionally on
        the version read: if the write fails, the copy is forgotten, so neither memory nor disk changed."""
        game = live.game
        assert game is not None
        try:
            await anyio.to_thread.run_sync(change, limiter=self.moves)
        except OutOfTurn as error:
            raise HTTPProblem(409, str(error)) from None
        except InputError:
            raise  # a refused move leaves the game as it was
        except BaseException:
            live.forget()
            raise
        try:
            live.version = await self.db(self._save, game_id, game, live.version)
        except BaseException:
            live.forget()
            raise

    def _save(self, game_id: str, game: PlayedGame, version: int) -> int:
        result = game.score.result() if game.over else None
        return self.book.save_moves(game_id, game.log(), "over" if game.over else "playing", result, version=version)

    def analyse(self, job: str, owner: str, *, game: str | None = None, record: dict[str, Any] | None = None) -> bool:
        """Queue an analysis in the book (any process's analyst may take it) and wake this one's."""
        queued = self.book.enqueue(job, owner, game=game, record=record)
        self.analyst.wake()
        return queued


class Analyst:
    """The analyses of one process, one at a time in a daemon thread that takes them from the book's queue:
    a stopping server does not wait for them (an analysis is saved whole or not at all; one left running is
    taken again by a live process once its lease runs out). An error in one analysis is logged and written
    as that analysis's error; the thread goes on to the next."""

    def __init__(self, book: GameBook, deals: int) -> None:
        self.book, self.deals = book, deals
        self._wakeup = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def wake(self) -> None:
        with self._starting:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="ginsim-analyses", daemon=True)
                self._thread.start()
        self._wakeup.set()

    def stop(self) -> None:
        self._stop.set()
        self._wakeup.set()

    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                job = self.book.claim()
            except Exception as error:  # noqa: BLE001 - a failing database must not end the analyses
                if self._stop.is_set():
                    return
                _log.warning("the analyses' queue cannot be read now: %s", error)
                job = None
            if job is None:
                self._wakeup.wait(1.0)  # other processes queue analyses too: look again soon
                self._wakeup.clear()
                continue
            self._run(job)

    def _run(self, job: dict[str, Any]) -> None:
        beating = threading.Event()

        def heartbeat() -> None:
            while not beating.wait(LEASE / 4):
                try:
                    self.book.alive(job["id"])
                except Exception as error:  # noqa: BLE001 - the lease then lapses; the work goes on
                    _log.warning("analysis %s: cannot renew its lease: %s", job["id"], error)

        threading.Thread(target=heartbeat, name="ginsim-analysis-lease", daemon=True).start()
        try:
            result, error = analysis_of(self._record(job), self.deals), None
        except InputError as refused:
            result, error = None, str(refused).splitlines()[0]
        except Exception:  # noqa: BLE001 - one failing analysis must not stop the others
            _log.exception("analysis %s failed", job["id"])
            result, error = None, "the analysis failed on the server"
        finally:
            beating.set()
        try:
            self.book.finish(job["id"], result, error)
        except Exception as failure:  # noqa: BLE001 - the job is claimed again once its lease lapses
            if not self._stop.is_set():
                _log.warning("analysis %s: its result could not be written: %s", job["id"], failure)

    def _record(self, job: dict[str, Any]) -> GameRecord:
        if job["game"] is None:
            return GameRecord.from_json(job["record"])
        row = self.book.get(job["game"], None)
        if row is None:
            raise InputError("the game is no longer in the book")
        return PlayedGame(GameSettings.stored(row["settings"]), row["seed"], row["log"]).record()


def signed(owner: str, secret: bytes) -> str:
    """A player's cookie: their id and the server's signature of it."""
    return f"{owner}.{hmac.new(secret, owner.encode(), 'sha256').hexdigest()[:40]}"


def _owner(request: Request) -> str:
    """The player the request's cookie names, if this server signed it; else ``""`` (a new player)."""
    value = request.cookies.get(OWNER_COOKIE, "")
    owner, _, signature = value.rpartition(".")
    if not (16 <= len(owner) <= 64 and value.isascii() and signature):
        return ""
    secret = request.app.state.server.secret
    return owner if hmac.compare_digest(signed(owner, secret), value) else ""


def _identified(request: Request, response: Response, owner: str) -> Response:
    """``response`` with the player's signed cookie set, when the request did not carry it."""
    if request.cookies.get(OWNER_COOKIE) != signed(owner, request.app.state.server.secret):
        response.set_cookie(OWNER_COOKIE, signed(owner, request.app.state.server.secret), max_age=10 * 365 * 86400,
                            httponly=True, samesite="strict")
    return response


def _shown(value: Any) -> str:
    """A value as an error message quotes it: never more than a few dozen characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


async def _body(request: Request, most: int) -> Any:
    """The request's JSON body, at most ``most`` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise HTTPProblem(415, "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > most):
        raise HTTPProblem(413, f"the request body is larger than {most:,} bytes")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > most:
                raise HTTPProblem(413, f"the request body is larger than {most:,} bytes")
            chunks.append(chunk)
    except ClientDisconnect:  # closed by the client, or by the server for taking too long
        raise HTTPProblem(400, "the request body was not sent whole") from None
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):
        raise HTTPProblem(400, "the request body is not JSON") from None


def _field(data: Any, name: str) -> Any:
    if not isinstance(data, dict) or name not in data:
        raise HTTPProblem(400, f"the request needs a field {name!r}")
    return data[name]


MOST_ERROR: Final = 300
"""The longest error line a response carries (a refused value is never echoed whole)."""


def _handled(handler: Callable[[_Server, Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """A route whose refusals answer with one line: ``HTTPProblem`` its status, ``InputError`` 400, a game
    changed elsewhere 409, a full queue 429 or 503, a busy or failing database 503."""

    def refused(status: int, reason: str) -> Response:
        line = reason.splitlines()[0] if reason else "refused"
        return JSONResponse({"error": line if len(line) <= MOST_ERROR else line[:MOST_ERROR - 3] + "..."},
                            status_code=status)

    async def route(request: Request) -> Response:
        server: _Server = request.app.state.server
        try:
            found = await handler(server, request)
        except HTTPProblem as problem:
            return refused(problem.status, str(problem))
        except InputError as error:
            return refused(400, str(error))
        except Stale:
            return refused(409, "the game was moved on in another window: reload it")
        except Full as full:
            return refused(full.status, str(full))
        except Busy as busy:
            _log.warning("the games database: %s", busy)
            return refused(503, "the games database is busy: try again in a moment (nothing was changed)")
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
    # Written whole, at version 0, before it is answered: the strategy may have moved first.
    await server.db(lambda: server.book.add(game_id, owner, settings.to_json(), game.seed, game.log(),
                                            "over" if game.over else "playing"))
    live = server._entry(game_id)
    live.game, live.owner, live.version = game, owner, 0
    return _identified(request, JSONResponse({"id": game_id, **game.public()}), owner)


async def show_game(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live, game):
        return {"id": game_id, **game.public()}


def _whole(data: dict[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is not None and type(value) is not int:
        raise HTTPProblem(400, f"{name}: a whole number, got {_shown(value)}")
    return value


async def move(server: _Server, request: Request) -> Any:
    data = await _body(request, MOST_BODY)
    action = _field(data, "action")
    if type(action) is not int:
        raise HTTPProblem(400, f"action: a whole number, got {_shown(action)}")
    hand_number, move_count = _whole(data, "hand"), _whole(data, "move_count")
    async with server.game(request) as (game_id, live, game):
        # A move sent again (a retry, a second tab) is refused, not read as the next one: the same action
        # number may mean another move once the position has changed.
        shown = game.public()
        if hand_number is not None and hand_number != shown["hand_number"]:
            raise HTTPProblem(409, "that move was for another hand")
        if move_count is not None and move_count != shown["move_count"]:
            raise HTTPProblem(409, "that move was for an earlier position: the game has moved on")
        await server.change(game_id, live, lambda: game.act(action))
        answer = {"id": game_id, **game.public()}
    if game.over:
        await server.db(lambda: server.analyse(f"game:{game_id}", live.owner, game=game_id))
    return answer


async def next_hand(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live, game):
        await server.change(game_id, live, game.next_hand)
        return {"id": game_id, **game.public()}


async def hint(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live, game):
        hand = game.hand
        if game.over or hand is None or hand.state.done or hand.state.player != HUMAN:
            raise HTTPProblem(409, "there is no decision of yours to hint at")
        state = hand.state.clone()
        owner = live.owner
    # Hints have threads of their own, a few at a time for each player and a bound in all: a crowd asking
    # for hints never slows anyone's moves.
    if server.hinting[owner] >= 2:
        raise HTTPProblem(429, "a hint of yours is still being worked out: wait for it")
    if sum(server.hinting.values()) >= server.most_hints:
        raise HTTPProblem(503, "the server is working out many hints: try again in a moment")
    server.hinting[owner] += 1
    try:
        return await anyio.to_thread.run_sync(hint_of, state, server.hint_deals, limiter=server.hints)
    finally:
        server.hinting[owner] -= 1
        if not server.hinting[owner]:
            del server.hinting[owner]


async def record(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live, game):
        data = game.record().to_json()
    return Response(json.dumps(data, indent=1), media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="ginsim-{game_id[:8]}.json"'})


async def review_game(server: _Server, request: Request) -> Any:
    async with server.game(request) as (game_id, live, game):
        record = game.record()
        owner, over = live.owner, game.over
    board = await anyio.to_thread.run_sync(positions, record, limiter=server.moves)
    row = await server.db(server.book.get, game_id, owner)
    analysis = row["analysis"] if row else None
    if analysis is None and over:
        await server.db(lambda: server.analyse(f"game:{game_id}", owner, game=game_id))
    return {"id": game_id, "board": board, "analysis": analysis, "over": over}


async def review_upload(server: _Server, request: Request) -> Any:
    data = await _body(request, min(MOST_RECORD_BODY, MAX_RECORD_BYTES))
    try:
        record = await anyio.to_thread.run_sync(GameRecord.from_json, data)
    except InputError as error:
        raise HTTPProblem(400, f"not a game record: {str(error).splitlines()[0]}") from None
    if len(record.hands) > MOST_REVIEW_HANDS:
        raise HTTPProblem(413, f"the record has {len(record.hands):,} hands; the review reads at most "
                               f"{MOST_REVIEW_HANDS}")
    owner = _owner(request) or secrets.token_urlsafe(24)
    job_id = secrets.token_urlsafe(18)
    await server.db(lambda: server.analyse(f"upload:{job_id}", owner, record=record.to_json()))
    board = await anyio.to_thread.run_sync(positions, record, limiter=server.moves)
    return _identified(request, JSONResponse({"job": job_id, "board": board}), owner)


async def review_job(server: _Server, request: Request) -> Any:
    owner = _owner(request)
    job = await server.db(server.book.job, f"upload:{request.path_params['job']}", owner) if owner else None
    if job is None:
        raise HTTPProblem(404, "no such analysis")
    if job["state"] == "failed":
        raise HTTPProblem(400, job["error"] or "the analysis failed")
    return {"analysis": job["result"]}


def _listing(book: GameBook, owner: str) -> list[dict[str, Any]]:
    listed = []
    for row in book.games(owner):
        analysis = row.get("analysis") or {}
        rates = {item["player"]: item["error_rate"] for item in analysis.get("players", [])}
        listed.append({"id": row["id"], "created": row["created"], "updated": row["updated"],
                       "opponent": row["settings"].get("opponent"), "preset": row["settings"].get("preset"),
                       "target": row["settings"].get("target"), "status": row["status"], "result": row["result"],
                       "error_rate": [rates.get(0), rates.get(1)], "unit": analysis.get("unit")})
    return listed


async def my_games(server: _Server, request: Request) -> Any:
    owner = _owner(request)
    return {"games": await server.db(_listing, server.book, owner) if owner else []}


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
        live: int = 512, threads: int = 8, hint_threads: int = 2, analysis_deals: int = 32, hint_deals: int = 64,
        hosts: Sequence[str] | None = None, secret: str | bytes | None = None) -> Starlette:
    """The web app: games kept in ``book`` (an SQLite file, by default ``games.sqlite3`` in the user's data
    directory, or a ``postgresql://`` address), the runs page reading ``runs`` (none by default), copies of
    at most ``live`` games in memory, ``threads`` worker threads for the strategies' moves and
    ``hint_threads`` for hints, ``analysis_deals`` and ``hint_deals`` play-outs an option behind the review
    and the hints; with ``hosts``, only requests whose ``Host`` is one of them are answered (``ginsim
    serve`` gives :data:`LOOPBACK_HOSTS` unless ``--public``). The players' cookies are signed with
    ``secret`` (by default one made at random and kept in the book, the same for every process).

    Finished games that have no analysis (one lost with a stopped server) are queued for it at once."""
    games = book if isinstance(book, GameBook) else GameBook(default_path() if book is None else book)
    folder = None
    if runs is not None:
        folder = Path(runs).resolve()
        if not folder.is_dir():
            raise InputError(f"--runs: {runs} is not a folder")
    try:
        key = secret.encode() if isinstance(secret, str) else secret or games.secret()
        waiting = games.enqueue_unanalysed()
    except Busy as busy:
        raise InputError(f"{games.path}: the games database is busy ({busy}): try again") from None
    server = _Server(games, folder, live, threads, analysis_deals, hint_deals, hint_threads, key)
    if waiting:
        server.analyst.wake()

    @asynccontextmanager
    async def lifespan(web: Starlette) -> AsyncIterator[None]:
        yield
        server.analyst.stop()
        games.close()  # SQLite folds its write-ahead log into the file

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
                    exception_handlers={404: _refused, 405: _refused}, lifespan=lifespan)
    web.state.server = server
    return web


SETTINGS_VARIABLE: Final = "GINSIM_SERVE"
"""The environment variable through which ``ginsim serve --workers N`` gives each process the app's settings."""


def from_environment() -> Starlette:
    """The app of one of ``ginsim serve --workers N``'s processes: :func:`app` with the keywords that the
    environment variable :data:`SETTINGS_VARIABLE` holds as JSON."""
    settings = json.loads(os.environ[SETTINGS_VARIABLE])
    return app(**settings)
