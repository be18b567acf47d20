"""A cheap static evaluation of Towers positions for the agents (MCTS leaves, greedy play).

Each seat gets a score from what decides the game (rules 7): castles it controls,
crowned castles, castles it could land on with its next push ("threats"), and a
little for the squares it controls (mobility and material in play). The scores
become estimated returns by a softmax, so they lie in [0, 1] and sum to 1.
The weights and the computation are in kernel.py (:func:`.kernel.evaluate`), the hot
path of MCTS leaves; this module keeps the castle rays a state computes once.
Cost: about 10-20 microseconds for a 2-player middle game as plain Python (one pass over
each seat's stacks, push simulations on heights only), a fifth of that compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from .board import NUM_SQUARES, SIZE, STEP
from .kernel import SHARPNESS, WEIGHT_CASTLE, WEIGHT_CROWN, WEIGHT_SQUARE, WEIGHT_THREAT, push_end

if TYPE_CHECKING:
    from .state import TowersState


@lru_cache(maxsize=64)
def castle_rays(castles: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each square: (direction, distance, castle) for every castle 1-4 steps away in a line."""
    rays: list[list[tuple[int, int, int]]] = [[] for _ in range(NUM_SQUARES)]
    castle_set = set(castles)
    for sq in range(NUM_SQUARES):
        for direction in range(4):
            cur = sq
            for distance in range(1, SIZE):
                cur = STEP[direction][cur]
                if cur < 0 or distance > 4:
                    break
                if cur in castle_set:
                    rays[sq].append((direction, distance, cur))
    return tuple(tuple(r) for r in rays)


def evaluate(state: TowersState) -> Sequence[float]:
    """Estimated returns per seat; the exact returns once the game is over.
    The scores and the softmax are computed by :func:`.kernel.evaluate`."""
    return state.evaluate()


__all__ = [
    "SHARPNESS", "WEIGHT_CASTLE", "WEIGHT_CROWN", "WEIGHT_SQUARE", "WEIGHT_THREAT", "castle_rays", "evaluate", "push_end",
]
