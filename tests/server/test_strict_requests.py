"""Requests mean what they say: a take-back names the revision it was asked at (a retried one
takes back nothing more), and fields of the wrong JSON type are refused, not coerced."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.harness import Harness, auth


def two_moves(server: Harness) -> tuple[str, str, dict[str, Any]]:
    created = server.create("towers", ["here", "here"])
    assert created.token is not None
    state = created.state
    for _ in range(2):
        state = server.move(created.room, created.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    assert state["ply"] == 2
    return created.room, created.token, state


def test_a_retried_undo_takes_back_one_turn_only(server: Harness) -> None:
    room, token, state = two_moves(server)
    asked = {"revision": state["revision"]}
    undone = server.act(room, token, "undo", asked)
    assert undone.status_code == 200, undone.text
    assert undone.json()["ply"] == 1
    again = server.act(room, token, "undo", asked)  # the same request, sent again
    assert again.status_code == 409, again.text
    assert again.json()["error"]["code"] == "stale_move" and "revision" in again.json()["error"]["message"]
    assert server.state(room, token)["ply"] == 1 and len(server.stored(room).moves) == 1


def test_an_undo_without_its_revision_is_refused(sqlite_server: Harness) -> None:
    room, token, _state = two_moves(sqlite_server)
    refused = sqlite_server.act(room, token, "undo", {})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_request"
    assert "revision" in refused.json()["error"]["message"]
    assert sqlite_server.state(room, token)["ply"] == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "towers", "players": True}, "players"),
        ({"game": "towers", "players": "2"}, "players"),
        ({"game": "towers", "players": 2.0}, "players"),
        ({"game": "towers", "move_seconds": "30"}, "move_seconds"),
        ({"game": "towers", "names": [1, 2]}, "names"),
        ({"game": 7}, "game"),
    ],
)
def test_room_fields_of_the_wrong_type_are_refused(sqlite_server: Harness, body: dict[str, Any], field: str) -> None:
    response = sqlite_server.client.post("/api/rooms", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_request" and field in error["message"]
    assert sqlite_server.client.get("/api/rooms").json() == []


def test_a_whole_number_still_counts_as_seconds(sqlite_server: Harness) -> None:
    created = sqlite_server.create("towers", move_seconds=30)
    assert created.state["view"]["match"]["move_seconds"] == 30


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"ply": "0"}, "ply"), ({"ply": 0, "revision": "0"}, "revision"), ({"ply": 0, "seat": "0"}, "seat"),
        ({"ply": False}, "ply"),
    ],
)
def test_move_fields_of_the_wrong_type_are_refused(sqlite_server: Harness, extra: dict[str, Any], field: str) -> None:
    created = sqlite_server.create("towers", ["here", "here"])
    body = {"move": created.state["legal_moves"][0]["notation"], **extra}
    response = sqlite_server.client.post(f"/api/rooms/{created.room}/moves", json=body, headers=auth(created.token))
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "bad_request" and field in response.json()["error"]["message"]
    assert sqlite_server.stored(created.room).moves == []


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"ply_cap": "0"}, "ply_cap"),  # a whole number given as text
        ({"ply_cap": True}, "ply_cap"),
        ({"ply_cap": 2.5}, "ply_cap"),
        ({"random_first": 1}, "random_first"),  # a switch given as a number
        ({"random_first": "true"}, "random_first"),
        ({"layout": 3}, "layout"),  # a choice of names given as a number
        ({"ply_cap": None}, "ply_cap"),  # null for an option whose default is a value
        ({"layout": ["diagram"]}, "layout"),  # a list where a name is asked for
        ({"layout": {"name": "diagram"}}, "layout"),
    ],
)
def test_game_options_of_the_wrong_type_are_refused_never_converted(
    sqlite_server: Harness, options: dict[str, Any], named: str
) -> None:
    response = sqlite_server.client.post("/api/rooms", json={"game": "towers", "seats": ["here", "here"], "options": options})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_option" and named in error["message"] and "takes" in error["message"]
    assert sqlite_server.client.get("/api/rooms").json() == []


def test_a_refused_option_shows_the_value_as_the_request_wrote_it(sqlite_server: Harness) -> None:
    body = {"game": "towers", "seats": ["here", "here"], "options": {"ply_cap": True}}
    message = sqlite_server.client.post("/api/rooms", json=body).json()["error"]["message"]
    assert message == "option ply_cap: true is a true-or-false value, but ply_cap takes a whole number from 0 to 1000000"


def test_game_options_of_their_own_type_are_taken(sqlite_server: Harness) -> None:
    created = sqlite_server.create("towers", ["here", "here"], options={"ply_cap": 200, "random_first": False})
    options = sqlite_server.client.get("/api/rooms").json()[0]["options"]
    assert options["ply_cap"] == 200 and options["random_first"] is False and created.room


def test_every_options_default_as_the_catalog_lists_it_is_taken_back(sqlite_server: Harness) -> None:
    # a client that sends the catalog's defaults back (Territories' expand_max_extent is null:
    # unbounded) makes a room of the game as it is, in every game
    for game in sqlite_server.client.get("/api/games").json():
        described = sqlite_server.client.get(f"/api/games/{game['id']}").json()
        defaults = {option["name"]: option["default"] for option in described["options"]}
        made = sqlite_server.client.post("/api/rooms", json={"game": game["id"], "options": defaults})
        assert made.status_code == 201, (game["id"], made.text)
    extent = {"game": "territories", "options": {"expand_max_extent": "[9, 8]"}}
    assert sqlite_server.client.post("/api/rooms", json=extent).status_code == 201


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_a_time_limit_that_is_not_a_finite_number_is_refused_as_such(sqlite_server: Harness, value: str) -> None:
    body = '{"game": "towers", "seats": ["here", "here"], "move_seconds": ' + value + "}"
    response = sqlite_server.client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"] == "move_seconds: Input should be a finite number"
    assert sqlite_server.client.get("/api/rooms").json() == []
