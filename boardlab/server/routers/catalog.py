"""``/api/games``: the games, their options and the computer's levels, from the registry, with
what the browser pages need of each (its description, rules page and renderer), and each game's
starting position as a state message, for the lobby's picture of its board."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request

from ...core.game import Game
from ...core.registry import catalog, game_class, load
from ...core.values import CHANCE
from ...lab.ladder_docs import level_ratings
from ...learn import lesson_path
from ..levels import level_table
from ..web import web_entry
from . import lessons

router = APIRouter(prefix="/api/games", tags=["games"])

#: the seed of the starting position the lobby draws (a game with chance deals it the same way
#: every time, so the picture never changes between visits)
START_SEED = 1


def levels(game: Game) -> list[dict[str, Any]]:
    """The level table with, where the ladder measured the level's agent, how long it thinks:
    ``seconds_typical`` (the median CPU seconds of a decision) and ``seconds_longest`` (the
    longest), on the two-core machine of the measurements (docs/levels.md)."""
    measured = level_ratings(game)
    table = level_table(game)
    for entry in table:
        found = measured.get(entry["level"], {})
        entry["seconds_typical"] = found.get("cpu_median")
        entry["seconds_longest"] = found.get("cpu_max")
    return table


def _entry(description: dict[str, Any], rules_dir: Path | None) -> dict[str, Any]:
    game = load(description["id"])
    lesson_page = f"/learn/{game.id}" if lesson_path(game.id) else None
    return {**description, "levels": levels(game), **web_entry(description["id"], rules_dir), "lesson_page": lesson_page}


@router.get("", summary="every game: id, name, player counts, nature, options, levels and its pages")
def list_games(request: Request) -> list[dict[str, Any]]:
    rules_dir = request.app.state.settings.rules_dir
    return [_entry(description, rules_dir) for description in catalog()]


@router.get("/{game_id}", summary="one game (unknown_game lists the valid ids)")
def one_game(game_id: str, request: Request) -> dict[str, Any]:
    return _entry(game_class(game_id).describe(), request.app.state.settings.rules_dir)


@router.get("/{game_id}/start", summary="the game's starting position as a spectator's state message (for a picture of it)")
def start_position(game_id: str) -> dict[str, Any]:
    """The starting position with the default options, its opening chance (a deal, a draw for
    the first seat) resolved from a fixed seed, as the state message a renderer draws, seen by
    a spectator: nothing hidden leaves. Worked out once per game."""
    return _start_message(game_class(game_id).id)


@lru_cache(maxsize=64)
def _start_message(game_id: str) -> dict[str, Any]:
    game = load(game_id)
    state = game.new_state(START_SEED)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance())
    to_move = state.current_player()
    return {
        "type": "state",
        "room": None,
        "game": game.id,
        "status": "playing",
        "revision": 0,
        "ply": state.ply,
        "seat": None,
        "your_seats": [],
        "seats": [
            {"seat": seat, "name": game.player_name(seat), "kind": "here", "joined": True} for seat in range(game.num_players)
        ],
        "to_move": to_move if to_move >= 0 else None,
        "thinking": False,
        "view": state.view(None),
        "legal_moves": [],
        "log": [],
    }


# a game's lesson: /api/games/{game}/lesson (docs/learn.md)
router.include_router(lessons.router)
