"""The Lab in the browser: ``/api/lab`` to start a study and follow it, and the Lab's pages
(``/lab``, a study's report, its games' replays). The studies themselves are
:class:`~boardlab.server.labjobs.LabJobs`'s: stored, played in turn at low priority.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import Field, StringConstraints, field_validator

from ...core.errors import BoardlabError
from ...core.match import Match
from ...core.records import Record
from ...lab.report import render_html
from ..designers import SIGN_IN_HELP, DesignerOnly, MaybeDesigner, require_designer
from ..labfolder import STUDY_FOLDER, check_request
from ..labjobs import LabJobs, LabRefused, LabStudyNotFound
from ..labpages import ReportPages
from ..replays import BadMoveNumberError, replay_views
from ..schemas import ErrorResponse, Strict, Text, check_option_types

# the Lab page's own API, documented with the page in docs/lab.md ("The Lab in the browser");
# left out of /docs, whose routes docs/server.md lists for players' clients. Every route is a
# designer's (designers.py): the Lab plays games on the server's CPU
router = APIRouter(
    prefix="/api/lab",
    tags=["lab"],
    include_in_schema=False,
    responses={"4XX": {"model": ErrorResponse}},
    dependencies=[Depends(require_designer)],
)
pages = APIRouter(include_in_schema=False)

#: a record's name inside a study folder, as the lab's StudyFolder writes it
RECORD_NAME = re.compile(r"records/[A-Za-z0-9_.=+-]{1,200}\.json")
#: the replays kept in memory (views of every move of a game)
REPLAYS_KEPT = 4
#: the most values one varied option may list, and variants a body may ask for before the
#: server's own limit is checked (GET /api/lab/limits): bounds the body before anything expands it
MAX_VARIED_VALUES = 16
OptionName = Annotated[Text, StringConstraints(min_length=1, max_length=40)]
LabValue = bool | int | float | Annotated[Text, StringConstraints(max_length=100)]
AgentSpec = Annotated[Text, StringConstraints(min_length=1, max_length=200)]


class LabStudyRequest(Strict):
    """A study to play: as ``boardlab lab`` takes it, with each option's value of its own JSON
    type (a number for a number, true or false for a switch)."""

    game: Text = Field(max_length=40, description="game id")
    agents: list[AgentSpec] = Field(min_length=1, max_length=8, description="agent specs or levels, repeated around the table")
    players: int | None = Field(None, ge=1, le=8, description="number of seats (default: the game's)")
    options: dict[OptionName, LabValue] = Field(default_factory=dict, max_length=40, description="rule options for every variant")
    vary: dict[OptionName, list[LabValue]] = Field(
        default_factory=dict, max_length=3, description="option -> values: a variant per combination"
    )
    games: int = Field(ge=1, le=100_000, description="games per variant (the server caps it: GET /api/lab/limits)")
    seed: int = Field(0, ge=0, le=2**62)

    @field_validator("vary")
    @classmethod
    def _few_values(cls, vary: dict[str, list[Any]]) -> dict[str, list[Any]]:
        for name, values in vary.items():
            if len(values) > MAX_VARIED_VALUES:
                raise ValueError(f"{name}: at most {MAX_VARIED_VALUES} values")
        return vary


class LabMoreGamesRequest(Strict):
    """Games to add to a finished study: the same study, played on from the games it holds."""

    # no upper bound here: the Lab's own check says how many more this study may take
    games: int = Field(ge=1, description="games to add to each variant (GET /api/lab/limits: the caps)")


def _jobs(request: Request) -> LabJobs:
    jobs: LabJobs = request.app.state.lab
    return jobs


@router.get("/limits", summary="the share of the computer the Lab may take")
def limits(request: Request) -> dict[str, float]:
    return _jobs(request).limits.to_json()


@router.get("/studies", summary="every Lab study on this server, the newest first")
def list_studies(request: Request, designer: DesignerOnly) -> list[dict[str, Any]]:
    return _jobs(request).all(designer)


@router.post("/studies", status_code=201, summary="start a study (it waits its turn; bad_request names what is wrong)")
def create_study(body: LabStudyRequest, request: Request, designer: DesignerOnly) -> dict[str, Any]:
    jobs = _jobs(request)
    data = body.model_dump()
    data["agents"] = [spec.strip() for spec in data["agents"]]
    try:
        # everything that bounds the study's size is checked before any variant is made
        check_request(data, jobs.limits.max_variants)
        check_option_types(data["game"], {**data["options"]}, "option")
        for name, values in data["vary"].items():
            for value in values:
                check_option_types(data["game"], {name: value}, "vary")
    except BoardlabError as exc:
        raise LabRefused(str(exc)) from None
    return jobs.create(data, designer)


@router.get("/studies/{study_id}", summary="a study's state, progress and (once finished) verdict")
def one_study(study_id: str, request: Request, designer: DesignerOnly) -> dict[str, Any]:
    return _jobs(request).status(study_id, designer)


@router.post("/studies/{study_id}/stop", summary="stop a study: its report covers the games played so far")
def stop_study(study_id: str, request: Request, designer: DesignerOnly) -> dict[str, Any]:
    return _jobs(request).stop(study_id, designer)


@router.post("/studies/{study_id}/continue", summary="continue a stopped study from the games it holds")
def continue_study(study_id: str, request: Request, designer: DesignerOnly) -> dict[str, Any]:
    return _jobs(request).resume(study_id, designer)


@router.post("/studies/{study_id}/extend", summary="add games to a finished study: its games are kept, the new ones played")
def extend_study(study_id: str, body: LabMoreGamesRequest, request: Request, designer: DesignerOnly) -> dict[str, Any]:
    return _jobs(request).extend(study_id, body.games, designer)


@router.delete("/studies/{study_id}", status_code=204, summary="delete a study, its games and report")
def delete_study(study_id: str, request: Request, designer: DesignerOnly) -> Response:
    _jobs(request).delete(study_id, designer)
    _report_pages(request).forget(study_id)
    return Response(status_code=204)


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
    move: int = Query(ge=0, description="after this many log entries (0: the start; a roll or a deal is one too)"),
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
    return {
        "study": study_id,
        "record": record,
        "game": game_id,
        "move": move,
        "moves": len(views) - 1,
        "view": views[move],
        "log": log[:move],
    }


# --- pages -------------------------------------------------------------------------------
REVALIDATE = {"Cache-Control": "no-cache"}


def _static(request: Request, name: str) -> FileResponse:
    return FileResponse(Path(request.app.state.settings.static_dir) / name, media_type="text/html", headers=REVALIDATE)


@pages.get("/lab")
def lab_page(request: Request) -> FileResponse:
    """Start a study, watch it, read its verdict (static/lab.html)."""
    return _static(request, "lab.html")


@pages.get("/lab/{study_id}/replay")
def lab_replay_page(study_id: str, request: Request, designer: MaybeDesigner) -> Response:
    """A study game's replay (static/lab-replay.html reads the study and record from the address)."""
    if designer is None:
        return _sign_in_page()
    _jobs(request).folder(study_id)
    return _static(request, "lab-replay.html")


@pages.get("/lab/{study_id}/report", response_class=HTMLResponse)
def lab_report(study_id: str, request: Request, designer: MaybeDesigner) -> HTMLResponse:
    """The study's report, its games linked to their replays here."""
    if designer is None:
        return _sign_in_page()
    folder = _jobs(request).folder(study_id) / STUDY_FOLDER

    def replay_url(record: str) -> str:
        return f"/lab/{study_id}/replay?record={record}"

    def draw(text: str) -> str:
        page = render_html(json.loads(text), replay_url=replay_url, study_id=study_id)
        # to the study's own card, where its owner adds games to it
        back = f'<p><a href="/lab#study-{study_id}">Back to the Lab</a></p>'
        return page.replace("<body>", f"<body>{back}", 1)

    try:
        page = _report_pages(request).page(study_id, folder / "report.json", draw)
    except (OSError, ValueError):
        raise LabStudyNotFound(f"lab study {study_id} has no report yet") from None
    return HTMLResponse(page, headers=REVALIDATE)


def _report_pages(request: Request) -> ReportPages:
    report_pages: ReportPages = request.app.state.lab_report_pages
    return report_pages


@pages.get("/lab/{study_id}/records/{name}", dependencies=[Depends(require_designer)])
def lab_record(study_id: str, name: str, request: Request) -> FileResponse:
    """A study game's record (what ``boardlab replay`` reads)."""
    path = _record_path(_jobs(request), study_id, f"records/{name}")
    return FileResponse(path, media_type="application/json", filename=f"boardlab-lab-{study_id}-{name}")


def _sign_in_page() -> HTMLResponse:
    """What a Lab page says to a visitor who is not signed in as a designer."""
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>boardlab: sign in to the Lab</title>'
        '<link rel="stylesheet" href="/css/boardlab.css"></head><body><main class="lab"><h1>Sign in to the Lab</h1>'
        f"<p>{html.escape(SIGN_IN_HELP[0].upper() + SIGN_IN_HELP[1:])}.</p>"
        '<p><a href="/lab">Sign in on the Lab page</a></p></main></body></html>'
    )
    return HTMLResponse(page, status_code=401, headers=REVALIDATE)


__all__ = ["pages", "router"]
