"""Bodies and WebSocket messages that Python's JSON parser would refuse with an error naming
nothing (or, on a socket, with a crash of its handler), or would read in another encoding than
the checks made before it, are refused first: ``bad_json`` with a message that names the problem
(a number too long, a body not in UTF-8), and the socket goes on."""

from __future__ import annotations

import pytest

from boardlab.server.limits import MAX_NUMBER_DIGITS
from tests.server.harness import Harness, watch

#: far past Python's own limit on converting an integer from text (4,300 digits)
HUGE = "9" * 5000
JSON = {"Content-Type": "application/json"}


def test_a_websocket_message_with_a_huge_number_is_refused_and_the_socket_goes_on(sqlite_server: Harness) -> None:
    room = sqlite_server.create("towers", ["here", "here"])
    with watch(sqlite_server.client, room.room) as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_text('{"type": "auth", "seat": ' + HUGE + "}")
        error = socket.receive_json()
        assert error["type"] == "error" and error["error"]["code"] == "bad_json", error
        assert f"number of more than {MAX_NUMBER_DIGITS} digits" in error["error"]["message"]
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}


@pytest.mark.parametrize(
    "number",
    [HUGE, "-" + HUGE, "1." + HUGE, "1" * (MAX_NUMBER_DIGITS + 1)],
    ids=["huge", "huge_negative", "huge_fraction", "one_digit_over"],
)
def test_a_body_with_a_number_too_long_is_refused_by_name(sqlite_server: Harness, number: str) -> None:
    body = '{"game": "towers", "seats": ["here", "here"], "move_seconds": ' + number + "}"
    answer = sqlite_server.client.post("/api/rooms", content=body.encode(), headers=JSON)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_json" and f"number of more than {MAX_NUMBER_DIGITS} digits" in error["message"]
    assert sqlite_server.client.get("/api/rooms").json() == []


def test_digits_in_a_text_are_no_number(sqlite_server: Harness) -> None:
    room = sqlite_server.create("towers", ["here", "here"])
    long_move = "1" * 150  # not the game's notation: the rules refuse it, not the parser
    answer = sqlite_server.move(room.room, room.token, long_move, 0)
    assert answer.status_code == 422 and answer.json()["error"]["code"] != "bad_json", answer.text


def test_a_body_not_in_utf8_is_refused_by_name(sqlite_server: Harness) -> None:
    latin1 = '{"game": "towers", "names": ["Zoë", null]}'.encode("latin-1")
    answer = sqlite_server.client.post("/api/rooms", content=latin1, headers=JSON)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_json" and "not UTF-8" in error["message"]
    assert f"byte 0xeb at position {latin1.index(0xEB)}" in error["message"]
    assert sqlite_server.create("towers", names=["Zoë", None]).state["seats"][0]["name"] == "Zoë"  # in UTF-8 it passes


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16", "utf-32"])
def test_json_in_utf16_or_utf32_is_refused_before_it_is_parsed(sqlite_server: Harness, encoding: str) -> None:
    room = '{"game": "towers", "seats": ["here", "here"]}'.encode(encoding)
    answer = sqlite_server.client.post("/api/rooms", content=room, headers=JSON)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad_json" and "not UTF-8" in answer.json()["error"]["message"]
    assert sqlite_server.client.get("/api/rooms").json() == []
    # nesting that the depth check, reading bytes as UTF-8, would not see in UTF-16
    deep = '{"game":"towers","options":{"x":["\u2200",' + "[" * 5000 + '"y"' + "]" * 5000 + "]}}"
    answer = sqlite_server.client.post("/api/rooms", content=deep.encode(encoding), headers=JSON)
    assert answer.status_code == 400 and "not UTF-8" in answer.json()["error"]["message"], answer.text
