"""The request-size and request-time limits, enforced before anything parses a body."""

from __future__ import annotations

import asyncio

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ERROR_STATUS, error_body


class BodyLimit:
    """ASGI middleware: a body over ``max_bytes`` (declared or actually sent) gets
    ``413 body_too_large`` and never reaches a route. Bodies are small (a move, a room's
    settings), so the accepted body is read whole and handed on. A body not all sent within
    ``seconds`` gets ``408 body_timeout``: a client that sends a byte now and then would
    otherwise hold its connection and its share of the limits for ever."""

    def __init__(self, app: ASGIApp, max_bytes: int, seconds: float | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        total = 0
        loop = asyncio.get_running_loop()
        ends = None if not self.seconds else loop.time() + self.seconds
        while True:
            try:
                message = await asyncio.wait_for(receive(), None if ends is None else max(0.0, ends - loop.time()))
            except TimeoutError:
                reason = f"the request body was not all sent within {self.seconds:g} s"
                response = JSONResponse(error_body("body_timeout", reason), status_code=ERROR_STATUS["body_timeout"])
                await response(scope, receive, send)
                return
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            total += len(body)
            if total > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if not handed:
                handed = True
                return whole
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"the request body is larger than {self.max_bytes} bytes"
        response = JSONResponse(error_body("body_too_large", message), status_code=ERROR_STATUS["body_too_large"])
        await response(scope, receive, send)


__all__ = ["BodyLimit"]
