"""``/api/games``: the games, their options and the computer's levels, from the registry."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...core.registry import catalog, game_class, load
from ..levels import level_table

router = APIRouter(prefix="/api/games", tags=["games"])


def _entry(description: dict[str, Any]) -> dict[str, Any]:
    game = load(description["id"])
    return {**description, "levels": level_table(game)}


@router.get("", summary="every game: id, name, player counts, nature, options and levels")
def list_games() -> list[dict[str, Any]]:
    return [_entry(description) for description in catalog()]


@router.get("/{game_id}", summary="one game (unknown_game lists the valid ids)")
def one_game(game_id: str) -> dict[str, Any]:
    return _entry(game_class(game_id).describe())
