"""Computer players. Every agent sees games only through the protocol.

Built in: ``random``, ``greedy`` (one ply on the game's evaluation), ``alphabeta``
(a fixed-depth search on it that sees the opponent's best reply), ``mcts``
(UCT with chance nodes, n players and truncated rollouts) and ``ismcts``
(information-set MCTS over resampled hidden states). Games may ship agents of
their own (declaring the games they play). Every agent, boardlab's and another
package's, is declared in the entry-point group ``boardlab.agents`` and loaded on
first use (:func:`boardlab.core.agent.registered_agents`).

``make_agent("mcts:iterations=2000", seed=1, game="towers")`` builds one from a
spec string; a level name (``beginner``, ``easy``, ``normal``, ``hard``) is a spec too,
for the game given (:mod:`.levels`). ``seat_agents(game, ["human", "hard"], seed)``
builds a match's seats.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from ..core.agent import Agent, agent_failures, parse_spec, register_agent, registered_agents
from ..core.errors import OptionError
from ..core.fitted import EvaluationChoice
from ..core.game import Game
from ..core.seeds import derive_seed
from .levels import DEFAULT_LEVEL, LEVEL_HELP, LEVELS, game_levels, is_level, level_spec, level_table, level_words, top_level

#: the spec that names a person in a seat list
HUMAN = "human"


def agent_names(game_id: str | None = None) -> list[str]:
    """Every agent name a spec string may use (only those playing ``game_id`` when given)."""
    return sorted(name for name, cls in registered_agents().items() if game_id is None or cls.supports(game_id))


def agent_class(name: str) -> type[Agent]:
    agents = registered_agents()
    try:
        return agents[name]
    except KeyError:
        failure = agent_failures().get(name)
        if failure is not None:
            raise OptionError(f"agent {name!r} is not available: it failed to load: {failure}") from None
        if name in LEVELS:  # a level given parameters ("hard:seconds=1"): a level is a fixed setting
            raise OptionError(
                f"the level {name!r} takes no parameters: give it alone, or give an agent with its own "
                "(boardlab agents GAME shows each level's agent and its parameters)"
            ) from None
        close = difflib.get_close_matches(name, [*LEVELS, *agents], n=1)
        guess = f" (did you mean {close[0]}?)" if close else ""
        raise OptionError(
            f"unknown agent {name!r}{guess}; levels: {', '.join(LEVELS)}; known agents: {', '.join(sorted(agents))}"
        ) from None


def make_agent(spec: str, seed: int | None = None, game: str | Game | None = None) -> Agent:
    """Build an agent from a spec string such as ``mcts:seconds=1.5``.

    With ``game`` (an id or a Game), an agent that does not play that game is
    refused with :class:`~boardlab.core.errors.UnsupportedAgentError`.
    """
    if not isinstance(spec, str):
        raise OptionError(f"an agent spec is text such as 'mcts:iterations=200', not {type(spec).__name__}")
    if is_level(spec):
        if game is None:
            raise OptionError(f"the level {spec.strip()!r} names an agent only for a game; give the game")
        spec = level_spec(_game_object(game), spec)
    name, params = parse_spec(spec)
    cls = agent_class(name)
    if "seed" in params:
        raise OptionError(
            f"agent spec {spec!r}: unknown parameter 'seed' (the seed is given separately, not in the spec); "
            f"valid: {', '.join(sorted(cls.params)) or '(none)'}"
        )
    if game is not None:
        if isinstance(game, str):
            from ..core.registry import game_class

            game_class(game)  # an unknown game is named (UnknownGameError), never passed over
        cls.check_supports(game if isinstance(game, str) else game.id)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionError(f"agent {name}: seed={seed!r} is not a whole number")
    agent = cls(seed=seed, **params)
    if game is not None:
        _check_weights_hold(agent, game)
    return agent


def _check_weights_hold(agent: Agent, game: str | Game) -> None:
    """Refuse (OptionError, naming what differs) an agent judging by a weights file written for
    another game, player count or options than ``game``'s: it would fail at its first decision,
    and at every one after it, instead of before the game starts."""
    judge = getattr(agent, "judge", None)
    model = getattr(judge, "model", None)
    if not isinstance(judge, EvaluationChoice) or model is None:
        return
    if isinstance(game, Game):
        judge.for_game(game)
    elif model.game_id != game:
        raise OptionError(
            f"evaluation {judge.name}: these weights do not hold for this game (game {model.game_id!r}, not {game!r})"
        )


def _game_object(game: str | Game) -> Game:
    if isinstance(game, Game):
        return game
    from ..core.registry import load

    return load(game)


def resolve_spec(game: Game, spec: str) -> str:
    """A seat's spec with a level name (``beginner`` ... ``hard``, and ``expert`` where the game
    has it) turned into the agent spec that plays ``game`` at that level; other specs unchanged."""
    return level_spec(game, spec) if is_level(spec) else spec


def seat_agents(game: Game, specs: Sequence[str], seed: int | None = None) -> list[Agent | None]:
    """One entry per seat for :class:`boardlab.Match`: None for ``human``, else the agent
    (a level name such as ``hard`` stands for :func:`level_spec`).

    The agent in seat ``s`` gets the seed :func:`agent_seed` (seed, s). In a match that seed
    does not decide the agent's choices: :class:`boardlab.Match` seeds every decision from the
    match seed, the seat and the ply (:func:`boardlab.core.decisions.decision_seed`); it matters
    only where the agent is asked directly, outside a match.
    """
    if len(specs) != game.num_players:
        raise OptionError(
            f"{game.id} with {game.num_players} players needs {game.num_players} seats, "
            f"got {len(specs)}: {','.join(specs)}"
        )
    return [
        None
        if spec == HUMAN
        else make_agent(resolve_spec(game, spec), seed=None if seed is None else agent_seed(seed, seat), game=game)
        for seat, spec in enumerate(specs)
    ]


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of a game whose seed is ``seed`` (stable across runs)."""
    return derive_seed(seed, seat + 1)


__all__ = [
    "DEFAULT_LEVEL",
    "HUMAN",
    "LEVELS",
    "LEVEL_HELP",
    "Agent",
    "agent_class",
    "agent_names",
    "agent_seed",
    "game_levels",
    "is_level",
    "level_spec",
    "level_table",
    "level_words",
    "make_agent",
    "parse_spec",
    "register_agent",
    "resolve_spec",
    "seat_agents",
    "top_level",
]
