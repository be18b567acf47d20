"""A WebSocket's messages have a budget: each socket its own, and the sockets of one address one
together. A message over it is refused unread (``rate_limited``), a socket that keeps sending
is closed with 4429, and another address's sockets are answered as before. An ``auth`` that
changes nothing builds no state (docs/server.md, "The WebSocket")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from boardlab.server import service as service_module
from boardlab.server import watching as watching_module
from boardlab.server.routers.live import FLOOD_REFUSALS
from tests.server.harness import Harness, make_harness, watch

ATTACKER = {"X-Forwarded-For": "203.0.113.66"}
VISITOR = {"X-Forwarded-For": "198.51.100.7"}


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Harness]:
    overrides: dict[str, Any] = {"trusted_proxies": ("testclient",), **getattr(request, "param", {})}
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, **overrides) as harness:
        yield harness


def ping(socket: WebSocketTestSession) -> dict[str, Any]:
    socket.send_json({"type": "ping"})
    answer: dict[str, Any] = socket.receive_json()
    return answer


@pytest.mark.parametrize("server", [{"messages_per_socket_per_minute": 5}], indirect=True)
def test_a_socket_over_its_budget_is_refused_then_closed_when_it_keeps_on(server: Harness) -> None:
    room = server.create("towers", ["here", "here"])
    with server.client.websocket_connect(f"/api/rooms/{room.room}/live", headers=ATTACKER) as socket:
        socket.receive_json()
        assert [ping(socket) for _ in range(5)] == [{"type": "pong"}] * 5
        refused = ping(socket)["error"]
        assert refused["code"] == "rate_limited" and "try again in" in refused["message"]
        for _ in range(FLOOD_REFUSALS - 2):
            assert ping(socket)["error"]["code"] == "rate_limited"
        last = ping(socket)["error"]
        assert last["code"] == "rate_limited" and "closed" in last["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4429
        # another address's socket is answered as before
        with server.client.websocket_connect(f"/api/rooms/{room.room}/live", headers=VISITOR) as other:
            assert other.receive_json()["type"] == "state"
            assert ping(other) == {"type": "pong"}


@pytest.mark.parametrize("server", [{"messages_per_minute": 6}], indirect=True)
def test_the_sockets_of_one_address_share_one_budget(server: Harness) -> None:
    room = server.create("towers", ["here", "here"])
    path = f"/api/rooms/{room.room}/live"
    with (
        server.client.websocket_connect(path, headers=ATTACKER) as first,
        server.client.websocket_connect(path, headers=ATTACKER) as second,
        server.client.websocket_connect(path, headers=VISITOR) as visitor,
    ):
        for socket in (first, second, visitor):
            socket.receive_json()
        for _ in range(3):
            assert ping(first) == ping(second) == {"type": "pong"}
        assert ping(first)["error"]["code"] == "rate_limited"
        assert ping(second)["error"]["code"] == "rate_limited"
        assert ping(visitor) == {"type": "pong"}


def test_an_auth_that_changes_nothing_builds_no_state_and_sends_the_same_one_again(
    server: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = server.create("towers", ["here", "here"])
    state = room.state
    for _ in range(2):
        state = server.move(room.room, room.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    built: list[object] = []
    real = service_module.state_message

    def counted(*args: Any) -> Any:
        built.append(args)
        return real(*args)

    with watch(server.client, room.room, room.token) as socket:
        first = socket.receive_json()
        assert first["seat"] == 0 and len(first["log"]) == 2
        monkeypatch.setattr(service_module, "state_message", counted)
        monkeypatch.setattr(watching_module, "state_message", counted)
        for _ in range(20):
            socket.send_json({"type": "auth", "token": room.token, "seat": None})
            again = socket.receive_json()
            # the page starts its log afresh on an auth: the whole state comes again
            assert again == first
        assert built == []
        # another seat (or none) is a change: its state is built
        socket.send_json({"type": "auth", "token": None, "seat": None})
        assert socket.receive_json()["seat"] is None
        assert len(built) == 1
        # and the deltas go on from the state last sent
        moved = server.move(room.room, room.token, state["legal_moves"][0]["notation"], state["ply"]).json()
        delta = socket.receive_json()
        assert delta["ply"] == moved["ply"] and delta["log_start"] == 2 and len(delta["log"]) == 1


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ([1, 2], "a message is a JSON object with a 'type': auth or ping (moves go to POST .../moves)"),
        ({"kind": "ping"}, "a message needs a 'type': auth or ping (moves go to POST .../moves)"),
        ({"type": "move"}, 'unknown message type "move": send auth or ping (moves go to POST .../moves)'),
    ],
)
def test_a_message_of_no_known_type_is_answered_with_what_a_message_is(
    server: Harness, message: Any, answer: str
) -> None:
    room = server.create("towers", ["here", "here"])
    with server.client.websocket_connect(f"/api/rooms/{room.room}/live") as socket:
        socket.receive_json()
        socket.send_json(message)
        assert socket.receive_json()["error"]["message"] == answer
        assert ping(socket) == {"type": "pong"}  # the socket stays open
