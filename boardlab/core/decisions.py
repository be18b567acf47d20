"""A computer seat's pending decision, and the rules every driver follows to take it.

:meth:`boardlab.Match.pending` says what is to be decided (:class:`Decision`): the seat,
its agent, the seed it searches with, the state it may see and how long it may take.
A driver only supplies a thinker: :func:`think` inline (the lab), in a thread that the
line ``now`` interrupts (the terminal), in a worker process with a deadline (the server).
The answer goes back through :meth:`boardlab.Match.decide`, which plays it, or, when the
thinker failed, overran or answered with an illegal move, :func:`fallback_move`.

So seeding and failures are decided here once: the same match seed gives the same
computer moves whichever driver thinks them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .agent import Agent, registered_agents
from .seeds import derive_seed
from .state import State
from .values import Move, Player

#: the agent that makes the fallback move when the rules have no default move
FALLBACK_AGENT = "greedy"


def decision_seed(match_seed: int, seat: Player, ply: int) -> int:
    """The seed of the decision of ``seat`` at ``ply`` in a match seeded ``match_seed``.

    One rule for every driver, so a match resumed from storage, replayed in the lab or
    played in the terminal thinks the same way at the same position."""
    return derive_seed(derive_seed(match_seed, seat + 1), ply)


@dataclass(frozen=True)
class Decision:
    """What a computer seat is to decide now (picklable: it travels to worker processes).

    ``state`` is the seat's own knowledge (:meth:`State.resample` for the seat, drawn from
    the decision's seed), never the real state. ``deadline`` is the wall time in seconds the
    thinker may take (None: no limit); the agent is told it, and a driver that can stop
    waiting gives up a little after it and lets the match play the fallback move.
    """

    seat: Player
    agent: Agent
    seed: int
    state: State
    ply: int
    deadline: float | None = None

    @property
    def spec(self) -> str:
        return self.agent.spec()


def think(decision: Decision) -> Move:
    """Let ``decision``'s agent choose, seeded with the decision's seed and told its deadline.

    Inline, in a thread or in a worker process alike. The agent keeps what it learned (its
    memory between moves); its generator is reseeded for every decision, so its choice
    depends only on the decision. Whatever the agent raises is raised."""
    agent = decision.agent
    agent.rng.seed(decision.seed)
    agent.limit_time(decision.deadline)
    return agent.choose(decision.state)


def fallback_move(state: State, seed: int) -> Move:
    """What a seat plays when its thinker failed, overran or chose an illegal move: the rules'
    own default move (as a clock's timeout plays), else the best move one ply ahead (the
    :data:`FALLBACK_AGENT`, seeded with ``seed``), else the first legal move in the rules'
    order. Never a random move. ``state`` is the seat's own knowledge."""
    move = state.default_move()
    if move is not None:
        return move
    agent_class = registered_agents().get(FALLBACK_AGENT)
    if agent_class is not None:
        return agent_class(seed=seed).choose(state)
    return state.legal_moves()[0]


def view_generator(seed: int) -> random.Random:
    """The generator that draws what a decision's seat does not know (its resample)."""
    return random.Random(f"views/{seed}")


__all__ = ["FALLBACK_AGENT", "Decision", "decision_seed", "fallback_move", "think", "view_generator"]
