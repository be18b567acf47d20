"""The computer's levels as the server offers them: ``computer:easy|normal|hard``.

A level names an agent spec through the protocol only, so a game that lands later gets
levels with no change here:

* a game that ships its own agent (one whose ``games`` names only that game) with a
  ``level`` parameter is played by it at that level (Honor's ``honor``);
* otherwise ``easy`` is ``greedy`` (one ply on the game's evaluation: instant), ``normal``
  and ``hard`` are MCTS (information-set MCTS where information is hidden) with the
  think time of :data:`THINK_SECONDS`.

:data:`DEADLINE_SECONDS` is the longest the server waits for a search at that level
before it plays a fallback move (a game's own agent keeps its own budget inside it).
"""

from __future__ import annotations

from ..agents import agent_names, agent_class
from ..core.errors import OptionError
from ..core.game import Game

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
#: the search budget per decision (seconds) of the generic agents at each level
THINK_SECONDS = {"easy": 0.0, "normal": 1.0, "hard": 3.0}
#: the longest the server waits for one decision at each level, whatever agent plays it
DEADLINE_SECONDS = {"easy": 15.0, "normal": 20.0, "hard": 40.0}


def own_agent(game: Game) -> str | None:
    """The agent made for this game alone that takes a ``level``, if the game ships one."""
    for name in agent_names(game.id):
        cls = agent_class(name)
        if cls.games == (game.id,) and "level" in cls.params:
            return name
    return None


def level_spec(game: Game, level: str) -> str:
    """The agent spec that plays ``game`` at ``level``; OptionError names the levels."""
    if level not in LEVELS:
        raise OptionError(f"unknown computer level {level!r}; levels: {', '.join(LEVELS)}")
    own = own_agent(game)
    if own is not None:
        return f"{own}:level={level}"
    if level == "easy":
        return "greedy"
    search = "ismcts" if game.has_hidden_information else "mcts"
    return f"{search}:seconds={THINK_SECONDS[level]:g}"


def level_table(game: Game) -> list[dict[str, object]]:
    """What each level means for ``game``, for the catalog."""
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


__all__ = ["DEADLINE_SECONDS", "DEFAULT_LEVEL", "LEVELS", "THINK_SECONDS", "level_spec", "level_table", "own_agent"]
