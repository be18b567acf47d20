"""A cheap static evaluation of Sovereign positions for the agents (placeholder, tuned later)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import GOAL_DISTANCE

if TYPE_CHECKING:
    from .state import SovereignState


def evaluate(state: "SovereignState") -> tuple[float, ...]:
    result = state.result()
    if result is not None:
        return result.returns
    scores = []
    for seat in (0, 1):
        sovereign = state.piece_sets[seat * 4 + 1]
        if not sovereign:
            scores.append(0.0)
            continue
        square = sovereign.bit_length() - 1
        scores.append(-0.2 * GOAL_DISTANCE[seat][square] + 0.1 * state.heights[square])
    diff = scores[0] - scores[1]
    first = 1.0 / (1.0 + math.exp(-diff))
    return (first, 1.0 - first)
