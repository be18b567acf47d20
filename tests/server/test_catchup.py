"""A room held by one process and changed by another is caught up by reading only the moves
it lacks (boardlab/server/catchup.py), and ends up exactly the room a fresh load builds.

On two services sharing one PostgreSQL: moves made on one reach the other by NOTIFY, which
reads from its last held move on; a take-back makes it read the whole room again; the game
ends there too. New moves are played on the match held (Match.extend), a take-back rebuilds
it. After every change the room it holds (its moves, row and seats, the match's
record with the moves' times, every viewer's view and log) equals the room built afresh
from storage, and its watcher's log, kept from the deltas it was sent, is the viewer's log.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from boardlab.server.catchup import extended, moves_in_common
from boardlab.server.rooms import build_match
from boardlab.server.rows import MoveRow, RoomRow, SeatRow, StoredRoom
from boardlab.server.service import NewRoom, RoomService
from boardlab.server.watchers import Watcher
from tests.server.postgres import empty_postgres
from tests.server.test_races import run_services, two_listening

#: games with what a careless catch-up gets wrong: Honor's record notation is not the move's
#: own and its texts differ per viewer; Territories rolls dice (chance turns stored between
#: the decisions); Towers ends by its ply cap (rules 8.3) while being caught up
GAMES: dict[str, dict[str, Any]] = {"towers": {"ply_cap": 9}, "honor": {}, "territories": {}}
#: the seat the other process's watcher sees the room as
WATCHED_SEAT = 1


def rows(*moves: tuple[int, str, float]) -> list[MoveRow]:
    return [MoveRow(number, text, (number - 1) % 2, t) for number, text, t in moves]


def read(revision: int, moves: list[MoveRow]) -> StoredRoom:
    room = RoomRow("r", "towers", 2, {}, 1, None, "own", None, "playing", revision=revision, created=0.0, updated=0.0)
    return StoredRoom(room, [SeatRow(0, "here", "human", "a"), SeatRow(1, "here", "human", "b")], moves)


def test_the_moves_read_extend_those_held_only_one_change_ahead_from_the_same_last_move() -> None:
    held = rows((1, "a1", 0.5), (2, "b1", 1.0))
    ahead = extended(held, 4, read(5, rows((2, "b1", 1.0), (3, "a2", 1.5))))
    assert ahead is not None and [move.text for move in ahead.moves] == ["a1", "b1", "a2"]
    unchanged = extended(held, 4, read(4, rows((2, "b1", 1.0))))
    assert unchanged is not None and unchanged.moves == held
    # two changes: a take-back and a move may have replaced the last move with an equal text
    assert extended(held, 4, read(6, rows((2, "b1", 1.0), (3, "a2", 1.5)))) is None
    # one change took the last move back: nothing from its number on
    assert extended(held, 4, read(5, [])) is None
    # the move numbered as the last held is another one (played again later, another time)
    assert extended(held, 4, read(5, rows((2, "b1", 1.25), (3, "a2", 1.5)))) is None
    # nothing held: what was read is the whole room
    everything = read(1, rows((1, "a1", 0.5)))
    assert extended([], 0, everything) is everything


def test_moves_in_common_stop_at_the_first_difference_even_if_later_ones_agree() -> None:
    before = rows((1, "a1", 0.5), (2, "b1", 1.0), (3, "a2", 1.5))
    assert moves_in_common(before, before[:2]) == 2
    assert moves_in_common(before, [before[0], *rows((2, "b2", 1.0)), before[2]]) == 1
    assert moves_in_common([], before) == 0


def assert_fresh(service: RoomService, room_id: str, watcher_log: list[dict[str, Any]]) -> None:
    """The room ``service`` holds is the one built from storage now, and so is what its watcher holds."""
    held = service.loaded(room_id)
    assert held is not None and not held.stale
    stored = service.storage.load_room(room_id)
    assert stored is not None
    _game, fresh = build_match(stored, service.settings.clock)
    assert held.stored == stored.moves and held.row == stored.room and held.seats == stored.seats
    assert held.match.record().to_json() == fresh.record().to_json()
    for viewer in (None, 0, 1):
        assert held.match.log_json(viewer) == fresh.log_json(viewer)
        assert held.match.view(viewer) == fresh.view(viewer)
        assert held.viewer_log(viewer) == fresh.log_json(viewer)
    assert held.match.to_move() == fresh.to_move() and held.match.draw_offer == fresh.draw_offer
    assert watcher_log == fresh.log_json(WATCHED_SEAT)


@pytest.mark.parametrize("game", GAMES)
def test_a_room_caught_up_on_notices_is_the_room_a_fresh_load_builds(
    postgres_url: str, tmp_path: Path, game: str
) -> None:
    url = empty_postgres(postgres_url)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await two_listening(open_service)
        created = await one.create(NewRoom(game, None, GAMES[game], ["here", "here"], None, None, None))
        room, token = created.room.id, created.token
        # held and watched there, so each notice catches the room up at once
        watcher: Watcher = await other.watch(room, token, WATCHED_SEAT)
        client_log: list[dict[str, Any]] = []
        reads: list[int] = []
        load_room = other.storage.load_room

        def counted(room_id: str, from_move: int = 0, known_seats: list[SeatRow] | None = None) -> StoredRoom | None:
            reads.append(from_move)
            # two seats here, none invited: the seats are never read again once held
            assert from_move == 0 or known_seats is not None
            return load_room(room_id, from_move, known_seats)

        other.storage.load_room = counted  # type: ignore[method-assign]

        async def caught_up(revision: int) -> None:
            deadline = time.monotonic() + 30
            while (held := other.loaded(room)) is None or held.revision < revision or held.stale:
                assert time.monotonic() < deadline, f"revision {revision} did not reach the other process"
                await asyncio.sleep(0.02)
            while True:  # the watcher's latest state, its log kept from the deltas like a client's
                message = json.loads(await asyncio.wait_for(watcher.next_message(), 30))
                client_log[message["log_start"] :] = message["log"]
                if message["revision"] == revision:
                    break
            other.storage.load_room = load_room  # type: ignore[method-assign]
            try:
                assert_fresh(other, room, client_log)
            finally:
                other.storage.load_room = counted  # type: ignore[method-assign]

        rng = random.Random(f"catch-up/{game}")

        expected_reads: list[int] = []

        async def move() -> dict[str, Any]:
            held = other.loaded(room)
            assert held is not None
            expected_reads.append(held.stored[-1].number if held.stored else 0)
            match = held.match
            state = await one.state(room, token, None)
            choices = [move for move in state["legal_moves"] if move["type"] != "resign"]
            made = await one.play(room, token, rng.choice(choices)["notation"], state["ply"], state["revision"], None)
            await caught_up(made["revision"])
            # the new moves were played on the match held (Match.extend), not a rebuilt one
            assert other.loaded(room).match is match  # type: ignore[union-attr]
            return made

        await caught_up(0)
        for _ in range(5):
            made = await move()
        # appends only: each notice read the last held move again and those after it (all of
        # them while none was held: a Towers room starts with no move, a Territories room with its dice)
        assert reads == expected_reads and reads[-1] > 0, reads
        reads.clear()

        before_undo = other.loaded(room).match  # type: ignore[union-attr]
        undone = await one.undo(room, token, made["revision"], None)
        await caught_up(undone["revision"])
        assert other.loaded(room).match is not before_undo  # type: ignore[union-attr]  # rebuilt
        # the take-back: the last held move is gone from storage, so the whole room was read
        assert reads[0] > 0 and reads[-1] == 0, reads
        assert other.loaded(room).match.ply == undone["ply"]  # type: ignore[union-attr]

        for _ in range(3):
            made = await move()
        if game == "towers":  # to the end: the ply cap draws it (rules 8.3)
            while made["status"] != "finished":
                made = await move()
            assert other.loaded(room) is not None and other.loaded(room).match.is_over()  # type: ignore[union-attr]

    run_services(url, tmp_path, scenario)


def test_an_invited_guest_joining_elsewhere_is_read_and_the_seats_are_not_read_again_after(
    postgres_url: str, tmp_path: Path
) -> None:
    url = empty_postgres(postgres_url)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await two_listening(open_service)
        created = await one.create(NewRoom("towers", None, {}, ["here", "invite"], None, None, None))
        room = created.room.id
        watcher = await other.watch(room, None, None)  # a spectator there
        assert json.loads(await watcher.next_message())["status"] == "waiting"
        held = other.loaded(room)
        assert held is not None and not held.seats_final
        seats_read: list[bool] = []
        load_room = other.storage.load_room

        def counted(room_id: str, from_move: int = 0, known_seats: list[SeatRow] | None = None) -> StoredRoom | None:
            seats_read.append(known_seats is None)
            return load_room(room_id, from_move, known_seats)

        other.storage.load_room = counted  # type: ignore[method-assign]
        guest, seat, _state = await one.join(room, created.invites[1], "Guest")
        seen = json.loads(await asyncio.wait_for(watcher.next_message(), 30))
        while seen["status"] != "playing":
            seen = json.loads(await asyncio.wait_for(watcher.next_message(), 30))
        assert seat == 1 and seen["seats"][1]["joined"] and seen["seats"][1]["name"] == "Guest"
        assert seats_read == [True] and held.seats_final  # the claim was read; now they are final
        state = await one.state(room, created.token, None)
        made = await one.play(room, created.token, state["legal_moves"][0]["notation"], 0, state["revision"], None)
        while seen["revision"] < made["revision"]:
            seen = json.loads(await asyncio.wait_for(watcher.next_message(), 30))
        assert seats_read == [True, False]
        other.storage.load_room = load_room  # type: ignore[method-assign]
        stored = other.storage.load_room(room)
        assert stored is not None and held.seats == stored.seats and held.stored == stored.moves
        assert held.held_by(guest) == [1]

    run_services(url, tmp_path, scenario)
