"""The lessons in the browser (docs/learn.md): ``/learn/{game}`` is the lesson page, and
``/api/games/{game}/lesson`` gives it each step's position as a state message (what a game's
renderer draws) and judges the moves tried there. A lesson belongs to its game, so these routes
join the catalog's router (``/api/games``) and the page joins the pages' router. A lesson holds
no secret and changes nothing on the server, so these routes need no token: every request is
answered from the lesson file and the rules alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import Field

from ...core.state import MAX_MOVE_TEXT, State
from ...learn import PRACTICE_LEVEL, Lesson, LessonError, load_lesson
from ..errors import ServerError
from ..schemas import ErrorResponse, Strict, Text

#: included by the catalog's router, under its prefix /api/games
router = APIRouter(tags=["lessons"], responses={"4XX": {"model": ErrorResponse}})
#: the page itself, served beside the app shell (only where the server has its static folder)
page_router = APIRouter(include_in_schema=False)

#: the lesson page's file in the app shell
LESSON_PAGE = "learn.html"


class NoLessonError(ServerError):
    code = "not_found"


class TryRequest(Strict):
    move: Text = Field(min_length=1, max_length=MAX_MOVE_TEXT, description="the move in the game's notation")


def _lesson(game_id: str) -> Lesson:
    """The game's lesson; unknown_game for an id that is not registered, not_found without one."""
    try:
        return load_lesson(game_id)
    except LessonError as exc:
        raise NoLessonError(str(exc)) from None


def _index(lesson: Lesson, number: int) -> int:
    if not 1 <= number <= len(lesson.steps):
        raise NoLessonError(f"the {lesson.game_id} lesson has steps 1-{len(lesson.steps)}, not {number}")
    return number - 1


def state_message(lesson: Lesson, state: State, seat: int, revision: int) -> dict[str, Any]:
    """A position as the play page's state message (docs/server.md) seen by ``seat``, so that
    the game's renderer draws it as in a real game; its legal moves only while ``seat`` decides."""
    game = lesson.game()
    deciding = state.current_player() == seat
    return {
        "type": "state",
        "room": None,
        "game": lesson.game_id,
        "status": "finished" if state.is_over() else "playing",
        "revision": revision,
        "ply": state.ply,
        "seat": seat,
        "your_seats": [seat],
        "seats": [
            {"seat": other, "name": game.player_name(other), "kind": "here" if other == seat else "lesson", "joined": True}
            for other in range(game.num_players)
        ],
        "to_move": state.current_player() if state.current_player() >= 0 else None,
        "thinking": False,
        "view": state.view(seat),
        "legal_moves": [move.to_json() for move in state.legal_moves()] if deciding else [],
        "log": [],
    }


@router.get("/{game_id}/lesson", summary="a game's lesson: every step with its position as a state message")
def one_lesson(game_id: str) -> dict[str, Any]:
    lesson = _lesson(game_id)
    steps = []
    for index, step in enumerate(lesson.steps):
        state = lesson.state(index)
        seat = state.current_player()
        steps.append({**step.to_json(), "seat": seat, "state": state_message(lesson, state, seat, step.number * 100)})
    return {
        "game": lesson.game_id,
        "name": lesson.game().name,
        "title": lesson.title,
        "intro": lesson.intro,
        "outro": lesson.outro,
        "options": dict(lesson.options),
        "practice": {"level": PRACTICE_LEVEL, "seats": ["here", f"computer:{PRACTICE_LEVEL}"], "undo": "own"},
        "steps": steps,
    }


@router.post("/{game_id}/lesson/steps/{number}/try", summary="judge a move tried in a lesson's step")
def try_move(game_id: str, number: int, body: TryRequest) -> dict[str, Any]:
    """``outcome`` is ``done`` (the task is done), ``not_done`` (legal, but it misses the task)
    or ``illegal`` (the game refuses it); ``message`` says so in words, citing the rule. A
    legal move comes back with the position it leads to (``state``), for the page to show."""
    lesson = _lesson(game_id)
    index = _index(lesson, number)
    attempt = lesson.attempt(index, body.move)
    seat = lesson.mover(index)
    after = None
    if attempt.after is not None:
        after = state_message(lesson, attempt.after, seat, number * 100 + 1)
    return {
        "outcome": attempt.outcome,
        "message": attempt.message,
        "move": attempt.move.to_json() if attempt.move is not None else None,
        "state": after,
    }


@page_router.get("/learn/{game_id}")
def lesson_page(game_id: str, request: Request) -> FileResponse:
    """The lesson page; the script reads the game from the address (a missing lesson is the
    page's to report, from the API's answer)."""
    static_dir: Path = request.app.state.settings.static_dir
    return FileResponse(static_dir / LESSON_PAGE, media_type="text/html", headers={"Cache-Control": "no-cache"})


__all__ = ["page_router", "router", "state_message"]
