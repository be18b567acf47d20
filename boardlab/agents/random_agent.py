"""The random agent: a uniformly random legal move. The baseline every other agent must beat."""

from __future__ import annotations

from ..core.agent import Agent
from ..core.state import State
from ..core.values import Move
from .search import decision_moves, pick_random


class RandomAgent(Agent):
    """Plays a uniformly random legal move (from the candidate set in continuous games).

    Cost: one ``legal_moves()`` call per decision.
    """

    name = "random"
    summary = "a uniformly random legal move"
    params = {}

    def choose(self, state: State) -> Move:
        _player, moves = decision_moves(self.name, state)
        return pick_random(self.rng, moves)
