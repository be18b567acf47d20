"""The greedy agent: the best move one ply ahead.

Each legal move is scored from the mover's viewpoint by the position it leads to:
a finished game by its result, a chance node by the average over its outcomes
(exact when few, sampled otherwise), any other position by the game's
``evaluate()``. Ties are broken at random with the agent's own generator, so a
game without an evaluation function is played as "take an immediate win, avoid
an immediate loss, otherwise random".
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..core.agent import Agent
from ..core.decisions import leaf_value
from ..core.fitted import EVALUATION_PARAM, evaluation_choice, judging_by
from ..core.state import State
from ..core.values import CHANCE, Move, Player
from .search import check_positive, decision_moves, pick_random

#: two scores closer than this are a tie (evaluations are floats summed in different orders)
TIE = 1e-9
#: from this temperature on a drawn move is often a weaker one (the levels' beginner, 0.05, is;
#: Territories' easy, 0.015, now and then): the words a player reads of a level
OFTEN_WEAKER_TEMPERATURE = 0.03


class GreedyAgent(Agent):
    """One-ply search on the game's evaluation function.

    Cost per decision: for every legal move one ``apply``/``undo`` and one
    ``evaluate()``; after a move that reaches a chance node, up to
    ``exact_chance`` (or ``chance_samples``) more, per nested chance node.
    """

    name = "greedy"
    summary = "the best move one ply ahead by the game's evaluation (wins first, ties at random)"

    @classmethod
    def describe(cls, params: Mapping[str, str]) -> str:
        temperature = float(params.get("temperature", 0))
        if temperature > 0:
            # in a player's words: the temperature itself is the spec's, which the Lab shows
            how_often = "often" if temperature >= OFTEN_WEAKER_TEMPERATURE else "now and then"
            return f"looks one move ahead and picks by how good each move looks: {how_often} a plausible but weaker one"
        return "the best move one move ahead; never misses a win on the spot"
    params = {
        "exact_chance": (
            int,
            36,
            "average exactly over a chance node with at most this many outcomes (36 covers two dice)",
        ),
        "chance_samples": (
            int,
            12,
            "otherwise average over this many outcomes drawn with the agent's own generator",
        ),
        "temperature": (
            float,
            0.0,
            "0 = always a best move; above 0 a move is drawn with weight exp((score - best) / temperature), "
            "so near-best moves are common and poor ones rare: a newcomer's plausible mistakes",
        ),
        "evaluation": EVALUATION_PARAM,
    }

    #: nested chance nodes after one move are followed this deep, then scored as they stand
    max_chance_depth = 2

    def _configure(self) -> None:
        check_positive(self.name, "exact_chance", self.settings["exact_chance"], allow_zero=True)
        check_positive(self.name, "chance_samples", self.settings["chance_samples"])
        check_positive(self.name, "temperature", self.settings["temperature"], allow_zero=True)
        self.judge = evaluation_choice(self.settings["evaluation"])

    def choose(self, state: State) -> Move:
        with judging_by(self.judge):
            return self._choose(state)

    def _choose(self, state: State) -> Move:
        mover, moves = decision_moves(self.name, state)
        if len(moves) == 1:
            return moves[0]
        if self.settings["temperature"] > 0:
            return self._sample(state, mover, moves)
        work = state.copy()
        best: list[Move] = []
        best_score = -1.0
        for move in moves:
            work.apply(move)
            score = self.score(work, mover, 0)
            work.undo()
            if score > best_score + TIE:
                best, best_score = [move], score
            elif score >= best_score - TIE:
                best.append(move)
        return pick_random(self.rng, best)

    def _sample(self, state: State, mover: Player, moves: list[Move]) -> Move:
        """A move drawn by its one-ply score: the softmax at ``temperature``."""
        work = state.copy()
        scores = []
        for move in moves:
            work.apply(move)
            scores.append(self.score(work, mover, 0))
            work.undo()
        top = max(scores)
        temperature = self.settings["temperature"]
        weights = [math.exp((score - top) / temperature) for score in scores]
        pick = self.rng.random() * sum(weights)
        for move, weight in zip(moves, weights):
            pick -= weight
            if pick < 0:
                return move
        return moves[-1]

    def score(self, state: State, mover: Player, chance_depth: int) -> float:
        """The value of ``state`` for ``mover``, about [0, 1] (``state`` is restored before
        returning): chance averaged (exactly or by samples), then :func:`leaf_value`."""
        if state.current_player() == CHANCE and chance_depth < self.max_chance_depth:
            return self._chance_score(state, mover, chance_depth)
        return leaf_value(state, mover)

    def _chance_score(self, state: State, mover: Player, chance_depth: int) -> float:
        outcomes = state.chance_outcomes()
        total = 0.0
        if len(outcomes) <= self.settings["exact_chance"]:
            for outcome, probability in outcomes:
                state.apply(outcome)
                total += probability * self.score(state, mover, chance_depth + 1)
                state.undo()
            return total
        samples: int = self.settings["chance_samples"]
        for _ in range(samples):
            state.apply(state.sample_chance(self.rng))
            total += self.score(state, mover, chance_depth + 1)
            state.undo()
        return total / samples
