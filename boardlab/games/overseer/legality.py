"""Why an Overseer move is refused, in a player's words, citing the rule (docs/rules/overseer.md).

Only called for moves that are not known to be legal: the cheap tests of the two squares
first, then the move list, then :func:`.movegen.reach_reason` for the piece's reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core import Move

from .board import BARRICADE, KIND_NAMES, NUM_SQUARES, SEAT_NAMES, SQUARE_NAMES, describe_piece
from .movegen import reach_reason
from .moves import PieceMove

if TYPE_CHECKING:
    from .state import OverseerState


def illegal_reason(state: OverseerState, move: Move) -> str | None:
    """Why ``move`` is illegal for the side to move, in a player's words with the rule; None if legal."""
    if type(move) is not PieceMove or not (0 <= move.origin < NUM_SQUARES and 0 <= move.target < NUM_SQUARES):
        return "not an Overseer move"
    board = state.board
    seat = state.to_move
    origin, target = move.origin, move.target
    piece, there = board[origin], board[target]
    if not piece:
        return f"{SQUARE_NAMES[origin]} is empty: there is no piece to move (rule 6.1)"
    if piece >> 3 != seat:
        return (
            f"{SQUARE_NAMES[origin]} holds {describe_piece(piece)}; {SEAT_NAMES[seat]} moves only "
            f"{SEAT_NAMES[seat]}'s pieces (rule 6.1)"
        )
    if there:
        if there & 7 == BARRICADE:
            return (
                f"{SQUARE_NAMES[target]} holds a Barricade: Barricades are never captured and "
                "no piece lands on one (rule 4.2)"
            )
        if there >> 3 == seat:
            return (
                f"{SQUARE_NAMES[target]} holds {SEAT_NAMES[seat]}'s own {KIND_NAMES[there & 7]}: "
                "nobody captures his own pieces (rule 4.1)"
            )
        if piece & 7 == BARRICADE:
            return (
                f"a Barricade never captures, and {SQUARE_NAMES[target]} holds {describe_piece(there)} "
                "(rules 3.1, 4.3)"
            )
        if not move.capture:
            return (
                f"{SQUARE_NAMES[target]} holds {describe_piece(there)}: moving there captures it, written "
                f"{SQUARE_NAMES[origin]}x{SQUARE_NAMES[target]} (rule 9.2)"
            )
    elif move.capture:
        return (
            f"{SQUARE_NAMES[target]} is empty, so there is nothing to capture: the move is written "
            f"{SQUARE_NAMES[origin]}-{SQUARE_NAMES[target]} (rule 9.2)"
        )
    if move in state.mover_moves():
        return None
    return reach_reason(board, seat, origin, target)


__all__ = ["illegal_reason"]
