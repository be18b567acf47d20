"""Seat tokens and invite codes never reach a log: the page sends the token in the WebSocket's
first message (not the address, which the access log prints), an old client's ``?token=`` is
refused, and the addresses the log prints have their secrets hidden."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import websockets

from tests.support.serve import serve_process


async def watch_as(ws_url: str, token: str) -> dict[str, object]:
    """Connect as the page does and return the first state for the token's seat."""
    async with websockets.connect(ws_url, open_timeout=30) as socket:
        await socket.send(json.dumps({"type": "auth", "token": token, "seat": None}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 30))
            if message["type"] == "state" and message["your_seats"]:
                return message


async def refused_in_address(ws_url: str) -> tuple[dict[str, object], int | None]:
    async with websockets.connect(ws_url, open_timeout=30) as socket:
        error = json.loads(await asyncio.wait_for(socket.recv(), 30))
        await socket.wait_closed()
        return error, socket.close_code


def test_no_token_or_invite_code_reaches_the_access_log(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serve_process(tmp_path / "data", log, gentle_stop=True, options=["--log-level", "info"]) as (url, _process):
        with httpx.Client(base_url=url, timeout=30) as client:
            created = client.post("/api/rooms", json={"game": "towers", "seats": ["here", "invite"]}).json()
            room, token, code = created["room"], created["token"], created["invites"][0]["code"]
            assert client.get(created["invites"][0]["link"]).status_code == 200  # the invite page: ?invite=CODE
            guest = client.post(f"/api/rooms/{room}/join", json={"code": code}).json()["token"]
            state = client.get(f"/api/rooms/{room}", headers={"Authorization": f"Bearer {token}"}).json()
            assert state["your_seats"] == [0]
        ws_url = url.replace("http", "ws", 1) + f"/api/rooms/{room}/live"
        seated = asyncio.run(watch_as(ws_url, guest))
        assert seated["seat"] == 1
        error, close_code = asyncio.run(refused_in_address(f"{ws_url}?token={token}"))
        assert close_code == 4422 and error["error"]["code"] == "bad_request"  # type: ignore[index]
    text = log.read_text(errors="replace")
    assert "WebSocket /api/rooms/" in text and f"/rooms/{room}?invite=" in text, text[-2000:]  # the log was on
    for secret in (token, guest, code):
        assert secret not in text, f"a secret is in the log:\n{text[-2000:]}"


def test_at_debug_level_neither_frames_nor_addresses_show_a_token_however_it_is_written(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serve_process(tmp_path / "data", log, gentle_stop=True, options=["--log-level", "debug"]) as (url, _process):
        with httpx.Client(base_url=url, timeout=30) as client:
            created = client.post("/api/rooms", json={"game": "towers", "seats": ["here", "here"]}).json()
            room, token = created["room"], created["token"]
        ws_url = url.replace("http", "ws", 1) + f"/api/rooms/{room}/live"
        assert asyncio.run(watch_as(ws_url, token))["your_seats"] == [0, 1]  # the auth frame is logged at debug
        for name in ("Token", "%74oken", "TOKEN"):  # the same parameter to a server that reads it
            error, close_code = asyncio.run(refused_in_address(f"{ws_url}?{name}={token}"))
            assert close_code == 4422 and error["error"]["code"] == "bad_request", name  # type: ignore[index]
    text = log.read_text(errors="replace")
    assert "TEXT" in text and "auth" in text, text[-2000:]  # the frames were logged
    assert token not in text, f"a token is in the debug log:\n{text[-3000:]}"
