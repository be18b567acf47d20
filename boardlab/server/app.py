"""The FastAPI app: :func:`create_app` builds one from its settings (and optionally a storage),
with no global state, so tests build as many as they like."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from .. import __version__
from ..core.errors import BoardlabError
from .analysis import Analyses, Hints
from .computer import ComputerPlayers
from .designers import DesignerKeys, admin_key
from .errors import ERROR_STATUS, BusyError, error_body, status_for
from .labjobs import LabJobs, LabLimits
from .labpages import ReportPages
from .limits import BodyLimit
from .players import PlayerBook
from .playtests import PlaytestBook
from .ratelimits import ANALYSES, MESSAGES, MOVES, READS, ROOMS, WEBSOCKETS, AddressLimits, ClientLimits
from .replays import Replays
from .routers import actions, analysis, catalog, designers, lab, live, pages, players, playtests, records, rematch, rooms
from .schemas import BAD_TEXT, unstorable
from .security import SecurityHeaders, hide_secrets_in_logs, security_headers
from .service import RoomService
from .settings import Settings
from .shared import SharedAnswers
from .storage import Storage

log = logging.getLogger("boardlab.server")

DESCRIPTION = """Online rooms for every boardlab game: seats for people here, invited people
and the computer; live updates over a WebSocket; storage that survives a restart.
Errors are `{"error": {"code", "message"}}` with stable codes (docs/server.md)."""


def create_app(settings: Settings | None = None, storage: Storage | None = None) -> FastAPI:
    """The server as an ASGI app. ``storage`` defaults to the one ``settings`` names."""
    settings = settings or Settings()
    storage = storage or Storage(settings.storage_url())
    server_secret = admin_key(settings.data_dir, settings.admin_key)[0]
    service = RoomService(settings, storage, ComputerPlayers(settings.computer_workers), server_secret=server_secret)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hide_secrets_in_logs()
        await service.start()
        await app.state.lab.start()
        try:
            yield
        finally:
            await app.state.lab.close()
            await service.close()

    app = FastAPI(title="boardlab", version=__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    app.state.storage = storage
    app.state.service = service
    app.state.replays = Replays(service.computer)
    app.state.analyses = Analyses(service.computer)
    app.state.hints = Hints()
    # the server's designers (the Lab's): the admin key registered at every start
    app.state.designers = DesignerKeys(storage)
    app.state.designers.register_admin(server_secret)
    # studies started from the Lab page: played one at a time at the lowest priority (docs/lab.md)
    app.state.lab = LabJobs(settings.data_dir / "lab", lab_limits(settings))
    app.state.lab_report_pages = ReportPages()
    # players who come back, and the playtests (docs/playtests.md): the designers' view beside the Lab's studies
    app.state.players = PlayerBook(storage)
    app.state.playtests = PlaytestBook(storage, app.state.players, settings.data_dir / "lab")
    for module in (catalog, rooms, actions, rematch, records, analysis, live, lab, designers, players, playtests):
        app.include_router(module.router)
    app.include_router(playtests.designers)
    _handle_errors(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, seconds=settings.body_seconds)
    # the catalog and the lessons, the same for everybody: made once a minute, not once a request
    app.add_middleware(SharedAnswers)
    # outside BodyLimit: a client over its limits is refused before its body is read. The same
    # buckets charge each WebSocket message where the socket reads it (routers/live.py)
    app.state.address_limits = _address_limits(settings)
    app.add_middleware(ClientLimits, limits=app.state.address_limits, trusted_proxies=frozenset(settings.trusted_proxies))
    app.add_middleware(SecurityHeaders)  # added last: outside BodyLimit, so its refusals get them too
    if settings.static_dir is not None and settings.static_dir.is_dir():
        # the browser pages (docs/web.md): a room's page, the games' renderers, the rules; then
        # the app shell, mounted last so that /api and /docs come first
        app.include_router(pages.router)
        app.include_router(lab.pages)
        app.include_router(playtests.pages)
        app.mount("/", StaticFiles(directory=settings.static_dir, html=True), name="static")
    return app


def lab_limits(settings: Settings) -> LabLimits:
    """The Lab's share of the computer, from the settings."""
    return LabLimits(
        queued_games_per_designer=settings.lab_games_per_designer,
        cpu_seconds_per_designer=settings.lab_cpu_minutes_per_designer * 60.0,
        decision_seconds=settings.lab_decision_seconds,
    )


def _address_limits(settings: Settings) -> AddressLimits:
    rates = {
        ROOMS: settings.rooms_per_minute,
        MOVES: settings.moves_per_minute,
        WEBSOCKETS: settings.websockets_per_minute,
        MESSAGES: settings.messages_per_minute,
        ANALYSES: settings.analyses_per_minute,
        READS: settings.reads_per_minute,
    }
    return AddressLimits(rates, settings.max_open_per_address, settings.clock, per_day={ROOMS: settings.rooms_per_day})


def _handle_errors(app: FastAPI) -> None:
    """One place that turns every refusal into ``{"error": {"code", "message"}}``."""

    @app.exception_handler(BoardlabError)
    async def boardlab_error(_request: Request, exc: BoardlabError) -> JSONResponse:
        headers = exc.headers() if isinstance(exc, BusyError) else None
        return JSONResponse(error_body(exc.code, str(exc)), status_code=status_for(exc), headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        broken = [error for error in errors if error.get("type") == "json_invalid"]
        if broken:
            detail = broken[0].get("ctx", {}).get("error", broken[0].get("msg", ""))
            body = error_body("bad_json", f"the body is not valid JSON: {detail}")
            return JSONResponse(body, status_code=ERROR_STATUS["bad_json"])
        # text storage cannot keep has a code of its own (the other branches of a union that
        # refused it are noise beside it)
        unstorable = [error for error in errors if error.get("type") in (BAD_TEXT, "string_unicode")]
        code = BAD_TEXT if unstorable else "bad_request"
        problems = "; ".join(_describe(error) for error in (unstorable or errors)[:5])
        return JSONResponse(error_body(code, problems), status_code=ERROR_STATUS[code])

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 400:  # FastAPI's only 400: a body it could not decode
            message = f"the body is not valid JSON: {exc.detail}"
            return JSONResponse(error_body("bad_json", message), status_code=ERROR_STATUS["bad_json"])
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
        return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        message = "the server failed to handle the request; nothing was changed"
        # this answer is sent from outside every middleware: it brings its own headers
        return JSONResponse(
            error_body("internal_error", message),
            status_code=ERROR_STATUS["internal_error"],
            headers=security_headers(request.url.path),
        )


def _describe(error: Mapping[str, Any]) -> str:
    """One validation problem as ``field: what is wrong``."""
    where = ".".join(_shown(part) for part in error.get("loc", ()) if part != "body" and not _internal(part))
    message = str(error.get("msg", "invalid"))
    if error.get("type") == "missing" and not where:
        return "a JSON body is required"
    if error.get("type") == "extra_forbidden":
        message = "unknown field"
    if error.get("type") == "string_unicode":  # pydantic's own check of a length meets it first
        message = "the text holds a lone surrogate (U+D800 to U+DFFF), which cannot be stored"
    if error.get("type") == "bad_name":
        # said as a person would, "seat 1's name", not as the field's path "names.1"
        place = [part for part in error.get("loc", ()) if part != "body" and not _internal(part)]
        if len(place) == 2 and place[0] == "names" and isinstance(place[1], int):
            return f"seat {place[1]}'s name: {message}"
        if place == ["name"]:
            return message  # the one name the request gives: its field says nothing more
    return f"{where or 'body'}: {message}"


def _internal(part: Any) -> bool:
    """pydantic's name for a validator in an error's place (not a field)."""
    return isinstance(part, str) and part.startswith("function-")


def _shown(part: Any) -> str:
    """A part of an error's place (a field, an index, a key of the request's own): a key holding
    what cannot be encoded or stored is shown escaped, never echoed."""
    text = str(part)
    return ascii(text) if unstorable(text) is not None else text


__all__ = ["create_app"]
