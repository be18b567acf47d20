"""The computer's levels as the server offers them: ``computer:beginner|easy|normal|hard``.

The level table itself is :mod:`boardlab.agents.levels` (one table for the terminal, the
lab and the server; each game names its own specs). What the server adds is
:data:`DEADLINE_SECONDS`: the longest it waits for one decision at that level, whatever
agent plays it. A search is told the deadline and plays the best move it has found by
then, so a busy machine makes the computer weaker for that move, never random.
"""

from __future__ import annotations

from typing import Any

from ..agents.levels import DEFAULT_LEVEL, LEVEL_HELP, LEVELS, level_spec
from ..core.game import Game

#: the longest the server waits for one decision at each level, whatever agent plays it
DEADLINE_SECONDS = {"beginner": 15.0, "easy": 15.0, "normal": 20.0, "hard": 40.0}


def level_table(game: Game) -> list[dict[str, Any]]:
    """What each level means for ``game``, for the catalog: the agent spec, what it is in
    words and the server's deadline."""
    return [
        {
            "level": level,
            "agent": level_spec(game, level),
            "about": LEVEL_HELP[level],
            "deadline_seconds": DEADLINE_SECONDS[level],
        }
        for level in LEVELS
    ]


__all__ = ["DEADLINE_SECONDS", "DEFAULT_LEVEL", "LEVELS", "level_spec", "level_table"]
