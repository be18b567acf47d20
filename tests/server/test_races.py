"""Races and failures, on SQLite and PostgreSQL: of two actions racing for one ply or one seat
exactly one lands, in one server and between two servers sharing a database; a change that
cannot be stored is refused and leaves the room as storage has it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from boardlab import StaleMoveError
from boardlab.server.computer import ComputerPlayers
from boardlab.server.errors import SeatTakenError, StorageUnavailableError
from boardlab.server.rows import Change, MoveRow
from boardlab.server.service import NewRoom, RoomService
from boardlab.server.storage import Storage, StorageConflict
from tests.server.harness import Harness, test_settings

#: storage itself is under test: on SQLite and on PostgreSQL
pytestmark = pytest.mark.both_databases

Scenario = Callable[[Callable[[], Awaitable[RoomService]]], Awaitable[None]]


def run_services(url: str, data_dir: Path, scenario: Scenario) -> None:
    """Run ``scenario`` with a factory of services (each with its own storage connection, as
    separate server processes would have), closing them all after."""

    async def main() -> None:
        opened: list[tuple[RoomService, Storage]] = []

        async def open_service() -> RoomService:
            settings = test_settings(url, data_dir)
            storage = Storage(settings.storage_url())
            service = RoomService(settings, storage, ComputerPlayers(0))
            await service.start()
            opened.append((service, storage))
            return service

        try:
            await scenario(open_service)
        finally:
            for service, storage in opened:
                await service.close()
                storage.close()

    asyncio.run(main())


async def two_listening(open_service: Callable[[], Awaitable[RoomService]]) -> tuple[RoomService, RoomService]:
    """Two services on one PostgreSQL, each listening for the other's notices."""
    services = (await open_service(), await open_service())
    for service in services:
        assert service.listener is not None
        await asyncio.wait_for(service.listener.listening.wait(), 30)
    return services


def two_people(game: str = "towers", seats: list[str] | None = None) -> NewRoom:
    return NewRoom(game, None, {}, seats or ["here", "here"], None, None, None)


def outcomes(results: Sequence[Any]) -> tuple[list[Any], list[BaseException]]:
    landed = [result for result in results if not isinstance(result, BaseException)]
    return landed, [result for result in results if isinstance(result, BaseException)]


def test_two_moves_racing_for_one_ply_land_once(database_url: str, tmp_path: Path) -> None:
    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        service = await open_service()
        created = await service.create(two_people())
        room, token = created.room.id, created.token
        first, second = (move.to_json()["notation"] for move in created.room.match.legal_moves(0)[:2])
        results = await asyncio.gather(
            service.play(room, token, first, 0, None, None),
            service.play(room, token, second, 0, None, None),
            return_exceptions=True,
        )
        landed, refused = outcomes(results)
        assert len(landed) == 1 and len(refused) == 1 and isinstance(refused[0], StaleMoveError)
        stored = service.storage.load_room(room)
        assert stored is not None and [move.text for move in stored.moves] == [landed[0]["log"][0]["text"]]

    run_services(database_url, tmp_path, scenario)


def test_two_servers_on_one_database_never_both_land_a_move(database_url: str, tmp_path: Path) -> None:
    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await open_service(), await open_service()
        created = await one.create(two_people())
        room, token = created.room.id, created.token
        await other.room(room)  # both hold the room in memory, at the same revision
        first, second = (move.to_json()["notation"] for move in created.room.match.legal_moves(0)[:2])
        results = await asyncio.gather(
            one.play(room, token, first, 0, None, None),
            other.play(room, token, second, 0, None, None),
            return_exceptions=True,
        )
        landed, refused = outcomes(results)
        assert len(landed) == 1 and isinstance(refused[0], StaleMoveError), results
        winner = landed[0]["log"][0]["text"]
        # the loser reloaded the room: both servers now show the move that landed
        for service in (one, other):
            state = await service.state(room, token, None)
            assert [entry["text"] for entry in state["log"]] == [winner] and state["revision"] == landed[0]["revision"]

    run_services(database_url, tmp_path, scenario)


def test_two_guests_racing_for_one_invited_seat_get_it_once(database_url: str, tmp_path: Path) -> None:
    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await open_service(), await open_service()
        created = await one.create(two_people(seats=["here", "invite"]))
        room, code = created.room.id, created.invites[1]
        await other.room(room)
        results = await asyncio.gather(
            one.join(room, code, "Ann"), one.join(room, code, "Bob"), other.join(room, code, "Cy"), return_exceptions=True
        )
        landed, refused = outcomes(results)
        assert len(landed) == 1 and len(refused) == 2 and all(isinstance(error, SeatTakenError) for error in refused)
        stored = one.storage.load_room(room)
        assert stored is not None and stored.seats[1].name == landed[0][2]["seats"][1]["name"]

    run_services(database_url, tmp_path, scenario)


def test_storage_refuses_a_change_made_against_an_old_revision(database_url: str, tmp_path: Path) -> None:
    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        service = await open_service()
        created = await service.create(two_people())
        room = created.room.id
        storage = service.storage
        storage.commit(Change(room, 0, 0, [MoveRow(1, "a", 0, 0.0)]))
        with pytest.raises(StorageConflict):
            storage.commit(Change(room, 0, 0, [MoveRow(1, "b", 0, 0.0)]))
        with pytest.raises(StorageConflict):  # the (room, number) key: move 1 exists already
            storage.commit(Change(room, 1, 1, [MoveRow(1, "c", 0, 0.0)]))
        # a change of every field the service sets goes by the statement built once: it checks the revision too
        row = storage.load_room(room)
        assert row is not None
        every_field = {"status": row.room.status, "ending": None, "pending": row.room.pending, "result": None}
        with pytest.raises(StorageConflict):
            storage.commit(Change(room, 0, 1, [MoveRow(2, "d", 0, 0.0)], room_fields=every_field, takes_back=False))
        stored = storage.load_room(room)
        assert stored is not None and stored.room.revision == 1 and [m.text for m in stored.moves] == ["a"]
        storage.commit(Change(room, 1, 1, [MoveRow(2, "e", 0, 0.0)], room_fields=every_field, takes_back=False))
        stored = storage.load_room(room)
        assert stored is not None and stored.room.revision == 2 and [m.text for m in stored.moves] == ["a", "e"]

    run_services(database_url, tmp_path, scenario)


def test_a_move_that_cannot_be_stored_is_refused_and_changes_nothing(server: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    created = server.create("towers", ["here", "here"])
    before = server.state(created.room, created.token)

    def broken(_writes: list[Change]) -> list[BaseException | None]:
        raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(server.storage, "write_many", broken)
    response = server.move(created.room, created.token, before["legal_moves"][0]["notation"], 0)
    assert (response.status_code, response.json()["error"]["code"]) == (503, StorageUnavailableError.code)
    monkeypatch.undo()
    after = server.state(created.room, created.token)
    for message in (before, after):
        message["view"]["match"].pop("seconds_left")
    assert after == before and server.stored(created.room).moves == []


def test_a_room_loaded_while_it_is_being_created_is_held_once(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start-up resume runs in the background: it may read a room that a creation has just
    stored and load it before the creation registers its own copy. The process must then hold
    one room, not two copies each thinking the computer's move (one of which storage refuses)."""
    monkeypatch.setattr("boardlab.server.creation.new_room_id", lambda: "RaceRoom0001")

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        service = await open_service()
        searches: list[int] = []
        choose = service.computer.run

        async def counted(*args: Any, **kwargs: Any) -> Any:
            searches.append(1)
            return await choose(*args, **kwargs)

        service.computer.run = counted  # type: ignore[method-assign]
        write = service._committer.write

        async def write_then_resume(stored: Any) -> None:
            await write(stored)
            await service.room("RaceRoom0001")  # what the resume does when it reads the new id

        service._committer.write = write_then_resume  # type: ignore[method-assign]
        created = await service.create(NewRoom("towers", None, {}, ["computer:easy", "here"], None, None, None))
        assert service.loaded("RaceRoom0001") is created.room
        deadline = asyncio.get_running_loop().time() + 30
        while (await service.state("RaceRoom0001", created.token, None))["ply"] < 1:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)  # a second copy's move would come (and be refused) about now
        assert searches == [1]

    run_services(database_url, tmp_path, scenario)
