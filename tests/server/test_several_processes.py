"""Several ``boardlab serve`` processes on one PostgreSQL (docs/server.md, "Several processes").

Real processes: two servers on a PostgreSQL the tests start, one person on each, a whole
game with every move seen live on both (a move stored by one process reaches the other's
WebSocket through LISTEN/NOTIFY); then the process that was thinking for a computer is
killed with SIGKILL mid-game, the game is finished on the other one, and the other takes
the dead process's computer decision over once its lease runs out. In-process: the
computer's lease in storage, and a watcher on one service seeing another's move.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.sync.client import ClientConnection, connect

from boardlab.core.records import Record
from boardlab.server import leases
from boardlab.server.leases import LEASE_SECONDS
from boardlab.server.service import NewRoom, RoomService
from boardlab.server.storage import Storage
from tests.server.harness import auth
from tests.server.postgres import empty_postgres
from tests.server.test_races import run_services, two_listening, two_people
from tests.support.serve import free_port, serve_process

#: a Towers game that ends in a draw after this many moves (rules 8.3, the optional ply cap)
PLY_CAP = 10


class Live:
    """A person's WebSocket to a room on one server: the latest state it was sent."""

    def __init__(self, stack: ExitStack, base: str, room: str, token: str, seat: int) -> None:
        address = f"{base.replace('http', 'ws', 1)}/api/rooms/{room}/live"
        self.socket: ClientConnection = stack.enter_context(connect(address, open_timeout=30))
        self.log: list[dict[str, Any]] = []
        self.socket.send(json.dumps({"type": "auth", "token": token, "seat": seat}))
        self.seat = seat
        self.state = self.wait(lambda message: message["your_seats"] == [seat])

    def wait(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 30) -> dict[str, Any]:
        """Read states until one is ``wanted``; the log is kept whole across the deltas."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"seat {self.seat}: no wanted state came within {timeout} s"
            message = json.loads(self.socket.recv(timeout=left))
            if message["type"] != "state":
                continue
            self.log = self.log[: message["log_start"]] + message["log"]
            if wanted(message):
                return message

    def close(self) -> None:
        self.socket.close()


def post_move(base: str, room: str, token: str, state: dict[str, Any]) -> dict[str, Any]:
    moves = [move["notation"] for move in state["legal_moves"] if move["type"] != "resign"]
    body = {"move": moves[0], "ply": state["ply"], "revision": state["revision"]}
    response = httpx.post(f"{base}/api/rooms/{room}/moves", json=body, headers=auth(token), timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def test_two_processes_share_a_game_live_and_one_survives_the_other(postgres_url: str, tmp_path: Path) -> None:
    url = empty_postgres(postgres_url)
    with ExitStack() as stack:
        one, one_process = stack.enter_context(serve_process(tmp_path / "one", tmp_path / "one.log", url))
        two, _two_process = stack.enter_context(serve_process(tmp_path / "two", tmp_path / "two.log", url))
        created = httpx.post(
            f"{one}/api/rooms", json={"game": "towers", "options": {"ply_cap": PLY_CAP}, "seats": ["here", "invite"]}
        ).json()
        room = created["room"]
        joined = httpx.post(f"{two}/api/rooms/{room}/join", json={"code": created["invites"][0]["code"]})
        assert joined.status_code == 200, joined.text
        tokens = {0: created["token"], 1: joined.json()["token"]}
        servers = {0: one, 1: two}
        players = {seat: Live(stack, servers[seat], room, tokens[seat], seat) for seat in (0, 1)}
        for player in players.values():  # the guest's join reaches the first process by NOTIFY
            if player.state["status"] != "playing":
                player.state = player.wait(lambda message: message["status"] == "playing")

        def play_one_move() -> dict[str, Any]:
            seat = players[0].state["to_move"]
            mover = players[seat]
            made = post_move(servers[seat], room, tokens[seat], mover.state)
            # both people see the move live, whichever process it was made on
            for player in players.values():
                player.state = player.wait(lambda message: message["revision"] >= made["revision"])
                assert (player.state["ply"], player.state["revision"]) == (made["ply"], made["revision"])
            assert [entry["text"] for entry in players[0].log] == [entry["text"] for entry in players[1].log]
            assert players[seat].log[-1]["by"] == seat and len(players[seat].log) == made["ply"]
            return made

        for _ in range(4):
            play_one_move()
        assert [entry["by"] for entry in players[0].log] == [0, 1, 0, 1]

        # the first process starts thinking for a computer, watched on the second; then it dies
        computer = httpx.post(f"{one}/api/rooms", json={"game": "towers", "seats": ["computer:hard", "here"]}).json()
        watching = Live(stack, two, computer["room"], computer["token"], 1)
        assert watching.state["thinking"] and watching.state["ply"] == 0
        os.killpg(one_process.pid, signal.SIGKILL)
        one_process.wait(timeout=30)
        killed_at = time.monotonic()

        # the first person comes back on the second process, and the game is finished there
        players[0].close()
        players[0] = Live(stack, two, room, tokens[0], 0)
        servers[0] = two
        while players[0].state["status"] != "finished":
            play_one_move()
        assert players[1].state["status"] == "finished" and players[0].state["ply"] == PLY_CAP
        record = Record.loads(httpx.get(f"{two}/api/rooms/{room}/record").text)
        assert record.moves == [entry["text"] for entry in players[1].log] and len(record.moves) == PLY_CAP

        # the dead process's decision: taken over once its lease ran out, played once
        moved = watching.wait(lambda message: message["ply"] >= 1, timeout=LEASE_SECONDS + 60)
        assert time.monotonic() - killed_at < LEASE_SECONDS + 60
        assert [entry["by"] for entry in watching.log] == [0] and moved["legal_moves"]


def test_a_computer_lease_is_held_once_renewed_by_its_holder_and_freed_by_time_or_a_new_revision(
    postgres_url: str, tmp_path: Path
) -> None:
    url = empty_postgres(postgres_url)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await open_service(), await open_service()
        room = (await one.create(two_people())).room.id
        first: Storage = one.storage
        second: Storage = other.storage
        assert first.claim_lease(room, 0, 30) is None
        held_until = second.claim_lease(room, 0, 30)
        assert held_until is not None and held_until > time.time() + 25
        assert first.claim_lease(room, 0, 30) is None  # renewing
        assert second.claim_lease(room, 1, 0.2) is None  # the room moved on: the old lease is void
        assert first.claim_lease(room, 1, 30) is not None
        await asyncio.sleep(0.3)  # the holder died: its lease runs out
        assert first.claim_lease(room, 1, 30) is None

    run_services(url, tmp_path, scenario)


def test_two_processes_holding_a_room_think_its_computer_decision_once(postgres_url: str, tmp_path: Path) -> None:
    url = empty_postgres(postgres_url)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await open_service(), await open_service()
        searches: list[str] = []
        for name, service in (("one", one), ("other", other)):
            choose = service.computer.run

            async def counted(*args: Any, _choose: Any = choose, _name: str = name, **kwargs: Any) -> Any:
                searches.append(_name)
                return await _choose(*args, **kwargs)

            service.computer.run = counted  # type: ignore[method-assign]
        created = await one.create(NewRoom("towers", None, {}, ["computer:easy", "here"], None, None, None))
        room, token = created.room.id, created.token
        await other.room(room)  # both hold the room with the computer to move
        deadline = time.monotonic() + 60
        while not all([(await service.state(room, token, None))["ply"] >= 1 for service in (one, other)]):
            assert time.monotonic() < deadline, "the computer's move did not reach both processes"
            await asyncio.sleep(0.05)
        assert len(searches) == 1, searches
        for service in (one, other):
            state = await service.state(room, token, None)
            assert [entry["by"] for entry in state["log"]] == [0] and not state["thinking"]

    run_services(url, tmp_path, scenario)


def test_a_watcher_on_one_process_sees_a_move_stored_by_another(postgres_url: str, tmp_path: Path) -> None:
    url = empty_postgres(postgres_url)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await two_listening(open_service)
        created = await one.create(two_people())
        room, token = created.room.id, created.token
        watcher = await other.watch(room, None, None)
        assert json.loads(await watcher.next_message())["ply"] == 0
        text = created.room.match.legal_moves(0)[0].to_json()["notation"]
        made = await one.play(room, token, text, 0, None, None)
        seen = json.loads(await asyncio.wait_for(watcher.next_message(), 30))
        assert (seen["ply"], seen["revision"]) == (1, made["revision"])
        assert [entry["text"] for entry in seen["log"]] == [entry["text"] for entry in made["log"]]
        # the other process acts on what storage holds, not on what it had in memory
        answer = seen_state = await other.state(room, token, None)
        reply = seen_state["legal_moves"][0]["notation"]
        answered = await other.play(room, token, reply, answer["ply"], None, None)
        assert answered["ply"] == 2

    run_services(url, tmp_path, scenario)


def test_a_second_process_on_one_sqlite_file_is_refused_with_what_to_do(tmp_path: Path) -> None:
    assert not Storage("sqlite://").shared
    with serve_process(tmp_path, tmp_path / "one.log") as (_url, first):
        second = subprocess.run(
            [sys.executable, "-m", "boardlab", "serve", "--port", str(free_port()), "--data-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=60,
        )
        said = " ".join(second.stderr.split())  # the console wraps long lines
        assert second.returncode != 0
        assert f"process {first.pid}" in said and "SQLite serves one process" in said
        assert "--database-url postgresql://" in said


def test_a_room_held_unwatched_is_marked_by_a_notice_and_reloaded_on_its_next_use(
    postgres_url: str, tmp_path: Path
) -> None:
    url = empty_postgres(postgres_url)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await two_listening(open_service)
        created = await one.create(two_people())
        room, token = created.room.id, created.token
        held = await other.room(room)
        text = created.room.match.legal_moves(0)[0].to_json()["notation"]
        made = await one.play(room, token, text, 0, None, None)
        deadline = time.monotonic() + 30
        while not held.stale:  # the notice marks it; nothing is read from storage yet
            assert time.monotonic() < deadline, "the notice did not reach the other process"
            await asyncio.sleep(0.02)
        assert held.revision == 0 and held.match.ply == 0
        watcher = await other.watch(room, token, None)  # its next use reloads it
        seen = json.loads(await watcher.next_message())
        assert (seen["ply"], seen["revision"]) == (1, made["revision"]) and not held.stale

    run_services(url, tmp_path, scenario)


def test_a_dropped_listening_connection_comes_back_and_catches_up_what_it_missed(
    postgres_url: str, tmp_path: Path
) -> None:
    url = empty_postgres(postgres_url)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        one, other = await two_listening(open_service)
        created = await one.create(two_people())
        room, token = created.room.id, created.token
        watcher = await other.watch(room, None, None)
        assert json.loads(await watcher.next_message())["ply"] == 0
        with psycopg.connect(url, autocommit=True) as admin:  # the listeners' connections drop
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %'")
        # a move stored while nobody listens: its notice is lost, the reconnection catches up
        text = created.room.match.legal_moves(0)[0].to_json()["notation"]
        made = await one.play(room, token, text, 0, None, None)
        seen = json.loads(await asyncio.wait_for(watcher.next_message(), 30))
        assert (seen["ply"], seen["revision"]) == (1, made["revision"])
        assert other.listener is not None
        await asyncio.wait_for(other.listener.listening.wait(), 30)
        # and notices arrive again
        reply = (await one.state(room, token, None))["legal_moves"][0]["notation"]
        answered = await one.play(room, token, reply, 1, None, None)
        seen = json.loads(await asyncio.wait_for(watcher.next_message(), 30))
        assert (seen["ply"], seen["revision"]) == (2, answered["revision"])

    run_services(url, tmp_path, scenario)


def test_a_process_whose_notice_is_late_does_not_think_a_decision_storage_moved_past(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other process holds the room at the computer's turn but never hears the move (its
    notices are lost); when the thinker's lease runs out it takes the lease, finds storage a
    revision ahead and reads it, rather than searching a decision already played."""
    url = empty_postgres(postgres_url)
    monkeypatch.setattr(leases, "LEASE_SECONDS", 1.0)
    monkeypatch.setattr(leases, "LEASE_RENEW_SECONDS", 0.3)
    deaf: set[int] = set()
    heard = RoomService.changed_elsewhere

    def changed_elsewhere(service: RoomService, notice: Any) -> None:
        if id(service) not in deaf:
            heard(service, notice)

    monkeypatch.setattr(RoomService, "changed_elsewhere", changed_elsewhere)

    async def scenario(open_service: Callable[[], Awaitable[RoomService]]) -> None:
        searches: list[str] = []
        thinking, other_holds_it = asyncio.Event(), asyncio.Event()

        def count_searches(name: str, service: RoomService) -> None:
            choose = service.computer.run

            async def counted(*args: Any, **kwargs: Any) -> Any:
                searches.append(name)
                thinking.set()
                await other_holds_it.wait()
                return await choose(*args, **kwargs)

            service.computer.run = counted  # type: ignore[method-assign]

        one = await open_service()
        count_searches("one", one)
        created = await one.create(NewRoom("towers", None, {}, ["computer:easy", "here"], None, None, None))
        room, token = created.room.id, created.token
        await asyncio.wait_for(thinking.wait(), 30)  # the first process holds the lease and thinks
        # the other process starts only now, so that it cannot be the first to take the lease
        other = await open_service()
        deaf.add(id(other))
        count_searches("other", other)
        await other.room(room)
        await asyncio.sleep(0.2)  # the other's computer loop found the lease taken and waits
        other_holds_it.set()
        deadline = time.monotonic() + 60
        while (await other.state(room, token, None))["ply"] < 1:
            assert time.monotonic() < deadline, "the other process never caught up"
            await asyncio.sleep(0.05)
        assert searches == ["one"]
        state = await other.state(room, token, None)
        assert [entry["by"] for entry in state["log"]] == [0] and not state["thinking"]

    run_services(url, tmp_path, scenario)
