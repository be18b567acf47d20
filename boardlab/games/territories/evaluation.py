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

from typing import TYPE_CHECKING

from .kernel import estimate

if TYPE_CHECKING:
    from .state import TerritoriesState


def estimates(state: TerritoriesState, holds: list[list[int]], territories: list[int]) -> list[float]:
    """Estimated returns of the two seats with these holdings (weights: :mod:`.kernel`)."""
    rules = state.rules
    return estimate(
        holds, territories, state.supply, state.buildings, state.touching_cards(),
        rules.limit_counts_territories, rules.hand_limit, rules.capital_per_suit, rules.target_points,
    )


def evaluate(state: TerritoriesState) -> list[float]:
    """Estimated returns per seat; the exact returns once the game is over."""
    if state.outcome is not None:
        return list(state.outcome.returns)
    territories = [len(state.hands[0]), len(state.hands[1])]
    rejected = estimates(state, state.res, territories)
    if state.offer is None:
        return rejected
    giver, give, give_cards, taker, get, get_cards = state.offer
    holds = [list(state.res[0]), list(state.res[1])]
    for suit in range(4):
        holds[giver][suit] += get[suit] - give[suit]
        holds[taker][suit] += give[suit] - get[suit]
    territories[giver] += len(get_cards) - len(give_cards)
    territories[taker] += len(give_cards) - len(get_cards)
    accepted = estimates(state, holds, territories)
    return accepted if accepted[taker] > rejected[taker] else rejected
