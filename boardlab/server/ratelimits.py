"""Limits per client address: how often it may create rooms, act in rooms, open WebSockets,
send messages on them and ask for a game's analysis, and how many requests and WebSockets it
may hold open at once.

Each kind of request draws from its own token bucket per address (in memory: a restart
forgets them, which costs an abuser nothing it did not have). A refusal is
``429 rate_limited`` with ``Retry-After``, the seconds until the bucket holds a token again;
a WebSocket is refused before it is accepted, with the same answer where the server can
send one (else it is closed with 4429). A WebSocket's messages are counted where they are
read (:class:`MessageBudget`): each socket has a bucket of its own and draws on its address's
too, so neither one socket nor many of one address can keep the server answering.

The address is the connection's peer. Behind a reverse proxy every request comes from the
proxy, so the proxy's ``X-Forwarded-For`` names the client; but anybody can send that
header, so it is read only when the peer is a proxy the settings name, and then only its
last entry: the address the proxy itself saw (entries before it are the client's own say).
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import ERROR_STATUS, BusyError, error_body

ROOMS, MOVES, WEBSOCKETS, ANALYSES, READS = "rooms", "moves", "websockets", "analyses", "reads"
#: messages on the WebSockets already open: charged by the socket that reads them, never by the middleware
MESSAGES = "messages"
#: the client address of the request being served (set here, before any route runs): what the
#: computer's searches are charged to (:mod:`.computer`); "" outside a request
CLIENT: ContextVar[str] = ContextVar("boardlab_client", default="")
#: what each kind of request is, by method and path
_LIVE = re.compile(r"/api/rooms/[^/]+/live")
#: offering or accepting a rematch makes a room: it draws from the rooms' bucket
_REMATCH = re.compile(r"/api/rooms/[^/]+/rematch(/answer)?")
#: a new room of a playtest session, and a new remembered player, are stored like a new room
_STORED = re.compile(r"/api/playtests/invitations/[^/]+/rooms|/api/players")
#: an analysis costs seconds of the server's one analysis thread the first time it is asked for
_ANALYSIS = re.compile(r"/api/rooms/[^/]+/analysis")
#: past this many addresses, those with full buckets and nothing open are forgotten
SWEEP_AT = 10_000


#: what names a kind's daily bucket beside its minute's
DAILY = " a day"
#: a day, in seconds: the period of the daily buckets (a day's rooms)
DAY_SECONDS = 86_400.0


@dataclass
class Bucket:
    """``capacity`` tokens, refilled at ``capacity`` per ``period`` seconds (a minute)."""

    capacity: float
    tokens: float
    stamp: float
    period: float = 60.0

    def take(self, now: float) -> float:
        """Take a token: 0 if there was one, else the seconds until there will be."""
        rate = self.capacity / self.period
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / rate

    def give_back(self) -> None:
        """Return the token just taken (another limit refused what it was taken for)."""
        self.tokens = min(self.capacity, self.tokens + 1.0)

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.capacity / self.period >= self.capacity


@dataclass
class Client:
    buckets: dict[str, Bucket] = field(default_factory=dict)
    open: int = 0


class AddressLimits:
    """Every address's buckets and open count. ``per_minute`` maps a kind to its rate (0:
    no limit); ``per_day`` a kind to how many a day it may have besides (0: no limit: new
    rooms, which storage keeps, so that a minute's rate kept up all day cannot fill it);
    ``max_open`` bounds the requests and WebSockets one address holds at once (0: no limit)."""

    def __init__(
        self, per_minute: dict[str, int], max_open: int, clock: Callable[[], float], per_day: dict[str, int] | None = None
    ) -> None:
        self.per_minute = per_minute
        self.per_day = per_day or {}
        self.max_open = max_open
        self.clock = clock
        self.clients: dict[str, Client] = {}

    def take(self, address: str, kind: str | None) -> float:
        """0 if the address may go on (its open count is then raised), else the seconds to wait."""
        now = self.clock()
        client = self._client(address, now)
        if self.max_open and client.open >= self.max_open:
            return 1.0
        wait = self._draw(client, kind, now)
        if wait > 0:
            return wait
        client.open += 1
        return 0.0

    def spend(self, address: str, kind: str) -> float:
        """Take a token of ``kind`` from the address's bucket, as :meth:`take` does, but open
        nothing: for what is asked within a connection that is counted already (a message on a
        WebSocket). 0 if there was one, else the seconds to wait."""
        now = self.clock()
        return self._draw(self._client(address, now), kind, now)

    def _client(self, address: str, now: float) -> Client:
        """``address``'s buckets and open count, made on its first request (past :data:`SWEEP_AT`
        addresses, the idle ones are forgotten first)."""
        client = self.clients.get(address)
        if client is None:
            if len(self.clients) >= SWEEP_AT:
                self._sweep(now)
            client = self.clients[address] = Client()
        return client

    def _draw(self, client: Client, kind: str | None, now: float) -> float:
        if kind is None:
            return 0.0
        daily = self.per_day.get(kind, 0)
        day: Bucket | None = None
        if daily > 0:
            day = client.buckets.get(f"{kind}{DAILY}")
            if day is None:
                day = client.buckets[f"{kind}{DAILY}"] = Bucket(float(daily), float(daily), now, DAY_SECONDS)
            wait = day.take(now)
            if wait > 0:
                return wait
        rate = self.per_minute.get(kind, 0)
        if rate <= 0:
            return 0.0
        bucket = client.buckets.get(kind)
        if bucket is None:
            bucket = client.buckets[kind] = Bucket(float(rate), float(rate), now)
        wait = bucket.take(now)
        if wait > 0 and day is not None:
            day.give_back()  # refused for the minute's rate: the day's allowance is not spent
        return wait

    def give_back_day(self, address: str, kind: str) -> None:
        """Return the day's token of ``kind`` that ``address`` just took: what it was taken for
        was refused (an unknown game, a bad option, a busy server), and the day's allowance
        counts what storage keeps, not what was asked."""
        client = self.clients.get(address)
        day = None if client is None else client.buckets.get(f"{kind}{DAILY}")
        if day is not None:
            day.give_back()

    def refused_for_the_day(self, address: str, kind: str | None) -> bool:
        """Whether ``address``'s allowance of ``kind`` for a day is what is spent (not the minute's)."""
        client = self.clients.get(address)
        day = None if client is None or kind is None else client.buckets.get(f"{kind}{DAILY}")
        return day is not None and day.tokens < 1.0

    def done(self, address: str) -> None:
        client = self.clients.get(address)
        if client is not None:
            client.open -= 1

    def _sweep(self, now: float) -> None:
        idle = [
            address
            for address, client in self.clients.items()
            if client.open == 0 and all(bucket.full(now) for bucket in client.buckets.values())
        ]
        for address in idle:
            del self.clients[address]


class MessageBudget:
    """What one WebSocket may send: ``per_socket`` messages a minute from a bucket of its own
    (0: no limit), and its address's :data:`MESSAGES` bucket, which all of that address's
    sockets share. Each message read costs the server a parse at least and an answer at most, so
    a socket's messages are charged before either."""

    def __init__(self, limits: AddressLimits, address: str, per_socket: int) -> None:
        self.limits = limits
        self.address = address
        self._own = Bucket(float(per_socket), float(per_socket), limits.clock()) if per_socket > 0 else None
        #: messages refused since the last one let through: a socket that goes on sending past
        #: its refusals is flooding, and is closed
        self.refused_in_a_row = 0

    def take(self) -> float:
        """0 if the socket may send this message now, else the seconds until it may. The
        socket's own bucket goes first, so a flooding socket empties its own before its address's."""
        wait = self._own.take(self.limits.clock()) if self._own is not None else 0.0
        if wait == 0:
            wait = self.limits.spend(self.address, MESSAGES)
        self.refused_in_a_row = self.refused_in_a_row + 1 if wait > 0 else 0
        return wait


def day_spent(address: str, allowance: int, what: str, wait: float) -> str:
    """The refusal of a day's allowance spent: what, how many, and when to ask again."""
    hours = wait / 3600
    later = f"{math.ceil(hours)} h" if hours >= 1 else f"{math.ceil(wait / 60)} min"
    return f"{address} made {allowance} {what} in a day, this server's most; try again in {later}"


def refuse_past_rooms_a_day(address: str, allowance: int, nth_latest: float | None, now: float) -> None:
    """Refuse (429) a new room of ``address`` whose ``allowance``-th latest room of the last day
    was made at ``nth_latest`` (wall-clock seconds; None: fewer were made), as storage counts
    them. The buckets above live in one process's memory: with several processes on one
    database, or after a restart, they would let one address store ``allowance`` rooms a day
    in each, or again; storage's count is the same for all of them (at most what is created
    at the same instant in several processes gets past it). It allows ``allowance`` in any
    day, where the bucket gives one back every day / ``allowance``."""
    if nth_latest is None:
        return
    wait = max(1.0, nth_latest + DAY_SECONDS - now)
    raise BusyError(day_spent(address, allowance, "new rooms", wait), retry_after=wait)


def client_address(scope: Scope, trusted_proxies: frozenset[str]) -> str:
    """The client's address: the peer's, or the last ``X-Forwarded-For`` entry of a trusted
    proxy; an IPv6 address as its /64 network (:func:`limited_as`)."""
    client = scope.get("client")
    peer = client[0] if client else "unknown"
    if peer not in trusted_proxies:
        return limited_as(peer)
    forwarded = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"x-forwarded-for"]
    hops = [hop.strip() for hop in ",".join(forwarded).split(",") if hop.strip()]
    return limited_as(_without_port(hops[-1]) if hops else peer)


def _without_port(hop: str) -> str:
    """A forwarded address without the port or brackets some proxies write (``1.2.3.4:5678``,
    ``[2001:db8::1]:443``): the port changes with every connection, and counted with it each
    connection would get an allowance of its own (and an IPv6 client would escape its /64)."""
    if hop.startswith("["):
        closing = hop.find("]")
        return hop[1:closing] if closing > 0 else hop
    if hop.count(":") == 1:
        return hop.split(":", 1)[0]
    return hop


def limited_as(address: str) -> str:
    """What the limits count ``address`` as: an IPv4 address itself; an IPv6 one as its /64
    network, which one household or one server is given whole (counting each of its 2**64
    addresses apart would give one client as many allowances); anything else as it is."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address  # a test client's name, "unknown"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))
    return str(parsed)


def request_kind(scope: Scope) -> str | None:
    path = scope.get("path", "")
    if scope["type"] == "websocket":
        return WEBSOCKETS if _LIVE.fullmatch(path) else None
    if scope.get("method") in ("GET", "HEAD"):
        # every other reading too: a listing, a lesson, a replay, a page each cost the event loop
        return ANALYSES if _ANALYSIS.fullmatch(path.rstrip("/")) else READS
    if scope.get("method") == "POST" and (
        path.rstrip("/") == "/api/rooms" or _REMATCH.fullmatch(path.rstrip("/")) or _STORED.fullmatch(path.rstrip("/"))
    ):
        return ROOMS
    # every other action: a move, a take-back, a join; a designer's sign-in, a Lab study, a lesson's try
    return MOVES


def _noting_status(send: Send, statuses: list[int]) -> Send:
    """``send``, noting the status of the response it starts in ``statuses``."""

    async def noting(message: dict[str, object]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(int(message["status"]))  # type: ignore[call-overload]
        await send(message)

    return noting  # type: ignore[return-value]


class ClientLimits:
    """ASGI middleware: refuse a request over its address's limits before any route sees it."""

    def __init__(self, app: ASGIApp, limits: AddressLimits, trusted_proxies: frozenset[str]) -> None:
        self.app = app
        self.limits = limits
        self.trusted_proxies = trusted_proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address = client_address(scope, self.trusted_proxies)
        kind = request_kind(scope)
        wait = self.limits.take(address, kind)
        if wait > 0:
            await self._refuse(scope, send, address, kind, wait)
            return
        charged = CLIENT.set(address)
        statuses: list[int] = []
        try:
            if kind is not None and self.limits.per_day.get(kind, 0) > 0:
                await self.app(scope, receive, _noting_status(send, statuses))
            else:
                await self.app(scope, receive, send)
        finally:
            CLIENT.reset(charged)
            self.limits.done(address)
            if kind is not None and self.limits.per_day.get(kind, 0) > 0 and not (statuses and statuses[0] < 300):
                self.limits.give_back_day(address, kind)

    async def _refuse(self, scope: Scope, send: Send, address: str, kind: str | None, wait: float) -> None:
        what = {
            ROOMS: "new rooms", MOVES: "actions in rooms", WEBSOCKETS: "new WebSockets", ANALYSES: "analyses",
            READS: "pages and readings",
        }.get(kind or "")
        if what is None or (self.limits.max_open and self.limits.clients[address].open >= self.limits.max_open):
            message = f"{address} holds {self.limits.max_open} requests and WebSockets open, this server's most"
        else:
            message = f"{address} asked for {what} too often; try again in {math.ceil(wait)} s"
            if self.limits.refused_for_the_day(address, kind):
                message = day_spent(address, self.limits.per_day[kind or ""], what, wait)
        body = json.dumps(error_body("rate_limited", message)).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(max(1, math.ceil(wait))).encode()),
        ]
        status = ERROR_STATUS["rate_limited"]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 4000 + status})


__all__ = [
    "CLIENT", "DAY_SECONDS", "MESSAGES", "READS", "AddressLimits", "Bucket", "ClientLimits", "MessageBudget", "client_address",
    "day_spent", "refuse_past_rooms_a_day", "request_kind",
]
