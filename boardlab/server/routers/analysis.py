"""``/api/rooms/{room_id}/analysis`` and ``/hint``: the engine's view of a finished game, and its
suggestion for the seat that decides now (docs/analysis.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..deps import Service, Token
from ..schemas import ErrorResponse, SeatRequest

router = APIRouter(prefix="/api/rooms/{room_id}", tags=["analysis"], responses={"4XX": {"model": ErrorResponse}})


@router.get(
    "/analysis", summary="a finished game's analysis: chances after every move, the worst moves (game_not_over before the end)"
)
async def analysis(room_id: str, request: Request, service: Service) -> dict[str, Any]:
    """``{"room", "format", "game", "seat_names", "agent", "iterations", "start", "moves", "worst"}``:
    each seat's chance at the start and after each move, the engine's preferred move and the
    loss of the move played. The first request works it out (seconds); it is kept after that."""
    record = await service.record(room_id)
    return await request.app.state.analyses.get(room_id, record)  # type: ignore[no-any-return]


@router.post("/hint", summary="the engine's suggestion for your seat that decides now")
async def hint(
    room_id: str, request: Request, service: Service, token: Token, body: SeatRequest | None = None
) -> dict[str, Any]:
    """``{"room", "seat", "ply", "revision", "move", "agent"}``: worked out from the seat's own
    view only. Not in rooms with an invited person (``refused``); one hint at a time per room."""
    return await request.app.state.hints.suggest(service, room_id, token, body.seat if body else None)  # type: ignore[no-any-return]
