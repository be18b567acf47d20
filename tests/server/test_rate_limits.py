"""Limits per client address: rooms, actions, WebSockets and open requests each get
``429 rate_limited`` with ``Retry-After``; X-Forwarded-For counts only from a trusted proxy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse

from boardlab.server.ratelimits import AddressLimits, Bucket, client_address
from tests.server.harness import Harness, make_harness

OFF = {
    "rooms_per_minute": 0,
    "rooms_per_day": 0,
    "moves_per_minute": 0,
    "websockets_per_minute": 0,
    "analyses_per_minute": 0,
    "reads_per_minute": 0,
    "max_open_per_address": 0,
}


@pytest.fixture
def limited(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Harness]:
    overrides: dict[str, Any] = {**OFF, **getattr(request, "param", {})}
    with make_harness(f"sqlite:///{tmp_path / 'b.sqlite3'}", tmp_path, **overrides) as server:
        yield server


def assert_limited(response: Any) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1


@pytest.mark.parametrize("limited", [{"rooms_per_minute": 3}], indirect=True)
def test_room_creation_per_address(limited: Harness) -> None:
    for _ in range(3):
        limited.create("towers", ["here", "here"])
    refused = limited.client.post("/api/rooms", json={"game": "towers", "seats": ["here", "here"]})
    assert_limited(refused)
    assert int(refused.headers["Retry-After"]) <= 20  # a token comes back every 20 s at 3 a minute
    assert limited.client.get("/api/rooms").status_code == 200  # reading is not creating


@pytest.mark.parametrize("limited", [{"rooms_per_day": 3}], indirect=True)
def test_room_creation_per_address_in_a_day(limited: Harness) -> None:
    # storage keeps every room: a minute's rate kept up all day is bounded by a day's allowance
    for _ in range(3):
        limited.create("towers", ["here", "here"])
    refused = limited.client.post("/api/rooms", json={"game": "towers", "seats": ["here", "here"]})
    assert_limited(refused)
    assert "made 3 new rooms in a day, this server's most; try again in 8 h" in refused.json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) >= 8 * 3600 - 60  # a room's allowance comes back every 8 h at 3 a day


def test_a_refusal_for_the_minute_leaves_the_days_allowance() -> None:
    now = [0.0]
    limits = AddressLimits({"rooms": 1}, 0, lambda: now[0], per_day={"rooms": 2})
    assert limits.take("a", "rooms") == 0.0
    limits.done("a")
    assert limits.take("a", "rooms") > 0  # the minute's one room is made
    now[0] = 60.0
    assert limits.take("a", "rooms") == 0.0  # the refusal above spent nothing of the day's two
    limits.done("a")
    now[0] = 120.0
    assert limits.take("a", "rooms") > 3600 and limits.refused_for_the_day("a", "rooms")


def test_an_ipv6_client_is_counted_by_its_network() -> None:
    def scope(peer: str) -> dict[str, Any]:
        return {"type": "http", "client": (peer, 1), "headers": []}

    none: frozenset[str] = frozenset()
    # every address of one /64 is one client: each of them apart would be an allowance of its own
    assert client_address(scope("2001:db8:1:2::1"), none) == client_address(scope("2001:db8:1:2:ffff::9"), none)
    assert client_address(scope("2001:db8:1:2::1"), none) == "2001:db8:1:2::/64"
    assert client_address(scope("2001:db8:1:3::1"), none) != "2001:db8:1:2::/64"
    assert client_address(scope("::ffff:192.0.2.7"), none) == "192.0.2.7"
    assert client_address(scope("192.0.2.7"), none) == "192.0.2.7"
    assert client_address(scope("testclient"), none) == "testclient"


@pytest.mark.parametrize("limited", [{"moves_per_minute": 4}], indirect=True)
def test_moves_per_address(limited: Harness) -> None:
    room = limited.create("towers", ["here", "here"])
    state = room.state
    for _ in range(4):
        state = limited.move(room.room, room.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    assert_limited(limited.move(room.room, room.token, state["legal_moves"][0]["notation"], state["ply"]))
    assert limited.state(room.room, room.token)["ply"] == 4  # the refused move changed nothing


@pytest.mark.parametrize("limited", [{"websockets_per_minute": 2}], indirect=True)
def test_websockets_per_address(limited: Harness) -> None:
    room = limited.create("towers", ["here", "here"])
    for _ in range(2):
        with limited.client.websocket_connect(f"/api/rooms/{room.room}/live") as socket:
            assert socket.receive_json()["type"] == "state"
    with pytest.raises(WebSocketDenialResponse) as refused, limited.client.websocket_connect(f"/api/rooms/{room.room}/live"):
        pass
    assert_limited(refused.value)


@pytest.mark.parametrize("limited", [{"max_open_per_address": 2}], indirect=True)
def test_open_connections_per_address(limited: Harness) -> None:
    room = limited.create("towers", ["here", "here"])
    with limited.client.websocket_connect(f"/api/rooms/{room.room}/live") as first:
        first.receive_json()
        with limited.client.websocket_connect(f"/api/rooms/{room.room}/live") as second:
            second.receive_json()
            assert_limited(limited.client.get(f"/api/rooms/{room.room}"))
    assert limited.client.get(f"/api/rooms/{room.room}").status_code == 200  # closed: open again


@pytest.mark.parametrize("limited", [{"rooms_per_minute": 1, "trusted_proxies": ("testclient",)}], indirect=True)
def test_a_trusted_proxy_names_the_client(limited: Harness) -> None:
    body = {"game": "towers", "seats": ["here", "here"]}
    # the proxy appends the address it saw: what comes before it is the client's own say
    for client in ("10.0.0.1", "10.0.0.2"):
        assert limited.client.post("/api/rooms", json=body, headers={"X-Forwarded-For": f"6.6.6.6, {client}"}).status_code == 201
    assert_limited(limited.client.post("/api/rooms", json=body, headers={"X-Forwarded-For": "7.7.7.7, 10.0.0.1"}))


@pytest.mark.parametrize("limited", [{"rooms_per_minute": 1, "trusted_proxies": ("192.0.2.1",)}], indirect=True)
def test_x_forwarded_for_from_anyone_else_is_ignored(limited: Harness) -> None:
    body = {"game": "towers", "seats": ["here", "here"]}
    assert limited.client.post("/api/rooms", json=body, headers={"X-Forwarded-For": "10.0.0.1"}).status_code == 201
    assert_limited(limited.client.post("/api/rooms", json=body, headers={"X-Forwarded-For": "10.0.0.2"}))


def test_the_last_hop_only_from_a_trusted_peer() -> None:
    def scope(peer: str, forwarded: str) -> dict[str, Any]:
        return {"type": "http", "client": (peer, 1), "headers": [(b"x-forwarded-for", forwarded.encode())]}

    trusted = frozenset({"127.0.0.1"})
    assert client_address(scope("127.0.0.1", "1.1.1.1, 2.2.2.2"), trusted) == "2.2.2.2"
    assert client_address(scope("127.0.0.1", ""), trusted) == "127.0.0.1"
    assert client_address(scope("3.3.3.3", "2.2.2.2"), trusted) == "3.3.3.3"
    # a port (or an IPv6 address's brackets) that a proxy writes is not part of the client
    assert client_address(scope("127.0.0.1", "9.9.9.3:1234"), trusted) == "9.9.9.3"
    assert client_address(scope("127.0.0.1", "[2001:db8:1::1]:443"), trusted) == "2001:db8:1::/64"
    assert client_address(scope("127.0.0.1", "[2001:db8:1::2]"), trusted) == "2001:db8:1::/64"
    assert client_address(scope("127.0.0.1", "2001:db8:1::3"), trusted) == "2001:db8:1::/64"


def test_a_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    limits = AddressLimits({"rooms": 2}, 0, lambda: now[0])
    assert limits.take("a", "rooms") == 0 and limits.take("a", "rooms") == 0
    wait = limits.take("a", "rooms")
    assert wait == pytest.approx(30.0)  # 2 a minute: one every 30 s
    assert limits.take("b", "rooms") == 0  # another address has its own bucket
    now[0] = 30.0
    assert limits.take("a", "rooms") == 0
    assert Bucket(2, 0, 0).full(60.0)


def test_a_half_sent_body_is_refused_in_time() -> None:
    """A body that stops half-way gets 408 body_timeout instead of holding the request open."""
    import asyncio
    import json

    from boardlab.server.limits import BodyLimit

    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    async def scenario() -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        parts = [{"type": "http.request", "body": b'{"mo', "more_body": True}]

        async def receive() -> dict[str, Any]:
            if parts:
                return parts.pop()
            await asyncio.sleep(60)  # the rest never comes
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/rooms", "headers": []}
        await asyncio.wait_for(BodyLimit(app, 1024, seconds=0.2)(scope, receive, send), 5)
        return sent

    sent = asyncio.run(scenario())
    assert not reached and sent[0]["status"] == 408
    assert json.loads(sent[1]["body"])["error"]["code"] == "body_timeout"


@pytest.mark.parametrize("limited", [{"rooms_per_day": 3}], indirect=True)
def test_refused_room_requests_leave_the_days_allowance(limited: Harness) -> None:
    # the day's allowance bounds what storage keeps: a client's mistakes spend none of it
    for body in ({"game": "chess"}, {"game": "towers", "options": {"layout": "nonsense"}}, {"game": 3}) * 3:
        assert limited.client.post("/api/rooms", json=body).status_code in (404, 422)
    for _ in range(3):
        limited.create("towers", ["here", "here"])
    refused = limited.client.post("/api/rooms", json={"game": "towers", "seats": ["here", "here"]})
    assert_limited(refused)
    assert "made 3 new rooms in a day" in refused.json()["error"]["message"]
