"""A cheap static evaluation of Towers positions for the agents (MCTS leaves, greedy play).

Each seat gets a score from what decides the game (rules 7): castles it controls,
crowned castles, castles it could land on with its next push ("threats"), and a
little for the squares it controls (mobility and material in play). The scores
become estimated returns by a softmax, so they lie in [0, 1] and sum to 1.
The weights and the computation are in kernel.py (:func:`.kernel.evaluate`), the hot
path of MCTS leaves; this module keeps the castle rays a state computes once.
Cost: about 10-20 microseconds for a 2-player middle game as plain Python (one pass over
each seat's stacks, push simulations on heights only), a fifth of that compiled.

**Fitted weights** (boardlab.core.fitted, docs/evaluation.md): where ``evaluation.json`` holds
weights for the game's player count and options and the caller judges by them, each seat's
score is a weighted sum of its :data:`TERMS` (its castles, crowns, threats and squares as
above, and what the hand-set weights leave out: whose move it is, a threat the mover can
play at once, a seat one castle or crown short of winning, and one that is and can land on
a castle now; castles, threats and squares once more times the share of the pieces already
on the board, as a lead late in the game is surer), and the chances are their softmax.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from boardlab.core.fitted import FittedEvaluation, evaluation_in_force, register_evaluation_terms

from . import kernel
from .board import NUM_SQUARES, SIZE, STEP
from .kernel import SHARPNESS, TERMS_PER_SEAT, WEIGHT_CASTLE, WEIGHT_CROWN, WEIGHT_SQUARE, WEIGHT_THREAT, push_end

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


#: the fitted evaluation's terms per seat, in the kernel's order
TERMS = (
    "castles",  # castles the seat controls (rules 6)
    "crowns",  # crowned castles it controls (rule 6.3)
    "threats",  # castles it does not hold that one of its pushes would land on
    "squares",  # squares it controls: mobility and material in play
    "to_move",  # 1 for the seat to move
    "threats_to_move",  # its threats when it is to move: it can play one now
    "one_short",  # 1 when one more castle or crown wins it the game (rules 7.1, 7.2)
    "one_short_threat_to_move",  # one short, to move, with a threat: very likely a win next move
    "castles_late",  # castles times the share of all pieces already on the board: a lead late counts more
    "threats_late",  # threats, the same
    "squares_late",  # squares, the same
)
assert len(TERMS) == TERMS_PER_SEAT


def evaluate(state: TowersState) -> Sequence[float]:
    """Estimated returns per seat; the exact returns once the game is over. By the fitted
    weights where they are in force (:func:`.kernel.fitted_evaluate`), else the hand-set
    scores and softmax (:func:`.kernel.evaluate`)."""
    result = state.result()
    if result is not None:
        return result.returns
    model = evaluation_in_force(state.game)
    if model is None:
        return kernel.evaluate(state.stacks, state.control, state.castles, state.castle_rays, state.rules.players)
    return fitted_returns(state, model)


def fitted_returns(state: TowersState, model: FittedEvaluation) -> tuple[float, ...]:
    """The estimated returns of a running game by ``model``'s weights (:func:`.kernel.fitted_evaluate`)."""
    rules = state.rules
    return kernel.fitted_evaluate(
        state.stacks, state.control, state.castles, state.castle_rays, rules.players, state.to_move,
        rules.castles_to_win, rules.crowns_to_win, placed_share(state), model.weights, model.seat_bias,
        model.curve[0], model.curve[1],
    )


def placed_share(state: TowersState) -> float:
    """The share of all the pieces of the game already on the board (the game's progress, 0 to 1)."""
    rules = state.rules
    return 1.0 - sum(state.reserves) / (rules.supply * rules.players)


def seat_terms(state: TowersState) -> list[list[float]] | None:
    """Each seat's :data:`TERMS` in a running game; None once it is over."""
    if state.result() is not None:
        return None
    rules = state.rules
    flat = kernel.terms(
        state.stacks, state.control, state.castles, state.castle_rays, rules.players, state.to_move,
        rules.castles_to_win, rules.crowns_to_win, placed_share(state),
    )
    return [flat[seat * TERMS_PER_SEAT:(seat + 1) * TERMS_PER_SEAT] for seat in range(rules.players)]


register_evaluation_terms("towers", TERMS, seat_terms)  # type: ignore[arg-type]


__all__ = [
    "SHARPNESS", "TERMS", "WEIGHT_CASTLE", "WEIGHT_CROWN", "WEIGHT_SQUARE", "WEIGHT_THREAT", "castle_rays", "evaluate",
    "evaluation_in_force", "fitted_returns", "push_end", "seat_terms",
]
