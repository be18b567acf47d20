"""The SQLite file's health and settings: a damaged file is refused (at start, and as soon as
any read or write finds it malformed), and the pragmas every connection to it gets."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError


class StorageDamaged(Exception):
    """The SQLite file is malformed: the server neither starts on it nor writes into it further
    (every write would spread the damage, and rooms would resume from half of it)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(
            f"the SQLite file {path} is damaged ({problem}). Nothing more is written into it. "
            f"Restore it from a backup, or move it aside (mv {path} {path}.damaged, with its -wal "
            "and -shm files) to start with an empty one; the sqlite3 command's .recover may save "
            "what it still holds."
        )
        self.path = path


#: SQLite's result codes for a file that is not (or no longer) a well-formed database
SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26


def is_malformed(error: BaseException) -> bool:
    cause = error.orig if isinstance(error, DBAPIError) else error
    code = getattr(cause, "sqlite_errorcode", None)
    return isinstance(cause, sqlite3.DatabaseError) and code is not None and code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)


def check_sqlite_file(path: str) -> None:
    """Refuse a SQLite file that ``PRAGMA quick_check`` finds damaged (StorageDamaged says what
    to do). Run before anything writes to it: a server started on a malformed file lists
    nothing, resumes nothing and goes on writing into the damage."""
    if path == ":memory:" or not Path(path).is_file() or Path(path).stat().st_size == 0:
        return
    try:
        connection = sqlite3.connect(path, timeout=30)
    except sqlite3.Error as exc:
        raise StorageDamaged(path, str(exc)) from None
    try:
        problems = [row[0] for row in connection.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        if not is_malformed(exc):
            raise
        problems = [str(exc)]
    finally:
        connection.close()
    if problems != ["ok"]:
        raise StorageDamaged(path, "quick_check: " + "; ".join(problems))


def sqlite_pragmas(dbapi_connection: Any, _record: Any, synchronous: str = "FULL") -> None:
    # WAL: readers never wait for the writer; FULL: a commit is on disk before it returns,
    # so an acknowledged move survives a crash of the process and of the machine
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={synchronous}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sqlite_pragmas_unflushed(dbapi_connection: Any, record: Any) -> None:
    # NORMAL in WAL mode: a commit is in the operating system's hands when it returns (a
    # crash of the process loses nothing), flushed to disk at the next checkpoint
    sqlite_pragmas(dbapi_connection, record, synchronous="NORMAL")


__all__ = ["StorageDamaged", "check_sqlite_file", "is_malformed", "sqlite_pragmas", "sqlite_pragmas_unflushed"]
