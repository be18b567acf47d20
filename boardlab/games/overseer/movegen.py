"""Move generation (rules 2-4) and the refusal path.

The hot functions, :func:`generate_moves` (a seat's legal moves from the flat board),
:func:`has_move` and :func:`is_attacked` (whether a square could be captured on at once),
live in kernel.py, where they are compiled; they are re-exported here. :func:`reach_reason`
explains, in words a player understands, why a piece cannot make a move (the refusal path,
not the hot one).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import (
    BARRICADE,
    CAPTAIN,
    COMMANDER,
    DIAGONAL,
    FORWARD_BACKWARD,
    GENERAL,
    KIND_NAMES,
    OVERSEER,
    PILOT,
    RADIAL,
    RAYS,
    SOLDIER,
    SQUARE_NAMES,
    Piece,
    Square,
    describe_piece,
)
from .kernel import generate_moves, has_move, is_attacked

# --- refusals (rules 3, 4) --------------------------------------------------------
PATTERNS = {
    BARRICADE: "a Barricade moves one square forward, backward or round the ring, onto an empty square (rule 3.1)",
    SOLDIER: "a Soldier moves one square in any direction, or jumps straight over a Barricade next to it (rule 3.2)",
    CAPTAIN: "a Captain moves one square round the ring, or any distance forward or backward (rule 3.3)",
    GENERAL: "a General moves one square forward or backward, or any distance round the ring (rule 3.4)",
    PILOT: "a Pilot moves only diagonally, any distance (rule 3.5)",
    COMMANDER: "a Commander moves any distance forward, backward, round the ring or diagonally (rule 3.6)",
    OVERSEER: "an Overseer moves one square in any direction (rule 3.7)",
}
_RULE = {
    BARRICADE: "3.1", SOLDIER: "3.2", CAPTAIN: "3.3", GENERAL: "3.4", PILOT: "3.5", COMMANDER: "3.6", OVERSEER: "3.7",
}


def _lines(kind: int, origin: Square, target: Square) -> list[tuple[Square, ...]]:
    """The squares between ``origin`` and ``target`` on each line along which ``kind`` could
    make this move on an empty board (a Soldier's jump: the square jumped)."""
    lines = []
    for direction, rays in enumerate(RAYS):
        ray = rays[origin]
        if target not in ray:
            continue
        distance = ray.index(target) + 1
        radial = direction in RADIAL
        along_file = direction in FORWARD_BACKWARD
        fits = {
            BARRICADE: distance == 1 and direction not in DIAGONAL,
            SOLDIER: distance <= 2,
            CAPTAIN: along_file or (radial and distance == 1),
            GENERAL: radial or (along_file and distance == 1),
            PILOT: direction in DIAGONAL,
            COMMANDER: True,
            OVERSEER: distance == 1,
        }[kind]
        if fits:
            lines.append(ray[: distance - 1])
    return lines


def reach_reason(board: Sequence[Piece], seat: int, origin: Square, target: Square) -> str:
    """Why the piece of ``seat`` on ``origin`` cannot go to ``target``, in a player's words,
    for a move known not to be legal whose two squares hold the right things (the caller has
    checked the origin and the target)."""
    kind = board[origin] & 7
    name = KIND_NAMES[kind]
    lines = _lines(kind, origin, target)
    here = f"the {name} on {SQUARE_NAMES[origin]}"
    if not lines:
        return f"{here} cannot reach {SQUARE_NAMES[target]}: {PATTERNS[kind]}"
    for between in lines:
        if kind == SOLDIER and between:
            jumped = between[0]
            if board[jumped] & 7 != BARRICADE:
                what = "an empty square" if not board[jumped] else describe_piece(board[jumped])
                return (
                    f"{here} jumps only over a Barricade, and {SQUARE_NAMES[jumped]} holds {what} (rule 3.2)"
                )
            continue
        for sq in between:
            piece = board[sq]
            if not piece or (kind == PILOT and piece & 7 == BARRICADE):
                continue
            return f"{here} is blocked by {describe_piece(piece)} on {SQUARE_NAMES[sq]} (rules 2.2, {_RULE[kind]})"
    return f"{here} cannot reach {SQUARE_NAMES[target]} ({PATTERNS[kind]})"


__all__ = ["PATTERNS", "generate_moves", "has_move", "is_attacked", "reach_reason"]
