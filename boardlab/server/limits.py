"""The request-size and request-time limits, enforced before anything parses a body."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ERROR_STATUS, BadJsonError, error_body

#: the deepest nesting of arrays and objects a body or a WebSocket message may have: no request
#: nests more than a few levels, and Python's JSON parser recurses (10,000 levels overflow it)
MAX_JSON_DEPTH = 32
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


def too_deep(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``body`` (JSON, or what claims to be) nests arrays and objects deeper than
    ``limit``; brackets inside strings do not count. Cheap for ordinary bodies (few brackets)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub(b"", body)):
        depth += 1 if bracket in (b"[", b"{") else -1
        if depth > limit:
            return True
    return False


def parse_json(text: str) -> Any:
    """A WebSocket message's JSON; BadJsonError for one that is not JSON or nests too deeply."""
    if too_deep(text.encode("utf-8", "surrogatepass")):
        raise BadJsonError(f"the message nests arrays and objects more than {MAX_JSON_DEPTH} deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadJsonError(f"the message is not valid JSON ({exc.msg} at {exc.pos})") from None


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
        body = b"".join(chunks)
        if too_deep(body):
            problem = f"the body nests arrays and objects more than {MAX_JSON_DEPTH} deep"
            await JSONResponse(error_body("bad_json", problem), status_code=ERROR_STATUS["bad_json"])(scope, receive, send)
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
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


__all__ = ["MAX_JSON_DEPTH", "BodyLimit", "parse_json", "too_deep"]
