"""A cheap static evaluation of Towers positions for the agents (MCTS leaves, greedy play).

Each seat gets a score from what decides the game (rules 7): castles it controls,
crowned castles, castles it could land on with its next push ("threats"), and a
little for the squares it controls (mobility and material in play). The scores
become estimated returns by a softmax, so they lie in [0, 1] and sum to 1.
The weights and the computation are in kernel.py (the state's ``evaluate()``, the hot
path of MCTS leaves, compiled with the state); this module names the fitted evaluation's
terms and offers them for fitting.
Cost: about 10-20 microseconds for a 2-player middle game as plain Python (one pass over
each seat's stacks, push simulations on heights only), a small fraction of that compiled.

**Fitted weights** (boardlab.core.fitted, docs/evaluation.md): where ``evaluation.json`` holds
weights for the game's player count and options and the caller judges by them, each seat's
score is a weighted sum of its :data:`TERMS` (its castles, crowns, threats and squares as
above, and what the hand-set weights leave out: whose move it is, a threat the mover can
play at once, a seat one castle or crown short of winning, and one that is and can land on
a castle now; castles, threats and squares once more times the share of the pieces already
on the board, as a lead late in the game is surer; that share again for the first seat, whose
edge from moving first changes as the game goes on; the pieces still in reserve), and the
chances are their softmax.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from boardlab.core.fitted import FittedEvaluation, evaluation_in_force, register_evaluation_terms

from .kernel import SHARPNESS, TERMS_PER_SEAT, WEIGHT_CASTLE, WEIGHT_CROWN, WEIGHT_SQUARE, WEIGHT_THREAT, castle_rays

if TYPE_CHECKING:
    from .state import TowersState


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
    "first_seat_late",  # the share of the pieces on the board, for the first seat (White; it moves first
    # unless the random_first option draws another, rules 2.5): the first move's edge changes as the game goes on
    "in_hand",  # pieces still in the seat's reserve (rule 1.7): not yet built onto the board
)
assert len(TERMS) == TERMS_PER_SEAT


def evaluate(state: TowersState) -> Sequence[float]:
    """Estimated returns per seat; the exact returns once the game is over. By the fitted
    weights where they are in force (:meth:`.kernel.TowersState.fitted_evaluation`), else the
    hand-set scores and softmax (:meth:`.kernel.TowersState.hand_evaluation`)."""
    return state.evaluate()


def fitted_returns(state: TowersState, model: FittedEvaluation) -> tuple[float, ...]:
    """The estimated returns of a running game by ``model``'s weights."""
    return state.fitted_evaluation(model)


def placed_share(state: TowersState) -> float:
    """The share of all the pieces of the game already on the board (the game's progress, 0 to 1)."""
    return state.placed_share()


def seat_terms(state: TowersState) -> list[list[float]] | None:
    """Each seat's :data:`TERMS` in a running game; None once it is over."""
    if state.result() is not None:
        return None
    flat = state.terms()
    return [flat[seat * TERMS_PER_SEAT:(seat + 1) * TERMS_PER_SEAT] for seat in range(state.players)]


register_evaluation_terms("towers", TERMS, seat_terms)  # type: ignore[arg-type]


__all__ = [
    "SHARPNESS", "TERMS", "WEIGHT_CASTLE", "WEIGHT_CROWN", "WEIGHT_SQUARE", "WEIGHT_THREAT", "castle_rays", "evaluate",
    "evaluation_in_force", "fitted_returns", "placed_share", "seat_terms",
]
