"""The book of games played in the browser: an SQLite database (one file, in the user's data directory by
default) that keeps every game's settings, seed and moves as they are made, so that a restarted server
loses no finished game and resumes the unfinished ones, and each finished game's analysis once made.

A write is one transaction: a game's row is either as it was or as it is now, never half written.
Several servers may share a file (SQLite locks it); each row belongs to the browser that started it.

>>> book = GameBook(":memory:")
>>> book.add("g1", "owner", {"opponent": "simple"}, seed=5)
>>> book.save_moves("g1", [[104, 3]], "playing")
>>> book.get("g1", "owner")["log"], book.get("g1", "someone else")
([[104, 3]], None)
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Final

from gincore.errors import InputError

__all__ = ["GameBook", "default_path"]

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    log TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'playing',
    result TEXT,
    analysis TEXT
);
CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner, created);
"""
VERSION: Final = 1
"""The schema's version, kept in SQLite's ``user_version``; a newer file is refused."""


def default_path() -> Path:
    """Where the book is kept unless told: ``games.sqlite3`` in the user's data directory for ginsim."""
    from platformdirs import user_data_dir
    return Path(user_data_dir("ginsim", appauthor=False)) / "games.sqlite3"


class GameBook:
    """The games of one database file (``":memory:"`` for one that lives as long as the object)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        if self.path != ":memory:":
            folder = Path(self.path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise InputError(f"cannot make the folder of the games database {folder}: {error.strerror}") from None
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise InputError(f"{self.path}: a games database of a newer ginsim (version {version})")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={VERSION}")
        except sqlite3.DatabaseError as error:
            raise InputError(f"{self.path} is not a games database: {error}") from None
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, values: tuple[Any, ...]) -> None:
        with self._lock:
            self._db.execute(sql, values)

    def add(self, game: str, owner: str, settings: dict[str, Any], seed: int) -> None:
        """A new game in play."""
        now = time.time()
        self._write("INSERT INTO games (id, owner, created, updated, settings, seed) VALUES (?, ?, ?, ?, ?, ?)",
                    (game, owner, now, now, json.dumps(settings), seed))

    def save_moves(self, game: str, log: list[list[int]], status: str, result: dict[str, Any] | None = None) -> None:
        """The game's moves so far, its status (``playing``, ``over``) and, once over, its result."""
        self._write("UPDATE games SET log = ?, status = ?, result = ?, updated = ? WHERE id = ?",
                    (json.dumps(log), status, None if result is None else json.dumps(result), time.time(), game))

    def save_analysis(self, game: str, analysis: dict[str, Any]) -> None:
        self._write("UPDATE games SET analysis = ? WHERE id = ?", (json.dumps(analysis), game))

    def get(self, game: str, owner: str) -> dict[str, Any] | None:
        """The game ``game`` if ``owner`` started it, else ``None``."""
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ? AND owner = ?", (game, owner)).fetchone()
            names = [column[0] for column in self._db.execute("SELECT * FROM games LIMIT 0").description]
        return None if row is None else _decoded(dict(zip(names, row, strict=True)))

    def games(self, owner: str, limit: int = 500) -> list[dict[str, Any]]:
        """``owner``'s games, newest first (without their moves)."""
        with self._lock:
            cursor = self._db.execute(
                "SELECT id, created, updated, settings, status, result, analysis FROM games WHERE owner = ? "
                "ORDER BY created DESC LIMIT ?", (owner, limit))
            names = [column[0] for column in cursor.description]
            rows = cursor.fetchall()
        return [_decoded(dict(zip(names, row, strict=True))) for row in rows]


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    for name in ("settings", "log", "result", "analysis"):
        if name in row and row[name] is not None:
            row[name] = json.loads(row[name])
    return row
