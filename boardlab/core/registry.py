"""The game registry: games register themselves; ``load`` builds one by id.

Every subpackage of :mod:`boardlab.games` is imported on first use, so a new
game needs no change outside its own folder.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from typing import Any

from .errors import UnknownGameError
from .game import Game

_GAMES: dict[str, type[Game]] = {}
_discovered = False
# the server asks from several threads at once: the first imports, the others wait for it
_discovery_lock = threading.RLock()
_discovering = False


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator: make ``game_class`` loadable by its ``id``."""
    game_id = game_class.id
    existing = _GAMES.get(game_id)
    if existing is not None and existing is not game_class:
        raise ValueError(f"game id {game_id!r} is already registered by {existing.__qualname__}")
    _GAMES[game_id] = game_class
    return game_class


def _discover() -> None:
    """Import every game subpackage once. Done is marked only after all of them imported, so
    no caller sees a registry that is still filling; a game that fails to import raises here,
    on this and every later call, rather than leaving the others listed without it."""
    global _discovered, _discovering
    if _discovered:
        return
    with _discovery_lock:
        # a game's own import may ask the registry (same thread, lock held): it gets what is
        # registered so far instead of starting discovery over inside itself
        if _discovered or _discovering:
            return
        _discovering = True
        try:
            import boardlab.games as games_pkg

            for info in pkgutil.iter_modules(games_pkg.__path__):
                if info.name.startswith("_"):
                    continue
                name = f"{games_pkg.__name__}.{info.name}"
                try:
                    importlib.import_module(name)
                except Exception as exc:
                    raise ImportError(f"the game package {name} failed to import: {exc}") from exc
            _discovered = True
        finally:
            _discovering = False


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
