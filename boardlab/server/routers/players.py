"""``/api/players``: players who come back (:mod:`boardlab.server.players`): a name and a key
the browser keeps, the player's games, their answers to the playtest form; and a room's
players' names, for its own players and the designers only."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from ..deps import Token
from ..designers import MaybeDesigner
from ..errors import MissingTokenError
from ..players import PlayerBook, PlayerOnly, seats_held
from ..playtests import PlaytestBook
from ..schemas import ErrorResponse, SeatName, Strict

router = APIRouter(tags=["players"], responses={"4XX": {"model": ErrorResponse}})


class PlayerName(Strict):
    name: SeatName = Field(description="the name the other players of your games see (nobody else)")


def _book(request: Request) -> PlayerBook:
    book: PlayerBook = request.app.state.players
    return book


def _playtests(request: Request) -> PlaytestBook:
    book: PlaytestBook = request.app.state.playtests
    return book


@router.post("/api/players", status_code=201, summary="be remembered: a name, and a key for this browser (shown once)")
async def create_player(body: PlayerName, request: Request) -> JSONResponse:
    """No password and nothing else: the key (keep it in the browser; storage keeps its hash)
    goes in ``X-Player-Key`` on the routes below."""
    player, key = await asyncio.to_thread(_book(request).create, body.name)
    return JSONResponse({**player.to_json(), "key": key}, status_code=201)


@router.get("/api/players/me", summary="who the X-Player-Key is")
def me(player: PlayerOnly) -> dict[str, Any]:
    return player.to_json()


@router.patch("/api/players/me", summary="change your name")
async def rename(body: PlayerName, request: Request, player: PlayerOnly) -> dict[str, Any]:
    return (await asyncio.to_thread(_book(request).rename, player, body.name)).to_json()


@router.delete("/api/players/me", status_code=204, summary="forget me: my name, my links to games, my answers")
async def forget(request: Request, player: PlayerOnly) -> Response:
    await asyncio.to_thread(_book(request).forget, player)
    return Response(status_code=204)


@router.get("/api/players/me/games", summary="my games on this server, the latest first, with their results")
async def my_games(request: Request, player: PlayerOnly) -> JSONResponse:
    return JSONResponse(await asyncio.to_thread(_book(request).games, player))


@router.get("/api/players/me/answers", summary="every answer I gave to the playtest form")
async def my_answers(request: Request, player: PlayerOnly) -> JSONResponse:
    return JSONResponse(await asyncio.to_thread(_playtests(request).player_answers, player))


@router.delete("/api/players/me/answers", summary="delete every answer I gave to the playtest form")
async def delete_my_answers(request: Request, player: PlayerOnly) -> dict[str, int]:
    return {"deleted": await asyncio.to_thread(_playtests(request).delete_player_answers, player)}


@router.post("/api/rooms/{room_id}/player", summary="say the token's seats are mine (X-Player-Key and the seat token)")
async def link_seats(room_id: str, request: Request, player: PlayerOnly, token: Token) -> dict[str, Any]:
    if token is None:
        raise MissingTokenError(f"room {room_id}: linking a seat needs its token (Authorization: Bearer TOKEN)")
    seats = await asyncio.to_thread(_book(request).link, player, room_id, token)
    return {"room": room_id, "seats": seats}


@router.get("/api/rooms/{room_id}/players", summary="the remembered players' names in the room (its players and designers)")
async def room_players(room_id: str, request: Request, token: Token, designer: MaybeDesigner) -> dict[str, Any]:
    """``{"room", "names": {seat: name}}``: a seat token of the room, or a designer's key, is
    needed: a player's name is for the other players of the game, and the designers."""
    book = _book(request)
    if token is not None:

        def check() -> None:
            with book.storage.engine.connect() as conn:
                seats_held(conn, room_id, token)

        await asyncio.to_thread(check)
    elif designer is None:
        raise MissingTokenError(f"room {room_id}: its players' names are for its players (a seat token) and designers")
    names = await asyncio.to_thread(book.names, room_id)
    return {"room": room_id, "names": {str(seat): name for seat, name in names.items()}}


__all__ = ["router"]
