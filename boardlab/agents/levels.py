"""The computer's levels, for every game through the protocol: ``easy``, ``normal``, ``hard``.

One table for the terminal (``boardlab play --level``), the web server and the lab:

* a game that ships its own agent with a ``level`` parameter (Honor's ``honor``) is played by
  it at that level;
* otherwise ``easy`` is ``greedy`` (one ply on the game's evaluation, instant), and ``normal``
  and ``hard`` are MCTS (information-set MCTS where information is hidden) thinking
  :data:`THINK_SECONDS` per decision. The search stops sooner when one move is settled, and
  a decision with one legal move takes no time.
"""

from __future__ import annotations

from ..core.agent import registered_agents
from ..core.errors import OptionError
from ..core.game import Game

LEVELS = ("easy", "normal", "hard")
#: seconds of search per decision at each level (the budget; most decisions stop sooner)
THINK_SECONDS = {"easy": 0.0, "normal": 1.0, "hard": 3.0}
DEFAULT_LEVEL = "normal"


def own_agent(game: Game) -> str | None:
    """The name of an agent made for this game alone that takes a ``level``, if the game ships one."""
    for name, cls in sorted(registered_agents().items()):
        if cls.games == (game.id,) and "level" in cls.params:
            return name
    return None


def level_spec(game: Game, level: str) -> str:
    """The agent spec that plays ``game`` at ``level``; OptionError for an unknown level."""
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    own = own_agent(game)
    if own is not None:
        return f"{own}:level={level}"
    if level == "easy":
        return "greedy"
    search = "ismcts" if game.has_hidden_information else "mcts"
    return f"{search}:seconds={THINK_SECONDS[level]:g}"


__all__ = ["DEFAULT_LEVEL", "LEVELS", "THINK_SECONDS", "level_spec", "own_agent"]
