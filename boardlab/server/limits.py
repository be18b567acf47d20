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
#: the most digits a number in a body or a WebSocket message may have: no field needs more than a
#: few (a ply, a revision, seconds), and Python's parser converts a longer integer in time that
#: grows with the square of its length, up to 4,300 digits, then fails with a ValueError
MAX_NUMBER_DIGITS = 100
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")
_LONG_NUMBER = re.compile(rb"[0-9]{%d}" % (MAX_NUMBER_DIGITS + 1))


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


def has_long_number(body: bytes) -> bool:
    """Whether ``body`` holds a number of more than :data:`MAX_NUMBER_DIGITS` digits; digits inside
    strings (a name, a token) do not count. Cheap for ordinary bodies (no such run of digits)."""
    return _LONG_NUMBER.search(body) is not None and _LONG_NUMBER.search(_STRING.sub(b"", body)) is not None


def not_utf8(body: bytes) -> str | None:
    """Why ``body`` is not JSON text in UTF-8, or None when it may be. JSON between systems is
    UTF-8 (RFC 8259); Python's parser would also take UTF-16 and UTF-32, which the checks made
    before parsing (:func:`too_deep`, :func:`has_long_number`) read wrongly. Those hold a NUL byte
    among their first characters, which UTF-8 JSON never holds (a control character in a string is
    escaped)."""
    if b"\0" in body:
        return "the body is not UTF-8: it holds NUL bytes (UTF-16 or UTF-32 text?); send JSON in UTF-8"
    if not body.isascii():
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = f"byte 0x{body[exc.start]:02x} at position {exc.start}"
            return f"the body is not UTF-8 ({exc.reason}: {where}); send JSON in UTF-8"
    return None


def unsafe_to_parse(data: bytes, what: str) -> str | None:
    """What in ``data`` (``what``: the body, the message) Python's parser must not meet, named for
    the client: nesting deeper than :data:`MAX_JSON_DEPTH`, a number longer than
    :data:`MAX_NUMBER_DIGITS`; None when there is nothing of the kind."""
    if too_deep(data):
        return f"{what} nests arrays and objects more than {MAX_JSON_DEPTH} deep"
    if has_long_number(data):
        return f"{what} holds a number of more than {MAX_NUMBER_DIGITS} digits"
    return None


def parse_json(text: str) -> Any:
    """A WebSocket message's JSON; BadJsonError naming the problem for one that is not JSON, nests
    too deeply or holds a number too long (the protocol has made sure the text was UTF-8)."""
    problem = unsafe_to_parse(text.encode("utf-8", "surrogatepass"), "the message")
    if problem is not None:
        raise BadJsonError(problem)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadJsonError(f"the message is not valid JSON ({exc.msg} at {exc.pos})") from None
    except ValueError as exc:  # any other conversion the parser gives up on: a refusal, never a crash of the socket
        raise BadJsonError(f"the message cannot be read as JSON: {exc}") from None


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
        # what FastAPI's parser would refuse with a message that names nothing, or accept wrongly
        problem = not_utf8(body) or unsafe_to_parse(body, "the body")
        if problem is not None:
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


__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_NUMBER_DIGITS",
    "BodyLimit",
    "has_long_number",
    "not_utf8",
    "parse_json",
    "too_deep",
    "unsafe_to_parse",
]
