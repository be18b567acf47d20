"""``/api/rooms/{room_id}/record`` and ``/replay``: a finished game as the record file ``boardlab
replay`` reads, and as the view after any of its moves (the browser's replay view)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ...core.values import Player
from ..deps import Service, Token
from ..schemas import ErrorResponse

router = APIRouter(prefix="/api/rooms/{room_id}", tags=["records"], responses={"4XX": {"model": ErrorResponse}})


@router.get("/record", summary="download a finished game's record (game_not_over before the end)")
async def download_record(room_id: str, service: Service) -> Response:
    record = await service.record(room_id)
    filename = f"boardlab-{record.game_id}-{room_id}.json"
    return Response(
        record.dumps(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/replay", summary="a finished game's view after move N (game_not_over before the end)")
async def replay(
    room_id: str,
    request: Request,
    service: Service,
    token: Token,
    move: int = Query(ge=0, description="after this many log entries (0: the start; a roll or a deal is one too)"),
    seat: int | None = Query(None, ge=0, le=15, description="whose view, among the token's seats"),
) -> dict[str, Any]:
    """``{"room", "move", "moves", "view"}``: the view (as the token's seat, or the spectators,
    would have seen it) after ``move`` of the ``moves`` the game had."""

    async def viewer() -> Player | None:
        room = await service.room(room_id)
        async with room.lock:
            return room.viewer(room.held_by(token), seat)

    # the replays read the room only within the asking address's share of them (replays.py)
    view: dict[str, Any] = await request.app.state.replays.view(room_id, move, viewer, lambda: service.record(room_id))
    return view
