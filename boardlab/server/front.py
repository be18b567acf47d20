"""The connection front: what ``boardlab serve`` does with a connection before any request on
it is read, so that a flood of connections takes nobody else's share.

uvicorn serves the app; these are its HTTP and WebSocket protocols (``uvicorn.run(http=...,
ws=...)``) with the front's checks around them:

* **Open connections per client address** (``--max-open-per-address``) are counted where they
  are accepted, WebSockets included until they close. One over the count gets ``429
  rate_limited`` at once, as JSON with ``Retry-After``, and is closed: two thousand idle
  sockets from one address hold that many slots, not the server. A trusted proxy's address
  is not counted (it carries everybody's connections; the middleware counts the addresses it
  names, and the proxy its own: nginx's ``limit_conn``).
* **All connections** (``--max-connections``): beyond them, ``503 server_busy`` with
  ``Retry-After``, as JSON (uvicorn's own answer is plain text without it).
* **Idle and head timeouts.** A connection that sends nothing (a fresh one, or one between
  requests) is closed after ``--keep-alive-seconds``; one that has begun a request's head
  must finish it within ``--header-seconds`` (``408 header_timeout``), however slowly the bytes
  trickle in, and in at most :data:`MAX_HEAD_BYTES` (``431 head_too_large``), whether it comes in
  pieces or in one, alone or pipelined behind another request in the same read. The body has
  its own time (:class:`.limits.BodyLimit`).
* A WebSocket message over ``ws_max_size`` is refused unread as the WebSocket's other refusals
  are: ``{"type": "error", "error": {"code": "body_too_large", ...}}``, then the close (1009).
* A malformed request gets ``400 bad_request`` as JSON.
* A connection refused with 400, 408 or 431 is shut for writing and drained (what the client
  still sends dropped, for at most :data:`DRAIN_SECONDS` or :data:`DRAIN_BYTES`) before it is
  closed: closed with bytes unread, the kernel would reset it and the answer could be lost.

Only the HTTP layer's public hooks and a few of uvicorn's own (``on_response_complete``,
``handle_websocket_upgrade``, ``send_400_response``, the request cycle) are used; both of
uvicorn's HTTP implementations (httptools, h11) have them. The message too large is refused in
``handle_parser_exception`` of uvicorn's WebSocket protocol on the websockets library (the one it
chooses when that library is there, as the web extra makes sure); under another, that hook is
never called and the socket is closed with 1009 alone.
"""

from __future__ import annotations

import asyncio
import collections
import json
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import error_body
from .security import security_headers

#: the most bytes of a request's head (its line and headers)
MAX_HEAD_BYTES = 16 * 1024
#: what a refused connection is told to wait
RETRY_SECONDS = 1
#: what a WebSocket refused for a message too large may still send, and for how long, before it is
#: cut off: the rest of an ordinary message and the client's close, not a flood
DRAIN_BYTES = 1024 * 1024
DRAIN_SECONDS = 2.0
REASONS = {400: "Bad Request", 408: "Request Timeout", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
           503: "Service Unavailable"}


def raw_answer(status: int, code: str, message: str, retry_after: float | None = None) -> bytes:
    """A whole HTTP/1.1 answer with a JSON error body, that closes the connection."""
    body = json.dumps(error_body(code, message)).encode()
    headers = {
        "content-type": "application/json",
        "content-length": str(len(body)),
        "connection": "close",
        **{name.lower(): value for name, value in security_headers("").items()},
    }
    if retry_after is not None:
        headers["retry-after"] = str(max(1, math.ceil(retry_after)))
    head = f"HTTP/1.1 {status} {REASONS[status]}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return head.encode("latin-1") + b"\r\n" + body


@dataclass
class ConnectionGuard:
    """The open connections, in all and per address. 0 turns a cap off."""

    max_per_address: int
    max_total: int
    exempt: frozenset[str] = frozenset()
    idle_seconds: float = 30.0
    head_seconds: float = 10.0

    def __post_init__(self) -> None:
        self.open: collections.Counter[str] = collections.Counter()
        self.total = 0

    def admit(self, address: str) -> bytes | None:
        """Count a new connection from ``address``; the answer that refuses it, or None."""
        if self.max_total and self.total >= self.max_total:
            message = f"this server holds {self.total} connections, its most (--max-connections); try again shortly"
            return raw_answer(503, "server_busy", message, RETRY_SECONDS)
        if self.max_per_address and address not in self.exempt and self.open[address] >= self.max_per_address:
            message = (
                f"{address} holds {self.open[address]} connections open, the most one address may "
                "(--max-open-per-address); close some or try again shortly"
            )
            return raw_answer(429, "rate_limited", message, RETRY_SECONDS)
        self.open[address] += 1
        self.total += 1
        return None

    def release(self, address: str) -> None:
        self.total -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def _peer(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "unknown"


class _HeadTooLarge(Exception):
    """Raised in a parser callback to stop reading a connection already answered 431."""


class _GuardedHTTP:
    """Mixed into uvicorn's HTTP protocol (see :func:`guarded_protocols`)."""

    guard: ClassVar[ConnectionGuard]
    transport: Any
    cycle: Any

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._address = _peer(transport)
        self._admitted = False
        self._handed_over = False
        self._timer: asyncio.TimerHandle | None = None
        self._head: bytearray | None = None
        self._parsed_head_bytes = 0
        self._message_done = False
        self._draining: int | None = None
        refusal = self.guard.admit(self._address)
        if refusal is not None:
            transport.write(refusal)  # type: ignore[attr-defined]
            transport.close()
            return
        self._admitted = True
        super().connection_made(transport)  # type: ignore[misc]
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._stop_timer()
        if not self._handed_over:
            self.guard.release(self._address)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if not self._admitted:
            return
        if self._draining is not None:  # answered and refused: what the client still sends is dropped
            self._draining -= len(data)
            if self._draining < 0:
                self.transport.close()
            return
        if self._head is None and self._message_done and self._busy():
            self._head = bytearray()  # a pipelined request's head, arriving while the last is answered
        if self._head is not None:
            if not self._head:  # the head's first bytes: its time starts now
                self._start_timer(self.guard.head_seconds, self._head_timed_out)
            carried = bytes(self._head[-3:])  # the end of the head may straddle two reads
            end = (carried + data).find(b"\r\n\r\n")
            size = len(self._head) + len(data) if end < 0 else len(self._head) - len(carried) + end + 4
            if size > MAX_HEAD_BYTES:  # whether or not the head is whole: one read can bring all of a large one
                self._answer(431, "head_too_large", f"a request's head (its line and headers) is over {MAX_HEAD_BYTES} bytes")
                return
            if end < 0:
                self._head += data
            else:
                self._head = None  # whole: the route's own limits take it from here
                self._stop_timer()
        super().data_received(data)  # type: ignore[misc]

    # --- the parser's callbacks (httptools; h11 bounds each head itself) ----------------------
    def on_message_begin(self) -> None:
        self._parsed_head_bytes = 0
        self._message_done = False
        super().on_message_begin()  # type: ignore[misc]

    def on_url(self, url: bytes) -> None:
        self._count_parsed_head(len(url))
        super().on_url(url)  # type: ignore[misc]

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_parsed_head(len(name) + len(value) + 4)
        super().on_header(name, value)  # type: ignore[misc]

    def on_message_complete(self) -> None:
        self._message_done = True
        super().on_message_complete()  # type: ignore[misc]

    def _count_parsed_head(self, size: int) -> None:
        """The head as the parser reads it: what one read brings after a whole request (a
        pipelined head in the same packet) never passed the byte count of :meth:`data_received`."""
        self._parsed_head_bytes += size
        if self._parsed_head_bytes > MAX_HEAD_BYTES:
            self._answer(431, "head_too_large", f"a request's head (its line and headers) is over {MAX_HEAD_BYTES} bytes")
            raise _HeadTooLarge  # stops the parser; uvicorn's answer to its error finds the connection closed

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._await_head()

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._stop_timer()
        self._head = None
        self._handed_over = True  # the WebSocket protocol releases the count when it closes
        super().handle_websocket_upgrade(*args)  # type: ignore[misc]

    def send_400_response(self, msg: str) -> None:
        self._answer(400, "bad_request", f"the request is not valid HTTP: {msg}")

    # --- the timers ---------------------------------------------------------------------
    def _await_head(self) -> None:
        self._head = bytearray()
        self._start_timer(self.guard.idle_seconds, self._idle)

    def _start_timer(self, seconds: float, then: Any) -> None:
        self._stop_timer()
        if seconds > 0:
            self._timer = asyncio.get_running_loop().call_later(seconds, then)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _busy(self) -> bool:
        """Whether a request is being answered (a pipelined head that arrived early)."""
        cycle = getattr(self, "cycle", None)
        return cycle is not None and not cycle.response_complete

    def _idle(self) -> None:
        self._timer = None
        if self._busy():
            self._await_head()
        elif not self.transport.is_closing():
            self.transport.close()

    def _head_timed_out(self) -> None:
        self._timer = None
        if self._busy():
            self._await_head()
            return
        self._answer(408, "header_timeout", f"the request's head was not all sent within {self.guard.head_seconds:g} s")

    def _answer(self, status: int, code: str, message: str) -> None:
        """Refuse the connection with ``status``. It is not closed at once: closed with the
        client's bytes still unread (the rest of a head too large, a request still being sent),
        the kernel resets it, and a client that sees the reset may drop the answer before it. So
        it is shut for writing, what the client still sends (up to :data:`DRAIN_BYTES`, for
        :data:`DRAIN_SECONDS`) is dropped unparsed, and the client's close, or the time, ends it.
        Behind a request still being answered it is closed at once, as that answer may still write."""
        self._stop_timer()
        if self._draining is not None or self.transport.is_closing():
            return  # answered already (the parser's error after a refusal it raised)
        self.transport.write(raw_answer(status, code, message))
        if self._busy() or not self.transport.can_write_eof():  # a response still on its way may write
            self.transport.close()
            return
        self._draining = DRAIN_BYTES
        self.transport.write_eof()
        self.transport.resume_reading()  # uvicorn pauses reading while a request's body waits
        self._timer = asyncio.get_running_loop().call_later(DRAIN_SECONDS, self.transport.close)


class _GuardedWebSocket:
    """Mixed into uvicorn's WebSocket protocol: the connection it took over is counted until it
    closes, and a message too large is refused with the WebSocket's own error message."""

    guard: ClassVar[ConnectionGuard]
    config: Any
    conn: Any
    transport: Any
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Any]
    close_sent: bool
    close_timer: asyncio.TimerHandle | None
    read_paused: bool

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._address = _peer(transport)
        self._draining: int | None = None
        super().connection_made(transport)  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self._address)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if self._draining is None:
            super().data_received(data)  # type: ignore[misc]
            return
        self._draining -= len(data)  # the rest of a refused message, the client's close: dropped unread
        if self._draining < 0:
            self.transport.close()

    def handle_parser_exception(self) -> None:
        """The websockets library refuses a message over ``ws_max_size`` from its frame's header
        (unread) and queues the close (1009). The client is told why first, in the message every
        other refusal on the socket is (the route never sees this message); and the connection is
        not closed at once: closed with the message's rest unread, it would be reset, and a client
        that sees the reset may drop what came before it. It is shut for writing, what the client
        still sends (up to :data:`DRAIN_BYTES`, for :data:`DRAIN_SECONDS`) is dropped, and the
        client's own close ends it."""
        from websockets.frames import CloseCode, Frame, Opcode

        closing = self.conn.close_sent
        if closing is None or closing.code != CloseCode.MESSAGE_TOO_BIG or self.transport.is_closing():
            super().handle_parser_exception()  # type: ignore[misc]
            return
        problem = f"a message is larger than {self.config.ws_max_size} bytes"
        refusal = json.dumps({"type": "error", **error_body("body_too_large", problem)}).encode()
        # unmasked, as a server's frames are, and uncompressed, which permessage-deflate allows
        self.transport.write(Frame(Opcode.TEXT, refusal).serialize(mask=False))
        self.transport.write(b"".join(self.conn.data_to_send()))  # the close
        self.close_sent = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": closing.code, "reason": closing.reason})
        self._draining = DRAIN_BYTES
        if self.transport.can_write_eof():
            self.transport.write_eof()
        if self.read_paused:  # a message the route has not read yet holds the reading
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(DRAIN_SECONDS, self.transport.close)


def guarded_protocols(guard: ConnectionGuard) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocols (the ones it would choose itself) under ``guard``."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    if AutoWebSocketsProtocol is None:  # pragma: no cover - the web extra brings websockets
        raise RuntimeError("no WebSocket library: install boardlab[web]")
    http = type("GuardedHTTPProtocol", (_GuardedHTTP, AutoHTTPProtocol), {"guard": guard})
    base: type = AutoWebSocketsProtocol  # type: ignore[assignment]  # a protocol class, typed as its factory
    ws = type("GuardedWebSocketProtocol", (_GuardedWebSocket, base), {"guard": guard})
    return http, ws


__all__ = ["MAX_HEAD_BYTES", "ConnectionGuard", "guarded_protocols", "raw_answer"]
