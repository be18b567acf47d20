"""Bad input gets a JSON error with a stable code and a message naming the problem, and changes
nothing: neither storage nor what anyone is shown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import boardlab
from boardlab import IllegalMoveError, NotationError
from boardlab.server.errors import ERROR_STATUS
from tests.server.harness import Harness, Seated, auth
from tests.support.budgets import budget


def snapshot(server: Harness, room: str, token: str | None) -> tuple[Any, ...]:
    """Everything a refusal must leave alone: the stored rows and the state a seat and the
    spectators are shown (less the ticking clock)."""
    stored = server.stored(room)
    shown = []
    for viewer in (token, None):
        state = server.state(room, viewer)
        state["view"]["match"].pop("seconds_left")
        shown.append(state)
    row = vars(stored.room).copy()
    return row, [vars(seat) for seat in stored.seats], stored.moves, shown


def refused(response: Any, status: int, code: str, *words: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    for word in words:
        assert word in error["message"], error


def illegal_but_well_formed(game_id: str) -> str:
    """A move in the game's notation that is not legal at the start."""
    state = boardlab.load(game_id).new_state(1)
    for text in (f"{file}{rank}+" for file in "abcdefg" for rank in range(1, 8)):
        try:
            state.parse_move(text)
        except NotationError:
            continue
        except IllegalMoveError:
            return text
    raise AssertionError("no illegal build found")


@pytest.fixture
def duel(server: Harness) -> Iterator[tuple[Harness, Seated, str]]:
    """Towers between the creator (seat 0) and an invited guest who joined (seat 1)."""
    created = server.create("towers", ["here", "invite"])
    guest = server.join(created.room, created.invites[0]["code"]).json()["token"]
    created.state = server.state(created.room, created.token)
    yield server, created, guest


def test_an_illegal_move_is_refused_with_the_rules_reason(duel: tuple[Harness, Seated, str]) -> None:
    server, created, _guest = duel
    before = snapshot(server, created.room, created.token)
    text = illegal_but_well_formed("towers")
    refused(server.move(created.room, created.token, text, 0), 422, "illegal_move", text)
    refused(server.move(created.room, created.token, "zz9?", 0), 422, "bad_notation", "zz9?")
    assert snapshot(server, created.room, created.token) == before


def test_a_move_out_of_turn_is_refused(duel: tuple[Harness, Seated, str]) -> None:
    server, created, guest = duel
    before = snapshot(server, created.room, created.token)
    text = created.state["legal_moves"][0]["notation"]
    refused(server.move(created.room, guest, text, 0), 409, "not_your_turn", "White")
    refused(server.move(created.room, created.token, text, 0, seat=1), 403, "not_your_seat", "seat 1")
    assert snapshot(server, created.room, created.token) == before


def test_a_move_for_a_position_that_is_gone_is_refused(duel: tuple[Harness, Seated, str]) -> None:
    server, created, _guest = duel
    text = created.state["legal_moves"][0]["notation"]
    before = snapshot(server, created.room, created.token)
    refused(server.move(created.room, created.token, text, 3), 409, "stale_move", "move 4")
    refused(server.move(created.room, created.token, text, 0, revision=0), 409, "stale_move", "revision")
    assert snapshot(server, created.room, created.token) == before


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({}, 401, "missing_token"),
        ({"Authorization": "Bearer not-a-token"}, 403, "bad_token"),
        ({"X-Seat-Token": "not-a-token"}, 403, "bad_token"),
        ({"Authorization": "Basic dXNlcjpwYXNz"}, 403, "bad_token"),
    ],
)
def test_only_the_seats_token_moves_for_it(duel: tuple[Harness, Seated, str], headers: dict, status: int, code: str) -> None:
    server, created, _guest = duel
    before = snapshot(server, created.room, created.token)
    text = created.state["legal_moves"][0]["notation"]
    body = {"move": text, "ply": 0}
    refused(server.client.post(f"/api/rooms/{created.room}/moves", json=body, headers=headers), status, code)
    for action, action_body in (("undo", {"revision": 0}), ("resign", {}), ("draw", {"action": "offer"})):
        refused(server.client.post(f"/api/rooms/{created.room}/{action}", json=action_body, headers=headers), status, code)
    assert snapshot(server, created.room, created.token) == before


def test_a_token_of_another_room_moves_nothing_here(duel: tuple[Harness, Seated, str]) -> None:
    server, created, _guest = duel
    other = server.create("towers", ["here", "here"])
    before = snapshot(server, created.room, created.token)
    text = created.state["legal_moves"][0]["notation"]
    refused(server.move(created.room, other.token, text, 0), 403, "bad_token", created.room)
    refused(server.client.get(f"/api/rooms/{created.room}", headers=auth(other.token)), 403, "bad_token")
    assert snapshot(server, created.room, created.token) == before


@pytest.mark.parametrize(
    ("body", "status", "code", "word"),
    [
        (b'{"move": "f1+", "ply": ', 400, "bad_json", "JSON"),
        (b"\xff\xfe not text", 400, "bad_json", "JSON"),
        (b"[1, 2]", 422, "bad_request", "body"),
        (b'{"move": "f1+"}', 422, "bad_request", "ply"),
        (b'{"move": "f1+", "ply": "zero"}', 422, "bad_request", "ply"),
        (b'{"move": "f1+", "ply": 0, "cheat": true}', 422, "bad_request", "cheat"),
        (b'{"move": "' + b"x" * 300 + b'", "ply": 0}', 422, "bad_request", "move"),
        (b"", 422, "bad_request", "body"),
    ],
)
def test_a_malformed_body_is_refused_before_anything_runs(
    duel: tuple[Harness, Seated, str], body: bytes, status: int, code: str, word: str
) -> None:
    server, created, _guest = duel
    before = snapshot(server, created.room, created.token)
    headers = {"Content-Type": "application/json", **auth(created.token)}
    refused(server.client.post(f"/api/rooms/{created.room}/moves", content=body, headers=headers), status, code, word)
    assert snapshot(server, created.room, created.token) == before


def test_an_oversized_body_is_refused_unread(duel: tuple[Harness, Seated, str]) -> None:
    server, created, _guest = duel
    before = snapshot(server, created.room, created.token)
    huge = b'{"move": "f1+", "ply": 0, "pad": "' + b"x" * (64 * 1024) + b'"}'
    url = f"/api/rooms/{created.room}/moves"
    headers = {"Content-Type": "application/json", **auth(created.token)}
    refused(server.client.post(url, content=huge, headers=headers), 413, "body_too_large", "65536")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit counts what arrives
        for start in range(0, len(huge), 8192):
            yield huge[start : start + 8192]

    refused(server.client.post(url, content=chunks(), headers=headers), 413, "body_too_large")
    assert snapshot(server, created.room, created.token) == before


@pytest.mark.parametrize(
    ("body", "status", "code", "word"),
    [
        ({"game": "chess"}, 404, "unknown_game", "towers"),
        ({"game": "towers", "options": {"gravity": "low"}}, 422, "bad_option", "gravity"),
        ({"game": "towers", "options": {"layout": "spiral"}}, 422, "bad_option", "spiral"),
        ({"game": "towers", "players": 3}, 422, "bad_option", "players=3"),
        ({"game": "towers", "seats": ["here"]}, 422, "bad_seats", "2 seats"),
        ({"game": "towers", "seats": ["here", "robot"]}, 422, "bad_option", "robot"),
        ({"game": "towers", "seats": ["here", "computer:genius"]}, 422, "bad_option", "genius"),
        # a level only some games have (docs/levels.md): Honor has no expert
        ({"game": "honor", "seats": ["here", "computer:expert"]}, 422, "bad_option", "honor has no expert level"),
        ({"game": "towers", "seats": ["here", "invite:hard"]}, 422, "bad_option", "invite"),
        ({"game": "towers", "names": ["Ann"]}, 422, "bad_seats", "names"),
        ({"game": "towers", "move_seconds": -1}, 422, "bad_request", "move_seconds"),
        ({"game": "towers", "undo": "always"}, 422, "bad_request", "undo"),
    ],
)
def test_a_room_that_cannot_exist_is_not_created(server: Harness, body: dict, status: int, code: str, word: str) -> None:
    refused(server.client.post("/api/rooms", json=body), status, code, word)
    assert server.client.get("/api/rooms").json() == []


@pytest.mark.parametrize("room", ["nosuchroom", "x" * 200, "bad%20id"])
def test_an_unknown_room_is_named_in_every_route(server: Harness, room: str) -> None:
    refused(server.client.get(f"/api/rooms/{room}"), 404, "unknown_room")
    refused(server.move(room, "token", "f1+", 0), 404, "unknown_room")
    refused(server.join(room, "code"), 404, "unknown_room")
    refused(server.client.get(f"/api/rooms/{room}/record"), 404, "unknown_room")


def test_unknown_paths_and_methods_get_the_same_error_shape(server: Harness) -> None:
    refused(server.client.get("/api/nothing-here"), 404, "not_found")
    refused(server.client.delete("/api/rooms"), 405, "method_not_allowed")
    refused(server.client.get("/api/games/chess"), 404, "unknown_game", "towers")


def test_refusals_of_match_actions_name_the_reason(server: Harness) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    before = snapshot(server, created.room, created.token)
    asked = {"revision": created.state["revision"]}
    refused(server.act(created.room, created.token, "undo", asked), 409, "undo_refused", "nothing to take back")
    refused(server.act(created.room, created.token, "draw", {"action": "accept"}), 409, "no_draw_offer")
    refused(server.act(created.room, created.token, "draw", {"action": "shrug"}), 422, "bad_request", "action")
    assert snapshot(server, created.room, created.token) == before


@pytest.fixture
def people(sqlite_server: Harness) -> tuple[Harness, Seated]:
    """Towers between two people at one screen (one room for every fuzzed example)."""
    return sqlite_server, sqlite_server.create("towers", ["here", "here"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@budget(150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"move": st.text(max_size=40), "ply": st.integers(-3, 5)}, optional={"seat": json_values, "revision": json_values}
        ),
    ),
    raw=st.one_of(st.none(), st.binary(max_size=60)),
)
def test_whatever_arrives_gets_a_coded_refusal_or_a_legal_move_and_nothing_else(
    people: tuple[Harness, Seated], body: Any, raw: bytes | None
) -> None:
    """Fuzzed bodies on the moves route: either the move was legal (and stored), or the answer
    is a 4xx with a code from the table; never a 500, never a change without an answer."""
    server, created = people
    before = server.stored(created.room).moves
    headers = {"Content-Type": "application/json", **auth(created.token)}
    content = raw if raw is not None else json.dumps(body).encode()
    response = server.client.post(f"/api/rooms/{created.room}/moves", content=content, headers=headers)
    after = server.stored(created.room).moves
    if response.status_code == 200:
        assert len(after) > len(before)
    else:
        assert 400 <= response.status_code < 500, response.text
        assert response.json()["error"]["code"] in ERROR_STATUS
        assert after == before
