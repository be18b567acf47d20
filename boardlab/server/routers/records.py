"""``/api/rooms/{room_id}/record``: a finished game as the record file ``boardlab replay`` reads."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from ..deps import Service
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
