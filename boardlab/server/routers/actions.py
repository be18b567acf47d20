"""What a seat does in a room: move, take back, resign, offer/accept/decline a draw.

Every action needs the seat's token and answers with the room's new state as that seat
sees it, after the change is committed to storage. A refusal changes nothing.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..deps import LogFrom, Service, Token, log_from
from ..schemas import DrawRequest, ErrorResponse, MoveRequest, SeatRequest, StateMessage, UndoRequest

router = APIRouter(prefix="/api/rooms/{room_id}", tags=["actions"], responses={"4XX": {"model": ErrorResponse}})


@router.post("/moves", response_model=StateMessage, summary="make a move")
async def make_move(room_id: str, body: MoveRequest, service: Service, token: Token, log_start: LogFrom = 0) -> JSONResponse:
    """``move`` is a legal move's ``text``; ``ply`` the state's ply the move was chosen in. A move
    for an older ply gets ``stale_move``: of two moves racing for one ply exactly one lands."""
    return JSONResponse(log_from(await service.play(room_id, token, body.move, body.ply, body.revision, body.seat), log_start))


@router.post("/undo", response_model=StateMessage, summary="take back your last move (and the computer's replies)")
async def undo(room_id: str, body: UndoRequest, service: Service, token: Token, log_start: LogFrom = 0) -> JSONResponse:
    """``revision`` is the state's revision the take-back was asked in: a retried request (or one
    that crossed another action) gets ``stale_move`` instead of taking back a second turn."""
    return JSONResponse(log_from(await service.undo(room_id, token, body.revision, body.seat), log_start))


@router.post("/resign", response_model=StateMessage, summary="resign")
async def resign(
    room_id: str, service: Service, token: Token, body: SeatRequest | None = None, log_start: LogFrom = 0
) -> JSONResponse:
    return JSONResponse(log_from(await service.resign(room_id, token, body.seat if body else None), log_start))


@router.post("/draw", response_model=StateMessage, summary="offer, accept or decline a draw (games with draws by agreement)")
async def draw(room_id: str, body: DrawRequest, service: Service, token: Token, log_start: LogFrom = 0) -> JSONResponse:
    return JSONResponse(log_from(await service.draw(room_id, token, body.action, body.seat), log_start))
