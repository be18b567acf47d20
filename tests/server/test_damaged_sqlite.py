"""A damaged SQLite file: the server refuses to start on it, saying what to do, and never writes
into it; a file found malformed while serving gets no further writes either."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.server import Settings, create_app
from boardlab.server.rows import Change, RoomRow, SeatRow, StoredRoom
from boardlab.server.settings import SQLITE_FILE
from boardlab.server.storage import Storage, StorageDamaged
from tests.server.harness import make_harness


def real_database(data_dir: Path, rooms: int = 30) -> Path:
    """A database the server made, with rooms and moves, every page in use, its WAL folded in."""
    path = data_dir / SQLITE_FILE
    with make_harness(f"sqlite:///{path}", data_dir) as server:
        for _ in range(rooms):
            created = server.create("towers", ["here", "here"], names=["Ann " * 9, "Bob " * 9])
            state = created.state
            for _ in range(4):
                state = server.move(created.room, created.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return path


def damage(path: Path, pages: range) -> None:
    """Overwrite whole pages (numbered from 0) with a pattern no page starts with."""
    size = sqlite3.connect(path).execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as file:
        for page in pages:
            file.seek(page * size)
            file.write(b"\xa5" * size)


def middle(path: Path, count: int = 3) -> range:
    pages = path.stat().st_size // 4096
    assert pages > 10, "the database is too small to damage in the middle"
    return range(pages // 2, pages // 2 + count)


def test_the_app_factory_refuses_a_damaged_file_and_says_what_to_do(tmp_path: Path) -> None:
    path = real_database(tmp_path)
    damage(path, middle(path))
    before = path.read_bytes()
    with pytest.raises(StorageDamaged) as refused:
        create_app(Settings(data_dir=tmp_path, static_dir=None, computer_workers=0))
    message = str(refused.value)
    assert str(path) in message and "backup" in message and "move it aside" in message
    assert path.read_bytes() == before


def test_boardlab_serve_refuses_it_with_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = real_database(tmp_path)
    damage(path, middle(path))
    before = path.read_bytes()
    assert main(["serve", "--data-dir", str(tmp_path), "--port", "0"]) == 2
    error = " ".join(capsys.readouterr().err.split())
    assert "damaged" in error and "backup" in error and "move it aside" in error
    assert path.read_bytes() == before


def test_a_sound_file_still_opens(tmp_path: Path) -> None:
    path = real_database(tmp_path, rooms=3)
    Storage(f"sqlite:///{path}").close()


def test_a_file_that_goes_bad_while_serving_gets_no_further_writes(tmp_path: Path) -> None:
    path = real_database(tmp_path)
    storage = Storage(f"sqlite:///{path}")
    room_id = storage.unfinished_room_ids()[0]
    stored = storage.load_room(room_id)
    assert stored is not None
    storage.engine.dispose()  # the next connection reads the pages afresh
    damage(path, range(1, path.stat().st_size // 4096))
    change = Change(room_id, stored.room.revision, len(stored.moves), room_fields={"status": "playing"}, takes_back=False)
    first = storage.write_many([change])[0]
    assert isinstance(first, StorageDamaged), first
    before = path.read_bytes()
    assert isinstance(storage.write_many([change, change])[1], StorageDamaged)
    assert path.read_bytes() == before
    storage.close()


def test_a_read_that_finds_the_file_malformed_stops_every_later_write(tmp_path: Path) -> None:
    # the damage is in the moves' pages only: a new room (no moves) would land beside it
    path = real_database(tmp_path)
    connection = sqlite3.connect(path)
    pages = [row[0] - 1 for row in connection.execute("SELECT pageno FROM dbstat WHERE name = 'moves'")]
    connection.close()
    storage = Storage(f"sqlite:///{path}")
    room_id = storage.unfinished_room_ids()[0]
    storage.engine.dispose()
    damage(path, range(min(pages), max(pages) + 1))
    with pytest.raises(Exception, match="malformed"):
        storage.load_room(room_id)
    assert isinstance(storage.damaged, StorageDamaged)
    before = {name: (tmp_path / name).read_bytes() for name in (SQLITE_FILE, f"{SQLITE_FILE}-wal") if (tmp_path / name).exists()}
    fresh = real_room_rows("nothing-here")
    assert isinstance(storage.write_many([fresh])[0], StorageDamaged)
    after = {name: (tmp_path / name).read_bytes() for name in (SQLITE_FILE, f"{SQLITE_FILE}-wal") if (tmp_path / name).exists()}
    assert after == before  # not a byte more in the file or its WAL
    storage.close()


def real_room_rows(room_id: str) -> StoredRoom:
    """A new room's rows, as a server would write them (no moves)."""
    row = RoomRow(room_id, "towers", 2, {}, 7, None, "same_screen", None, "playing", created=1.0, updated=1.0)
    return StoredRoom(row, [SeatRow(0, "here", "human", "White"), SeatRow(1, "here", "human", "Black")], [])
