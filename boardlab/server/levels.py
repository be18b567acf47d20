"""The computer's levels as the server offers them: ``computer:beginner|easy|normal|hard``,
and ``computer:expert`` in a game that has it.

The level table itself is :mod:`boardlab.agents.levels` (one table for the terminal, the
lab and the server; each game names its own specs). What the server adds is
:data:`DEADLINE_SECONDS`: the longest it waits for one decision at that level, whatever
agent plays it. A search is told the deadline and plays the best move it has found by
then, so a busy machine makes the computer weaker for that move, never random.

Where the game ships the level ladder's measurements (``ladder.json``, docs/levels.md), each
level also carries its Elo rating (random = 0), for the lobby's "hard, about 1600".
"""

from __future__ import annotations

from typing import Any

from ..agents.levels import DEFAULT_LEVEL, LEVELS, game_levels, level_about, level_spec, level_words
from ..core.game import Game
from ..lab.ladder_docs import level_ratings, rating_text

#: the longest the server waits for one decision at each level, whatever agent plays it
DEADLINE_SECONDS = {"beginner": 15.0, "easy": 15.0, "normal": 20.0, "hard": 40.0, "expert": 60.0}


def level_table(game: Game) -> list[dict[str, Any]]:
    """What each level means for ``game``, for the catalog: the agent spec, what it plays in
    words (``about``: the API's and the Lab's), the level in a player's words with no engine
    setting (``for_players``: the lobby's), the server's deadline, and its measured strength
    (``rating``: "about 1600", and ``elo``; both None where the game has no measurement for the
    spec the level plays)."""
    measured = level_ratings(game)
    return [
        {
            "level": level,
            "agent": level_spec(game, level),
            "about": level_about(game, level),
            "for_players": level_words(game, level),
            "deadline_seconds": DEADLINE_SECONDS[level],
            "rating": rating_text(measured.get(level)),
            "elo": None if level not in measured else measured[level]["elo"],
        }
        for level in game_levels(game)
    ]


__all__ = ["DEADLINE_SECONDS", "DEFAULT_LEVEL", "LEVELS", "game_levels", "level_spec", "level_table"]
