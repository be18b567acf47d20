"""A client address's rooms a day (``--rooms-per-day``) are counted in storage as well as in each
process's memory: several processes on one database, and a process started again, share one
allowance; a room made more than a day ago no longer counts (boardlab/server/ratelimits.py)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.exc import OperationalError

from boardlab.server.errors import StorageUnavailableError
from boardlab.server.ratelimits import DAY_SECONDS
from boardlab.server.tables import rooms
from tests.server.harness import make_harness

#: storage itself counts: on SQLite and on PostgreSQL
pytestmark = pytest.mark.both_databases

ALLOWANCE = 3
NEW_ROOM = {"game": "towers", "seats": ["here", "here"]}


def two_processes(database_url: str, tmp_path: Path) -> Any:
    """Two apps on one database and one data folder (one admin key, so one digest per address)."""
    return make_harness(database_url, tmp_path, rooms_per_day=ALLOWANCE), make_harness(
        database_url, tmp_path, rooms_per_day=ALLOWANCE
    )


def assert_day_spent(response: Any, within: float) -> None:
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert error["code"] == "rate_limited"
    assert f"made {ALLOWANCE} new rooms in a day, this server's most" in error["message"]
    assert within - 120 <= int(response.headers["Retry-After"]) <= within + 1


def test_processes_on_one_database_share_a_days_allowance(database_url: str, tmp_path: Path) -> None:
    first, second = two_processes(database_url, tmp_path)
    with first as one, second as other:
        one.create("towers", ["here", "here"])
        one.create("towers", ["here", "here"])
        other.create("towers", ["here", "here"])
        # each process's own bucket has rooms left; storage holds the address's three of today
        assert_day_spent(other.client.post("/api/rooms", json=NEW_ROOM), DAY_SECONDS)
        assert_day_spent(one.client.post("/api/rooms", json=NEW_ROOM), DAY_SECONDS)
        assert other.client.get("/api/rooms").status_code == 200  # reading is not creating


def test_a_process_started_again_remembers_the_days_rooms(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path, rooms_per_day=ALLOWANCE) as before:
        for _ in range(ALLOWANCE):
            before.create("towers", ["here", "here"])
    with make_harness(database_url, tmp_path, rooms_per_day=ALLOWANCE) as after:
        assert_day_spent(after.client.post("/api/rooms", json=NEW_ROOM), DAY_SECONDS)


def test_a_room_made_more_than_a_day_ago_leaves_the_allowance(database_url: str, tmp_path: Path) -> None:
    first, second = two_processes(database_url, tmp_path)
    with first as one, second as other:
        made = [one.create("towers", ["here", "here"]).room for _ in range(ALLOWANCE)]
        assert_day_spent(other.client.post("/api/rooms", json=NEW_ROOM), DAY_SECONDS)
        now = time.time()
        aged = {made[0]: now - DAY_SECONDS - 60, made[1]: now - DAY_SECONDS + 3600}
        with one.storage.engine.begin() as conn:
            for room_id, created in aged.items():
                conn.execute(update(rooms).where(rooms.c.id == room_id).values(created=created))
        assert other.client.post("/api/rooms", json=NEW_ROOM).status_code == 201
        # three again in the last day: the oldest of them, an hour inside it, is the next to leave
        assert_day_spent(other.client.post("/api/rooms", json=NEW_ROOM), 3600)



def test_a_count_that_storage_cannot_read_refuses_the_room_unmade(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_harness(database_url, tmp_path, rooms_per_day=ALLOWANCE) as server:

        def unreadable(*_args: Any) -> float | None:
            raise OperationalError("SELECT", {}, Exception("could not connect to server"))

        monkeypatch.setattr(server.storage, "nth_latest_room_since", unreadable)
        response = server.client.post("/api/rooms", json=NEW_ROOM)
        assert (response.status_code, response.json()["error"]["code"]) == (503, StorageUnavailableError.code)
        assert "storage could not be read (OperationalError); nothing was created" in response.json()["error"]["message"]
        monkeypatch.undo()
        with server.storage.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(rooms)).scalar_one() == 0
