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

**Fitted weights** (boardlab.core.fitted, docs/evaluation.md): where ``evaluation.json`` holds
weights for the game's options and the caller judges by them, the two holdings are rated by
the logistic curve of the difference of the seats' weighted :data:`TERMS` (the same parts of
a player's strength, each with its own weight, the main ones also scaled by how near the
leader is to the target, and whose turn it is); an open trade is judged as above.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core.fitted import FittedEvaluation, evaluation_in_force, register_evaluation_terms

from .kernel import TERMS_PER_SEAT, estimate, fitted_estimate, terms

if TYPE_CHECKING:
    from .state import TerritoriesState


def estimates(
    state: TerritoriesState, holds: list[list[int]], territories: list[int], model: FittedEvaluation | None = None
) -> list[float]:
    """Estimated returns of the two seats with these holdings (hand-set weights: :mod:`.kernel`;
    ``model``'s fitted ones when given)."""
    rules = state.rules
    if model is None:
        return estimate(
            holds, territories, state.supply, state.buildings, state.touching_cards(),
            rules.limit_counts_territories, rules.hand_limit, rules.capital_per_suit, rules.target_points,
        )
    return fitted_estimate(
        holds, territories, state.supply, state.buildings, state.touching_cards(), rules.limit_counts_territories,
        rules.hand_limit, rules.capital_per_suit, rules.target_points, state.active, model.weights, model.seat_bias,
        model.curve[0], model.curve[1],
    )


def evaluate(state: TerritoriesState) -> list[float]:
    """Estimated returns per seat; the exact returns once the game is over."""
    if state.outcome is not None:
        return list(state.outcome.returns)
    model = evaluation_in_force(state.game)
    territories = [len(state.hands[0]), len(state.hands[1])]
    rejected = estimates(state, state.res, territories, model)
    if state.offer is None:
        return rejected
    giver, give, give_cards, taker, get, get_cards = state.offer
    holds = [list(state.res[0]), list(state.res[1])]
    for suit in range(4):
        holds[giver][suit] += get[suit] - give[suit]
        holds[taker][suit] += give[suit] - get[suit]
    territories[giver] += len(get_cards) - len(give_cards)
    territories[taker] += len(give_cards) - len(get_cards)
    accepted = estimates(state, holds, territories, model)
    return accepted if accepted[taker] > rejected[taker] else rejected


#: the fitted evaluation's terms per seat, in the kernel's order (:func:`.kernel.terms`)
TERMS = (
    "points",  # points on the board (R9.1)
    "points_late",  # the same times the leader's points over the target: nearer the end, worth more
    "income",  # expected resources per roll (both players produce on every roll)
    "income_late",  # the same times the leader's share of the target
    "in_hand",  # resources in hand, up to the 4 of a kind any one build needs
    "in_hand_late",  # the same times the leader's share of the target
    "surplus",  # resources beyond those 4 of a kind
    "territories",  # territory cards in hand
    "readiness",  # how much of its cheapest-to-finish build the hand covers (0 to 1)
    "over_limit",  # cards over the hand limit: what a 7 would make it discard (R5.1)
    "turn",  # 1 for the seat whose turn it is
)
assert len(TERMS) == TERMS_PER_SEAT


def seat_terms(state: TerritoriesState) -> list[list[float]] | None:
    """Both seats' :data:`TERMS` with their holdings as they stand; None once the game is over
    or while a trade is offered (:func:`evaluate` then weighs the two answers)."""
    if state.outcome is not None or state.offer is not None:
        return None
    rules = state.rules
    values = terms(
        state.res, [len(state.hands[0]), len(state.hands[1])], state.supply, state.buildings, state.touching_cards(),
        rules.limit_counts_territories, rules.hand_limit, rules.capital_per_suit, rules.target_points, state.active,
    )
    return [values[:TERMS_PER_SEAT], values[TERMS_PER_SEAT:]]


register_evaluation_terms("territories", TERMS, seat_terms)  # type: ignore[arg-type]
