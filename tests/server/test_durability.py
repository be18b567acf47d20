"""Storage's durability setting (``boardlab serve --durability``): what the database is told.
That a killed server loses nothing it acknowledged, in both, is tests/server/test_serve_process.py."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from boardlab.server.storage import Storage

#: storage itself is under test: on SQLite and on PostgreSQL
pytestmark = pytest.mark.both_databases


def setting(storage: Storage) -> str:
    query = "PRAGMA synchronous" if storage.dialect == "sqlite" else "SHOW synchronous_commit"
    with storage.engine.connect() as connection:
        return str(connection.execute(text(query)).scalar())


@pytest.mark.parametrize(
    ("durability", "sqlite", "postgresql"),
    # SQLite's PRAGMA synchronous answers 2 for FULL (each commit flushed) and 1 for NORMAL
    [("machine", "2", "on"), ("process", "1", "off")],
)
def test_each_durability_sets_the_databases_commit_wait(
    database_url: str, durability: str, sqlite: str, postgresql: str
) -> None:
    storage = Storage(database_url, durability=durability)
    try:
        assert setting(storage) == (sqlite if storage.dialect == "sqlite" else postgresql)
        assert f"survives a crash of the {durability}" in storage.describe()
    finally:
        storage.close()


def test_the_default_waits_for_the_disk(database_url: str) -> None:
    storage = Storage(database_url)
    try:
        assert storage.durability == "machine" and setting(storage) in ("2", "on")
    finally:
        storage.close()


def test_an_unknown_durability_is_refused_by_name(tmp_path: object) -> None:
    with pytest.raises(ValueError, match=r"durability 'power'.*machine, process"):
        Storage("sqlite://", durability="power")
