"""Fixtures for the server's tests: the storage and concurrency tests run on SQLite and on a
real PostgreSQL that the session starts itself (tests/server/postgres.py); the rest, which
test the HTTP and WebSocket layers above storage, on SQLite.

A test (or a module, with ``pytestmark``) marked ``both_databases`` gets its ``database_url``
and ``server`` on each kind. PostgreSQL must be there in CI (`.ci/run` installs Debian's
package): its absence fails the run. Elsewhere, a machine without initdb skips the PostgreSQL
half with the reason. The tests on PostgreSQL share one xdist group, so one worker starts it.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

# starlette's test client asks for httpx2; httpx (the web extra's) works the same for it
warnings.filterwarnings("ignore", message=".*install `httpx2`.*")

from boardlab.server import computer as computer_module  # noqa: E402
from tests.server.harness import Harness, SlowThinker, make_harness  # noqa: E402
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


#: the xdist group of every test that uses the session's PostgreSQL: one worker starts it
POSTGRES_GROUP = "postgresql"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "database_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_databases"):
        metafunc.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = "postgres_url" in getattr(item, "fixturenames", ()) or (
            callspec is not None and "postgresql" in callspec.params.values()
        )
        if on_postgres:
            item.add_marker(pytest.mark.xdist_group(POSTGRES_GROUP))


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: SQLite, or each kind for a test marked ``both_databases``."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return f"sqlite:///{tmp_path / 'boardlab.sqlite3'}"
    return empty_postgres(request.getfixturevalue("postgres_url"))


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Harness]:
    """An app on the test's database (:func:`database_url`), driven by FastAPI's test client."""
    with make_harness(database_url, tmp_path) as harness:
        yield harness


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Harness]:
    """An app on SQLite only, for tests of the HTTP layer that storage cannot change."""
    with make_harness(f"sqlite:///{tmp_path / 'boardlab.sqlite3'}", tmp_path) as harness:
        yield harness


@pytest.fixture
def slow_thinker(monkeypatch: pytest.MonkeyPatch) -> Iterator[SlowThinker]:
    """The computer's searches held until ``release`` is set (set at the end in any case)."""
    thinker = SlowThinker()
    monkeypatch.setattr(computer_module, "think", thinker)
    yield thinker
    thinker.release.set()
