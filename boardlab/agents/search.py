"""Pieces shared by the search agents: decision checks, budgets and rollouts.

Everything here sees a game only through the public protocol of
:class:`boardlab.core.game.State`. Randomness always comes from the agent's own
``random.Random``; nothing here calls ``sample_chance()`` without it, because the
state's seed would predict the real game's future chance.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, TypeVar

from ..core.agent import Agent
from ..core.errors import GameOverError, IllegalMoveError, OptionError
from ..core.state import State
from ..core.values import CHANCE, TERMINAL, Move, Player

# the rollout and the settle test are the search's inner loop: they live in the compiled kernel
from .kernel import SETTLE_CHECK_EVERY, rollout, settled, uniform_returns

__all__ = [
    "SETTLE_CHECK_EVERY", "BudgetedAgent", "SearchBudget", "check_positive", "decision_moves", "names_winning_moves",
    "pick_random", "rollout", "settled", "uniform_returns",
]


def decision_moves(agent_name: str, state: State) -> tuple[Player, list[Move]]:
    """The deciding player and the moves to choose from; a clear error when nobody decides.

    Agents are only asked at decision nodes: the driver samples chance itself.
    Cost: one ``legal_moves()`` call.
    """
    player = state.current_player()
    if player == TERMINAL:
        raise GameOverError(f"agent {agent_name}: asked to move in a finished game ({state.game.id})")
    if player == CHANCE:
        raise IllegalMoveError(
            f"agent {agent_name}: asked to move at a chance node of {state.game.id}; "
            "the driver samples chance, agents decide for players"
        )
    moves = state.legal_moves()
    if not moves:
        raise IllegalMoveError(
            f"agent {agent_name}: player {player} has no legal move in {state.game.id} "
            "(the game should have ended or passed the turn)"
        )
    return player, moves


def check_positive(agent_name: str, key: str, value: float | None, *, allow_zero: bool = False) -> None:
    """Raise OptionError unless ``value`` is None or positive (or zero when allowed)."""
    if value is None:
        return
    if value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise OptionError(f"agent {agent_name}: parameter {key}={value!r} must be {bound}")


class SearchBudget:
    """How long a search runs: a number of iterations, a number of seconds, or both.

    With both, the search stops at whichever limit comes first. An iteration
    budget alone makes a seeded search exactly reproducible; a time budget does not.
    """

    __slots__ = ("_began", "_deadline", "_own_seconds", "iterations", "seconds", "stop_requested")

    def __init__(self, iterations: int | None, seconds: float | None) -> None:
        if iterations is None and seconds is None:
            raise ValueError("a search budget needs iterations or seconds")
        self.iterations = iterations
        self.seconds = seconds
        self._own_seconds = seconds
        self._deadline = 0.0
        self._began = 0.0
        #: set from another thread (a person pressing "move now"): the search ends at its next check
        self.stop_requested = False

    @classmethod
    def from_settings(cls, agent_name: str, settings: dict[str, Any], default_iterations: int) -> SearchBudget:
        """Build the budget from an agent's ``iterations``/``seconds`` settings.

        Neither given: ``default_iterations``. ``seconds`` alone: time only.
        Raises OptionError for a non-positive value.
        """
        iterations = settings.get("iterations")
        seconds = settings.get("seconds")
        check_positive(agent_name, "iterations", iterations)
        check_positive(agent_name, "seconds", seconds)
        if iterations is None and seconds is None:
            iterations = default_iterations
        return cls(iterations, seconds)

    def limit_time(self, seconds: float | None) -> None:
        """Cap the time of the next searches at ``seconds`` (None lifts it); the own cap stays
        when smaller. The iteration count stays the budget: the cap only stops a slow search."""
        own = self._own_seconds
        self.seconds = seconds if own is None else (own if seconds is None else min(own, seconds))

    def start(self) -> None:
        """Start the clock for a time budget."""
        self.stop_requested = False
        self._began = time.perf_counter()
        if self.seconds is not None:
            self._deadline = self._began + self.seconds

    def exhausted(self, done: int) -> bool:
        """True once ``done`` iterations use up the budget (always lets one iteration run)."""
        if done == 0:
            return False
        if self.stop_requested:
            return True
        if self.iterations is not None and done >= self.iterations:
            return True
        return self.seconds is not None and time.perf_counter() >= self._deadline

    def remaining(self, done: int) -> float:
        """At most how many more iterations the budget allows: the iteration limit, or the time
        left at the rate so far (the smaller of the two)."""
        left = float("inf")
        if self.iterations is not None:
            left = self.iterations - done
        if self.seconds is not None and done:
            now = time.perf_counter()
            rate = done / max(now - self._began, 1e-9)
            left = min(left, (self._deadline - now) * rate)
        return left



class BudgetedAgent(Agent):
    """An agent whose search runs on a :class:`SearchBudget` (``budget``): a deadline caps the
    budget, an interrupt ends the search at its next iteration, and the best move so far (the
    most visited) is played, never a random one."""

    budget: SearchBudget

    def limit_time(self, seconds: float | None) -> None:
        """Cap the next searches at ``seconds`` of wall time (None lifts the cap)."""
        self.budget.limit_time(seconds)

    def interrupt(self) -> None:
        """End the search in progress at its next iteration and play the best move so far."""
        self.budget.stop_requested = True

def names_winning_moves(state: State) -> bool:
    """Whether ``state``'s game implements the optional ``State.winning_move`` hook."""
    return type(state).winning_move is not State.winning_move


Item = TypeVar("Item")


def pick_random(rng: random.Random, items: Sequence[Item]) -> Item:
    """A uniformly random element (faster than ``rng.choice`` in hot loops)."""
    return items[int(rng.random() * len(items))]
