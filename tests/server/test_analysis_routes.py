"""``GET /api/rooms/{room}/analysis`` (a finished game's chances and worst moves, worked out
once) and ``POST /api/rooms/{room}/hint`` (the engine's move for the seat deciding, from that
seat's own view only)."""

from __future__ import annotations

import json
import math
import threading
from typing import Any

import pytest

import boardlab
import boardlab.agents
from boardlab import Record
from boardlab.agents.analysis import analyse
from boardlab.core.agent import Agent
from boardlab.core.decisions import Decision
from boardlab.core.match import Match
from boardlab.server import analysis as analysis_module
from boardlab.server import computer as computer_module
from boardlab.server.analysis_slices import AnalysisStep, AnalysisWork
from tests.server.harness import Harness, SlowThinker, auth


def finished_towers(server: Harness) -> tuple[str, str | None]:
    """A Towers room between two people here: three moves, then the one to move resigns."""
    room = server.create("towers", ["here", "here"])
    state = room.state
    for _ in range(3):
        state = server.move(room.room, room.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    assert server.act(room.room, room.token, "resign").status_code == 200
    return room.room, room.token


def hint(server: Harness, room: str, token: str | None, seat: int | None = None) -> Any:
    body = {} if seat is None else {"seat": seat}
    return server.client.post(f"/api/rooms/{room}/hint", json=body, headers=auth(token))


# --- the analysis -------------------------------------------------------------------------------
def test_the_analysis_waits_for_the_end_then_gives_the_chances_after_every_move(sqlite_server: Harness) -> None:
    playing = sqlite_server.create("towers", ["here", "here"])
    refused = sqlite_server.client.get(f"/api/rooms/{playing.room}/analysis")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_not_over"

    room, _token = finished_towers(sqlite_server)
    response = sqlite_server.client.get(f"/api/rooms/{room}/analysis")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["room"] == room and data["format"] == "boardlab-analysis/1" and data["game"] == "towers"
    assert data["seat_names"] == ["White", "Black"] and len(data["moves"]) == 3
    for point in [data["start"], *(move["chances"] for move in data["moves"])]:
        assert math.isclose(sum(point), 1.0, abs_tol=1e-3)
    # Black resigned at its second move: the last position is White's win, whatever the board says
    assert data["moves"][-1]["chances"] == [1.0, 0.0]
    # the same numbers as `boardlab analyse` prints for the downloaded record
    record = Record.loads(sqlite_server.client.get(f"/api/rooms/{room}/record").text)
    expected = analyse(record).to_json()
    for key in ("start", "moves", "worst", "agent", "iterations", "seed"):
        assert data[key] == expected[key], key


def test_an_analysis_is_worked_out_once_and_kept(sqlite_server: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = analysis_module.analyse_slice

    def counted(work: AnalysisWork) -> AnalysisStep:
        step = real(work)
        if step.finished is not None:
            calls.append(work.record.game_id)
        return step

    monkeypatch.setattr(analysis_module, "analyse_slice", counted)
    room, _token = finished_towers(sqlite_server)
    first = sqlite_server.client.get(f"/api/rooms/{room}/analysis").json()
    second = sqlite_server.client.get(f"/api/rooms/{room}/analysis").json()
    assert first == second and calls == ["towers"]


def test_an_unknown_room_has_no_analysis(sqlite_server: Harness) -> None:
    response = sqlite_server.client.get("/api/rooms/nosuchroom/analysis")
    assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_room"


# --- hints ----------------------------------------------------------------------------------------
def test_a_hint_is_a_legal_move_for_the_seat_that_decides(sqlite_server: Harness) -> None:
    room = sqlite_server.create("towers", ["here", "computer:easy"])
    response = hint(sqlite_server, room.room, room.token)
    assert response.status_code == 200, response.text
    data = response.json()
    legal = [move["notation"] for move in room.state["legal_moves"]]
    assert data["seat"] == 0 and data["ply"] == 0 and data["revision"] == room.state["revision"]
    assert data["move"] in legal and data["agent"].startswith("mcts:iterations=")
    assert data["text"] == data["move"], "a Towers move reads as its notation"
    # asking changes nothing in the room
    after = sqlite_server.state(room.room, room.token)
    assert after["revision"] == room.state["revision"] and after["ply"] == 0


def test_a_hint_is_worked_out_from_the_seats_own_view_never_the_real_state(
    sqlite_server: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Territories hides the hands: the agent must be handed ``agent_input(seat)`` (a resample)."""
    handed: list[tuple[int, boardlab.State]] = []
    real_input = Match.agent_input

    def recording(match: Match, seat: int) -> boardlab.State:
        state = real_input(match, seat)
        handed.append((seat, state))
        return state

    searched: list[boardlab.State] = []
    real_think = computer_module.think

    def thinking(decision: Decision) -> tuple[str, Agent]:
        searched.append(decision.state)
        return real_think(decision)

    monkeypatch.setattr(Match, "agent_input", recording)
    monkeypatch.setattr(computer_module, "think", thinking)
    room = sqlite_server.create("territories", ["here", "computer:easy"])
    state = sqlite_server.wait(room.room, room.token, lambda message: message["to_move"] == 0 and not message["thinking"])
    handed.clear()
    searched.clear()
    response = hint(sqlite_server, room.room, room.token)
    assert response.status_code == 200, response.text
    assert [seat for seat, _ in handed] == [0] and searched == [handed[0][1]]
    assert response.json()["move"] in [move["notation"] for move in state["legal_moves"]]
    # the game's hard computer, measured on such resampled views (docs/levels.md)
    assert response.json()["agent"] == boardlab.agents.level_spec(boardlab.load("territories"), "hard")


def test_hints_are_refused_where_they_do_not_belong(sqlite_server: Harness) -> None:
    room = sqlite_server.create("towers", ["here", "here"])
    assert hint(sqlite_server, room.room, None).json()["error"]["code"] == "missing_token"
    assert hint(sqlite_server, room.room, "not-a-token").json()["error"]["code"] == "bad_token"
    # seat 1 is this token's too, but White decides now
    waiting = hint(sqlite_server, room.room, room.token, seat=1)
    assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "not_your_turn"
    # a game with an invited person: a hint would be unfair to them
    invited = sqlite_server.create("towers", ["here", "invite"])
    joined = sqlite_server.join(invited.room, invited.invites[0]["code"])
    assert joined.status_code == 200
    unfair = hint(sqlite_server, invited.room, invited.token)
    assert unfair.status_code == 409 and "invited" in unfair.json()["error"]["message"]
    finished, token = finished_towers(sqlite_server)
    over = hint(sqlite_server, finished, token)
    assert over.status_code == 409 and over.json()["error"]["code"] == "game_over"


def test_one_hint_at_a_time_per_room(sqlite_server: Harness, slow_thinker: SlowThinker) -> None:
    room = sqlite_server.create("towers", ["here", "here"])
    answers: list[Any] = []
    first = threading.Thread(target=lambda: answers.append(hint(sqlite_server, room.room, room.token)))
    first.start()
    assert slow_thinker.started.wait(10)
    second = hint(sqlite_server, room.room, room.token)
    assert second.status_code == 409 and "already" in second.json()["error"]["message"]
    slow_thinker.release.set()
    first.join(30)
    assert answers and answers[0].status_code == 200
    # and once it came, the next one may be asked
    assert hint(sqlite_server, room.room, room.token).status_code == 200
    assert json.loads(answers[0].text)["move"] in [move["notation"] for move in room.state["legal_moves"]]
