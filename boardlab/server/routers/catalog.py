"""``/api/games``: the games, their options and the computer's levels, from the registry, with
what the browser pages need of each (its description, rules page and renderer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request

from ...core.registry import catalog, game_class, load
from ..levels import level_table
from ..web import web_entry

router = APIRouter(prefix="/api/games", tags=["games"])


def _entry(description: dict[str, Any], rules_dir: Path | None) -> dict[str, Any]:
    game = load(description["id"])
    return {**description, "levels": level_table(game), **web_entry(description["id"], rules_dir)}


@router.get("", summary="every game: id, name, player counts, nature, options, levels and its pages")
def list_games(request: Request) -> list[dict[str, Any]]:
    rules_dir = request.app.state.settings.rules_dir
    return [_entry(description, rules_dir) for description in catalog()]


@router.get("/{game_id}", summary="one game (unknown_game lists the valid ids)")
def one_game(game_id: str, request: Request) -> dict[str, Any]:
    return _entry(game_class(game_id).describe(), request.app.state.settings.rules_dir)
