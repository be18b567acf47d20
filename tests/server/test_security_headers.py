"""Every answer carries the headers a page on the open internet needs: a Content-Security-Policy
that allows only the server's own scripts, no framing, no MIME sniffing, no referrer (a room's
address can hold its invite code)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardlab.server.settings import STATIC_DIR
from tests.server.harness import Harness, make_harness


@pytest.fixture
def with_pages(tmp_path: Path) -> Iterator[Harness]:
    with make_harness(f"sqlite:///{tmp_path / 'boardlab.sqlite3'}", tmp_path, static_dir=STATIC_DIR) as harness:
        yield harness


def assert_hardened(headers: object, what: str) -> str:
    for name, value in (("X-Frame-Options", "DENY"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")):
        assert headers.get(name) == value, (what, name, headers)  # type: ignore[attr-defined]
    policy = headers.get("Content-Security-Policy")  # type: ignore[attr-defined]
    assert policy and "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, (what, policy)
    return str(policy)


def test_pages_api_answers_and_refusals_all_carry_the_headers(with_pages: Harness) -> None:
    client = with_pages.client
    created = with_pages.create("towers", ["here", "here"])
    answers = {
        "the lobby": client.get("/"),
        "a room's page": client.get(f"/rooms/{created.room}"),
        "a script": client.get("/js/play.js"),
        "a renderer": client.get("/games/towers/web/renderer.js"),
        "the catalog": client.get("/api/games"),
        "a state": client.get(f"/api/rooms/{created.room}"),
        "an unknown route": client.get("/api/nothing"),
        "a bad body": client.post("/api/rooms", json={"game": "towers", "players": "2"}),
        "a body too large": client.post("/api/rooms", content=b"x" * (65 * 1024), headers={"Content-Type": "application/json"}),
        "a missing token": client.post(f"/api/rooms/{created.room}/resign", json={}),
    }
    for what, response in answers.items():
        policy = assert_hardened(response.headers, what)
        if what != "the lobby":
            continue
        # the pages run only the server's own scripts: nothing inline, nothing from elsewhere
        assert "script-src 'self';" in policy and "unsafe-eval" not in policy
    assert answers["a body too large"].status_code == 413
    assert answers["the lobby"].status_code == 200 and answers["a room's page"].status_code == 200


def test_an_internal_error_carries_them_too(with_pages: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*_args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(with_pages.app.state.service, "list_rooms", broken)
    response = TestClient(with_pages.app, raise_server_exceptions=False).get("/api/rooms")
    assert response.status_code == 500 and response.json()["error"]["code"] == "internal_error"
    assert_hardened(response.headers, "an internal error")


def test_the_api_pages_may_load_their_cdn_scripts(with_pages: Harness) -> None:
    policy = assert_hardened(with_pages.client.get("/docs").headers, "/docs")
    assert "https://cdn.jsdelivr.net" in policy
    page = assert_hardened(with_pages.client.get("/").headers, "/")
    assert "cdn.jsdelivr.net" not in page
