"""The computer's levels: ``beginner``, ``easy``, ``normal``, ``hard`` for every game, and
``expert`` in a game where a stronger search was measured to beat ``hard``.

A level is a name for an agent spec. Each game names its own (``Game.level_specs``, chosen
by measurement and listed with their strength in docs/levels.md); one of the four a game
leaves out, or a game that names none (a new game), gets the core's :data:`FALLBACK` table.
``expert`` has no fallback: a game has it only where it names its spec (:func:`game_levels`).

Every level's budget is deterministic: a number of iterations, nodes or simulations, so
the same seed gives the same moves on a busy machine as on an idle one. Time enters only
as a cap (the spec's ``seconds``, set well above what the budget takes on an idle core),
which a decision reaches only when the machine is far slower than expected; a search that
reaches it plays the best move found so far.

A player reads a level in words with no engine setting (:func:`level_words`: the core's
:data:`PLAYER_WORDS`, or the game's own ``Game.level_words`` where its level plays otherwise);
the terminal, the Lab and the API also say what its spec plays (:func:`level_about`).

Level names are agent specs everywhere: ``boardlab simulate overseer --players normal,easy``,
``lab``, ``tournament``, ``play --players`` and the server's ``computer:hard`` seats.
"""

from __future__ import annotations

from ..core.agent import parse_spec, registered_agents
from ..core.errors import OptionError
from ..core.game import Game

#: every level name, weakest first; each level is meant to beat the one before it
#: (docs/levels.md has the proof)
LEVELS = ("beginner", "easy", "normal", "hard", "expert")
#: the levels a game has only where it names their spec: a level above ``hard`` exists
#: where the ladder measured a search that beats ``hard`` within the time a move may take
OPTIONAL_LEVELS = ("expert",)
DEFAULT_LEVEL = "normal"

#: each level's place on the ladder (with what its spec plays: :func:`level_about`, the
#: terminal's, the Lab's and the API's words; docs/levels.md lists these)
LEVEL_HELP = {
    "beginner": "the gentlest opponent, for a first game",
    "easy": "a step up from beginner",
    "normal": "a step up from easy; the default",
    "hard": "a step up from normal; the strongest level where a game has no expert",
    "expert": "a step up from hard; the strongest play, with the longest thinking",
}

#: each level as its opponent tells it: how playing it feels and whom it suits, with no engine
#: setting (no budget, depth or noise): the lobby's words (the catalog's ``for_players``). A game
#: whose level plays otherwise words it itself (``Game.level_words``, read by :func:`level_words`)
PLAYER_WORDS = {
    "beginner": "the gentlest opponent, for a first game: it often picks a plausible but weaker move",
    "easy": "a step up from beginner: it takes the best move it sees at once and never misses a win "
            "on the spot, but does not plan ahead",
    "normal": "the default, a fair game once you know the rules: it thinks a few moves ahead",
    "hard": "a real challenge for a practised player: it thinks far ahead",
    "expert": "the strongest opponent, for a player who beats hard: it thinks furthest ahead and takes "
              "longest over a move",
}

#: the core's table, for a game that names no level of its own:
#: level -> (spec for perfect-information games, spec where information is hidden)
FALLBACK: dict[str, tuple[str, str]] = {
    "beginner": ("greedy:temperature=0.05", "greedy:temperature=0.05"),
    "easy": ("greedy", "greedy"),
    "normal": (
        "mcts:iterations=300,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=3",
        "ismcts:iterations=1000,rollout_depth=1,seconds=3",
    ),
    "hard": (
        "mcts:iterations=2000,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=8",
        "ismcts:iterations=5000,rollout_depth=1,seconds=8",
    ),
}


def is_level(spec: str) -> bool:
    """Whether ``spec`` is a level name rather than an agent spec."""
    return spec.strip() in LEVELS


def game_levels(game: Game) -> tuple[str, ...]:
    """The levels ``game`` has, weakest first: the four, and each optional level it names."""
    return tuple(level for level in LEVELS if level not in OPTIONAL_LEVELS or level in game.level_specs)


def level_spec(game: Game, level: str) -> str:
    """The agent spec that plays ``game`` at ``level``; OptionError for an unknown level or
    an optional one the game does not have."""
    level = level.strip()
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    own = game.level_specs.get(level)
    if own is not None:
        return own
    if level in OPTIONAL_LEVELS:
        raise OptionError(
            f"{game.id} has no {level} level (no search measured stronger than hard); "
            f"its levels: {', '.join(game_levels(game))}"
        )
    perfect, hidden = FALLBACK[level]
    return hidden if game.has_hidden_information else perfect


def describe_spec(spec: str) -> str:
    """What an agent spec plays, in a player's words: "a search of 300 positions, ...".

    Read off the spec's own settings (a level's spec differs per game), so the lobby and
    docs/levels.md say what each game's level really is."""
    name, params = parse_spec(spec)
    known = registered_agents().get(name)
    return known.describe(params) if known is not None else spec


def level_about(game: Game, level: str) -> str:
    """The level's place on the ladder and what it plays in ``game``."""
    return f"{LEVEL_HELP[level.strip()]}: {describe_spec(level_spec(game, level))}"


def level_words(game: Game, level: str) -> str:
    """``level`` in a player's words for ``game``: the game's own (``Game.level_words``) where
    it names them, else the core's (:data:`PLAYER_WORDS`). No engine setting: the lobby's."""
    level = level.strip()
    return game.level_words.get(level) or PLAYER_WORDS[level]


def level_table(game: Game) -> dict[str, str]:
    """Every level of ``game`` and the agent spec that plays it, weakest first."""
    return {level: level_spec(game, level) for level in game_levels(game)}


def top_level(game: Game) -> str:
    """The strongest level ``game`` has."""
    return game_levels(game)[-1]


__all__ = [
    "DEFAULT_LEVEL", "FALLBACK", "LEVELS", "LEVEL_HELP", "OPTIONAL_LEVELS", "PLAYER_WORDS", "describe_spec", "game_levels",
    "is_level", "level_about", "level_spec", "level_table", "level_words", "top_level",
]
