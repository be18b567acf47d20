"""``/api/games``: the games, their options and the computer's levels, from the registry, with
what the browser pages need of each (its description, rules page and renderer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request

from ...core.registry import catalog, game_class, load
from ...learn import lesson_path
from ..levels import level_table
from ..web import web_entry
from . import lessons

router = APIRouter(prefix="/api/games", tags=["games"])


def _entry(description: dict[str, Any], rules_dir: Path | None) -> dict[str, Any]:
    game = load(description["id"])
    lesson_page = f"/learn/{game.id}" if lesson_path(game.id) else None
    return {**description, "levels": level_table(game), **web_entry(description["id"], rules_dir), "lesson_page": lesson_page}


@router.get("", summary="every game: id, name, player counts, nature, options, levels and its pages")
def list_games(request: Request) -> list[dict[str, Any]]:
    rules_dir = request.app.state.settings.rules_dir
    return [_entry(description, rules_dir) for description in catalog()]


@router.get("/{game_id}", summary="one game (unknown_game lists the valid ids)")
def one_game(game_id: str, request: Request) -> dict[str, Any]:
    return _entry(game_class(game_id).describe(), request.app.state.settings.rules_dir)


# a game's lesson: /api/games/{game}/lesson (docs/learn.md)
router.include_router(lessons.router)
