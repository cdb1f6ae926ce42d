"""The journal: every event of every game at this table, in SQLite, append-only.

One row per event (setup, deal, card announced, reading accepted, verdict, fold, override,
undo, camera lost/back), written and synced to disk before the table acts on it: WAL mode with
``synchronous=FULL``, one transaction per event. Rows are never changed or deleted; an undo is
an event of its own. Each row carries a digest of its content, so that an event that did not
reach the disk whole is recognised when the journal is opened: a damaged *last* event is moved
to the ``dropped`` table with a log line (the table never acted on it), a damaged event before
it is a :class:`StoreError`.

Games are numbered; a game played here has ``source = "table"``, one brought in with
``dog-companion games import`` has ``source = "import"`` (its events are the record's lines).
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FILE_NAME = "journal.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    source TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    digest TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game, seq);
CREATE TABLE IF NOT EXISTS dropped (
    seq INTEGER PRIMARY KEY,
    game INTEGER,
    at REAL,
    kind TEXT,
    data TEXT,
    digest TEXT,
    dropped_at REAL NOT NULL,
    why TEXT NOT NULL
);
"""


class StoreError(RuntimeError):
    """The journal cannot be opened or is damaged beyond its last event."""


@dataclass(frozen=True)
class Event:
    """One journalled event: its number, game, wall-clock time, kind and data."""

    seq: int
    game: int
    at: float
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class GameInfo:
    """One game in the journal: number, when it began, where from, a label, its event count."""

    id: int
    created: float
    source: str
    label: str
    events: int


def digest(game: int, kind: str, data: str) -> str:
    """The check value stored with an event."""
    return hashlib.sha256(f"{game}\x1f{kind}\x1f{data}".encode()).hexdigest()[:32]


class Journal:
    """The SQLite journal at ``path`` (``":memory:"`` for a journal that lives in memory).

    Thread-safe: one connection, one lock.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"journal {self.path}: {error}") from None
        self._lock = threading.Lock()
        self._verify()

    @classmethod
    def in_dir(cls, state_dir: str | Path) -> Journal:
        """The journal file in a state directory (created if missing)."""
        return cls(Path(state_dir) / FILE_NAME)

    # -- writing --------------------------------------------------------------------------

    def new_game(self, source: str = "table", label: str = "",
                 first: tuple[str, dict[str, Any]] | None = None) -> int:
        """Start a game, with its ``first`` event (kind, data) in the same transaction (a game
        is never left without its setup); returns its number."""
        with self._lock, self._transaction():
            cursor = self._db.execute("INSERT INTO games(created, source, label) VALUES (?,?,?)",
                                      (time.time(), source, label))
            game = cursor.lastrowid
            assert game is not None
            if first is not None:
                self._insert(game, *first)
            return game

    def _insert(self, game: int, kind: str, data: dict[str, Any]) -> int:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        cursor = self._db.execute(
            "INSERT INTO events(game, at, kind, data, digest) VALUES (?,?,?,?,?)",
            (game, time.time(), kind, text, digest(game, kind, text)))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game: int, kind: str, data: dict[str, Any]) -> int:
        """Write one event and sync it to disk; returns its number."""
        with self._lock, self._transaction():
            return self._insert(game, kind, data)

    def set_label(self, game: int, label: str) -> None:
        """Name a game (players and rules, for `games list`)."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET label = ? WHERE id = ?", (label, game))

    # -- reading --------------------------------------------------------------------------

    def events(self, game: int) -> list[Event]:
        """Every event of one game, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, game, at, kind, data FROM events WHERE game = ? ORDER BY seq",
                (game,)).fetchall()
        return [Event(seq, g, at, kind, json.loads(data)) for seq, g, at, kind, data in rows]

    def games(self) -> list[GameInfo]:
        """Every game, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.source, g.label, COUNT(e.seq) FROM games g "
                "LEFT JOIN events e ON e.game = g.id GROUP BY g.id ORDER BY g.id").fetchall()
        return [GameInfo(*row) for row in rows]

    def game(self, game: int) -> GameInfo | None:
        """One game, or None if there is none with that number."""
        return next((info for info in self.games() if info.id == game), None)

    def last_game(self, source: str = "table") -> int | None:
        """The newest game of a source (the one a table resumes), or None."""
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM games WHERE source = ?",
                                   (source,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def dropped(self) -> list[tuple[int, str]]:
        """Events dropped as damaged when the journal was opened: (number, why)."""
        with self._lock:
            return [(int(seq), str(why)) for seq, why in
                    self._db.execute("SELECT seq, why FROM dropped ORDER BY seq")]

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    # -- integrity ------------------------------------------------------------------------

    def _verify(self) -> None:
        rows = self._db.execute(
            "SELECT seq, game, at, kind, data, digest FROM events ORDER BY seq").fetchall()
        for index, (seq, game, at, kind, data, check) in enumerate(rows):
            why = _damage(game, kind, data, check)
            if why is None:
                continue
            if index != len(rows) - 1:
                raise StoreError(f"journal {self.path}: event {seq} is damaged ({why}) and "
                                 "events follow it")
            log.warning("journal: the last event (%s, number %d) was not written whole (%s): "
                        "dropped", kind, seq, why)
            with self._transaction():
                self._db.execute(
                    "INSERT INTO dropped(seq, game, at, kind, data, digest, dropped_at, why) "
                    "VALUES (?,?,?,?,?,?,?,?)", (seq, game, at, kind, data, check, time.time(),
                                                 why))
                self._db.execute("DELETE FROM events WHERE seq = ?", (seq,))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


def _damage(game: Any, kind: Any, data: Any, check: Any) -> str | None:
    if not isinstance(data, str) or not isinstance(kind, str) or not isinstance(game, int):
        return "a column is missing"
    if digest(game, kind, data) != check:
        return "its check value does not match"
    try:
        value = json.loads(data)
    except ValueError:
        return "its data is not JSON"
    return None if isinstance(value, dict) else "its data is not an object"


class _Transaction:
    """``with``: BEGIN IMMEDIATE … COMMIT, or ROLLBACK on an error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def iter_lines(events: list[Event]) -> Iterator[str]:
    """The record lines of an imported game (its events' ``line`` values)."""
    for event in events:
        if event.kind == "record":
            yield str(event.data["line"])
