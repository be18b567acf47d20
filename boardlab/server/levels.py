"""The computer's levels as the server offers them: ``computer:easy|normal|hard``.

The level table itself is :mod:`boardlab.agents.levels` (one table for the terminal, the
lab and the server): a game's own agent at that level where the game ships one (Honor),
else ``greedy`` for ``easy`` and (information-set) MCTS thinking
:data:`~boardlab.agents.levels.THINK_SECONDS` for ``normal`` and ``hard``.

What the server adds is :data:`DEADLINE_SECONDS`: the longest it waits for one decision at
that level, whatever agent plays it, before it plays a fallback move (a game's own agent
keeps its own budget inside it: Honor's ``hard`` thinks up to 8 s).
"""

from __future__ import annotations

from typing import Any

from ..agents.levels import DEFAULT_LEVEL, LEVELS, THINK_SECONDS, level_spec, own_agent
from ..core.game import Game

#: the longest the server waits for one decision at each level, whatever agent plays it
DEADLINE_SECONDS = {"easy": 15.0, "normal": 20.0, "hard": 40.0}


def level_table(game: Game) -> list[dict[str, Any]]:
    """What each level means for ``game``, for the catalog: the agent spec, its think budget
    (None: the game's own agent decides its budget) and the server's deadline."""
    own = own_agent(game)
    return [
        {
            "level": level,
            "agent": level_spec(game, level),
            "think_seconds": None if own is not None else THINK_SECONDS[level],
            "deadline_seconds": DEADLINE_SECONDS[level],
        }
        for level in LEVELS
    ]


__all__ = ["DEADLINE_SECONDS", "DEFAULT_LEVEL", "LEVELS", "THINK_SECONDS", "level_spec", "level_table"]
