"""The game registry: games register themselves; ``load`` builds one by id.

Every subpackage of :mod:`boardlab.games` is imported on first use, so a new
game needs no change outside its own folder.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from .errors import UnknownGameError
from .game import Game

_GAMES: dict[str, type[Game]] = {}
_discovered = False


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator: make ``game_class`` loadable by its ``id``."""
    game_id = game_class.id
    existing = _GAMES.get(game_id)
    if existing is not None and existing is not game_class:
        raise ValueError(f"game id {game_id!r} is already registered by {existing.__qualname__}")
    _GAMES[game_id] = game_class
    return game_class


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import boardlab.games as games_pkg

    for info in pkgutil.iter_modules(games_pkg.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{games_pkg.__name__}.{info.name}")


def game_class(game_id: str) -> type[Game]:
    """The class registered under ``game_id``; UnknownGameError lists the valid ids."""
    _discover()
    try:
        if not isinstance(game_id, str):
            raise KeyError(game_id)
        return _GAMES[game_id]
    except KeyError:
        valid = ", ".join(sorted(_GAMES)) or "(none)"
        shown = game_id if isinstance(game_id, str) and len(game_id) <= 40 else repr(game_id)[:40]
        raise UnknownGameError(f"unknown game {shown!r}; known games: {valid}") from None


def load(game_id: str, players: int | None = None, **options: Any) -> Game:
    """Build a game: ``load("towers", players=4, layout="four_each")``.

    Unknown ids, options, values or player counts raise a BoardlabError that
    lists what is valid.
    """
    return game_class(game_id)(players=players, **options)


def game_ids() -> list[str]:
    """The ids of every registered game, sorted."""
    _discover()
    return sorted(_GAMES)


def catalog() -> list[dict[str, Any]]:
    """One entry per game: id, name, player counts, nature and options."""
    return [game_class(game_id).describe() for game_id in game_ids()]
