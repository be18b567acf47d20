"""The game registry: ``load`` builds a game by id.

Every game comes from an entry point of the group :data:`GAME_GROUP` (``boardlab.games``),
read on first use: boardlab declares its own five games there in its pyproject.toml, as
another installed package declares its own (a plugin), so a designer's game lives in its
own package. The entry point's name is the game's id and its value a ``Game`` subclass
(``pkg.game:MyGame``) or a module that registers its game on import (:func:`register`).

* A game of boardlab's own that fails to load is an error on every call: the product is broken.
* A plugin that fails to load is left out and remembered (:func:`plugin_failures`); the
  other games are unaffected, and asking for its id raises :class:`GamePluginError` with
  the cause. A plugin may not take the id of a game of boardlab's own.

A game's rules document ships in its own folder (:data:`RULES_DOCUMENT`) or, for the
games of boardlab's source, in ``docs/rules/<id>.md``: :func:`rules_document` finds it.
"""

from __future__ import annotations

import importlib
import os
import sys
import sysconfig
import threading
import types
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

from .agent import refresh_agents
from .entry_points import GAME_GROUP, declared, distribution_text, is_own
from .errors import GamePluginError, UnknownGameError
from .game import Game

#: the file name of the rules document a game ships in its own folder
RULES_DOCUMENT = "rules.md"

_GAMES: dict[str, type[Game]] = {}
#: id -> entry-point name, for the games that came from plugins
_PLUGIN_GAMES: dict[str, str] = {}
_PLUGIN_FAILURES: dict[str, PluginFailure] = {}
_discovered = False
# the server asks from several threads at once: the first imports, the others wait for it
_discovery_lock = threading.RLock()
_discovering = False


@dataclass(frozen=True)
class PluginFailure:
    """A game plugin that could not be loaded: its entry point, where it comes from, and why."""

    name: str
    target: str
    distribution: str
    reason: str

    def __str__(self) -> str:
        return f"the game plugin {self.name!r} ({self.target}, from {self.distribution}) failed to load: {self.reason}"


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator: make ``game_class`` loadable by its ``id``."""
    game_id = game_class.id
    existing = _GAMES.get(game_id)
    if existing is not None and existing is not game_class:
        raise ValueError(
            f"game id {game_id!r} is already registered by {existing.__module__}.{existing.__qualname__}"
        )
    _GAMES[game_id] = game_class
    return game_class


def _discover() -> None:
    """Load every game's entry point, once. Done is marked only after all of them were tried,
    so no caller sees a registry that is still filling; a game of boardlab's own that fails
    to load raises here, on this and every later call, rather than leaving the others listed
    without it."""
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
            _load_games()
            _discovered = True
        finally:
            _discovering = False


def _load_games() -> None:
    """Load every entry point of :data:`GAME_GROUP` not loaded yet, boardlab's own first;
    record each plugin's failure, raise for a failure of boardlab's own."""
    loaded = set(_PLUGIN_GAMES.values())
    points = declared(GAME_GROUP)
    if not any(is_own(entry_point) for entry_point in points):
        raise ImportError(
            f"boardlab's installed metadata declares none of its games (entry-point group {GAME_GROUP}): "
            "install boardlab (pip install -e . in a checkout) rather than importing it from a source folder"
        )
    for entry_point in points:
        own = is_own(entry_point)
        if own and entry_point.name in _GAMES:
            continue  # loaded before
        if not own and entry_point.name in loaded:
            continue
        taken = _GAMES.get(entry_point.name)
        if taken is not None:
            _record_failure(entry_point, f"the id is taken by {taken.__module__}.{taken.__qualname__}")
            continue
        before = set(_GAMES)
        try:
            game_id = _load_game(entry_point)
        except Exception as exc:  # any failure of foreign code: reported, the other games stay
            # a module that registered its game and then failed is not half-installed
            for added in set(_GAMES) - before:
                del _GAMES[added]
            if own:
                raise ImportError(f"boardlab's game {entry_point.name!r} ({entry_point.value}) failed to load: {exc}") from exc
            _record_failure(entry_point, f"{type(exc).__name__}: {exc}")
            continue
        if not own:
            _PLUGIN_GAMES[game_id] = entry_point.name


def _load_game(entry_point: EntryPoint) -> str:
    """Import one game's entry point and return the id it provides; raise with the reason otherwise."""
    loaded = entry_point.load()
    if isinstance(loaded, type) and issubclass(loaded, Game):
        if loaded.id != entry_point.name:
            raise LookupError(f"the entry point is named {entry_point.name!r} but names the game {loaded.id!r}")
        register(loaded)
    elif isinstance(loaded, types.ModuleType):
        if entry_point.name not in _GAMES:
            raise LookupError(
                f"importing {loaded.__name__} registered no game with the id {entry_point.name!r} "
                "(decorate its Game subclass with @boardlab.register, or name the class in the entry point)"
            )
    else:
        raise TypeError(f"{entry_point.value} is a {type(loaded).__name__}, neither a Game subclass nor a module")
    return entry_point.name


def _record_failure(entry_point: EntryPoint, reason: str) -> None:
    _PLUGIN_FAILURES[entry_point.name] = PluginFailure(
        entry_point.name, entry_point.value, distribution_text(entry_point), reason
    )


def refresh_plugins() -> None:
    """Look for plugins (games and agents) again, as after installing or removing a package in
    a running interpreter: games whose entry point is gone are dropped, new entry points are
    loaded, and failed ones are tried again (a module imported before is not imported again).
    Meant for a notebook or a test between uses of the registry, not while other threads read it."""
    global _discovered
    refresh_agents()
    with _discovery_lock:
        _discover()
        importlib.invalidate_caches()
        present = {entry_point.name for entry_point in declared(GAME_GROUP) if not is_own(entry_point)}
        for game_id, name in list(_PLUGIN_GAMES.items()):
            if name not in present:
                del _GAMES[game_id]
                del _PLUGIN_GAMES[game_id]
        _PLUGIN_FAILURES.clear()
        _load_games()
        _discovered = True


def plugin_failures() -> list[PluginFailure]:
    """The game plugins that could not be loaded, by name (empty when all loaded)."""
    _discover()
    return [_PLUGIN_FAILURES[name] for name in sorted(_PLUGIN_FAILURES)]


def plugin_of(game_id: str) -> str | None:
    """The entry-point name a game came from, or None for a game registered otherwise."""
    _discover()
    return _PLUGIN_GAMES.get(game_id)


def game_class(game_id: str) -> type[Game]:
    """The class registered under ``game_id``; UnknownGameError lists the valid ids, and
    GamePluginError says why a plugin of that name could not be loaded."""
    _discover()
    found = _GAMES.get(game_id) if isinstance(game_id, str) else None
    if found is not None:
        return found
    failure = _PLUGIN_FAILURES.get(game_id) if isinstance(game_id, str) else None
    if failure is not None:
        raise GamePluginError(f"game {game_id!r} is not available: {failure}")
    valid = ", ".join(sorted(_GAMES)) or "(none)"
    shown = game_id if isinstance(game_id, str) and len(game_id) <= 40 else repr(game_id)[:40]
    raise UnknownGameError(f"unknown game {shown!r}; known games: {valid}")


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


# --- where a game's files are ------------------------------------------------------------
def game_folder(game_id: str) -> Path | None:
    """The folder of the package that defines the game's class (``boardlab/games/<id>/`` or
    a plugin's own package), or None for a class defined outside any file.
    UnknownGameError for an id that is not registered."""
    module = sys.modules.get(game_class(game_id).__module__)
    module_file = getattr(module, "__file__", None)
    if module_file is None:
        return None
    return Path(module_file).resolve().parent


def rules_folders() -> list[Path]:
    """Where the rules documents of boardlab's own games are, in order: the source checkout's
    ``docs/rules``, then the data folder of the installation (pyproject's ``data-files``:
    the scheme's own, the user's, then ``sys.prefix``)."""
    places = [Path(__file__).resolve().parents[2] / "docs" / "rules"]
    for scheme in (sysconfig.get_default_scheme(), f"{os.name}_user"):
        try:
            data = sysconfig.get_path("data", scheme)
        except KeyError:
            continue
        places.append(Path(data) / "share" / "boardlab" / "rules")
    places.append(Path(sys.prefix) / "share" / "boardlab" / "rules")
    unique: list[Path] = []
    for place in places:
        if place not in unique:
            unique.append(place)
    return unique


def rules_document(game_id: str, folders: Iterable[Path | None] | None = None) -> Path | None:
    """The game's rules document, or None when there is none: the :data:`RULES_DOCUMENT` in the
    game's own folder (how a plugin ships it), else ``<folder>/<id>.md`` in the first of
    ``folders`` that has it (default :func:`rules_folders`; None entries are skipped).
    UnknownGameError for an id that is not registered."""
    own = game_folder(game_id)
    if own is not None and (own / RULES_DOCUMENT).is_file():
        return own / RULES_DOCUMENT
    for folder in rules_folders() if folders is None else folders:
        if folder is not None and (folder / f"{game_id}.md").is_file():
            return folder / f"{game_id}.md"
    return None


__all__ = [
    "GAME_GROUP",
    "RULES_DOCUMENT",
    "PluginFailure",
    "catalog",
    "game_class",
    "game_folder",
    "game_ids",
    "load",
    "plugin_failures",
    "plugin_of",
    "refresh_plugins",
    "register",
    "rules_document",
    "rules_folders",
]
