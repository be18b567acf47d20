"""Move generation (rules 2-4): the hot path of random play and search.

:func:`generate_moves` lists a seat's legal moves from the flat board; :func:`is_attacked`
says whether a square could be captured on at once; :func:`reach_reason` explains, in words a
player understands, why a piece cannot make a move (the refusal path, not the hot one).
Everything reads the tables of board.py and hands out the shared moves of moves.py.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .board import (
    BARRICADE,
    CAPTAIN,
    COMMANDER,
    DIAGONAL,
    DIAGONAL_PAIRS,
    ENEMY,
    FILE_NEIGHBOURS,
    FILE_RAYS,
    FORWARD_BACKWARD,
    FREE,
    GENERAL,
    KIND_NAMES,
    NEIGHBOURS,
    ORTHOGONAL_NEIGHBOURS,
    OVERSEER,
    OWN,
    PILOT,
    RADIAL,
    RAYS,
    RING_ANTICLOCKWISE_PREFIX,
    RING_CLOCKWISE,
    RING_NEIGHBOURS,
    SOLDIER,
    SOLDIER_LINES,
    SQUARE_CLASS,
    SQUARE_NAMES,
    WALL,
    Piece,
    Square,
    describe_piece,
)
from .moves import CAPTURE, QUIET, PieceMove

#: one row of the shared move tables (moves.QUIET[square] or moves.CAPTURE[square])
MoveRow = Sequence["PieceMove | None"]
Append = Callable[[Any], None]


def generate_moves(board: Sequence[Piece], squares: Sequence[Square], seat: int) -> list[PieceMove]:
    """The legal moves of ``seat``, whose pieces stand on ``squares`` (in that order).

    A square reachable two ways (both ways round a ring, or by the two outward or the
    two inward diagonals) is listed once (rules 2.3). Cost: one table lookup per square
    a piece looks at; about 10-20 microseconds for a full army.
    """
    klass = SQUARE_CLASS[seat]
    moves: list[PieceMove] = []
    append = moves.append
    for sq in squares:
        kind = board[sq] & 7
        quiet = QUIET[sq]
        capture = CAPTURE[sq]
        if kind == SOLDIER:
            # one step any way, or two over a Barricade of either colour (rules 3.2)
            for nxt, beyond in SOLDIER_LINES[sq]:
                c = klass[board[nxt]]
                if c == FREE:
                    append(quiet[nxt])
                elif c == ENEMY:
                    append(capture[nxt])
                elif c == WALL and beyond >= 0:
                    c = klass[board[beyond]]
                    if c == FREE:
                        append(quiet[beyond])
                    elif c == ENEMY:
                        append(capture[beyond])
        elif kind == BARRICADE:
            # one step forward/backward or round the ring, onto an empty square only (rules 3.1)
            for nxt in ORTHOGONAL_NEIGHBOURS[sq]:
                if not board[nxt]:
                    append(quiet[nxt])
        elif kind == CAPTAIN:
            for nxt in RING_NEIGHBOURS[sq]:
                c = klass[board[nxt]]
                if c == FREE:
                    append(quiet[nxt])
                elif c == ENEMY:
                    append(capture[nxt])
            for ray in FILE_RAYS[sq]:
                for nxt in ray:
                    c = klass[board[nxt]]
                    if c == FREE:
                        append(quiet[nxt])
                        continue
                    if c == ENEMY:
                        append(capture[nxt])
                    break
        elif kind == GENERAL:
            for nxt in FILE_NEIGHBOURS[sq]:
                c = klass[board[nxt]]
                if c == FREE:
                    append(quiet[nxt])
                elif c == ENEMY:
                    append(capture[nxt])
            _ring(board, klass, sq, quiet, capture, append)
        elif kind == PILOT:
            _diagonals(board, klass, sq, quiet, capture, append, True)
        elif kind == COMMANDER:
            for ray in FILE_RAYS[sq]:
                for nxt in ray:
                    c = klass[board[nxt]]
                    if c == FREE:
                        append(quiet[nxt])
                        continue
                    if c == ENEMY:
                        append(capture[nxt])
                    break
            _ring(board, klass, sq, quiet, capture, append)
            _diagonals(board, klass, sq, quiet, capture, append, False)
        else:  # the Overseer: one step any way (rules 3.7)
            for nxt in NEIGHBOURS[sq]:
                c = klass[board[nxt]]
                if c == FREE:
                    append(quiet[nxt])
                elif c == ENEMY:
                    append(capture[nxt])
    return moves


def _ring(
    board: Sequence[Piece], klass: Sequence[int], sq: Square, quiet: MoveRow, capture: MoveRow, append: Append
) -> None:
    """Both ring rays of a General or Commander; the anticlockwise one stops where the
    clockwise one already listed squares (rules 2.3)."""
    reached = 11
    for distance, nxt in enumerate(RING_CLOCKWISE[sq], 1):
        c = klass[board[nxt]]
        if c == FREE:
            append(quiet[nxt])
            continue
        if c == ENEMY:
            append(capture[nxt])
            reached = distance
        else:
            reached = distance - 1
        break
    for nxt in RING_ANTICLOCKWISE_PREFIX[sq][reached]:
        c = klass[board[nxt]]
        if c == FREE:
            append(quiet[nxt])
            continue
        if c == ENEMY:
            append(capture[nxt])
        break


def _diagonals(
    board: Sequence[Piece], klass: Sequence[int], sq: Square, quiet: MoveRow, capture: MoveRow, append: Append,
    passes_barricades: bool,
) -> None:
    """The four diagonal rays. A Pilot passes over Barricades (never stopping on one, rules
    3.5); a Commander is stopped by them. Where the two outward (or inward) diagonals meet,
    the square is listed once (rules 2.3)."""
    for first, second, meet in DIAGONAL_PAIRS[sq]:
        listed_meet = False
        for nxt in first:
            c = klass[board[nxt]]
            if c == FREE:
                append(quiet[nxt])
                if nxt == meet:
                    listed_meet = True
                continue
            if c == WALL and passes_barricades:
                continue
            if c == ENEMY:
                append(capture[nxt])
                if nxt == meet:
                    listed_meet = True
            break
        for nxt in second:
            c = klass[board[nxt]]
            if c == FREE:
                if not (listed_meet and nxt == meet):
                    append(quiet[nxt])
                continue
            if c == WALL and passes_barricades:
                continue
            if c == ENEMY and not (listed_meet and nxt == meet):
                append(capture[nxt])
            break


def has_move(board: Sequence[Piece], squares: Sequence[Square], seat: int) -> bool:
    """Whether ``seat`` has any legal move (rule 7.5), without listing them: a piece can move
    exactly when the first square of one of its lines is free or holds a capturable enemy
    (a Pilot looks past Barricades; a Soldier may also jump one). Stops at the first."""
    klass = SQUARE_CLASS[seat]
    for sq in squares:
        kind = board[sq] & 7
        if kind == BARRICADE:
            for nxt in ORTHOGONAL_NEIGHBOURS[sq]:
                if not board[nxt]:
                    return True
        elif kind == PILOT:
            for first, second, _meet in DIAGONAL_PAIRS[sq]:
                for ray in (first, second):
                    for nxt in ray:
                        c = klass[board[nxt]]
                        if c != WALL:
                            if c != OWN:
                                return True
                            break
        else:
            lines = SOLDIER_LINES[sq] if kind in (SOLDIER, OVERSEER, COMMANDER) else ORTHOGONAL_LINES[sq]
            for nxt, beyond in lines:
                c = klass[board[nxt]]
                if c <= ENEMY:  # FREE or ENEMY
                    return True
                if c == WALL and kind == SOLDIER and beyond >= 0 and klass[board[beyond]] <= ENEMY:
                    return True
    return False


#: ORTHOGONAL_LINES[square]: (next square, -1) forward/backward and round the ring: the first
#: square of every line of a Captain or General (rules 3.3, 3.4)
ORTHOGONAL_LINES = tuple(tuple((nxt, -1) for nxt in ORTHOGONAL_NEIGHBOURS[sq]) for sq in range(len(SOLDIER_LINES)))


def is_attacked(board: Sequence[Piece], sq: Square, by: int) -> bool:
    """Whether a piece of seat ``by`` could move onto ``sq`` at once if an enemy piece
    (not a Barricade) stood there: the test behind "the Overseer can be captured".

    Looks outwards from ``sq`` along every line for the first piece (rules 3). Cost: a few
    dozen lookups.
    """
    mine = by * 8
    soldier, overseer, captain, general = mine + SOLDIER, mine + OVERSEER, mine + CAPTAIN, mine + GENERAL
    pilot, commander = mine + PILOT, mine + COMMANDER
    for direction in FORWARD_BACKWARD:
        ray = RAYS[direction][sq]
        for distance, nxt in enumerate(ray, 1):
            piece = board[nxt]
            if not piece:
                continue
            if piece == captain or piece == commander:
                return True
            if distance == 1 and (piece == general or piece == soldier or piece == overseer):
                return True
            if distance == 1 and piece & 7 == BARRICADE and len(ray) > 1 and board[ray[1]] == soldier:
                return True
            break
    for direction in RADIAL:
        ray = RAYS[direction][sq]
        for distance, nxt in enumerate(ray, 1):
            piece = board[nxt]
            if not piece:
                continue
            if piece == general or piece == commander:
                return True
            if distance == 1 and (piece == captain or piece == soldier or piece == overseer):
                return True
            if distance == 1 and piece & 7 == BARRICADE and board[ray[1]] == soldier:
                return True
            break
    for direction in DIAGONAL:
        ray = RAYS[direction][sq]
        behind_barricade = False
        for distance, nxt in enumerate(ray, 1):
            piece = board[nxt]
            if not piece:
                continue
            if piece & 7 == BARRICADE:
                if distance == 1 and len(ray) > 1 and board[ray[1]] == soldier:
                    return True
                behind_barricade = True  # only a Pilot sees past it
                continue
            if piece == pilot or (piece == commander and not behind_barricade):
                return True
            if distance == 1 and (piece == soldier or piece == overseer):
                return True
            break
    return False


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
