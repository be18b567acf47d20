"""The computer as an opponent: it thinks off the event loop, within a deadline, in a real
process pool for every game; a search that the room outran is thrown away."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import pytest

import boardlab
import boardlab.agents
from boardlab.core.agent import Agent
from boardlab.core.decisions import ONE_PLY_FALLBACK, Decision
from boardlab.server import computer as computer_module
from boardlab.server import levels as levels_module
from boardlab.server.computer import ComputerPlayers, PoolThinker
from tests.server.harness import Harness, SlowThinker, make_harness

#: the product's games (the test-only ones are not registered in a fresh worker process)
PRODUCT_GAMES = [game for game in boardlab.game_ids() if boardlab.game_class(game).__module__.startswith("boardlab.")]


# a 2 s bound on the wall clock: one rerun on a stalled machine (docs/server.md, Tests)
@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_one_long_search_never_holds_up_another_room(server: Harness, slow_thinker: SlowThinker) -> None:
    thinking = server.create("towers", ["computer:easy", "here"])
    assert slow_thinker.started.wait(10) and server.state(thinking.room)["thinking"]
    people = server.create("towers", ["here", "here"])
    state = people.state
    for _ in range(6):
        began = time.monotonic()
        state = server.move(people.room, people.token, state["legal_moves"][0]["notation"], state["ply"]).json()
        assert time.monotonic() - began < 2.0
    assert state["ply"] == 6 and server.state(thinking.room)["thinking"]
    slow_thinker.release.set()
    done = server.wait(thinking.room, thinking.token, lambda message: message["ply"] == 1 and not message["thinking"])
    assert done["log"][0]["by"] == 0


def test_a_search_the_room_outran_is_thrown_away(server: Harness, slow_thinker: SlowThinker) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    moved = server.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0).json()
    assert slow_thinker.started.wait(10)
    undone = server.act(created.room, created.token, "undo", {"revision": moved["revision"]}).json()
    assert undone["ply"] == 0 and not undone["thinking"]
    slow_thinker.release.set()
    time.sleep(0.3)  # the search comes back to a room that moved on
    after = server.state(created.room, created.token)
    assert after["ply"] == 0 and after["revision"] == undone["revision"] and server.stored(created.room).moves == []


def test_a_search_past_its_deadline_gives_way_to_a_fallback_move(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slow_thinker: SlowThinker
) -> None:
    monkeypatch.setitem(levels_module.DEADLINE_SECONDS, "easy", 0.2)
    with make_harness(database_url, tmp_path, think_grace_seconds=0.0) as server:
        created = server.create("towers", ["here", "computer:easy"])
        moved = server.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0).json()
        replied = server.wait(created.room, created.token, lambda message: message["ply"] == 2, timeout=10)
        assert replied["log"][1]["by"] == 1 and replied["legal_moves"]
        assert moved["revision"] < replied["revision"]
        # the fallback is the one-ply best move (Towers has no default move), never a random one
        game = boardlab.load("towers")
        after_first = game.new_state(0)
        record = server.stored(created.room)
        after_first.apply(after_first.parse_move(record.moves[0].text))
        assert replied["log"][1]["text"] == str(ONE_PLY_FALLBACK.move(after_first))


# a 4 s bound on the wall clock: one rerun on a stalled machine (docs/server.md, Tests)
@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_a_search_capped_by_the_deadline_answers_with_its_own_best_move(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search whose budget is far beyond the deadline is cut short by it, and the room
    plays the search's move in time, not a fallback."""
    caps: list[float | None] = []
    real = computer_module.think

    def recording(decision: Decision) -> tuple[str, Agent]:
        caps.append(decision.deadline)
        endless = boardlab.agents.make_agent("mcts:iterations=100000000", game=decision.state.game)
        return real(dataclasses.replace(decision, agent=endless))

    monkeypatch.setattr(computer_module, "think", recording)
    monkeypatch.setitem(levels_module.DEADLINE_SECONDS, "hard", 0.5)
    with make_harness(database_url, tmp_path, think_grace_seconds=5.0) as server:
        created = server.create("towers", ["here", "computer:hard"])
        began = time.monotonic()
        server.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0)
        replied = server.wait(created.room, created.token, lambda message: message["ply"] == 2, timeout=10)
        assert time.monotonic() - began < 4.0  # well inside deadline + grace: the search stopped itself
        assert caps == [0.5] and replied["log"][1]["by"] == 1


def test_a_failing_agent_does_not_take_the_room_down(server: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(decision: Decision) -> tuple[str, Agent]:
        raise RuntimeError("the agent has a bug")

    monkeypatch.setattr(computer_module, "think", broken)
    created = server.create("towers", ["computer:easy", "here"])
    replied = server.wait(created.room, created.token, lambda message: message["ply"] == 1, timeout=10)
    assert replied["log"][0]["by"] == 0 and replied["legal_moves"]


def test_the_worker_processes_think_for_every_game() -> None:
    """Each game's decision (the level's agent and the seat's resampled state) travels to a
    spawned worker, which sends back a legal move and the agent as its search left it, whose
    memory the seat's agent takes over."""
    from boardlab.agents import seat_agents

    async def think_everywhere() -> None:
        pool = ComputerPlayers(1)
        pool.start()
        try:
            for game_id in PRODUCT_GAMES:
                game = boardlab.load(game_id)
                match = boardlab.Match(game, seat_agents(game, ["easy"] * game.num_players), seed=5)
                decision = match.pending()
                assert decision is not None
                move = await PoolThinker(pool, grace=120).think(decision)
                match.decide(decision, move)  # legal in the real state
                assert match.log()[-1].note == "" and match.agents[decision.seat] is decision.agent
        finally:
            pool.close()

    asyncio.run(think_everywhere())


# a bound on the wall clock, on a machine that may stall a process: one rerun (docs/server.md, Tests)
@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_the_first_search_after_start_finds_its_worker_ready() -> None:
    """The pool's start waits for its workers to be up with every game loaded: the first
    person's reply does not wait seconds for a process to spawn and import."""
    from boardlab.agents import seat_agents

    async def first_reply() -> float:
        pool = ComputerPlayers(1)
        pool.start()
        try:
            await pool.warmed_up()
            game = boardlab.load("towers")
            match = boardlab.Match(game, seat_agents(game, ["easy", "easy"]), seed=5)
            decision = match.pending()
            assert decision is not None
            began = time.monotonic()
            await PoolThinker(pool, grace=30).think(decision)
            return time.monotonic() - began
        finally:
            pool.close()

    assert asyncio.run(first_reply()) < 1.0


@pytest.mark.both_databases  # the room comes back from storage
def test_a_restarted_server_plays_the_computer_move_it_was_thinking_about(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = SlowThinker()
    monkeypatch.setattr(computer_module, "think", slow)
    with make_harness(database_url, tmp_path) as first:
        created = first.create("towers", ["here", "computer:easy"])
        first.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0)
        assert slow.started.wait(10)  # the server stops while the computer thinks
    monkeypatch.undo()
    slow.release.set()
    with make_harness(database_url, tmp_path) as second:
        # nobody asks for the room: the server resumes it on starting
        deadline = time.monotonic() + 30
        while len(second.stored(created.room).moves) < 2:
            assert time.monotonic() < deadline, "the pending computer move was not played"
            time.sleep(0.05)
        assert [move.by for move in second.stored(created.room).moves] == [0, 1]
