"""A cheap static evaluation of Overseer positions for the agents (MCTS leaves, greedy play).

Each side gets a score in Soldier units from material, mobility and the safety of the two
Overseers (the squares round each that the enemy attacks, and those it could flee to).
Each side is also credited with its best capture (one exchange deep; the side not to move
with a share of it, as the side to move may parry it), and the side with more material
with how near the enemy Overseer stands to an edge. The difference, shrunk when little
material is left (an Overseer on a board without corners is hard to catch, rule 7.2),
becomes the estimated returns through a logistic curve, so they lie in [0, 1] and sum to 1. In a
won endgame (the side behind has at most 3 units besides its Overseer and Barricades, the other
leads by 3 or more) the side ahead is instead rated by the net it draws round the enemy Overseer
(its box of safe squares, its safe neighbours, the hunters' distance), not shrunk for few
pieces, between about 0.72 and 0.975 (see ENDGAME_CAP). A side to
move that can capture the enemy Overseer has won (rule 7.1), whatever else stands there, and
one whose attacked Overseer no move can save has lost.
Cost: one move generation for the side not to move plus up to 18 attack tests, about
30-60 microseconds in a middle game in plain Python.

The code and its weights (each with the reason for its value) are in kernel.py
(:func:`.kernel.estimate_position`), where they are compiled.

**Fitted weights** (boardlab.core.fitted, docs/evaluation.md): where ``evaluation.json`` holds
weights for the game's options and the caller judges by them, an undecided position is
rated by the logistic curve of the difference of the two sides' weighted :data:`TERMS`
(:func:`.kernel.fitted_position`): the same material, mobility, captures, Overseer safety,
edge and endgame net, with material also counted as the hand-set evaluation shrinks it for
few pieces and as the no-capture limit nears (rules 7.4: a lead worth less as a draw
approaches), and each with its own weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from boardlab.core.fitted import evaluation_in_force, register_evaluation_terms

from .kernel import ORDINARY, PIECE_VALUE, TERMS_PER_SEAT, VALUES, estimate_position, fitted_position, terms

if TYPE_CHECKING:
    from .state import OverseerState


def evaluate(state: OverseerState) -> Sequence[float]:
    """Estimated returns per seat; the exact returns once the game is over."""
    result = state.result()
    if result is not None:
        return result.returns
    model = evaluation_in_force(state.game)
    if model is None:
        return estimate_position(
            state.board, state.squares, state.counts, state.overseers, state.to_move, state.mover_moves()
        )
    return fitted_position(
        state.board, state.squares, state.counts, state.overseers, state.to_move, state.mover_moves(),
        state.progress.quiet_moves / state.rules.no_capture_limit, model.weights, model.seat_bias,
        model.curve[0], model.curve[1],
    )


#: the fitted evaluation's terms per side, in the kernel's order (:func:`.kernel.terms`)
TERMS = (
    "material",  # its pieces in Soldier units (VALUES)
    "material_few",  # the same times total / (total + FEW_PIECES): little left, little to catch with
    "material_quiet",  # the same times the share of the no-capture limit already used (rules 7.4)
    "mobility",  # its legal moves
    "capture_now",  # its best capture (one exchange deep) when it is to move
    "capture_later",  # its best capture when the other side is to move (which may parry it)
    "overseer_attacked",  # 1 when it is to move with its Overseer attacked (it must save it)
    "pressure",  # squares next to the enemy Overseer that it attacks
    "escapes",  # squares next to its own Overseer it could step to safely
    "edge",  # for the side ahead: how far the enemy Overseer stands from an edge, times the lead / 10
    "to_move",  # 1 for the side to move
    "net",  # in a won endgame, for the side ahead: the net round the enemy Overseer (0 to 1)
)
assert len(TERMS) == TERMS_PER_SEAT


def seat_terms(state: OverseerState) -> list[list[float]] | None:
    """Both sides' :data:`TERMS`; None where the game is over or decided (an Overseer can be taken)."""
    if state.result() is not None:
        return None
    found, values = terms(
        state.board, state.squares, state.counts, state.overseers, state.to_move, state.mover_moves(),
        state.progress.quiet_moves / state.rules.no_capture_limit,
    )
    if found != ORDINARY:
        return None
    return [values[:TERMS_PER_SEAT], values[TERMS_PER_SEAT:]]


register_evaluation_terms("overseer", TERMS, seat_terms)  # type: ignore[arg-type]


__all__ = ["PIECE_VALUE", "TERMS", "VALUES", "estimate_position", "evaluate", "seat_terms"]
