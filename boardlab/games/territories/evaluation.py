"""A fast static evaluation (for agents): estimated returns per player, in [0, 1], summing to 1.

Each player's strength is points plus the points their economy should buy over
the next few turns: expected resources per roll (both players produce on every
roll), resources in hand, territory cards, discounted by the risk of losing
half a large hand on a 7. The two strengths go through a logistic of their
difference, scaled by how close the leader is to the target. Cost: O(buildings).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .production import expected_income

if TYPE_CHECKING:
    from .state import TerritoriesState

#: turns of income counted as "banked"; about the time a build takes to save for
_HORIZON = 6.0
#: resources per point: a Town costs 4 for 1 point, a tier-2 upgrade 4 for +1
_RESOURCES_PER_POINT = 4.0


def strength(state: "TerritoriesState", seat: int) -> float:
    """Points-equivalent strength of ``seat``."""
    income = sum(expected_income(state, seat))
    hand = sum(state.res[seat])
    limit = state.rules.hand_limit
    over = max(0, state.hand_size(seat) - limit)
    # a 7 (1/6 per roll) costs the excess; weigh the hand down accordingly
    held = hand - over / 6.0
    worth = (income * 2 * _HORIZON + held + 1.5 * len(state.hands[seat])) / _RESOURCES_PER_POINT
    return state.points(seat) + worth


def evaluate_state(state: "TerritoriesState") -> list[float]:
    if state.outcome is not None:
        return list(state.outcome.returns)
    mine, theirs = strength(state, 0), strength(state, 1)
    target = state.rules.target_points
    closeness = 0.5 + max(state.points(0), state.points(1)) / target
    x = (mine - theirs) * closeness / 3.0
    if x > 30:
        return [1.0, 0.0]
    if x < -30:
        return [0.0, 1.0]
    p = 1.0 / (1.0 + math.exp(-x))
    return [p, 1.0 - p]
