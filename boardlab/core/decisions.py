"""A computer seat's pending decision, who thinks it, and what is played when no good answer comes.

:meth:`boardlab.Match.pending` says what is to be decided (:class:`Decision`): the seat,
its agent, the seed it searches with, the state it may see and how long it may take.
A **thinker** (:class:`Thinker`, or :class:`AsyncThinker` for an event loop) takes a decision
and returns the chosen :class:`~.values.Move`, or raises :class:`ThinkingFailed` saying why it
has none. Each driver supplies one: :data:`INLINE` thinks in the caller (the lab, analysis), the
terminal thinks in a thread that the line ``now`` interrupts, the server in its pool of worker
processes with a deadline. :meth:`boardlab.Match.play_computer` and
:meth:`~boardlab.Match.run_computers` ask a thinker and play its answer (the server, which must
persist and broadcast each move under its room's lock, asks its thinker and hands the answer to
:meth:`~boardlab.Match.decide` itself). When the thinker failed, overran or answered with an
illegal move, the match plays its :class:`FallbackPolicy`'s move instead.

So seeding and failures are decided here once: the same match seed gives the same
computer moves whichever driver thinks them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from .agent import Agent
from .seeds import derive_seed
from .state import State
from .values import CHANCE, TERMINAL, Move, Player

#: chance after a fallback's candidate move is averaged exactly up to this many outcomes (two
#: dice); beyond it the position is scored as it stands
EXACT_CHANCE_OUTCOMES = 36
#: a finished game's win or loss is nudged past any evaluation of 1 or 0, so a win on the spot
#: is always taken and a loss on the spot always avoided
PROVEN_MARGIN = 1e-6


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


class ThinkingFailed(Exception):
    """A thinker has no move for its decision; the message says why (for the match's log)."""


class Thinker(Protocol):
    """Thinks a computer seat's decision where its driver wants: returns the chosen move (which
    the match checks against the real state) or raises :class:`ThinkingFailed`. Any other
    exception counts as the agent's failure; KeyboardInterrupt and SystemExit pass through."""

    def think(self, decision: Decision) -> Move: ...


class AsyncThinker(Protocol):
    """:class:`Thinker` for a driver on an event loop (the server's pool)."""

    async def think(self, decision: Decision) -> Move: ...


def think(decision: Decision) -> Move:
    """Let ``decision``'s agent choose, seeded with the decision's seed and told its deadline.

    Inline, in a thread or in a worker process alike. The agent keeps what it learned (its
    memory between moves); its generator is reseeded for every decision, so its choice
    depends only on the decision. Whatever the agent raises is raised."""
    agent = decision.agent
    agent.rng.seed(decision.seed)
    agent.limit_time(decision.deadline)
    return agent.choose(decision.state)


class InlineThinker:
    """Thinks in the caller's thread, to the end of the agent's own budget (the lab, analysis)."""

    def think(self, decision: Decision) -> Move:
        return think(decision)


#: the thinker of drivers that simply wait for the answer
INLINE = InlineThinker()


class FallbackPolicy:
    """What a seat plays when its thinker failed, overran or chose an illegal move: the rules'
    own default move (as a clock's timeout plays), else the best move one ply ahead by the
    game's evaluation (a win on the spot first, chance averaged where it is small), else the
    first legal move in the rules' order. Never a random move, and the same move for the same
    state whatever the seed: ties go to the rules' first move. ``state`` is the seat's own
    knowledge. A driver may hand :class:`~boardlab.Match` another policy."""

    def move(self, state: State) -> Move:
        default = state.default_move()
        if default is not None:
            return default
        mover = state.current_player()
        moves = state.legal_moves()
        work = state.copy()
        best, best_score = moves[0], -1.0
        for move in moves:
            work.apply(move)
            score = _score(work, mover, chance_left=2)
            work.undo()
            if score > best_score:
                best, best_score = move, score
        return best


def leaf_value(state: State, mover: Player) -> float:
    """``mover``'s value of ``state`` as it stands, about [0, 1]: a finished game's win or loss
    nudged past any evaluation of 1 or 0, else the game's evaluation, else a draw's share (an
    unknown value ranks below a win and above a loss). One-ply choosers score their leaves so."""
    if state.current_player() == TERMINAL:
        value = state.returns()[mover]
        if value == 1.0:
            return value + PROVEN_MARGIN
        return value - PROVEN_MARGIN if value == 0.0 else value
    estimate = state.evaluate()
    if estimate is None:
        return 1.0 / state.game.num_players
    return float(estimate[mover])


def _score(state: State, mover: Player, chance_left: int) -> float:
    """``mover``'s value of ``state``, chance averaged exactly where it is small; ``state`` is
    restored before returning."""
    if state.current_player() == CHANCE and chance_left > 0:
        outcomes = state.chance_outcomes()
        if len(outcomes) <= EXACT_CHANCE_OUTCOMES:
            total = 0.0
            for outcome, probability in outcomes:
                state.apply(outcome)
                total += probability * _score(state, mover, chance_left - 1)
                state.undo()
            return total
    return leaf_value(state, mover)


#: the policy every match plays unless its driver gives another
ONE_PLY_FALLBACK = FallbackPolicy()


def view_generator(seed: int) -> random.Random:
    """The generator that draws what a decision's seat does not know (its resample)."""
    return random.Random(f"views/{seed}")


__all__ = [
    "INLINE",
    "ONE_PLY_FALLBACK",
    "PROVEN_MARGIN",
    "AsyncThinker",
    "Decision",
    "FallbackPolicy",
    "InlineThinker",
    "Thinker",
    "ThinkingFailed",
    "decision_seed",
    "leaf_value",
    "think",
    "view_generator",
]
