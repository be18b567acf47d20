"""What routes are given through ``Depends``: the room service and the caller's seat token."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Query
from starlette.requests import HTTPConnection

from .errors import BadTokenError
from .service import RoomService


async def get_service(connection: HTTPConnection) -> RoomService:
    service: RoomService = connection.app.state.service
    return service


async def seat_token(
    authorization: Annotated[
        str | None, Header(description="Bearer TOKEN: the seat token from creating or joining the room")
    ] = None,
    x_seat_token: Annotated[str | None, Header(description="the seat token, as an alternative to Authorization")] = None,
) -> str | None:
    """The caller's seat token: ``Authorization: Bearer TOKEN`` or ``X-Seat-Token: TOKEN``; None
    for a spectator."""
    if authorization is not None:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise BadTokenError("the Authorization header must be 'Bearer TOKEN'")
        return token.strip()
    if x_seat_token is not None:
        return x_seat_token.strip() or None
    return None


Service = Annotated[RoomService, Depends(get_service)]
Token = Annotated[str | None, Depends(seat_token)]
#: ``?log_from=N``: the answer's log starts at entry N (the client holds the entries before it)
LogFrom = Annotated[
    int,
    Query(
        alias="log_from",
        ge=0,
        description="send the log from this entry on (log_start); safe when the client's state is current, "
        "e.g. with a move that named its revision",
    ),
]


def log_from(message: dict[str, Any], start: int) -> dict[str, Any]:
    """``message`` with its log from entry ``start`` on (``log_start`` says where it begins)."""
    if start <= 0:
        return message
    start = min(start, len(message["log"]))
    return {**message, "log_start": start, "log": message["log"][start:]}


__all__ = ["LogFrom", "Service", "Token", "get_service", "log_from", "seat_token"]
