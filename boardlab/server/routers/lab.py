"""The Lab in the browser: ``/api/lab`` to start a study and follow it, and the Lab's pages
(``/lab``, a study's report, its games' replays). The studies themselves are
:class:`~boardlab.server.labjobs.LabJobs`'s: stored, played in turn at low priority.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import BoardlabError
from ...core.match import Match
from ...core.records import Record
from ...lab.report import render_html
from ..labjobs import STUDY_FOLDER, LabJobs, LabRefused, LabStudyNotFound, check_request
from ..replays import BadMoveNumberError, replay_views
from ..schemas import ErrorResponse

# the Lab page's own API, documented with the page in docs/lab.md ("The Lab in the browser");
# left out of /docs, whose routes docs/server.md lists for players' clients
router = APIRouter(prefix="/api/lab", tags=["lab"], include_in_schema=False, responses={"4XX": {"model": ErrorResponse}})
pages = APIRouter(include_in_schema=False)

#: a record's name inside a study folder, as the lab's StudyFolder writes it
RECORD_NAME = re.compile(r"records/[A-Za-z0-9_.=+-]{1,200}\.json")
#: the replays kept in memory (views of every move of a game)
REPLAYS_KEPT = 4
Value = bool | int | str


class LabStudyRequest(BaseModel):
    """A study to play: as ``boardlab lab`` takes it."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=40, description="game id")
    agents: list[str] = Field(min_length=1, max_length=4, description="agent specs or levels, repeated around the table")
    players: int | None = Field(None, ge=1, le=8, description="number of seats (default: the game's)")
    options: dict[str, Value] = Field(default_factory=dict, max_length=40, description="rule options for every variant")
    vary: dict[str, list[Value]] = Field(
        default_factory=dict, max_length=3, description="option -> values: a variant per combination"
    )
    games: int = Field(ge=1, le=100_000, description="games per variant (the server caps it: GET /api/lab/limits)")
    seed: int = Field(0, ge=0, le=2**62)


def _jobs(request: Request) -> LabJobs:
    jobs: LabJobs = request.app.state.lab
    return jobs


@router.get("/limits", summary="the share of the computer the Lab may take")
def limits(request: Request) -> dict[str, int]:
    return _jobs(request).limits.to_json()


@router.get("/studies", summary="every Lab study on this server, the newest first")
def list_studies(request: Request) -> list[dict[str, Any]]:
    return _jobs(request).all()


@router.post("/studies", status_code=201, summary="start a study (it waits its turn; bad_request names what is wrong)")
def create_study(body: LabStudyRequest, request: Request) -> dict[str, Any]:
    data = body.model_dump()
    data["agents"] = [spec.strip() for spec in data["agents"]]
    data["vary"] = {name: [str(value) for value in values] for name, values in data["vary"].items()}
    try:
        check_request(data)
    except BoardlabError as exc:
        raise LabRefused(str(exc)) from None
    return _jobs(request).create(data)


@router.get("/studies/{study_id}", summary="a study's state, progress and (once finished) verdict")
def one_study(study_id: str, request: Request) -> dict[str, Any]:
    return _jobs(request).status(study_id)


@router.post("/studies/{study_id}/stop", summary="stop a study: its report covers the games played so far")
def stop_study(study_id: str, request: Request) -> dict[str, Any]:
    return _jobs(request).stop(study_id)


@router.post("/studies/{study_id}/continue", summary="continue a stopped study from the games it holds")
def continue_study(study_id: str, request: Request) -> dict[str, Any]:
    return _jobs(request).resume(study_id)


def _record_path(jobs: LabJobs, study_id: str, record: str) -> Path:
    if not RECORD_NAME.fullmatch(record):
        raise LabStudyNotFound(f"lab study {study_id}: no record {record[:80]!r}")
    path = jobs.folder(study_id) / STUDY_FOLDER / record
    if not path.is_file():
        raise LabStudyNotFound(f"lab study {study_id}: no record {record[:80]!r}")
    return path


def _replay(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """Every view of a finished game as a spectator saw it, its log as spectators read it, its game."""
    record = Record.load(path)
    match = Match.from_record(record, [None] * record.players)
    return replay_views(record, None), match.log_json(None), record.game_id


@router.get("/studies/{study_id}/replay", summary="a study game's view after move N (the browser's replay)")
async def replay(
    study_id: str,
    request: Request,
    record: str = Query(max_length=220, description="the record inside the study: records/NAME.json"),
    move: int = Query(ge=0, description="the number of moves played (0: the start)"),
) -> dict[str, Any]:
    jobs = _jobs(request)
    path = _record_path(jobs, study_id, record)
    kept = jobs.replays
    async with jobs.replay_lock:  # one replay at a time: two visitors of one game share it
        if path not in kept:
            kept[path] = await asyncio.to_thread(_replay, path)
            while len(kept) > REPLAYS_KEPT:
                kept.popitem(last=False)
        kept.move_to_end(path)
        views, log, game_id = kept[path]
    if move >= len(views):
        raise BadMoveNumberError(f"{record}: move {move} does not exist; the game has moves 0..{len(views) - 1}")
    return {"study": study_id, "record": record, "game": game_id, "move": move, "moves": len(views) - 1,
            "view": views[move], "log": log[:move]}


# --- pages -------------------------------------------------------------------------------
REVALIDATE = {"Cache-Control": "no-cache"}


def _static(request: Request, name: str) -> FileResponse:
    return FileResponse(Path(request.app.state.settings.static_dir) / name, media_type="text/html", headers=REVALIDATE)


@pages.get("/lab")
def lab_page(request: Request) -> FileResponse:
    """Start a study, watch it, read its verdict (static/lab.html)."""
    return _static(request, "lab.html")


@pages.get("/lab/{study_id}/replay")
def lab_replay_page(study_id: str, request: Request) -> FileResponse:
    """A study game's replay (static/lab-replay.html reads the study and record from the address)."""
    _jobs(request).folder(study_id)
    return _static(request, "lab-replay.html")


@pages.get("/lab/{study_id}/report", response_class=HTMLResponse)
def lab_report(study_id: str, request: Request) -> HTMLResponse:
    """The study's report, its games linked to their replays here."""
    folder = _jobs(request).folder(study_id) / STUDY_FOLDER
    try:
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise LabStudyNotFound(f"lab study {study_id} has no report yet") from None
    page = render_html(report, replay_url=lambda record: f"/lab/{study_id}/replay?record={record}")
    back = '<p><a href="/lab">Back to the Lab</a></p>'
    return HTMLResponse(page.replace("<body>", f"<body>{back}", 1), headers=REVALIDATE)


@pages.get("/lab/{study_id}/records/{name}")
def lab_record(study_id: str, name: str, request: Request) -> FileResponse:
    """A study game's record (what ``boardlab replay`` reads)."""
    path = _record_path(_jobs(request), study_id, f"records/{name}")
    return FileResponse(path, media_type="application/json", filename=f"boardlab-lab-{study_id}-{name}")


__all__ = ["pages", "router"]
