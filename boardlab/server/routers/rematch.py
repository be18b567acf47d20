"""``/api/rooms/{room_id}/rematch``: offer the same game again at its end, seats rotated, and
answer an offer (:mod:`boardlab.server.rematch`).

Each call needs a seat token of the finished room and answers with the room's state as that
seat sees it; its ``rematch`` field says where the offer stands and, once everybody has
accepted, the new room (``rematch.room``), where the same tokens hold the rotated seats.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..deps import Service, Token
from ..rematch import Rematches
from ..schemas import ErrorResponse, SeatNumber, SeatRequest, StateMessage, Strict

router = APIRouter(prefix="/api/rooms/{room_id}/rematch", tags=["rematch"], responses={"4XX": {"model": ErrorResponse}})


class RematchAnswer(Strict):
    action: Literal["accept", "decline"]
    seat: int | None = SeatNumber


@router.post("", response_model=StateMessage, summary="offer a rematch (the game is over)")
async def offer_rematch(
    room_id: str, request: Request, service: Service, token: Token, body: SeatRequest | None = None
) -> JSONResponse:
    """Computer seats and the seats this token holds accept at once: with nobody else to ask
    (people at one screen, a person against the computer) the rematch starts now. One offer
    at a time: a second is refused (``rematch_open``) until the first is declined."""
    return JSONResponse(await Rematches(service, request.app.state.players).offer(room_id, token, body.seat if body else None))


@router.post("/answer", response_model=StateMessage, summary="accept or decline the rematch offered")
async def answer_rematch(room_id: str, request: Request, body: RematchAnswer, service: Service, token: Token) -> JSONResponse:
    """Answers for every seat the token holds; a decline ends the offer (another may be made)."""
    return JSONResponse(await Rematches(service, request.app.state.players).answer(
        room_id, token, body.seat, body.action == "accept"))
