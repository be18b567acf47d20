"""A cheap static evaluation of Overseer positions for the agents (MCTS leaves, greedy play).

Each side gets a score in Soldier units from material, mobility and the safety of the two
Overseers; the difference becomes the estimated returns through a logistic curve, so they
lie in [0, 1] and sum to 1. A side to move that can capture the enemy Overseer has won
(rules 7.1), whatever else stands on the board.
Cost: one move generation for the side not to move plus a few attack tests, about
20-40 microseconds in a middle game.
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
PENALTY_OVERSEER_ATTACKED = 1.5
#: per empty or capturable square next to an Overseer that no enemy attacks: room to run
WEIGHT_ESCAPE = 0.15
#: a side to move that can take the enemy Overseer is as good as winning (not 1: not yet played)
CERTAIN = 0.98
#: one Soldier unit of advantage moves the estimate by about 0.06 near an even position
SCALE = 4.0


def _escape_squares(board: Sequence[Piece], overseer: Square, seat: int) -> int:
    """Squares next to ``seat``'s Overseer it could step to without being attacked there."""
    count = 0
    enemy = 1 - seat
    for nxt in NEIGHBOURS[overseer]:
        piece = board[nxt]
        if piece and (piece >> 3 == seat or piece & 7 == BARRICADE):
            continue
        if not is_attacked(board, nxt, enemy):
            count += 1
    return count


def evaluate_position(
    board: Sequence[Piece],
    squares: Sequence[Sequence[Square]],
    counts: Sequence[int],
    overseers: Sequence[Square],
    to_move: int,
    mover_moves: int,
) -> tuple[float, float]:
    """Estimated returns (White, Black) of an unfinished position with ``to_move`` to play,
    who has ``mover_moves`` legal moves."""
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
        score[seat] += WEIGHT_ESCAPE * _escape_squares(board, overseers[seat], seat)
    white = 1.0 / (1.0 + math.exp((score[1] - score[0]) / SCALE))
    return (white, 1.0 - white)


__all__ = ["PIECE_VALUE", "VALUES", "evaluate_position"]
