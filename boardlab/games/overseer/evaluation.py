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
30-60 microseconds in a middle game.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from .board import (
    BARRICADE,
    CAPTAIN,
    COMMANDER,
    GENERAL,
    NEIGHBOURS,
    NUM_SECTORS,
    OVERSEER,
    PILOT,
    SOLDIER,
    Piece,
    Square,
)
from .movegen import generate_moves, is_attacked
from .moves import PieceMove

if TYPE_CHECKING:
    from .state import OverseerState

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
#: the endgame (rule 7.2): when the side behind has at most this much material left besides
#: its Overseer and Barricades and the other leads by at least ENDGAME_LEAD, the side ahead is
#: credited with the net it draws round the enemy Overseer, NOT shrunk by FEW_PIECES (that
#: shrinking is what left the hunters without a direction: 15 of 41 games against greedy were
#: drawn by the no-capture limit with mcts ahead in material)
ENDGAME_MATERIAL = 3.0
ENDGAME_LEAD = 3.0
#: per square of the enemy Overseer's box (the squares it reaches by steps through squares
#: the side ahead does not attack), counted from the 96 of the board: shrink the box
WEIGHT_BOX = 0.03
#: per square next to the enemy Overseer it cannot step to safely (of 8)
WEIGHT_SAFE = 0.25
#: per step nearer than FAR (king distance round the cylinder) that one's own Overseer, and
#: each of one's other pieces, stands to the enemy Overseer: bring the hunters close
WEIGHT_OVERSEER_DISTANCE = 0.15
WEIGHT_HUNTER_DISTANCE = 0.08
FAR = 6
#: In the endgame the estimate is not the logistic of the whole score, which sits near the top
#: of its band for any clear lead, leaving the net differences of a few thousandths, below the
#: search's noise. It is the logistic of the score capped at ENDGAME_CAP Soldier units (about
#: 0.72 for the side ahead; what it had with a little material left in the shrunk score) plus
#: the net's share, net / NET_MAX (at most 1), of the way from there to ENDGAME_TOP. ENDGAME_TOP
#: lies below CERTAIN: a capture of the Overseer still ranks above any net
ENDGAME_CAP = 1.5
NET_MAX = 6.0
ENDGAME_TOP = 0.975


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


def _distance(a: Square, b: Square) -> int:
    """Overseer steps between two squares on the cylinder (rule 1.3)."""
    sectors = abs(a % NUM_SECTORS - b % NUM_SECTORS)
    return max(min(sectors, NUM_SECTORS - sectors), abs(a // NUM_SECTORS - b // NUM_SECTORS))


def endgame_net(board: Sequence[Piece], hunters: Sequence[Square], overseer: Square, own_overseer: Square) -> float:
    """The net the hunting side (owning ``hunters`` and ``own_overseer``) draws round the enemy
    Overseer on ``overseer``, in Soldier units (higher: more tightly caught): its box (the
    squares it reaches stepping through empty squares the hunters do not attack; pieces stand
    in its way, a hunter it could take next is in its safe neighbours), its safe neighbours,
    and how near the hunters stand. Cost: one attack test per square of the box."""
    hunter_seat = board[own_overseer] >> 3
    test = list(board)
    test[overseer] = 0  # the Overseer does not shield squares behind it from an attack
    safe_cache: dict[Square, bool] = {}

    def safe(sq: Square) -> bool:
        """An empty square the hunters do not attack."""
        known = safe_cache.get(sq)
        if known is None:
            known = not test[sq] and not is_attacked(test, sq, hunter_seat)
            safe_cache[sq] = known
        return known

    # next to it, an undefended hunter is a square it can take (best_capture counts the piece)
    safe_neighbours = sum(
        1
        for nxt in NEIGHBOURS[overseer]
        if safe(nxt)
        or (test[nxt] and test[nxt] & 7 != BARRICADE and test[nxt] >> 3 == hunter_seat
            and not is_attacked(test, nxt, hunter_seat))
    )
    box = {overseer}
    frontier = [overseer]
    while frontier:
        sq = frontier.pop()
        for nxt in NEIGHBOURS[sq]:
            if nxt not in box and safe(nxt):
                box.add(nxt)
                frontier.append(nxt)
    net = WEIGHT_BOX * (len(board) - len(box)) + WEIGHT_SAFE * (8 - safe_neighbours)
    net += WEIGHT_OVERSEER_DISTANCE * (FAR - _distance(own_overseer, overseer))
    net += WEIGHT_HUNTER_DISTANCE * sum(FAR - _distance(sq, overseer) for sq in hunters)
    return net


def _won_by(seat: int) -> tuple[float, float]:
    return (CERTAIN, 1.0 - CERTAIN) if seat == 0 else (1.0 - CERTAIN, CERTAIN)


def estimate_position(
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
    hunter = 0 if lead > 0 else 1
    if abs(lead) >= ENDGAME_LEAD and material[1 - hunter] <= ENDGAME_MATERIAL:
        hunters = [sq for sq in squares[hunter] if board[sq] & 7 not in (BARRICADE, OVERSEER)]
        net = min(endgame_net(board, hunters, overseers[1 - hunter], overseers[hunter]) / NET_MAX, 1.0)
        ahead = min(advantage if hunter == 0 else -advantage, ENDGAME_CAP)
        base = 0.5 + SPREAD * (1.0 / (1.0 + math.exp(-ahead / SCALE)) - 0.5)
        value = base + (ENDGAME_TOP - base) * net
        return (value, 1.0 - value) if hunter == 0 else (1.0 - value, value)
    white = 0.5 + SPREAD * (1.0 / (1.0 + math.exp(-advantage / SCALE)) - 0.5)
    return (white, 1.0 - white)


def evaluate(state: "OverseerState") -> Sequence[float]:
    """Estimated returns per seat; the exact returns once the game is over."""
    result = state.result()
    if result is not None:
        return result.returns
    return estimate_position(
        state.board, state.squares, state.counts, state.overseers, state.to_move, state.mover_moves()
    )


__all__ = ["PIECE_VALUE", "VALUES", "estimate_position", "evaluate"]
