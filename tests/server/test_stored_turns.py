"""Storage appends a room's turns and truncates them on an undo: a move writes its own rows
only, never the whole history again, and what it holds replays to the
very match in memory."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from boardlab import Match, Record
from boardlab.server.rows import Change, StoredRoom, Write
from boardlab.server.storage import Storage
from tests.server.harness import make_harness

#: storage itself is under test: on SQLite and on PostgreSQL
pytestmark = pytest.mark.both_databases


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[Write]:
    seen: list[Write] = []
    real = Storage.write_many

    def recording(storage: Storage, writes: Sequence[Write]) -> list[BaseException | None]:
        seen.extend(writes)
        return real(storage, writes)

    monkeypatch.setattr(Storage, "write_many", recording)
    return seen


def test_a_move_appends_its_turns_and_an_undo_truncates_them(
    database_url: str, tmp_path: Path, written: list[Write], monkeypatch: pytest.MonkeyPatch
) -> None:
    records: list[int] = []
    real_record = Match.record

    def counted(match: Match, **meta: Any) -> Record:
        records.append(match.ply)
        return real_record(match, **meta)

    # a move costs its own turns: the whole game is never written out as a record to find them
    monkeypatch.setattr(Match, "record", counted)
    with make_harness(database_url, tmp_path) as server:
        created = server.create("towers", ["here", "here"])
        assert isinstance(written[-1], StoredRoom) and written[-1].moves == []
        state = created.state
        for ply in range(6):
            state = server.move(created.room, created.token, state["legal_moves"][0]["notation"], ply).json()
            change = written[-1]
            assert isinstance(change, Change)
            # the one new turn, after all those storage holds already
            assert change.keep == ply and [row.number for row in change.new_moves] == [ply + 1]
            assert change.new_moves[0].text == state["log"][-1]["text"] and not change.takes_back
        undone = server.act(created.room, created.token, "undo", {"revision": state["revision"]}).json()
        change = written[-1]
        assert isinstance(change, Change) and change.keep == undone["ply"] == 5 and not change.new_moves
        assert change.takes_back
        again = server.move(created.room, created.token, undone["legal_moves"][-1]["notation"], 5).json()
        change = written[-1]
        assert isinstance(change, Change) and change.keep == 5 and len(change.new_moves) == 1
        assert records == []
        stored = server.stored(created.room)
        assert [row.text for row in stored.moves] == [entry["text"] for entry in again["log"]]
    # a restarted server replays exactly what storage holds
    with make_harness(database_url, tmp_path) as server:
        assert server.state(created.room, created.token)["log"] == again["log"]


def test_a_page_is_sent_each_turns_structure_when_it_may_read_the_move_whole(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path) as server:
        created = server.create("towers", ["here", "here"])
        legal = created.state["legal_moves"][0]
        moved = server.move(created.room, created.token, legal["notation"], 0).json()
        assert moved["log"][0]["move"] == legal  # the same structure a legal move carries
