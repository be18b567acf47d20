"""How boardlab finds its games and agents: the entry points of installed packages.

boardlab declares its own five games and its agents in its pyproject.toml, in the same groups
(:data:`GAME_GROUP`, :data:`AGENT_GROUP`) through which any other installed package adds its
own; the registries (:mod:`.registry`, :mod:`.agent`) read them on first use. Nothing in the core
imports a game or an agent by name.
"""

from __future__ import annotations

import importlib.metadata
import re
from importlib.metadata import EntryPoint

#: the entry-point group of games: the name is the game's id, the value its ``Game`` subclass
#: (or a module whose import registers the game)
GAME_GROUP = "boardlab.games"
#: the entry-point group of agents: the name is the agent's name, the value its ``Agent`` subclass
AGENT_GROUP = "boardlab.agents"
#: the distribution whose entry points are boardlab's own (a failure there is a broken install)
OWN_DISTRIBUTION = "boardlab"


def declared(group: str) -> list[EntryPoint]:
    """The entry points of ``group``: boardlab's own first, then every other installed
    distribution's (each distribution once, the first on ``sys.path``), each part by name, so
    that boardlab's own ids are settled before another package's entry point asks for one.

    boardlab's own are read from every copy of its metadata on the path, the first naming an
    entry point winning: a stale ``boardlab.egg-info`` left in a source checkout (which is on
    ``sys.path`` when commands run there) must not hide what the installation declares."""
    own: dict[str, EntryPoint] = {}
    for distribution in importlib.metadata.distributions(name=OWN_DISTRIBUTION):
        for entry_point in distribution.entry_points.select(group=group):
            own.setdefault(entry_point.name, entry_point)
    others = [point for point in importlib.metadata.entry_points(group=group) if not is_own(point)]
    return [own[name] for name in sorted(own)] + sorted(others, key=lambda point: point.name)


def is_own(entry_point: EntryPoint) -> bool:
    """Whether ``entry_point`` is declared by boardlab itself."""
    dist = entry_point.dist
    return dist is not None and _normalized(dist.name) == OWN_DISTRIBUTION


def distribution_text(entry_point: EntryPoint) -> str:
    """The distribution that declares ``entry_point``, with its version (for messages)."""
    dist = entry_point.dist
    return f"{dist.name} {dist.version}" if dist is not None else "an unknown distribution"


def _normalized(name: str) -> str:
    """A distribution's name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


__all__ = ["AGENT_GROUP", "GAME_GROUP", "OWN_DISTRIBUTION", "declared", "distribution_text", "is_own"]
