"""A fast static evaluation (for agents): estimated returns per player, in [0, 1], summing to 1.

Each player's strength is measured in points: points on the board, plus the
points their economy should buy soon. The economy counts expected resources per
roll (both players produce on every roll), resources in hand with diminishing
value beyond what one build needs, territory cards, how ready the hand is for
the next build (so a bank trade that completes a Town is worth making), minus
the risk of discarding on a 7. The two strengths go through a logistic of their
difference, sharper as the leader nears the target. While a trade proposal is
open, the position is worth what the responder's better answer leaves (they
accept only what their own estimate prefers), so a search or a greedy player
sees that a proposal the opponent would take costs the proposer. Cost: O(buildings).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

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


def readiness(state: "TerritoriesState", seat: int, hold: Sequence[int]) -> float:
    """How much of the cheapest-to-finish build ``hold`` already covers, 0..1."""
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


def strength(state: "TerritoriesState", seat: int, hold: Sequence[int], territories: int) -> float:
    """Points-equivalent strength of ``seat`` holding the resources ``hold`` and ``territories``
    territory cards (its real holdings, or those an open trade would give it)."""
    in_hand = sum(
        min(count, 4) * RESOURCE_VALUE + max(0, count - 4) * SURPLUS_VALUE for count in hold
    )
    income = sum(expected_income(state, seat)) * INCOME_ROLLS * RESOURCE_VALUE
    hand_size = sum(hold) + (territories if state.rules.limit_counts_territories else 0)
    over = max(0, hand_size - state.rules.hand_limit)
    seven_risk = SEVEN_CHANCE * (over / 2 + 1 if over else 0) * RESOURCE_VALUE
    return (
        state.points(seat)
        + income
        + in_hand
        + TERRITORY_VALUE * territories
        + READINESS_VALUE * readiness(state, seat, hold)
        - seven_risk
    )


def estimate(state: "TerritoriesState", holds: Sequence[Sequence[int]], territories: Sequence[int]) -> list[float]:
    """Estimated returns of the two seats with these holdings."""
    mine = strength(state, 0, holds[0], territories[0])
    theirs = strength(state, 1, holds[1], territories[1])
    target = state.rules.target_points
    sharpness = 0.5 + max(state.points(0), state.points(1)) / target
    x = (mine - theirs) * sharpness / 3.0
    if x > 30:
        return [1.0, 0.0]
    if x < -30:
        return [0.0, 1.0]
    p = 1.0 / (1.0 + math.exp(-x))
    return [p, 1.0 - p]


def evaluate(state: "TerritoriesState") -> list[float]:
    """Estimated returns per seat; the exact returns once the game is over."""
    if state.outcome is not None:
        return list(state.outcome.returns)
    territories = [len(state.hands[0]), len(state.hands[1])]
    rejected = estimate(state, state.res, territories)
    if state.offer is None:
        return rejected
    giver, give, give_cards, taker, get, get_cards = state.offer
    holds = [list(state.res[0]), list(state.res[1])]
    for suit in range(4):
        holds[giver][suit] += get[suit] - give[suit]
        holds[taker][suit] += give[suit] - get[suit]
    territories[giver] += len(get_cards) - len(give_cards)
    territories[taker] += len(give_cards) - len(get_cards)
    accepted = estimate(state, holds, territories)
    return accepted if accepted[taker] > rejected[taker] else rejected
