"""Servers started at once on an empty PostgreSQL all start: one creates the tables while the
others wait on the migration lock, then find them (without it, PostgreSQL's catalogue refuses
the second CREATE TABLE of a name with a unique violation)."""

from __future__ import annotations

import threading

from boardlab.server.settings import normalize_database_url
from boardlab.server.storage import Storage
from tests.server.postgres import empty_postgres

STARTING = 6


def start_together(url: str) -> list[BaseException]:
    """``STARTING`` storages opened at the same moment on ``url``; what each failed with."""
    together = threading.Barrier(STARTING)
    failures: list[BaseException] = []

    def start() -> None:
        together.wait()
        try:
            Storage(url).close()
        except Exception as exc:  # any failure to start is the finding
            failures.append(exc)

    threads = [threading.Thread(target=start) for _ in range(STARTING)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return failures


def test_servers_starting_at_once_on_an_empty_postgresql_all_start(postgres_url: str) -> None:
    for _ in range(3):
        url = normalize_database_url(empty_postgres(postgres_url))
        assert start_together(url) == []
        storage = Storage(url)
        assert storage.unfinished_room_ids() == []
        storage.close()
