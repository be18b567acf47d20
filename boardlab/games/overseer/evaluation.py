"""A cheap static evaluation of Overseer positions for the agents (MCTS leaves, greedy play).

Each side gets a score in Soldier units from material, mobility and the safety of the two
Overseers (the squares round each that the enemy attacks, and those it could flee to).
The difference, shrunk when little material is left (an Overseer on a board without
corners is hard to catch, rule 7.2) and as the no-capture limit nears (7.4), becomes the
estimated returns through a logistic curve, so they lie in [0, 1] and sum to 1. A side to
move that can capture the enemy Overseer has won (rule 7.1), whatever else stands there.
Cost: one move generation for the side not to move plus up to 18 attack tests, about
30-60 microseconds in a middle game.
"""

from __future__ import annotations

import math
from typing import Sequence

from .board import (
    BARRICADE,
    CAPTAIN,
    COMMANDER,
    GENERAL,
    NEIGHBOURS,
    OVERSEER,
    PILOT,
    SOLDIER,
    Piece,
    Square,
)
from .movegen import generate_moves, is_attacked

#: material in Soldier units by kind. Barricades are never captured, so they cancel out;
#: the others follow their reach on an empty board (rules 3: 8, 9, 12-13, 14 on one colour, 32)
VALUES: dict[int, float] = {BARRICADE: 0.0, SOLDIER: 1.0, CAPTAIN: 2.5, GENERAL: 3.0, PILOT: 3.0, COMMANDER: 7.0,
                            OVERSEER: 0.0}
#: PIECE_VALUE[piece] for both seats' piece codes
PIECE_VALUE: tuple[float, ...] = tuple(VALUES.get(code & 7, 0.0) if code & 7 else 0.0 for code in range(16))
WEIGHT_MOBILITY = 0.05
#: the side to move has an Overseer that can be taken next turn: it must spend its move on it
PENALTY_OVERSEER_ATTACKED = 1.0
#: per square next to the enemy Overseer that one's pieces attack: the net closing in
WEIGHT_PRESSURE = 0.3
#: per square next to one's Overseer it could step to without being attacked there: room to run
WEIGHT_ESCAPE = 0.2
#: a side to move that can take the enemy Overseer is as good as winning (not 1: not yet played)
CERTAIN = 0.98
#: one Soldier unit of advantage moves the estimate by about 0.06 near an even position
SCALE = 4.0
#: with little material left nobody can catch an Overseer on a board without corners (rule
#: 7.2): the advantage counts for ``material / (material + FEW_PIECES)`` of itself
FEW_PIECES = 12.0


def _overseer_zone(board: Sequence[Piece], overseer: Square, seat: int) -> tuple[int, int]:
    """(squares next to ``seat``'s Overseer the enemy attacks, squares it could flee to safely)."""
    attacked = escapes = 0
    enemy = 1 - seat
    for nxt in NEIGHBOURS[overseer]:
        piece = board[nxt]
        if piece & 7 == BARRICADE:
            continue  # nobody lands there
        if is_attacked(board, nxt, enemy):
            attacked += 1
        elif not piece or piece >> 3 == enemy:
            escapes += 1
    return attacked, escapes


def evaluate_position(
    board: Sequence[Piece],
    squares: Sequence[Sequence[Square]],
    counts: Sequence[int],
    overseers: Sequence[Square],
    to_move: int,
    mover_moves: int,
    since_capture: int = 0,
    no_capture_limit: int = 100,
) -> tuple[float, float]:
    """Estimated returns (White, Black) of an unfinished position with ``to_move`` to play,
    who has ``mover_moves`` legal moves, ``since_capture`` plies after the last capture."""
    other = 1 - to_move
    if is_attacked(board, overseers[other], to_move):
        won = (CERTAIN, 1.0 - CERTAIN)
        return won if to_move == 0 else (won[1], won[0])
    material = [0.0, 0.0]
    for code, count in enumerate(counts):
        if count:
            material[code >> 3] += PIECE_VALUE[code] * count
    mobility = [0, 0]
    mobility[to_move] = mover_moves
    mobility[other] = len(generate_moves(board, squares[other], other))
    score = [material[seat] + WEIGHT_MOBILITY * mobility[seat] for seat in (0, 1)]
    if is_attacked(board, overseers[to_move], other):
        score[to_move] -= PENALTY_OVERSEER_ATTACKED
    for seat in (0, 1):
        attacked, escapes = _overseer_zone(board, overseers[seat], seat)
        score[seat] += WEIGHT_ESCAPE * escapes
        score[1 - seat] += WEIGHT_PRESSURE * attacked
    total = material[0] + material[1]
    # an advantage matters less with few pieces left and as the no-capture limit nears (rules 7.2, 7.4)
    left = 1.0 - since_capture / no_capture_limit
    advantage = (score[0] - score[1]) * total / (total + FEW_PIECES) * left
    white = 1.0 / (1.0 + math.exp(-advantage / SCALE))
    return (white, 1.0 - white)


__all__ = ["PIECE_VALUE", "VALUES", "evaluate_position"]
