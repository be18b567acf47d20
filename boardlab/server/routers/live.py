"""``/api/rooms/{room_id}/live``: a WebSocket per room that sends the room's state at once on
connecting and again after every change.

The seat token comes in a message ``{"type": "auth", "token": ..., "seat": ...}``, first or
later (the state is then re-sent as that seat sees it); without one the client is a
spectator. Never in the address: servers and proxies log addresses, so ``?token=`` is refused.
A client may also send ``{"type": "ping"}`` (answered ``{"type": "pong"}``). Moves and the
other actions go through the HTTP routes, which acknowledge them once they are stored.
Refusals arrive as ``{"type": "error", "error": {"code", "message"}}``; an unknown room or a
bad token closes the socket with code 4000 + the HTTP status (4404, 4403).

Every message read is charged before it is parsed (:class:`~..ratelimits.MessageBudget`: the
socket's own bucket and its address's): one over budget is refused with ``rate_limited``, and
a socket that sends :data:`FLOOD_REFUSALS` of them in a row is closed with 4429. An ``auth``
that leaves the connection's seats as they were builds nothing: the state the socket was sent
last goes again, encoded once.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ...core.errors import BoardlabError
from ..deps import Service
from ..errors import BadJsonError, BadTextError, BodyTooLargeError, BusyError, ServerError, error_body, status_for
from ..limits import parse_json
from ..ratelimits import CLIENT, MessageBudget
from ..schemas import unstorable
from ..security import SECRET_PARAMETERS, parameter_name
from ..service import RoomService, Watcher

router = APIRouter(tags=["live"])
#: over-budget messages in a row after which a socket is flooding and is closed: a page sends a
#: ping every 25 s and an auth when it connects, far inside any budget, so a socket that goes
#: on after this many refusals is not listening to them
FLOOD_REFUSALS = 10


class Connection:
    """One socket: its watcher (replaced on ``auth``) and one lock so that state messages
    and replies never interleave."""

    def __init__(
        self, websocket: WebSocket, service: RoomService, room_id: str, max_bytes: int, budget: MessageBudget
    ) -> None:
        self.websocket = websocket
        self.service = service
        self.room_id = room_id
        self.max_bytes = max_bytes
        self.budget = budget
        self.watcher: Watcher | None = None
        self._sender: asyncio.Task[None] | None = None
        self._send_lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(json.dumps(message))

    async def send_text(self, text: str) -> None:
        async with self._send_lock:
            await self.websocket.send_text(text)

    async def error(self, error: BoardlabError) -> None:
        await self.send({"type": "error", **error_body(error.code, str(error))})

    async def watch(self, token: str | None, seat: int | None) -> None:
        watcher = await self.service.watch(self.room_id, token, seat, current=self.watcher)
        if watcher is self.watcher:
            return  # the same seats: the service queued the last state again, and the sender sends it
        self.stop()
        self.watcher = watcher
        self._sender = asyncio.get_running_loop().create_task(self._send_states(watcher))

    async def _send_states(self, watcher: Watcher) -> None:
        try:
            while True:
                await self.send_text(await watcher.next_message())
        except (WebSocketDisconnect, RuntimeError):
            pass  # the client went away; the receiving side cleans up

    def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            self._sender = None
        if self.watcher is not None:
            self.service.unwatch(self.room_id, self.watcher)
            self.watcher = None

    async def handle(self, text: str) -> None:
        if len(text) > self.max_bytes:
            raise BodyTooLargeError(f"a message is larger than {self.max_bytes} bytes")
        message = parse_json(text)
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self.send({"type": "pong"})
        elif kind == "auth":
            token, seat = message.get("token"), message.get("seat")
            if token is not None and not isinstance(token, str):
                raise ServerError("auth: 'token' is text")
            if token is not None and unstorable(token) is not None:
                raise BadTextError(f"auth: the token holds {unstorable(token)}, which no token holds")
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise ServerError("auth: 'seat' is a seat number")
            await self.watch(token, seat)
        else:
            if not isinstance(message, dict):
                raise ServerError("a message is a JSON object with a 'type': auth or ping (moves go to POST .../moves)")
            if kind is None:
                raise ServerError("a message needs a 'type': auth or ping (moves go to POST .../moves)")
            raise ServerError(f"unknown message type {json.dumps(kind)}: send auth or ping (moves go to POST .../moves)")


@router.websocket("/api/rooms/{room_id}/live")
async def live(
    websocket: WebSocket,
    room_id: str,
    service: Service,
) -> None:
    await websocket.accept()
    settings = websocket.app.state.settings
    budget = MessageBudget(websocket.app.state.address_limits, CLIENT.get(), settings.messages_per_socket_per_minute)
    connection = Connection(websocket, service, room_id, settings.max_body_bytes, budget)
    try:
        if not await _opened(connection, websocket):
            return
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            wait = connection.budget.take()
            if wait > 0:
                if not await _refuse_over_budget(connection, websocket, wait):
                    break
                continue
            try:
                text = frame.get("text")
                if text is None:
                    raise BadJsonError("messages are JSON text frames, not binary")
                await connection.handle(text)
            except BoardlabError as exc:
                await connection.error(exc)
    except WebSocketDisconnect:
        pass  # the client went away, perhaps before a refusal reached it: nothing is owed to the log
    finally:
        connection.stop()


async def _opened(connection: Connection, websocket: WebSocket) -> bool:
    """Start watching the room as a spectator; whether the socket stays open (a refusal is
    sent and the socket closed). Raises WebSocketDisconnect when the client has gone."""
    try:
        if any(parameter_name(name) in SECRET_PARAMETERS for name in websocket.query_params):
            raise ServerError(
                "the seat token goes in the first message, {\"type\": \"auth\", \"token\": ...}, never in the "
                "address (addresses are logged)"
            )
        await connection.watch(None, None)
    except BusyError as exc:
        # a room full of spectators still lets its players in: they say who they are next
        await connection.error(exc)
        if not await _admitted_by_auth(connection, websocket):
            await websocket.close(code=4000 + status_for(exc))
            return False
    except BoardlabError as exc:
        await connection.error(exc)
        await websocket.close(code=4000 + status_for(exc))
        return False
    return True


async def _refuse_over_budget(connection: Connection, websocket: WebSocket, wait: float) -> bool:
    """Answer a message over the socket's budget, unread; close a socket that keeps flooding.
    Whether the socket stays open."""
    settings = websocket.app.state.settings
    flooding = connection.budget.refused_in_a_row >= FLOOD_REFUSALS
    what = (
        f"{connection.budget.address} sends messages on its WebSockets too often (each socket "
        f"{settings.messages_per_socket_per_minute} a minute, the address's together {settings.messages_per_minute})"
    )
    if flooding:
        error = BusyError(f"{what}; {FLOOD_REFUSALS} in a row were refused, so this socket is closed", wait)
    else:
        error = BusyError(f"{what}; this one was not read: try again in {math.ceil(wait)} s", wait)
    await connection.error(error)
    if flooding:
        await websocket.close(code=4000 + status_for(error))
    return not flooding


#: how long a socket refused as a spectator may take to say it holds a seat
AUTH_SECONDS = 10.0


async def _admitted_by_auth(connection: Connection, websocket: WebSocket) -> bool:
    """Whether the socket's first message is an ``auth`` that lets it watch (a seat's token)."""
    try:
        frame = await asyncio.wait_for(websocket.receive(), AUTH_SECONDS)
        text = frame.get("text")
        if frame["type"] == "websocket.disconnect" or text is None:
            return False
        await connection.handle(text)
    except (TimeoutError, WebSocketDisconnect):
        return False
    except BoardlabError as exc:
        await connection.error(exc)
        return False
    return connection.watcher is not None
