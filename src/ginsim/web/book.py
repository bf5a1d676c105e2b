"""The book of games played in the browser: the one truth of every game, kept in a database that several
server processes (and machines) may share.

SQLite (one file, in the user's data directory by default) is the embedded choice; a ``postgresql://``
address uses PostgreSQL through psycopg, with the same tables. A game's row holds its settings, seed and
moves, and a ``version`` that each write of its moves raises by one: a write names the version it was
made from and changes nothing when another write came first (:class:`Stale`), so two processes can never
overwrite each other's moves. A database that is locked or failing raises :class:`Busy` within
``timeout`` seconds, and the write is not made. A write is one transaction: a row is as it was or as it
is now, never half written.

The book also keeps the queue of analyses (of finished games and of uploaded records), so that any
process may run any analysis and none is lost with a process, and the secret that signs the players'
cookies, so that every process issues and accepts the same.

>>> book = GameBook(":memory:")
>>> book.add("g1", "owner", {"opponent": "simple"}, seed=5)
>>> book.save_moves("g1", [[104, 3]], "playing", version=0)
1
>>> book.get("g1", "owner")["log"], book.get("g1", "someone else")
([[104, 3]], None)
>>> book.save_moves("g1", [[104]], "playing", version=0)
Traceback (most recent call last):
    ...
ginsim.web.book.Stale: the game was changed by another request
"""
from __future__ import annotations

import json
import os
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from gincore.errors import InputError
from ginsim._version import install_command

__all__ = ["Busy", "Full", "GameBook", "Stale", "default_path"]

_TABLES: Final = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        created {real} NOT NULL,
        updated {real} NOT NULL,
        settings TEXT NOT NULL,
        seed BIGINT NOT NULL,
        log TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL DEFAULT 'playing',
        result TEXT,
        analysis TEXT,
        version INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner, created)",
    """CREATE TABLE IF NOT EXISTS analyses (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        game TEXT,
        record TEXT,
        state TEXT NOT NULL DEFAULT 'queued',
        result TEXT,
        error TEXT,
        created {real} NOT NULL,
        claimed {real}
    )""",
    "CREATE INDEX IF NOT EXISTS analyses_by_state ON analyses (state, created)",
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
VERSION: Final = 2
"""The schema's version (SQLite: its ``user_version``; PostgreSQL: the ``meta`` table). A version 1 file (games
without a ``version`` column, no analyses queue) is brought up to date; a newer one is refused."""
LEASE: Final = 60.0
"""Seconds an analysis stays claimed by a process without a sign of life before another may take it."""
_KEPT_UPLOADS: Final = 86400.0
"""Seconds an uploaded record's finished analysis is kept for its page to read."""


class Busy(Exception):
    """The database is locked by another program, or failing: nothing was written."""


class Stale(Exception):
    """The game was changed by another request (in this process or another) since it was read."""


class Full(Exception):
    """The analysis queue is full, in all (status 503) or for one player (429)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


def default_path() -> Path:
    """Where the book is kept unless told: ``games.sqlite3`` in the user's data directory for ginsim."""
    from platformdirs import user_data_dir
    return Path(user_data_dir("ginsim", appauthor=False)) / "games.sqlite3"


def is_postgres(address: str) -> bool:
    """Whether ``address`` names a PostgreSQL database rather than an SQLite file."""
    return address.startswith(("postgresql://", "postgres://"))


class GameBook:
    """The games of one database: an SQLite file (``":memory:"`` for one that lives as long as the object)
    or a ``postgresql://`` address. Its methods may be called from any thread; each takes one of at most
    ``connections`` connections, and waits at most ``timeout`` seconds for a lock before raising
    :class:`Busy`."""

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 2.0, connections: int = 4) -> None:
        self.path = os.fspath(path)
        self.postgres = is_postgres(self.path)
        self.timeout = timeout
        self._shown = _without_password(self.path) if self.postgres else self.path
        if self.path == ":memory:":
            connections = 1  # each SQLite connection to :memory: is a database of its own
        elif not self.postgres:
            self._check_file()
        self._idle: queue.LifoQueue[Any] = queue.LifoQueue()
        self._made = 0
        self._most = connections
        self._making = threading.Lock()
        self._closed = False
        try:
            with self._connection() as db:
                self._prepare(db)
        except Busy as error:
            self.close()
            raise InputError(f"{self._shown}: the games database cannot be opened now ({error})") from None

    # --- connections ---------------------------------------------------------------------------------

    def _check_file(self) -> None:
        folder = Path(self.path).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot make the folder of the games database {folder}: {error.strerror}") from None
        if os.path.exists(self.path) and not os.access(self.path, os.R_OK | os.W_OK):
            raise InputError(f"{self.path}: the games database is read-only here (the server writes every move): "
                             "give this user write access or choose another --db")
        if not os.access(folder, os.W_OK):
            raise InputError(f"{folder}: the folder of the games database is read-only here (SQLite writes its "
                             "journal beside the file): give this user write access or choose another --db")

    def _connect(self) -> Any:
        if self.postgres:
            try:
                import psycopg
            except ImportError:
                raise InputError(f"a postgresql:// database needs psycopg: {install_command('postgres')}") from None
            try:
                # A lock waited for longer than the timeout fails the statement (Busy), as SQLite's does.
                wait = max(1, round(self.timeout * 1000))
                return psycopg.connect(self.path, autocommit=True, connect_timeout=max(1, round(self.timeout)),
                                       options=f"-c lock_timeout={wait} -c statement_timeout={5 * wait}")
            except psycopg.Error as error:
                raise InputError(f"{self._shown}: cannot connect to the games database: "
                                 f"{_first_line(error)}") from None
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=self.timeout)
        try:
            db.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
            db.execute("PRAGMA synchronous=NORMAL")  # with WAL: a committed move survives a killed process
        except sqlite3.DatabaseError as error:
            db.close()
            raise _refused(self.path, error) from None
        return db

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection of the pool, for one transaction; a failing one is closed, not put back."""
        if self._closed:
            raise Busy("the server is stopping")
        try:
            db = self._idle.get_nowait()
        except queue.Empty:
            with self._making:
                new = self._made < self._most
                self._made += new
            if new:
                try:
                    db = self._connect()
                except BaseException:
                    with self._making:
                        self._made -= 1
                    raise
            else:
                try:
                    db = self._idle.get(timeout=self.timeout)
                except queue.Empty:
                    raise Busy("every connection to the games database is in use") from None
        healthy = True
        try:
            yield db
        except (sqlite3.OperationalError, sqlite3.InterfaceError) as error:
            healthy = "locked" in str(error) or "busy" in str(error)
            raise Busy(_first_line(error)) from None
        except sqlite3.DatabaseError as error:
            raise Busy(_first_line(error)) from None
        except Exception as error:
            if not self.postgres or not _is_postgres_error(error):
                raise
            healthy = not db.closed and not db.broken
            raise Busy(_first_line(error)) from None
        finally:
            if healthy and not self._closed:
                self._idle.put(db)
            else:
                with self._making:
                    self._made -= 1
                _quietly_close(db)

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.postgres else text

    def _run(self, db: Any, sql: str, values: tuple[Any, ...] = ()) -> Any:
        return db.execute(self._sql(sql), values)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction that takes the write lock at once (SQLite: ``BEGIN IMMEDIATE``)."""
        with self._connection() as db:
            if self.postgres:
                with db.transaction():
                    yield db
                return
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _prepare(self, db: Any) -> None:
        """Check the database and bring its tables up to date."""
        real = "DOUBLE PRECISION" if self.postgres else "REAL"
        if self.postgres:
            for statement in _TABLES:
                db.execute(statement.format(real=real))
            row = db.execute("SELECT value FROM meta WHERE name = 'version'").fetchone()
            version = int(row[0]) if row else VERSION
            if version > VERSION:
                raise InputError(f"{self._shown}: a games database of a newer ginsim (version {version})")
            db.execute("INSERT INTO meta (name, value) VALUES ('version', %s) ON CONFLICT (name) DO NOTHING",
                       (str(VERSION),))
            return
        try:
            if self.path != ":memory:":
                damage = [row[0] for row in db.execute("PRAGMA quick_check(1)").fetchall()]
                if damage != ["ok"]:
                    found = " ".join(damage[0].split())[:120]
                    raise InputError(f"{self.path}: the games database is damaged ({found}): restore it from a "
                                     "backup, or move it aside to start a new one")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise InputError(f"{self.path}: a games database of a newer ginsim (version {version})")
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            db.execute("BEGIN IMMEDIATE")
            if "games" in tables and version < 2:
                columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
                if "version" not in columns:
                    db.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
            for statement in _TABLES:
                db.execute(statement.format(real=real))
            db.execute(f"PRAGMA user_version={VERSION}")
            db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise Busy(_first_line(error)) from None
            raise _refused(self.path, error) from None
        except sqlite3.DatabaseError as error:
            raise _refused(self.path, error) from None

    def close(self) -> None:
        """Close every connection (SQLite then folds its write-ahead log into the file)."""
        self._closed = True
        while True:
            try:
                _quietly_close(self._idle.get_nowait())
            except queue.Empty:
                return

    # --- games ---------------------------------------------------------------------------------------

    def add(self, game: str, owner: str, settings: dict[str, Any], seed: int, log: list[list[int]] | None = None,
            status: str = "playing") -> None:
        """A new game (at version 0), with the moves made in it so far."""
        now = time.time()
        with self._connection() as db:
            self._run(db, "INSERT INTO games (id, owner, created, updated, settings, seed, log, status) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      (game, owner, now, now, json.dumps(settings), seed, json.dumps(log or []), status))

    def save_moves(self, game: str, log: list[list[int]], status: str, result: dict[str, Any] | None = None, *,
                   version: int) -> int:
        """The game's moves so far, its status (``playing``, ``over``) and, once over, its result, written
        only if the game is still at ``version``; returns the new version (raises :class:`Stale` else)."""
        with self._connection() as db:
            cursor = self._run(db, "UPDATE games SET log = ?, status = ?, result = ?, updated = ?, "
                                   "version = version + 1 WHERE id = ? AND version = ?",
                               (json.dumps(log), status, None if result is None else json.dumps(result), time.time(),
                                game, version))
            if cursor.rowcount != 1:
                raise Stale("the game was changed by another request")
        return version + 1

    def save_analysis(self, game: str, analysis: dict[str, Any]) -> None:
        with self._connection() as db:
            self._run(db, "UPDATE games SET analysis = ? WHERE id = ?", (json.dumps(analysis), game))

    def version(self, game: str, owner: str) -> int | None:
        """The game's version if ``owner`` started it, else ``None``."""
        with self._connection() as db:
            row = self._run(db, "SELECT version FROM games WHERE id = ? AND owner = ?", (game, owner)).fetchone()
        return None if row is None else int(row[0])

    def get(self, game: str, owner: str | None) -> dict[str, Any] | None:
        """The game ``game`` if ``owner`` started it (whoever did, for ``None``: the server's own work), else
        ``None``."""
        if owner is None:
            return self._game("SELECT * FROM games WHERE id = ?", (game,))
        return self._game("SELECT * FROM games WHERE id = ? AND owner = ?", (game, owner))

    def _game(self, sql: str, values: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._connection() as db:
            cursor = self._run(db, sql, values)
            row = cursor.fetchone()
            names = [column[0] for column in cursor.description]
        return None if row is None else _decoded(dict(zip(names, row, strict=True)))

    def games(self, owner: str, limit: int = 500) -> list[dict[str, Any]]:
        """``owner``'s games, newest first (without their moves)."""
        with self._connection() as db:
            cursor = self._run(db, "SELECT id, created, updated, settings, status, result, analysis FROM games "
                                   "WHERE owner = ? ORDER BY created DESC LIMIT ?", (owner, limit))
            names = [column[0] for column in cursor.description]
            rows = cursor.fetchall()
        return [_decoded(dict(zip(names, row, strict=True))) for row in rows]

    # --- the analyses' queue -------------------------------------------------------------------------

    def enqueue(self, job: str, owner: str, *, game: str | None = None, record: dict[str, Any] | None = None,
                most: int = 64, most_each: int = 4) -> bool:
        """Queue the analysis ``job``: of the finished ``game`` (once: ``False`` when it is queued, running or
        done already) or of an uploaded ``record``. Raises :class:`Full` beyond ``most`` waiting in all, or
        ``most_each`` waiting for ``owner`` (uploads only: a finished game is always analysed)."""
        now = time.time()
        with self._transaction() as db:
            if game is not None:
                done = self._run(db, "SELECT 1 FROM games WHERE id = ? AND analysis IS NOT NULL", (game,)).fetchone()
                queued = self._run(db, "SELECT 1 FROM analyses WHERE game = ? AND state IN ('queued', 'running')",
                                   (game,)).fetchone()
                if done or queued:
                    return False
            else:
                self._run(db, "DELETE FROM analyses WHERE game IS NULL AND state IN ('done', 'failed') AND created < ?",
                          (now - _KEPT_UPLOADS,))
                waiting = self._run(db, "SELECT COUNT(*) FROM analyses WHERE state IN ('queued', 'running')"
                                    ).fetchone()[0]
                if waiting >= most:
                    raise Full(503, "the analysis queue is full: try again in a minute")
                mine = self._run(db, "SELECT COUNT(*) FROM analyses WHERE owner = ? AND state IN ('queued', 'running')",
                                 (owner,)).fetchone()[0]
                if mine >= most_each:
                    raise Full(429, f"you have {mine} analyses waiting: wait for them to finish")
            self._run(db, "INSERT INTO analyses (id, owner, game, record, created) VALUES (?, ?, ?, ?, ?)",
                      (job, owner, game, None if record is None else json.dumps(record), now))
        return True

    def enqueue_unanalysed(self) -> int:
        """Queue every finished game that has no analysis and none under way (one lost with a stopped server);
        returns how many analyses are waiting now, these and any left by other processes."""
        with self._transaction() as db:
            rows = self._run(db, "SELECT id, owner FROM games WHERE status = 'over' AND analysis IS NULL AND id NOT IN "
                                 "(SELECT game FROM analyses WHERE game IS NOT NULL AND state IN ('queued', 'running'))"
                             ).fetchall()
            self._run(db, "DELETE FROM analyses WHERE game IS NOT NULL AND state = 'failed'")
            for game, owner in rows:
                self._run(db, "INSERT INTO analyses (id, owner, game, created) VALUES (?, ?, ?, ?)",
                          (f"game:{game}", owner, game, time.time()))
            waiting = self._run(db, "SELECT COUNT(*) FROM analyses WHERE state IN ('queued', 'running')"
                                ).fetchone()[0]
        return int(waiting)

    def claim(self) -> dict[str, Any] | None:
        """The oldest waiting analysis (or one whose process stopped showing life), now claimed by the caller;
        ``None`` when there is none."""
        now = time.time()
        with self._transaction() as db:
            row = self._run(db, "SELECT id FROM analyses WHERE state = 'queued' OR (state = 'running' AND claimed < ?) "
                                "ORDER BY created LIMIT 1", (now - LEASE,)).fetchone()
            if row is None:
                return None
            self._run(db, "UPDATE analyses SET state = 'running', claimed = ? WHERE id = ?", (now, row[0]))
            cursor = self._run(db, "SELECT id, owner, game, record FROM analyses WHERE id = ?", (row[0],))
            names = [column[0] for column in cursor.description]
            found = _decoded(dict(zip(names, cursor.fetchone(), strict=True)))
        return found

    def alive(self, job: str) -> None:
        """The claimer of ``job`` is still at work on it."""
        with self._connection() as db:
            self._run(db, "UPDATE analyses SET claimed = ? WHERE id = ? AND state = 'running'", (time.time(), job))

    def finish(self, job: str, result: dict[str, Any] | None = None, error: str | None = None) -> None:
        """The analysis ``job`` done (its ``result``, saved on its game too) or failed (its ``error``)."""
        with self._transaction() as db:
            found = self._run(db, "SELECT game FROM analyses WHERE id = ?", (job,)).fetchone()
            if found is None:
                return
            if found[0] is not None and result is not None:
                self._run(db, "UPDATE games SET analysis = ? WHERE id = ?", (json.dumps(result), found[0]))
                self._run(db, "DELETE FROM analyses WHERE id = ?", (job,))
                return
            self._run(db, "UPDATE analyses SET state = ?, result = ?, error = ?, record = NULL WHERE id = ?",
                      ("failed" if result is None else "done", None if result is None else json.dumps(result), error,
                       job))

    def job(self, job: str, owner: str) -> dict[str, Any] | None:
        """The analysis ``job`` if ``owner`` asked for it: its ``state``, ``result`` and ``error``."""
        with self._connection() as db:
            cursor = self._run(db, "SELECT state, result, error FROM analyses WHERE id = ? AND owner = ?", (job, owner))
            row = cursor.fetchone()
            names = [column[0] for column in cursor.description]
        return None if row is None else _decoded(dict(zip(names, row, strict=True)))

    # --- the server's secret -------------------------------------------------------------------------

    def secret(self) -> bytes:
        """The key that signs the players' cookies: made once, at random, and kept in the database so that
        every process and every restart signs alike."""
        with self._transaction() as db:
            row = self._run(db, "SELECT value FROM meta WHERE name = 'cookie_secret'").fetchone()
            if row is None:
                value = secrets.token_hex(32)
                self._run(db, "INSERT INTO meta (name, value) VALUES ('cookie_secret', ?)", (value,))
            else:
                value = row[0]
        return bytes.fromhex(value)


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    for name in ("settings", "log", "result", "analysis", "record"):
        if name in row and row[name] is not None:
            row[name] = json.loads(row[name])
    return row


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _refused(path: str, error: sqlite3.DatabaseError) -> InputError:
    text = _first_line(error)
    if "readonly" in text or "read-only" in text:
        return InputError(f"{path}: the games database is read-only here (the server writes every move)")
    if "not a database" in text or "malformed" in text:
        return InputError(f"{path} is not a games database (or is damaged): {text}")
    return InputError(f"{path}: cannot open the games database: {text}")


def _is_postgres_error(error: BaseException) -> bool:
    module = type(error).__module__
    return module.startswith("psycopg")


def _without_password(address: str) -> str:
    """A PostgreSQL address as messages show it: its password left out."""
    head, at, tail = address.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return address
    scheme, _, user = head.partition("//")
    return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"


def _quietly_close(db: Any) -> None:
    try:
        db.close()
    except Exception:  # noqa: BLE001 - closing a broken connection may fail; there is nothing left to keep
        pass
