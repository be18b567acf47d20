"""Fixtures for the server's tests: every storage test runs on SQLite and on a real PostgreSQL
that the session starts itself (tests/server/postgres.py).

PostgreSQL must be there in CI (`.ci/run` installs Debian's package): its absence fails the
run. Elsewhere, a machine without initdb skips the PostgreSQL half with the reason.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

# starlette's test client asks for httpx2; httpx (the web extra's) works the same for it
warnings.filterwarnings("ignore", message=".*install `httpx2`.*")

from tests.server.harness import Harness, make_harness  # noqa: E402
from tests.server.postgres import TemporaryPostgres, empty_postgres, server_programs  # noqa: E402


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    programs = server_programs()
    if programs is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL's initdb is missing: .ci/run installs Debian's postgresql package")
        pytest.skip("PostgreSQL is not installed here (no initdb): the PostgreSQL half of the server tests is skipped")
    server = TemporaryPostgres(programs)
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'boardlab.sqlite3'}"
    return empty_postgres(request.getfixturevalue("postgres_url"))


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Harness]:
    """An app on each kind of database, driven by FastAPI's test client."""
    with make_harness(database_url, tmp_path) as harness:
        yield harness


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Harness]:
    """An app on SQLite only, for tests of the HTTP layer that storage cannot change."""
    with make_harness(f"sqlite:///{tmp_path / 'boardlab.sqlite3'}", tmp_path) as harness:
        yield harness
