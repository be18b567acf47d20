"""Every costly thing a client can ask has a limit or is shared: readings in a bucket per
address, listings, the catalog and the rules pages made once for everybody (whatever query an
address adds), a cap on a room's spectators (never on its players), and bodies or messages nested
too deep refused before they are parsed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketDisconnect

from boardlab.server.routers import catalog as catalog_module
from boardlab.server.routers import lessons as lessons_module
from boardlab.server.routers import pages as pages_module
from boardlab.server.rows import Change
from boardlab.server.settings import STATIC_DIR
from boardlab.server.web import find_rules_dir
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


def counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[object]:
    """Count the calls of ``module.name`` (a function the routes look up at each request)."""
    calls: list[object] = []
    real = getattr(module, name)

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_shared_answer_is_made_once_whatever_query_an_address_adds(server: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    catalogs = counting(monkeypatch, catalog_module, "catalog")
    lessons = counting(monkeypatch, lessons_module, "load_lesson")
    first = server.client.get("/api/games")
    for number in range(10):  # a query no route reads: each would otherwise make the answer again
        again = server.client.get("/api/games", params={"v": str(number)})
        assert again.status_code == 200 and again.json() == first.json()
        assert server.client.get("/api/games/towers/lesson", params={"v": str(number)}).status_code == 200
    assert len(catalogs) == 1 and len(lessons) == 1


@pytest.fixture
def rules_pages(tmp_path: Path) -> Iterator[tuple[Harness, Path]]:
    """A server with the browser pages, on a copy of the rules documents (for a test to edit)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    source = find_rules_dir()
    assert source is not None
    for document in source.glob("*.md"):
        (rules / document.name).write_bytes(document.read_bytes())
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, static_dir=STATIC_DIR, rules_dir=rules) as harness:
        yield harness, rules


def test_a_rules_page_is_built_once_per_game_and_part(rules_pages: tuple[Harness, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    server, _rules = rules_pages
    renders = counting(monkeypatch, pages_module, "render_rules")
    pages = {path: server.client.get(path) for path in ("/rules/honor", "/rules/honor/programs")}
    assert [page.status_code for page in pages.values()] == [200, 200] and len(renders) == 2
    for number in range(5):
        for path, page in pages.items():
            again = server.client.get(path, params={"v": str(number)})
            assert again.status_code == 200 and again.text == page.text
            assert again.headers["content-security-policy"] and again.headers["cache-control"] == "no-cache"
    assert len(renders) == 2
    assert server.client.get("/rules/nosuchgame").status_code == 404


def test_an_edited_rules_document_is_built_again(rules_pages: tuple[Harness, Path]) -> None:
    server, rules = rules_pages
    assert "A line added since" not in server.client.get("/rules/towers").text
    document = rules / "towers.md"
    text = document.read_text(encoding="utf-8")
    document.write_text(text.replace("\n\n", "\n\nA line added since.\n\n", 1), encoding="utf-8")
    changed = document.stat().st_mtime_ns + 1_000_000_000  # a clock too coarse to tell the two writes apart
    os.utime(document, ns=(changed, changed))
    assert "A line added since" in server.client.get("/rules/towers").text


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


def test_a_finished_room_read_again_is_not_rebuilt_unless_storage_holds_a_newer_revision(
    server: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = server.create("towers", ["here", "invite"], names=["Ann", "Bo"])
    joined = server.join(created.room, created.invites[0]["code"])
    assert joined.status_code == 200, joined.text
    tokens = [created.token, joined.json()["token"]]
    for _ in range(6):  # a few moves, so that rebuilding it replays a game, then the end
        mover = tokens[server.state(created.room)["to_move"]]
        state = server.state(created.room, mover)
        moved = server.move(created.room, mover, state["legal_moves"][0]["notation"], state["ply"])
        assert moved.status_code == 200, moved.text
    assert server.act(created.room, created.token, "resign").json()["status"] == "finished"
    assert server.live_room(created.room) is None  # nobody watches it: it left the rooms in memory
    loaded: list[str] = []
    load_room = server.storage.load_room
    monkeypatch.setattr(server.storage, "load_room", lambda room, *rest: loaded.append(room) or load_room(room, *rest))
    first = server.state(created.room)
    for _ in range(4):
        assert server.state(created.room) == first
    assert loaded == []  # read five times, rebuilt from storage none
    # a change made outside this process (a rematch offer, as another process on the database
    # stores it) moves the room's revision on: the next read sees it, rebuilt once
    stored = load_room(created.room)
    assert stored is not None
    offer = {"rematch": {"by": 1, "status": "open", "answers": {}, "room": None, "offered": 0.0}}
    server.storage.commit(Change(created.room, stored.room.revision, len(stored.moves), (), {"pending": offer}, takes_back=False))
    after = server.state(created.room)
    assert loaded == [created.room] and after["revision"] == first["revision"] + 1
