"""``/api/rooms``: create a room, list rooms, look at one, join an invited seat."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...core.registry import game_class
from ..deps import LogFrom, Service, Token, log_from
from ..errors import ServerError
from ..listing import MINE_LISTED
from ..players import MaybePlayer
from ..rooms import state_message
from ..schemas import CreatedRoom, CreateRoomRequest, ErrorResponse, JoinedRoom, JoinRequest, RoomSummary, StateMessage, Text
from ..service import ROOM_ID, Created, NewRoom

router = APIRouter(prefix="/api/rooms", tags=["rooms"], responses={"4XX": {"model": ErrorResponse}})


@router.post("", status_code=201, response_model=CreatedRoom, summary="create a room")
async def create_room(body: CreateRoomRequest, service: Service) -> JSONResponse:
    """Create a room for ``game`` with one entry per seat in ``seats``. The answer holds the
    token of the ``here`` seats and one invite code per ``invite`` seat: both are shown only
    here (storage keeps hashes)."""
    created = await service.create(
        NewRoom(body.game, body.players, dict(body.options), body.seats, body.names, body.undo, body.move_seconds)
    )
    return await created_answer(created)


async def created_answer(created: Created) -> JSONResponse:
    """``201 {"room", "token", "invites", "state"}``: a new room as its creator is told of it."""
    room = created.room
    async with room.lock:
        held = room.held_by(created.token)
        state = state_message(room, room.viewer(held, None), held)
    invites = [
        {"seat": seat, "code": code, "link": f"/rooms/{room.id}?invite={code}"} for seat, code in created.invites.items()
    ]
    return JSONResponse({"room": room.id, "token": created.token, "invites": invites, "state": state}, status_code=201)


@router.get("", response_model=list[RoomSummary], summary="list rooms")
async def list_rooms(
    service: Service,
    status: Literal["open", "playing", "finished", "all"] = Query("all", description="open: waiting for invited players"),
    game: Text | None = Query(None, max_length=64, description="only this game's rooms"),
    mine: Text | None = Query(
        None, max_length=400, description="the visitor's own rooms, comma-separated ids (at most 8): listed too"
    ),
) -> JSONResponse:
    """At most 100 rooms: those waiting for a player first, then those being played, then the
    finished ones, each newest first, and at most 3 of one creator (the lobby's fair share);
    and the rooms of ``mine`` that it leaves out, so that a visitor always finds their own."""
    own = [room_id for room_id in (mine or "").split(",") if room_id]
    if len(own) > MINE_LISTED:
        raise ServerError(f"mine: at most {MINE_LISTED} rooms, not {len(own)}")
    for room_id in own:
        if not ROOM_ID.fullmatch(room_id):
            raise ServerError(f"mine: {room_id[:40]!r} is not a room id")
    if game is not None:
        game_class(game)  # an unknown game is named as such (404), not listed as a game without rooms
    return JSONResponse(await service.list_rooms(status, game, own))


@router.get("/{room_id}", response_model=StateMessage, summary="the room's state as this token (or a spectator) sees it")
async def room_state(
    room_id: str,
    service: Service,
    token: Token,
    seat: int | None = Query(None, ge=0, le=15, description="whose view, among the token's seats"),
    log_start: LogFrom = 0,
) -> JSONResponse:
    return JSONResponse(log_from(await service.state(room_id, token, seat), log_start))


@router.post("/{room_id}/join", response_model=JoinedRoom, summary="take an invited seat with its invite code")
async def join_room(room_id: str, body: JoinRequest, service: Service, player: MaybePlayer) -> JSONResponse:
    """The code works once: the seat's token is in the answer and nowhere else. With
    ``X-Player-Key`` the seat is the remembered player's from the start (their name is then
    for the game's other players, not ``name``, which everybody sees)."""
    token, seat, state = await service.join(room_id, body.code, body.name, None if player is None else player.id)
    return JSONResponse({"room": room_id, "seat": seat, "token": token, "state": state})
