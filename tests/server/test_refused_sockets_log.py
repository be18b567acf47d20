"""A WebSocket the server refuses (an unknown room, a room full of spectators) whose client is
already gone when the refusal is sent costs a line at most, never a traceback: a stranger
opening and dropping sockets must not fill the operator's log."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import websockets

from tests.support.serve import serve_process


async def open_and_drop(ws_url: str, times: int) -> None:
    for _ in range(times):
        socket = await websockets.connect(ws_url, open_timeout=30)
        socket.transport.abort()  # gone before the server's refusal reaches it


def test_sockets_dropped_before_their_refusal_leave_no_traceback_in_the_log(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serve_process(tmp_path / "data", log, gentle_stop=True) as (url, _process):
        asyncio.run(open_and_drop(url.replace("http", "ws", 1) + "/api/rooms/nosuchroom/live", 5))
        time.sleep(1.0)  # the server's side of the refusals runs after the client has gone
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "Exception in ASGI application" not in text, text[-3000:]
