"""Every costly thing a client can ask has a limit or is shared: readings in a bucket per
address, listings and the catalog made once for everybody, a cap on a room's spectators (never
on its players), and bodies or messages nested too deep refused before they are parsed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketDisconnect

from boardlab.server.routers import catalog as catalog_module
from tests.server.harness import Harness, make_harness, watch


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Harness]:
    overrides: dict[str, Any] = getattr(request, "param", {})
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, **overrides) as harness:
        yield harness


@pytest.mark.parametrize("server", [{"reads_per_minute": 5}], indirect=True)
def test_every_reading_draws_on_a_bucket_of_the_address(server: Harness) -> None:
    room = server.create("towers", ["here", "here"])
    paths = ["/api/rooms", f"/api/rooms/{room.room}", "/api/games", "/api/games/towers/lesson", "/api/rooms"]
    assert [server.client.get(path).status_code for path in paths] == [200] * 5
    refused = server.client.get("/api/rooms")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert "pages and readings" in refused.json()["error"]["message"] and int(refused.headers["Retry-After"]) >= 1
    # acting is another bucket: the reader may still move
    assert server.move(room.room, room.token, room.state["legal_moves"][0]["notation"], 0).status_code == 200


def test_a_listing_is_read_from_storage_once_for_everybody_but_shows_a_new_room_at_once(
    server: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[object] = []
    real = server.storage.list_rooms

    def counted(*args: Any) -> Any:
        reads.append(args)
        return real(*args)

    monkeypatch.setattr(server.storage, "list_rooms", counted)
    for _ in range(20):
        assert server.client.get("/api/rooms").json() == []
    assert len(reads) == 1
    made = server.create("towers", ["here", "here"])
    assert [entry["room"] for entry in server.client.get("/api/rooms").json()] == [made.room]
    server.act(made.room, made.token, "resign")  # its status changes: the finished listing shows it at once
    assert [entry["room"] for entry in server.client.get("/api/rooms", params={"status": "finished"}).json()] == [made.room]


def test_the_catalog_is_made_once_and_shared(server: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    real = catalog_module.catalog

    def counted() -> Any:
        made.append(1)
        return real()

    monkeypatch.setattr(catalog_module, "catalog", counted)
    first = server.client.get("/api/games")
    for _ in range(10):
        again = server.client.get("/api/games")
        assert again.status_code == 200 and again.json() == first.json()
        assert again.headers["content-security-policy"]  # the shared answer still carries every header
    assert len(made) == 1
    assert server.client.get("/api/games/nosuchgame").status_code == 404  # refusals are not kept


@pytest.mark.parametrize("server", [{"max_spectators_per_room": 2}], indirect=True)
def test_a_rooms_spectators_are_capped_and_its_players_always_let_in(server: Harness) -> None:
    room = server.create("towers", ["here", "here"])
    with watch(server.client, room.room) as first, watch(server.client, room.room) as second:
        assert first.receive_json()["type"] == "state" and second.receive_json()["type"] == "state"
        with server.client.websocket_connect(f"/api/rooms/{room.room}/live") as third:
            error = third.receive_json()
            assert error["type"] == "error" and error["error"]["code"] == "too_many_spectators"
            third.send_json({"type": "auth", "token": None})  # still a spectator: closed
            assert third.receive_json()["error"]["code"] == "too_many_spectators"
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 4429
        with server.client.websocket_connect(f"/api/rooms/{room.room}/live") as player:
            assert player.receive_json()["error"]["code"] == "too_many_spectators"
            player.send_json({"type": "auth", "token": room.token, "seat": None})
            state = player.receive_json()
            assert state["type"] == "state" and state["your_seats"] == [0, 1]


def test_json_nested_too_deep_is_refused_before_it_is_parsed(server: Harness) -> None:
    room = server.create("towers", ["here", "here"])
    deep = "[" * 10_000 + "]" * 10_000
    answer = server.client.post(
        f"/api/rooms/{room.room}/moves", content=deep, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_json"
    with watch(server.client, room.room) as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_text('{"type": "auth", "token": ' + "[" * 10_000 + "]" * 10_000 + "}")
        error = socket.receive_json()
        assert error["error"]["code"] == "bad_json" and "deep" in error["error"]["message"]
        socket.send_json({"type": "ping"})  # the socket goes on
        assert socket.receive_json() == {"type": "pong"}
    # brackets inside a string are text, not nesting
    bracketed = {"game": "towers", "names": ["[" * 40, "x"], "seats": ["here", "here"]}
    assert server.client.post("/api/rooms", json=bracketed).status_code == 201
