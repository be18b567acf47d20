"""A cheap static evaluation of Overseer positions for the agents (MCTS leaves, greedy play).

Each side gets a score in Soldier units from material, mobility and the safety of the two
Overseers (the squares round each that the enemy attacks, and those it could flee to).
Each side is also credited with its best capture (one exchange deep; the side not to move
with a share of it, as the side to move may parry it), and the side with more material
with how near the enemy Overseer stands to an edge. The difference, shrunk when little
material is left (an Overseer on a board without corners is hard to catch, rule 7.2),
becomes the estimated returns through a logistic curve, so they lie in [0, 1] and sum to 1. A side to
move that can capture the enemy Overseer has won (rule 7.1), whatever else stands there, and
one whose attacked Overseer no move can save has lost.
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
from .moves import PieceMove

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
#: one Soldier unit of advantage moves the estimate by about 0.14 near an even position. MCTS
#: tells moves apart by these differences against its exploration term: at SCALE 4 (0.06 a
#: Soldier) its visits spread almost evenly and it lost to greedy (which any rising curve
#: ranks alike); a sharper curve lets it concentrate on the moves that win material
SCALE = 1.5
#: estimates of unfinished positions stay strictly between a lost and a won Overseer
#: (1 - CERTAIN, CERTAIN): a material lead never outranks a capture of the Overseer
SPREAD = 2 * CERTAIN - 1 - 0.02
#: with little material left nobody can catch an Overseer on a board without corners (rule
#: 7.2): the advantage counts for ``material / (material + FEW_PIECES)`` of itself
FEW_PIECES = 12.0
#: the share of its best capture that the side not to move is credited with (the side to move
#: may parry it); the side to move gets all of its own
THREAT_SHARE = 0.3
#: per index an Overseer stands away from index 1 or 8 (rule 1.3), for the side with more
#: material: the edges are the only walls to drive it against; times the material lead / 10
WEIGHT_EDGE = 0.5


def best_capture(board: Sequence[Piece], moves: Sequence[PieceMove], seat: int) -> float:
    """What ``seat`` wins by its best capture, counting the capturing piece as lost when the
    enemy can take it back on that square (a one-exchange look at the trade). Cost: one attack
    test per capture."""
    best = 0.0
    enemy = 1 - seat
    for move in moves:
        if not move.capture:
            continue
        gain = PIECE_VALUE[board[move.target]]
        if gain <= best:
            continue
        attacker = board[move.origin]
        after = list(board)
        after[move.target] = attacker
        after[move.origin] = 0
        if is_attacked(after, move.target, enemy):
            gain -= PIECE_VALUE[attacker]
        if gain > best:
            best = gain
    return best


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


def _can_save_overseer(board: Sequence[Piece], moves: Sequence[PieceMove], overseer: Square, enemy: int) -> bool:
    """Whether one of ``moves`` leaves the mover's Overseer (on ``overseer``, now attacked) where
    ``enemy`` cannot capture it: by moving it, blocking the line, or taking the attacker."""
    for move in moves:
        after = list(board)
        after[move.target] = after[move.origin]
        after[move.origin] = 0
        if not is_attacked(after, move.target if move.origin == overseer else overseer, enemy):
            return True
    return False


def _won_by(seat: int) -> tuple[float, float]:
    return (CERTAIN, 1.0 - CERTAIN) if seat == 0 else (1.0 - CERTAIN, CERTAIN)


def evaluate_position(
    board: Sequence[Piece],
    squares: Sequence[Sequence[Square]],
    counts: Sequence[int],
    overseers: Sequence[Square],
    to_move: int,
    mover_moves: Sequence[PieceMove],
) -> tuple[float, float]:
    """Estimated returns (White, Black) of an unfinished position with ``to_move`` to play,
    whose legal moves are ``mover_moves``."""
    other = 1 - to_move
    if is_attacked(board, overseers[other], to_move):
        return _won_by(to_move)  # it captures the Overseer now (rule 7.1)
    in_danger = is_attacked(board, overseers[to_move], other)
    if in_danger and not _can_save_overseer(board, mover_moves, overseers[to_move], other):
        return _won_by(other)  # whatever it plays, its Overseer is taken next
    material = [0.0, 0.0]
    for code, count in enumerate(counts):
        if count:
            material[code >> 3] += PIECE_VALUE[code] * count
    other_moves = generate_moves(board, squares[other], other)
    score = [material[0], material[1]]
    score[to_move] += WEIGHT_MOBILITY * len(mover_moves) + best_capture(board, mover_moves, to_move)
    score[other] += WEIGHT_MOBILITY * len(other_moves) + THREAT_SHARE * best_capture(board, other_moves, other)
    if in_danger:
        score[to_move] -= PENALTY_OVERSEER_ATTACKED
    lead = material[0] - material[1]
    for seat in (0, 1):
        attacked, escapes = _overseer_zone(board, overseers[seat], seat)
        score[seat] += WEIGHT_ESCAPE * escapes
        score[1 - seat] += WEIGHT_PRESSURE * attacked
        behind = -lead if seat == 0 else lead
        if behind > 0:
            index = overseers[seat] // 12 + 1
            score[1 - seat] -= WEIGHT_EDGE * min(index - 1, 8 - index) * min(behind, 10.0) / 10.0
    total = material[0] + material[1]
    # an advantage matters less with few pieces left (rule 7.2)
    advantage = (score[0] - score[1]) * total / (total + FEW_PIECES)
    white = 0.5 + SPREAD * (1.0 / (1.0 + math.exp(-advantage / SCALE)) - 0.5)
    return (white, 1.0 - white)


__all__ = ["PIECE_VALUE", "VALUES", "evaluate_position"]
