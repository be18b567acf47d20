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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .kernel import PIECE_VALUE, VALUES, estimate_position

if TYPE_CHECKING:
    from .state import OverseerState


def evaluate(state: OverseerState) -> Sequence[float]:
    """Estimated returns per seat; the exact returns once the game is over."""
    result = state.result()
    if result is not None:
        return result.returns
    return estimate_position(
        state.board, state.squares, state.counts, state.overseers, state.to_move, state.mover_moves()
    )


__all__ = ["PIECE_VALUE", "VALUES", "estimate_position", "evaluate"]
