"""Replays are made side by side, each (room, viewer) once, with the asking address's share:
one address asking for many at once has only a few requests served and is refused the rest
before anything is read (``429 rate_limited`` with ``Retry-After``), and another visitor's
replay never waits for them (docs/server.md, "The API")."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from httpx import Response

from boardlab.core.records import Record
from boardlab.core.values import Player
from boardlab.server import replays as replays_module
from tests.server.harness import Harness, make_harness
from tests.server.test_analysis_routes import finished_towers

ATTACKER = {"X-Forwarded-For": "203.0.113.66"}
VISITOR = {"X-Forwarded-For": "198.51.100.7"}
#: how long a replay that nothing holds up may take here (a Towers game of three moves)
QUICK_SECONDS = 5.0


class HeldReplays:
    """Stands in for the replay in the worker: the rooms named in ``held`` wait until released;
    counts the replays made of each room."""

    def __init__(self) -> None:
        self.held: set[str] = set()
        self.release = threading.Event()
        self.started: dict[str, int] = {}
        self.real = replays_module._views

    def __call__(self, asked: tuple[Record, Player | None]) -> Any:
        room = str(asked[0].meta.get("room"))
        self.started[room] = self.started.get(room, 0) + 1
        if room in self.held:
            self.release.wait(30)
        return self.real(asked)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldReplays]:
    replays = HeldReplays()
    monkeypatch.setattr(replays_module, "_views", replays)
    yield replays
    replays.release.set()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Harness]:
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, trusted_proxies=("testclient",)) as harness:
        yield harness


def replay(server: Harness, room: str, headers: dict[str, str], move: int = 1) -> Response:
    return server.client.get(f"/api/rooms/{room}/replay", params={"move": move}, headers=headers)


def wait_until(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the replays did not start"
        time.sleep(0.01)


def test_one_address_has_a_few_replays_made_at_once_and_another_visitors_replay_does_not_wait(
    server: Harness, held: HeldReplays, monkeypatch: pytest.MonkeyPatch
) -> None:
    rooms = [finished_towers(server)[0] for _ in range(4)]
    own = finished_towers(server)[0]
    held.held.update(rooms)
    share = replays_module.REPLAYS_PER_ADDRESS
    with ThreadPoolExecutor(share) as threads:
        waiting: list[Future[Response]] = [threads.submit(replay, server, room, ATTACKER) for room in rooms[:share]]
        pool, attacker = server.app.state.service.computer, ATTACKER["X-Forwarded-For"]
        # one replay of the attacker's in the one worker its share of the pool allows, the others queued for it
        wait_until(lambda: sum(held.started.values()) == 1 and pool.queued_for(attacker) == share - 1)
        # one more replay of this address is refused at once, before the room is read, not queued behind its others
        service = server.app.state.service
        loads = service.room
        read: list[str] = []

        async def counted(room_id: str) -> Any:
            read.append(room_id)
            return await loads(room_id)

        with monkeypatch.context() as patched:
            patched.setattr(service, "room", counted)
            refused = replay(server, rooms[share], ATTACKER)
        assert read == []
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert "at once" in refused.json()["error"]["message"] and int(refused.headers["Retry-After"]) >= 1
        # another visitor's replay of its own game is made while the attacker's wait
        began = time.monotonic()
        mine = replay(server, own, VISITOR)
        took = time.monotonic() - began
        assert mine.status_code == 200 and mine.json()["move"] == 1
        assert took < QUICK_SECONDS, f"the visitor's replay waited {took:.1f} s behind another address's"
        held.release.set()
        assert [answer.result(30).status_code for answer in waiting] == [200] * share
    # made and kept: asked again, nothing is replayed anew
    assert replay(server, rooms[0], ATTACKER, move=2).status_code == 200
    assert held.started[rooms[0]] == 1


def test_visitors_of_one_room_share_one_replay(server: Harness, held: HeldReplays) -> None:
    room = finished_towers(server)[0]
    held.held.add(room)
    with ThreadPoolExecutor(4) as threads:
        waiting = [threads.submit(replay, server, room, {"X-Forwarded-For": f"192.0.2.{n}"}, n) for n in range(4)]
        wait_until(lambda: held.started.get(room) == 1)
        time.sleep(0.1)
        held.release.set()
        answers = [answer.result(30) for answer in waiting]
    assert [answer.status_code for answer in answers] == [200] * 4
    assert [answer.json()["move"] for answer in answers] == [0, 1, 2, 3]
    assert held.started[room] == 1
