"""Playtests (:mod:`boardlab.server.playtests`): the form after a game (a seat's token), a
session's invitation and its rooms (anyone with the link), and the designers' sessions, view
and export (a designer's key: :mod:`boardlab.server.designers`), with the Playtests page."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import Field, StringConstraints

from ...core.errors import BoardlabError
from ...core.registry import load
from ...lab.playtest_form import FormAnswer
from ...lab.playtests import report_rows
from ..deps import Service, Token
from ..designers import DesignerOnly, require_designer
from ..errors import MissingTokenError, NotYourSeatError
from ..players import MaybePlayer
from ..playtests import PlaytestBook, check_session_seats
from ..schemas import CreatedRoom, ErrorResponse, OptionValue, SeatName, SeatNumber, Strict, Text, check_option_types
from ..service import NewRoom
from .rooms import created_answer

#: the pages are checked again on every visit (a new release's page, never a cached old one)
REVALIDATE = {"Cache-Control": "no-cache"}

router = APIRouter(tags=["playtests"], responses={"4XX": {"model": ErrorResponse}})
#: the designers' routes (their own page's API, documented in docs/playtests.md)
designers = APIRouter(
    prefix="/api/playtests",
    tags=["playtests"],
    responses={"4XX": {"model": ErrorResponse}},
    dependencies=[Depends(require_designer)],
)
pages = APIRouter(include_in_schema=False)
GameId = Annotated[Text, StringConstraints(min_length=1, max_length=64)]


class FormRequest(Strict):
    """One person's answers about a finished game; every question may be left out."""

    seat: int | None = SeatNumber
    fun: int | None = Field(None, ge=1, le=5, description="how much fun it was, 1 (none) to 5 (great)")
    fairness: Literal["fair", "favoured"] | None = Field(None, description="fair, or a seat was favoured (favoured)")
    favoured: int | None = Field(None, ge=0, le=15, description="with fairness 'favoured': the seat favoured")
    length: Literal["short", "right", "long"] | None = Field(None, description="too short, about right, too long")
    note: Annotated[Text, StringConstraints(max_length=1000)] = Field("", description="anything for the game's designer")


class SessionRequest(Strict):
    game: GameId = Field(description="a game id from GET /api/games")
    name: SeatName = Field(description="the session's name, unique for the game (e.g. 'Thursday club, short board')")
    players: int | None = Field(None, ge=1, le=16, description="the number of seats (default: the game's)")
    options: dict[Text, OptionValue] = Field(default_factory=dict, description="the variant: the game's options by name")


class SessionRoomRequest(Strict):
    seats: list[Literal["here", "invite"]] | None = Field(
        None, max_length=16, description="people only: here or invite per seat (default: here, then invite)"
    )
    names: list[SeatName] | None = Field(default=None, max_length=16, description="a display name per seat")
    move_seconds: float | None = Field(default=None, gt=0, le=86400, allow_inf_nan=False)


def _book(request: Request) -> PlaytestBook:
    book: PlaytestBook = request.app.state.playtests
    return book


# --- the form ------------------------------------------------------------------------------------
@router.get("/api/rooms/{room_id}/playtest", summary="the playtest form of the token's seats, and their answers")
async def form(room_id: str, request: Request, token: Token) -> dict[str, Any]:
    return await asyncio.to_thread(_book(request).form, room_id, _needed(room_id, token))


@router.put("/api/rooms/{room_id}/playtest", summary="answer the playtest form for a seat (after the game's end)")
async def answer(room_id: str, body: FormRequest, request: Request, token: Token, player: MaybePlayer) -> dict[str, Any]:
    """Replaces the seat's earlier answer. With ``X-Player-Key`` the answer is the player's (they
    may delete all of theirs at once). ``seat`` defaults to the token's only seat played by a person."""
    book = _book(request)
    held = _needed(room_id, token)
    seat = body.seat
    if seat is None:
        seats = [entry["seat"] for entry in (await asyncio.to_thread(book.form, room_id, held))["seats"]]
        if len(seats) != 1:
            raise NotYourSeatError(f"room {room_id}: this token holds seats {seats}; name the seat the answers are for")
        seat = seats[0]
    given = FormAnswer(seat, body.fun, body.fairness, body.favoured, body.length, body.note)
    return await asyncio.to_thread(book.answer, room_id, held, given, player)


@router.delete("/api/rooms/{room_id}/playtest", summary="delete a seat's answers")
async def delete_answer(
    room_id: str, request: Request, token: Token, seat: int = Query(ge=0, le=15, description="the seat whose answers go")
) -> dict[str, Any]:
    return await asyncio.to_thread(_book(request).delete_answer, room_id, _needed(room_id, token), seat)


def _needed(room_id: str, token: str | None) -> str:
    if token is None:
        raise MissingTokenError(f"room {room_id}: the playtest form is for its players (Authorization: Bearer TOKEN)")
    return token


# --- a session's invitation -----------------------------------------------------------------------
@router.get("/api/playtests/invitations/{session_id}", summary="the playtest session an invite link names")
async def invitation(session_id: str, request: Request) -> dict[str, Any]:
    found = await asyncio.to_thread(_book(request).open_for_rooms, session_id)
    keys = ("id", "game", "name", "players", "options", "variant")
    return {key: found[key] for key in keys}


@router.post(
    "/api/playtests/invitations/{session_id}/rooms", status_code=201, response_model=CreatedRoom,
    summary="start a game between people in a playtest session: the session's game and rules",
)
async def session_room(session_id: str, body: SessionRoomRequest, request: Request, service: Service) -> JSONResponse:
    found = await asyncio.to_thread(_book(request).open_for_rooms, session_id)
    kinds = check_session_seats(body.seats, found["players"])
    created = await service.create(
        NewRoom(found["game"], found["players"], dict(found["options"]), kinds, body.names, None, body.move_seconds,
                session=found["id"])
    )
    return await created_answer(created)


# --- the designers' ----------------------------------------------------------------------------------
@designers.post("/sessions", status_code=201, summary="open a playtest session: a game and its variant; the invite link")
async def open_session(body: SessionRequest, request: Request, designer: DesignerOnly) -> dict[str, Any]:
    check_option_types(body.game, body.options)
    game = load(body.game, players=body.players, **body.options)
    return await asyncio.to_thread(_book(request).open_session, game, body.name.strip(), designer)


@designers.get("/sessions", summary="the playtest sessions (of a game), the newest first")
async def list_sessions(request: Request, game: GameId | None = Query(None)) -> list[dict[str, Any]]:
    return await asyncio.to_thread(_book(request).sessions, game)


@designers.post("/sessions/{session_id}/close", summary="close a session: its link makes no more games")
async def close_session(session_id: str, request: Request) -> dict[str, Any]:
    return await asyncio.to_thread(_book(request).close_session, session_id[:40])


@designers.get("/games/{game_id}", summary="people's games of a game beside the lab's: figures, the form, the verdict")
async def report(game_id: str, request: Request, session: str | None = Query(None, max_length=32)) -> JSONResponse:
    load(game_id)  # an unknown game is refused by name
    return JSONResponse(await asyncio.to_thread(_book(request).report, game_id, session))


@designers.get("/games/{game_id}/export", summary="the records and answers: JSON (records) or CSV (one row per person per game)")
async def export(
    game_id: str,
    request: Request,
    kind: Literal["json", "csv"] = Query("json", alias="format"),
    session: str | None = Query(None, max_length=32),
) -> Response:
    load(game_id)
    book = _book(request)
    suffix = f"-{session}" if session else ""
    if kind == "csv":
        rows = report_rows(await asyncio.to_thread(book.report, game_id, session))
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=list(rows[0]) if rows else ["game"])
        writer.writeheader()
        writer.writerows(rows)
        disposition = f'attachment; filename="boardlab-playtests-{game_id}{suffix}.csv"'
        return Response(text.getvalue(), media_type="text/csv", headers={"Content-Disposition": disposition})
    records = await asyncio.to_thread(book.export_records, game_id, session)
    body = {"format": "boardlab-playtests-export/1", "game": game_id, "records": [record.to_json() for record in records]}
    disposition = f'attachment; filename="boardlab-playtests-{game_id}{suffix}.json"'
    return Response(json.dumps(body), media_type="application/json", headers={"Content-Disposition": disposition})


# --- pages ----------------------------------------------------------------------------------------------
def _static(request: Request, name: str) -> FileResponse:
    return FileResponse(Path(request.app.state.settings.static_dir) / name, media_type="text/html", headers=REVALIDATE)


@pages.get("/playtests/{game_id}")
def playtests_page(game_id: str, request: Request) -> Response:
    """The designer's Playtests page of a game (static/playtests.html): its figures come from the
    designers' API, so a visitor who is not signed in sees how to sign in and nothing else."""
    try:
        load(game_id)
    except BoardlabError:
        return Response(f"there is no game {game_id[:40]!r}", status_code=404, media_type="text/plain")
    return _static(request, "playtests.html")


@pages.get("/player")
def player_page(request: Request) -> FileResponse:
    """A remembered player's games and answers (static/player.html; the key is the browser's)."""
    return _static(request, "player.html")


__all__ = ["designers", "pages", "router"]
