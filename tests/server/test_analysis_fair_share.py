"""Analyses take turns between addresses: one address's long analysis is worked out a slice of
positions at a time, and another address's analysis is worked out between its slices rather
than after its end (docs/server.md, "Scheduling"). The slices together give exactly the numbers
of ``boardlab analyse``."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab import Record
from boardlab.agents import analysis as game_analysis
from boardlab.core.records import Ending
from boardlab.core.state import State
from boardlab.server.analysis_slices import AnalysisWork, analyse_slice
from tests.server.harness import Harness, make_harness
from tests.server.test_analysis_routes import finished_towers
from tests.server.test_rate_limits import OFF

#: two client addresses (the harness trusts the test client's X-Forwarded-For)
ATTACKER, VISITOR = {"X-Forwarded-For": "203.0.113.66"}, {"X-Forwarded-For": "198.51.100.7"}
#: what each search of a position costs while the test holds the analyses back (instead of
#: the real search, whose numbers are not this test's business)
SLOW_SEARCH_SECONDS = 0.2


@pytest.fixture
def two_addresses(tmp_path: Path) -> Iterator[Harness]:
    with make_harness(f"sqlite:///{tmp_path / 'b.sqlite3'}", tmp_path, **OFF, trusted_proxies=("testclient",)) as server:
        yield server


def long_towers(server: Harness, moves: int) -> str:
    """A Towers room between two people here: ``moves`` moves (fewer if the game ends), then the
    one to move resigns."""
    room = server.create("towers", ["here", "here"])
    state = room.state
    while state["ply"] < moves and state["status"] == "playing":
        state = server.move(room.room, room.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    if state["status"] == "playing":
        assert server.act(room.room, room.token, "resign").status_code == 200
    return room.room


def test_a_long_analysis_does_not_keep_another_address_waiting_to_its_end(
    two_addresses: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every search of a position is slow until the visitor has its answer: the attacker's game of
    # 40 moves then takes 8 s of the worker that analyses share, the visitor's of 3 moves under 1 s
    hurry = threading.Event()
    searching = threading.Event()

    def slow_search(state: State, spec: str, seed: int) -> tuple[tuple[float, ...], Any, bool]:
        searching.set()
        if not hurry.is_set():
            time.sleep(SLOW_SEARCH_SECONDS)
        even = tuple(1.0 / state.num_players for _ in range(state.num_players))
        return even, state.legal_moves()[0], False  # the move the rooms below play: nothing more to search

    monkeypatch.setattr(game_analysis, "_search", slow_search)
    server = two_addresses
    analyses = server.app.state.analyses
    long_room = long_towers(server, 40)
    short_room, _token = finished_towers(server)
    answers: dict[str, Any] = {}

    def ask(room: str, headers: dict[str, str]) -> None:
        answers[room] = server.client.get(f"/api/rooms/{room}/analysis", headers=headers)

    attacker = threading.Thread(target=ask, args=(long_room, ATTACKER))
    attacker.start()
    try:
        assert searching.wait(10), "the attacker's analysis did not start"
        ask(short_room, VISITOR)
        # the visitor's answer came while the attacker's analysis was still being worked out
        attacker_still_running = any(room == long_room for room, _budget in analyses._running)
    finally:
        hurry.set()
        attacker.join(60)
    visitor_answer = answers[short_room]
    assert visitor_answer.status_code == 200, visitor_answer.text
    assert visitor_answer.json()["room"] == short_room and len(visitor_answer.json()["moves"]) == 3
    assert attacker_still_running, "the visitor's analysis waited for the end of the attacker's"
    # the attacker's analysis, interleaved with the visitor's, is still whole
    assert answers[long_room].status_code == 200, answers[long_room].text
    assert answers[long_room].json()["room"] == long_room and len(answers[long_room].json()["moves"]) == 40


def played_record(game_id: str, moves: int, seed: int, ending: Ending | None = None) -> Record:
    """A record of ``moves`` random moves of ``game_id`` (chance by the seed)."""
    game = boardlab.load(game_id)
    rng = random.Random(seed)
    state = game.new_state(seed)
    while state.ply < moves and not state.is_over():
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    return Record.for_state(state, ending=ending)


@pytest.mark.parametrize(
    ("game_id", "moves", "ending"),
    [
        ("towers", 6, None),
        ("towers", 5, Ending("resign", 0)),  # a match-level ending shows after the last move
        ("territories", 10, None),  # chance moves
        ("overseer", 6, None),
    ],
)
def test_an_analysis_cut_into_one_position_slices_gives_the_numbers_of_boardlab_analyse(
    game_id: str, moves: int, ending: Ending | None
) -> None:
    record = played_record(game_id, moves, seed=4, ending=ending)
    work = AnalysisWork(record, slice_seconds=0.0)  # a slice judges one position, never more
    slices = 0
    while True:
        step = analyse_slice(work)
        slices += 1
        if step.finished is not None:
            break
        assert len(step.work.judged) == len(work.judged) + 1
        work = step.work
    assert slices == len(record.moves) + 1
    expected = game_analysis.analyse(record).to_json()
    for data in (expected, step.finished):
        data.pop("seconds")
    assert step.finished == expected
