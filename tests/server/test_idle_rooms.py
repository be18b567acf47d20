"""Idle rooms leave memory and come back from storage whole; start-up loads only the rooms
changed recently (docs/server.md, "Deployment")."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import update

from boardlab.server.storage import Storage
from boardlab.server.tables import rooms
from tests.server.harness import Harness, make_harness, watch

#: storage itself is under test: on SQLite and on PostgreSQL
pytestmark = pytest.mark.both_databases


def wait_gone(server: Harness, room: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while server.live_room(room) is not None:
        assert time.monotonic() < deadline, f"room {room} stayed in memory"
        time.sleep(0.02)


def test_an_idle_room_leaves_memory_and_comes_back_with_its_moves(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path, idle_room_seconds=0.2) as server:
        created = server.create("towers", ["here", "here"])
        state = created.state
        played = []
        for _ in range(3):
            played.append(state["legal_moves"][0]["notation"])
            state = server.move(created.room, created.token, played[-1], state["ply"]).json()
        wait_gone(server, created.room)
        back = server.state(created.room, created.token)
        assert server.live_room(created.room) is not None
        assert back["ply"] == 3 and back["revision"] == state["revision"]
        assert [entry["text"] for entry in back["log"]] == played
        after = server.move(created.room, created.token, back["legal_moves"][0]["notation"], 3, revision=back["revision"])
        assert after.status_code == 200 and after.json()["ply"] == 4
        assert [move.text for move in server.stored(created.room).moves][:3] == played


def test_a_watched_room_stays(tmp_path: Path) -> None:
    with make_harness(f"sqlite:///{tmp_path / 'b.sqlite3'}", tmp_path, idle_room_seconds=0.1) as server:
        created = server.create("towers", ["here", "here"])
        other = server.create("towers", ["here", "here"])
        with watch(server.client, created.room, created.token) as socket:
            socket.receive_json()
            wait_gone(server, other.room)
            assert server.live_room(created.room) is not None


def test_start_up_loads_only_recent_rooms(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path, idle_room_seconds=0) as server:
        old = server.create("towers", ["here", "here"])
        recent = server.create("towers", ["here", "here"])
        server.move(old.room, old.token, old.state["legal_moves"][0]["notation"], 0)
    storage = Storage(database_url)
    try:
        with storage.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.id == old.room).values(updated=time.time() - 3600))
    finally:
        storage.close()
    with make_harness(database_url, tmp_path, idle_room_seconds=600) as server:
        deadline = time.monotonic() + 5
        while server.live_room(recent.room) is None:
            assert time.monotonic() < deadline, "the recent room was not resumed"
            time.sleep(0.02)
        assert server.live_room(old.room) is None
        assert {row["room"] for row in server.client.get("/api/rooms").json()} >= {old.room, recent.room}
        assert server.state(old.room, old.token)["ply"] == 1
