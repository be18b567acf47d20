"""The WebSocket per room: the state at once on connecting (and reconnecting), every change
after it, each client seeing only its own seat's view."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.server.harness import Harness, watch


def test_watchers_get_the_state_at_once_and_every_change_as_their_seat_sees_it(server: Harness) -> None:
    created = server.create("towers", ["here", "invite"])
    guest = server.join(created.room, created.invites[0]["code"]).json()["token"]
    with (
        watch(server.client, created.room, created.token) as host,
        watch(server.client, created.room, guest) as visitor,
        watch(server.client, created.room) as spectator,
    ):
        first = host.receive_json()
        assert first["type"] == "state" and first["seat"] == 0 and first["legal_moves"]
        waiting = visitor.receive_json()
        assert waiting["seat"] == 1 and waiting["legal_moves"] == []
        watching = spectator.receive_json()
        assert watching["seat"] is None and watching["legal_moves"] == []
        text = first["legal_moves"][0]["notation"]
        server.move(created.room, created.token, text, first["ply"])
        moved = [client.receive_json() for client in (host, visitor, spectator)]
        assert [message["ply"] for message in moved] == [1, 1, 1]
        assert [message["seat"] for message in moved] == [0, 1, None]
        assert moved[1]["legal_moves"] and not moved[0]["legal_moves"] and not moved[2]["legal_moves"]
        assert all(message["log"][-1]["text"] == text for message in moved)


def test_a_reconnecting_client_gets_the_current_state_at_once(server: Harness) -> None:
    created = server.create("towers", ["here", "here"])
    with watch(server.client, created.room, created.token) as first:
        assert first.receive_json()["ply"] == 0
    state = server.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0).json()
    with watch(server.client, created.room, created.token) as again:
        message = again.receive_json()
        assert message["ply"] == 1 and message["revision"] == state["revision"] and message["seat"] == 1


def test_the_computers_move_arrives_without_asking(server: Harness) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    with watch(server.client, created.room, created.token) as watcher:
        watcher.receive_json()
        server.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0)
        seen = watcher.receive_json()
        log = seen["log"]
        while seen["ply"] < 2:
            seen = watcher.receive_json()
            log = log[: seen["log_start"]] + seen["log"]
        assert [entry["by"] for entry in log] == [0, 1] and seen["legal_moves"] and not seen["thinking"]


def test_a_token_sent_in_a_message_turns_a_spectator_into_its_seat(server: Harness) -> None:
    created = server.create("towers", ["here", "invite"])
    guest = server.join(created.room, created.invites[0]["code"]).json()["token"]
    with watch(server.client, created.room) as socket:
        assert socket.receive_json()["seat"] is None
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
        socket.send_json({"type": "auth", "token": guest})
        assert socket.receive_json()["seat"] == 1
        socket.send_json({"type": "auth", "token": "wrong"})
        assert socket.receive_json()["error"]["code"] == "bad_token"
        socket.send_text("{not json")
        assert socket.receive_json()["error"]["code"] == "bad_json"
        socket.send_json({"type": "move", "move": "f1+"})
        assert socket.receive_json()["error"]["code"] == "bad_request"
        socket.send_json({"type": "auth", "token": created.token, "seat": 1})
        assert socket.receive_json()["error"]["code"] == "not_your_seat"
        # the refusals left the connection as it was: still seat 1's
        host = server.state(created.room, created.token)
        server.move(created.room, created.token, host["legal_moves"][0]["notation"], host["ply"])
        assert socket.receive_json()["seat"] == 1


@pytest.mark.parametrize(
    ("room_kind", "query", "code", "close"), [("none", "", "unknown_room", 4404), ("real", "?token=T", "bad_request", 4422)]
)
def test_an_unknown_room_or_a_token_in_the_address_closes_the_socket_with_the_error(
    server: Harness, room_kind: str, query: str, code: str, close: int
) -> None:
    created = server.create("towers", ["here", "here"])
    room = created.room if room_kind == "real" else "nosuchroom"
    query = query.replace("T", str(created.token))
    with server.client.websocket_connect(f"/api/rooms/{room}/live{query}") as socket:
        error = socket.receive_json()["error"]
        assert error["code"] == code
        if query:
            assert "first message" in error["message"] and str(created.token) not in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == close


def test_the_log_comes_as_a_delta_after_the_first_message(server: Harness) -> None:
    created = server.create("towers", ["here", "here"])
    with watch(server.client, created.room, created.token) as socket:
        assert socket.receive_json()["log_start"] == 0
        state = created.state
        texts = []
        for _ in range(3):
            texts.append(state["legal_moves"][0]["notation"])
            state = server.move(created.room, created.token, texts[-1], state["ply"]).json()
            message = socket.receive_json()
            assert message["log_start"] == len(texts) - 1 and [entry["text"] for entry in message["log"]] == texts[-1:]
        server.act(created.room, created.token, "undo", {"revision": state["revision"]})
        undone = socket.receive_json()
        assert undone["log_start"] == 2 and undone["log"] == []
        assert state["log_start"] == 0 and len(state["log"]) == 3  # HTTP answers carry the whole log
