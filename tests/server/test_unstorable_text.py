"""Text that no storage can keep (U+0000, which PostgreSQL's text refuses, and lone surrogates,
which have no UTF-8 form) is refused in every text field a request carries, with 422
``bad_text``, on both storages, before anything is stored or logged as a failure."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from tests.server.harness import Harness, auth

#: storage itself is under test: on SQLite and on PostgreSQL
pytestmark = pytest.mark.both_databases

NUL = "a\x00b"


def raw(body: dict[str, Any]) -> bytes:
    """JSON as bytes with every non-ASCII character escaped (a lone surrogate has no UTF-8 form)."""
    return json.dumps(body, ensure_ascii=True).encode("ascii")


def refused(response: Any, *words: str) -> None:
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_text", error
    assert "cannot be stored" in error["message"]
    for word in words:
        assert word in error["message"], error


@pytest.mark.parametrize("bad", [NUL, "a\ud800b", "\udfff"])
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "towers", "names": ["BAD", "Bob"]}, "names.0"),
        ({"game": "towers", "options": {"layout": "BAD"}}, "options.layout"),
        ({"game": "towers", "options": {"BAD": "diagram"}}, "options"),
        ({"game": "towers", "seats": ["here", "BAD"]}, "seats.1"),
        ({"game": "BAD"}, "game"),
    ],
)
def test_a_new_rooms_text_is_refused(
    server: Harness, caplog: pytest.LogCaptureFixture, bad: str, body: dict[str, Any], field: str
) -> None:
    body = json.loads(json.dumps(body).replace("BAD", json.dumps(bad)[1:-1]))
    with caplog.at_level(logging.WARNING, logger="boardlab"):
        response = server.client.post("/api/rooms", content=raw(body), headers={"Content-Type": "application/json"})
    refused(response, field)
    assert server.client.get("/api/rooms").json() == []
    assert not caplog.records  # a refusal, not a storage failure


@pytest.mark.parametrize("bad", [NUL, "x\ud800"])
def test_moves_joins_and_listings_refuse_it_too(server: Harness, bad: str) -> None:
    created = server.create("towers", ["here", "invite"])
    code = created.invites[0]["code"]
    join = {"Content-Type": "application/json"}
    refused(server.client.post(f"/api/rooms/{created.room}/join", content=raw({"code": code, "name": bad}), headers=join), "name")
    refused(server.client.post(f"/api/rooms/{created.room}/join", content=raw({"code": bad}), headers=join), "code")
    guest = server.join(created.room, code).json()  # the code is still unused
    assert guest["seat"] == 1, guest
    state = server.state(created.room, created.token)
    move = raw({"move": state["legal_moves"][0]["notation"] + bad, "ply": state["ply"]})
    refused(server.client.post(f"/api/rooms/{created.room}/moves", content=move, headers={**join, **auth(created.token)}), "move")
    assert server.stored(created.room).moves == []


def test_a_listing_for_a_game_named_with_nul_is_refused(server: Harness) -> None:
    server.create("towers")
    refused(server.client.get("/api/rooms?game=a%00b"), "game")
    assert len(server.client.get("/api/rooms?game=towers").json()) == 1


def test_a_websocket_token_with_a_lone_surrogate_is_refused_and_the_connection_stays(server: Harness) -> None:
    created = server.create("towers", ["here", "here"])
    with server.client.websocket_connect(f"/api/rooms/{created.room}/live") as socket:
        assert socket.receive_json()["seat"] is None
        socket.send_text(json.dumps({"type": "auth", "token": "x\ud800"}))
        error = socket.receive_json()
        assert error["type"] == "error" and error["error"]["code"] == "bad_text"
        socket.send_text(json.dumps({"type": "ping"}))
        assert socket.receive_json() == {"type": "pong"}
