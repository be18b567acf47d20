"""A fast static evaluation (for agents): estimated returns per player, in [0, 1], summing to 1.

Each player's strength is measured in points: points on the board, plus the
points their economy should buy soon. The economy counts expected resources per
roll (both players produce on every roll), resources in hand with diminishing
value beyond what one build needs, territory cards, how ready the hand is for
the next build (so a bank trade that completes a Town is worth making), minus
the risk of discarding on a 7. The two strengths go through a logistic of their
difference, sharper as the leader nears the target. Cost: O(buildings).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .cards import CAPITAL, CAPITAL_COST, TOWN, UPGRADE_COST
from .production import expected_income

if TYPE_CHECKING:
    from .state import TerritoriesState

#: rolls of income counted as already earned (about the time a build takes to save for)
INCOME_ROLLS = 12.0
#: point value of one resource: a Town costs 4 for 1 point, an upgrade 4 for +1
RESOURCE_VALUE = 0.25
#: a resource beyond the 4 of a kind any single build needs is worth less
SURPLUS_VALUE = 0.1
TERRITORY_VALUE = 0.35
READINESS_VALUE = 0.75
SEVEN_CHANCE = 1 / 6


def readiness(state: "TerritoriesState", seat: int) -> float:
    """How much of the cheapest-to-finish build the hand already covers, 0..1."""
    hold = state.res[seat]
    supply = state.supply[seat]
    best = 0.0
    if supply[TOWN]:
        best = sum(1 for s in range(4) if hold[s]) / 4
    kinds = {kind for owner, kind in state.buildings.values() if owner == seat}
    if TOWN in kinds:
        for kind, cost in UPGRADE_COST.items():
            if supply[kind]:
                suit = max(range(4), key=lambda s: cost[s])
                best = max(best, min(hold[suit], 4) / 4)
    if supply[CAPITAL] and kinds - {TOWN, CAPITAL}:
        best = max(best, sum(min(hold[s], CAPITAL_COST[s]) for s in range(4)) / 8)
    return best


def strength(state: "TerritoriesState", seat: int) -> float:
    """Points-equivalent strength of ``seat``."""
    hold = state.res[seat]
    in_hand = sum(
        min(count, 4) * RESOURCE_VALUE + max(0, count - 4) * SURPLUS_VALUE for count in hold
    )
    income = sum(expected_income(state, seat)) * INCOME_ROLLS * RESOURCE_VALUE
    over = max(0, state.hand_size(seat) - state.rules.hand_limit)
    seven_risk = SEVEN_CHANCE * (over / 2 + 1 if over else 0) * RESOURCE_VALUE
    return (
        state.points(seat)
        + income
        + in_hand
        + TERRITORY_VALUE * len(state.hands[seat])
        + READINESS_VALUE * readiness(state, seat)
        - seven_risk
    )


def evaluate_state(state: "TerritoriesState") -> list[float]:
    if state.outcome is not None:
        return list(state.outcome.returns)
    mine, theirs = strength(state, 0), strength(state, 1)
    target = state.rules.target_points
    sharpness = 0.5 + max(state.points(0), state.points(1)) / target
    x = (mine - theirs) * sharpness / 3.0
    if x > 30:
        return [1.0, 0.0]
    if x < -30:
        return [0.0, 1.0]
    p = 1.0 / (1.0 + math.exp(-x))
    return [p, 1.0 - p]
