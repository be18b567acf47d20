"""Nobody can starve the computer: one client address playing twenty rooms against the hard
level, or resigning and asking for a rematch in a loop, leaves another person's easy reply
within a second; its queued searches are bounded, a rematch draws on the rooms' bucket, and
the searches of rooms that ended while they waited never run (docs/server.md, "A fair computer")."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardlab
import boardlab.agents
from boardlab.core.agent import Agent
from boardlab.core.decisions import Decision
from boardlab.server import computer as computer_module
from boardlab.server.levels import level_spec
from tests.server.harness import Harness, auth, make_harness

TOWERS = boardlab.load("towers")
HARD = boardlab.agents.make_agent(level_spec(TOWERS, "hard"), game=TOWERS).spec()
ATTACKER = {"X-Forwarded-For": "203.0.113.66"}
PERSON = {"X-Forwarded-For": "198.51.100.7"}
#: how long another person may wait for the easy level's reply
REPLY_SECONDS = 1.0


class HardSearches:
    """Stands in for the worker's search: a hard search holds its worker (the attacker's rooms
    keep the pool busy) until released; the others think for real. Counts the hard searches
    that started."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = 0
        self.real = computer_module.think

    def __call__(self, decision: Decision) -> tuple[str, Agent]:
        if decision.spec == HARD:
            self.started += 1
            self.release.wait(30)
            return str(decision.state.legal_moves()[0]), decision.agent
        return self.real(decision)


@pytest.fixture
def hard(monkeypatch: pytest.MonkeyPatch) -> Iterator[HardSearches]:
    searches = HardSearches()
    monkeypatch.setattr(computer_module, "think", searches)
    yield searches
    searches.release.set()


def create(server: Harness, seats: list[str], headers: dict[str, str]) -> dict[str, Any]:
    answer = server.client.post("/api/rooms", json={"game": "towers", "seats": seats}, headers=headers)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def easy_reply_seconds(server: Harness) -> float:
    """Another person's room against the easy level: how long from their move to the reply."""
    room = create(server, ["here", "computer:easy"], PERSON)
    began = time.monotonic()
    moved = server.client.post(
        f"/api/rooms/{room['room']}/moves",
        json={"move": room["state"]["legal_moves"][0]["notation"], "ply": 0},
        headers={**PERSON, **auth(room["token"])},
    )
    assert moved.status_code == 200, moved.text
    server.wait(room["room"], room["token"], lambda state: state["ply"] >= 2, timeout=30)
    return time.monotonic() - began


def test_twenty_rooms_against_the_hard_level_leave_another_persons_reply_within_a_second(
    tmp_path: Path, hard: HardSearches
) -> None:
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, trusted_proxies=("testclient",)) as server:
        pool = server.app.state.service.computer
        rng = random.Random(5)
        refused = []
        for _ in range(20):  # a random legal move in each room, as soon as it is the attacker's turn
            made = server.client.post("/api/rooms", json={"game": "towers", "seats": ["here", "computer:hard"]}, headers=ATTACKER)
            if made.status_code == 429:  # its decisions wait already: no room that would queue another
                refused.append(made)
                continue
            room = made.json()
            move = rng.choice(room["state"]["legal_moves"])["notation"]
            answer = server.client.post(
                f"/api/rooms/{room['room']}/moves", json={"move": move, "ply": 0}, headers={**ATTACKER, **auth(room["token"])}
            )
            if answer.status_code == 429:
                refused.append(answer)
            else:
                assert answer.status_code == 200, answer.text
        assert hard.started >= 1  # the attacker's searches hold a worker
        owner = ATTACKER["X-Forwarded-For"]
        assert pool.queued_for(owner) <= server.app.state.settings.max_queued_per_address
        assert refused and refused[0].json()["error"]["code"] == "computer_busy" and "Retry-After" in refused[0].headers
        took = easy_reply_seconds(server)
        assert took < REPLY_SECONDS, f"another person waited {took:.2f} s behind the attacker's rooms"
        assert pool.running_for(owner) == 1  # never more than its share of the two workers


def test_resigning_and_asking_for_a_rematch_in_a_loop_starves_nobody(tmp_path: Path, hard: HardSearches) -> None:
    settings: dict[str, Any] = {"trusted_proxies": ("testclient",), "rooms_per_minute": 10}
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, **settings) as server:
        pool = server.app.state.service.computer
        room = create(server, ["here", "computer:hard"], ATTACKER)
        token, room_id, made = room["token"], room["room"], 1
        headers = {**ATTACKER, **auth(token)}
        limited = None
        while made < 40:
            assert server.client.post(f"/api/rooms/{room_id}/resign", json={}, headers=headers).status_code == 200
            rematch = server.client.post(f"/api/rooms/{room_id}/rematch", json={}, headers=headers)
            if rematch.status_code == 429:
                limited = rematch
                break
            assert rematch.status_code == 200, rematch.text
            room_id = rematch.json()["rematch"]["room"]  # the computer opens every other rematch
            made += 1
        # a rematch makes a room: it draws on the rooms' bucket (10 a minute here)
        assert limited is not None and limited.json()["error"]["code"] == "rate_limited" and made <= 10
        took = easy_reply_seconds(server)
        assert took < REPLY_SECONDS, f"another person waited {took:.2f} s behind the rematch loop"
        # the searches of the rooms that ended while they waited never ran, and none is left waiting
        assert pool.queued == 0 and hard.started <= 1


def test_a_queued_search_whose_room_moved_on_is_dropped_unstarted(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    gate = threading.Event()

    def think(decision: Decision) -> tuple[str, Agent]:
        started.append(decision.seed)
        gate.wait(10)
        return "x", decision.agent

    monkeypatch.setattr(computer_module, "think", think)

    async def outcome(thinker: computer_module.PoolThinker, decision: Decision) -> str:
        try:
            return str(await thinker.think(decision))
        except computer_module.SearchDropped:
            return "dropped"

    async def scenario() -> list[str]:
        pool = computer_module.ComputerPlayers(0)
        pool.start()
        wanted = dict.fromkeys(range(4), True)
        decision = lambda seed: Decision(0, boardlab.agents.make_agent("random"), seed, None, 0)  # type: ignore[arg-type]  # noqa: E731
        try:
            searches = [
                asyncio.ensure_future(outcome(
                    computer_module.PoolThinker(pool, 10, owner="a", wanted=lambda seed=seed: wanted[seed]), decision(seed)
                ))
                for seed in range(4)
            ]
            for _ in range(200):
                if started:
                    break
                await asyncio.sleep(0.01)
            assert started == [0] and pool.queued == 3  # one worker for this owner, the other kept
            wanted[1] = wanted[2] = False  # their rooms ended
            assert pool.drop_unwanted() == 2 and pool.queued == 1
            gate.set()
            return await asyncio.gather(*searches)
        finally:
            pool.close()

    answers = asyncio.run(scenario())
    assert answers == ["x", "dropped", "dropped", "x"]
    assert sorted(started) == [0, 3]


def test_owners_are_served_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers, one kept from any single owner: owner a's five searches and owner b's two
    take turns on the free worker, instead of a's going first because they are older."""
    order: list[str] = []
    done = threading.Semaphore(0)

    def think(decision: Decision) -> tuple[str, Agent]:
        order.append(f"{'ab'[decision.seat]}{decision.seed}")
        done.acquire(timeout=10)  # each search ends when the test lets one end
        return "x", decision.agent

    monkeypatch.setattr(computer_module, "think", think)

    async def scenario() -> None:
        pool = computer_module.ComputerPlayers(0)
        pool.start()
        agent = boardlab.agents.make_agent("random")
        ask = lambda owner, seed: asyncio.ensure_future(  # noqa: E731
            computer_module.PoolThinker(pool, 10, owner=owner).think(Decision("ab".index(owner), agent, seed, None, 0))  # type: ignore[arg-type]
        )
        try:
            searches = [ask("a", seed) for seed in range(5)]
            await asyncio.sleep(0.05)
            searches += [ask("b", seed) for seed in range(2)]
            while not all(search.done() for search in searches):
                await asyncio.sleep(0.05)
                done.release()
            await asyncio.gather(*searches)
        finally:
            pool.close()

    asyncio.run(scenario())
    assert order[:2] == ["a0", "b0"]  # b's first search starts beside a's first, on the worker a may not take
    assert order.index("b1") < order.index("a2")


def test_a_hint_is_refused_while_the_address_has_its_share_of_searches_waiting(tmp_path: Path, hard: HardSearches) -> None:
    # a hint is a search on the address's share too: rooms without a computer must not let an
    # address queue past --max-queued-per-address by asking for hints in each
    with make_harness(
        f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, trusted_proxies=("testclient",), max_queued_per_address=2
    ) as server:
        pool = server.app.state.service.computer
        owner = ATTACKER["X-Forwarded-For"]
        for _ in range(6):  # the computer moves first in each: every room queues a hard search
            made = server.client.post(
                "/api/rooms", json={"game": "towers", "seats": ["computer:hard", "here"]}, headers=ATTACKER
            )
            assert made.status_code in (201, 429), made.text
        assert pool.queued_for(owner) == 2
        room = create(server, ["here", "here"], ATTACKER)
        asked = server.client.post(f"/api/rooms/{room['room']}/hint", json={}, headers={**ATTACKER, **auth(room["token"])})
        assert asked.status_code == 429, asked.text
        error = asked.json()["error"]
        assert error["code"] == "computer_busy" and "--max-queued-per-address 2" in error["message"]
        other = create(server, ["here", "here"], PERSON)  # another address's hint is its own share
        answered = server.client.post(f"/api/rooms/{other['room']}/hint", json={}, headers={**PERSON, **auth(other["token"])})
        assert answered.status_code == 200, answered.text
