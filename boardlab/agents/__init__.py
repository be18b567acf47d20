"""Computer players. Every agent sees games only through the protocol.

Built in: ``random``, ``greedy`` (one ply on the game's evaluation), ``mcts``
(UCT with chance nodes, n players and truncated rollouts) and ``ismcts``
(information-set MCTS over resampled hidden states).

``make_agent("mcts:iterations=2000", seed=1)`` builds one from a spec string.
Games may ship agents of their own; loading the games registers them too.
"""

from __future__ import annotations

from ..core.agent import Agent, parse_spec, register_agent, registered_agents
from ..core.errors import OptionError
from ..core.registry import game_ids

# importing the agent modules registers them
from . import greedy, ismcts, mcts, random_agent  # noqa: F401,E402


def _load_all() -> dict[str, type[Agent]]:
    game_ids()  # importing every game registers the agents they ship
    return registered_agents()


def agent_names() -> list[str]:
    """Every agent name that a spec string may use."""
    return sorted(_load_all())


def agent_class(name: str) -> type[Agent]:
    agents = _load_all()
    try:
        return agents[name]
    except KeyError:
        raise OptionError(f"unknown agent {name!r}; known agents: {', '.join(sorted(agents))}") from None


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from a spec string such as ``mcts:seconds=1.5``."""
    name, params = parse_spec(spec)
    cls = agent_class(name)
    if "seed" in params:
        raise OptionError(
            f"agent spec {spec!r}: unknown parameter 'seed' (the seed is given separately, not in the spec); "
            f"valid: {', '.join(sorted(cls.params)) or '(none)'}"
        )
    return cls(seed=seed, **params)


__all__ = ["Agent", "agent_class", "agent_names", "make_agent", "parse_spec", "register_agent"]
