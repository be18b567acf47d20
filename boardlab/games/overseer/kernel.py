"""The hot paths of Overseer as flat, typed functions: compiled with mypyc where the build could,
plain Python otherwise, with the same results to the bit.

* :func:`generate_moves`, :func:`has_move`, :func:`is_attacked`: move generation (rules 2-4);
* :func:`move_piece`: the board, piece lists, counts and hash after a move (the state's apply);
* :func:`estimate_position`: the static evaluation of the search's leaves (see evaluation.py
  for what it weighs and why; the weights live here so that compiled code reads them as
  constants).

Everything works on plain data: the board is a list of 96 piece codes, a seat's squares a
sorted list of ints, moves the shared objects of moves.py. The tables of board.py are bound
here again as ``Final`` so that compiled code reads them without a dictionary lookup.
Lists and tuples handed in are left as they were: the state shares them with its snapshots
(the evaluation tries a move on the board in place and takes it back before it returns).
"""

from __future__ import annotations

import math
from bisect import insort
from typing import Final

from . import board as geometry
from .board import (
    BARRICADE,
    CAPTAIN,
    COMMANDER,
    ENEMY,
    FREE,
    GENERAL,
    NUM_SECTORS,
    NUM_SQUARES,
    OVERSEER,
    OWN,
    PILOT,
    SOLDIER,
    WALL,
    WHITE,
)
from .moves import CAPTURE, QUIET, PieceMove

Squares = tuple[int, ...]
SOLDIER_LINES: Final = geometry.SOLDIER_LINES
ORTHOGONAL_NEIGHBOURS: Final = geometry.ORTHOGONAL_NEIGHBOURS
RING_NEIGHBOURS: Final = geometry.RING_NEIGHBOURS
FILE_NEIGHBOURS: Final = geometry.FILE_NEIGHBOURS
NEIGHBOURS: Final = geometry.NEIGHBOURS
# a fixed-length tuple type would make compiled loops over these generic: declared as tuple[X, ...]
FILE_RAYS: Final[tuple[tuple[Squares, ...], ...]] = geometry.FILE_RAYS
RING_CLOCKWISE: Final = geometry.RING_CLOCKWISE
RING_ANTICLOCKWISE_PREFIX: Final = geometry.RING_ANTICLOCKWISE_PREFIX
DIAGONAL_PAIRS: Final = geometry.DIAGONAL_PAIRS
RAYS: Final[tuple[tuple[Squares, ...], ...]] = geometry.RAYS
SQUARE_CLASS: Final[tuple[tuple[int, ...], ...]] = geometry.SQUARE_CLASS
ZOBRIST: Final = geometry.ZOBRIST
BLACK_TO_MOVE: Final = geometry.BLACK_TO_MOVE_KEY
FILE_DIRECTIONS: Final[tuple[int, ...]] = geometry.FORWARD_BACKWARD
RING_DIRECTIONS: Final[tuple[int, ...]] = geometry.RADIAL
DIAGONAL_DIRECTIONS: Final[tuple[int, ...]] = geometry.DIAGONAL

#: ORTHOGONAL_LINES[square]: (next square, -1) forward/backward and round the ring: the first
#: square of every line of a Captain or General (rules 3.3, 3.4), shaped like SOLDIER_LINES
ORTHOGONAL_LINES: Final = tuple(tuple((nxt, -1) for nxt in ORTHOGONAL_NEIGHBOURS[sq]) for sq in range(NUM_SQUARES))


def _typed_rows(table: tuple[tuple[PieceMove | None, ...], ...]) -> tuple[tuple[PieceMove, ...], ...]:
    """The rows of a move table of moves.py with one stand-in where no piece joins two squares:
    the generator never reaches those, and rows without None need no test in the hot loop."""
    stand_in = PieceMove(-1, -1, False)
    return tuple(tuple(stand_in if move is None else move for move in row) for row in table)


#: QUIET_ROWS[from][to], CAPTURE_ROWS[from][to]: the shared moves of moves.QUIET and moves.CAPTURE
QUIET_ROWS: Final = _typed_rows(QUIET)
CAPTURE_ROWS: Final = _typed_rows(CAPTURE)


# --- move generation (rules 2-4) ----------------------------------------------------
def generate_moves(board: list[int], squares: list[int], seat: int) -> list[PieceMove]:
    """The legal moves of ``seat``, whose pieces stand on ``squares`` (in that order).

    A square reachable two ways (both ways round a ring, or by the two outward or the
    two inward diagonals) is listed once (rules 2.3). Cost: one table lookup per square
    a piece looks at.
    """
    klass = SQUARE_CLASS[seat]
    moves: list[PieceMove] = []
    for sq in squares:
        kind = board[sq] & 7
        quiet = QUIET_ROWS[sq]
        capture = CAPTURE_ROWS[sq]
        if kind == SOLDIER:
            # one step any way, or two over a Barricade of either colour (rules 3.2)
            for nxt, beyond in SOLDIER_LINES[sq]:
                c = klass[board[nxt]]
                if c == FREE:
                    moves.append(quiet[nxt])
                elif c == ENEMY:
                    moves.append(capture[nxt])
                elif c == WALL and beyond >= 0:
                    c = klass[board[beyond]]
                    if c == FREE:
                        moves.append(quiet[beyond])
                    elif c == ENEMY:
                        moves.append(capture[beyond])
        elif kind == BARRICADE:
            # one step forward/backward or round the ring, onto an empty square only (rules 3.1)
            for nxt in ORTHOGONAL_NEIGHBOURS[sq]:
                if not board[nxt]:
                    moves.append(quiet[nxt])
        elif kind == CAPTAIN:
            _steps(board, klass, RING_NEIGHBOURS[sq], quiet, capture, moves)
            _file_rays(board, klass, sq, quiet, capture, moves)
        elif kind == GENERAL:
            _steps(board, klass, FILE_NEIGHBOURS[sq], quiet, capture, moves)
            _ring(board, klass, sq, quiet, capture, moves)
        elif kind == PILOT:
            _diagonals(board, klass, sq, quiet, capture, moves, True)
        elif kind == COMMANDER:
            _file_rays(board, klass, sq, quiet, capture, moves)
            _ring(board, klass, sq, quiet, capture, moves)
            _diagonals(board, klass, sq, quiet, capture, moves, False)
        else:  # the Overseer: one step any way (rules 3.7)
            _steps(board, klass, NEIGHBOURS[sq], quiet, capture, moves)
    return moves


def _steps(
    board: list[int], klass: tuple[int, ...], targets: tuple[int, ...], quiet: tuple[PieceMove, ...],
    capture: tuple[PieceMove, ...], moves: list[PieceMove],
) -> None:
    """One step to each of ``targets`` that is free or holds a capturable enemy."""
    for nxt in targets:
        c = klass[board[nxt]]
        if c == FREE:
            moves.append(quiet[nxt])
        elif c == ENEMY:
            moves.append(capture[nxt])


def _file_rays(
    board: list[int], klass: tuple[int, ...], sq: int, quiet: tuple[PieceMove, ...], capture: tuple[PieceMove, ...],
    moves: list[PieceMove],
) -> None:
    """Any distance outwards and inwards, up to the first piece (captured if it is an enemy)."""
    for ray in FILE_RAYS[sq]:
        for nxt in ray:
            c = klass[board[nxt]]
            if c == FREE:
                moves.append(quiet[nxt])
                continue
            if c == ENEMY:
                moves.append(capture[nxt])
            break


def _ring(
    board: list[int], klass: tuple[int, ...], sq: int, quiet: tuple[PieceMove, ...], capture: tuple[PieceMove, ...],
    moves: list[PieceMove],
) -> None:
    """Both ring rays of a General or Commander; the anticlockwise one stops where the
    clockwise one already listed squares (rules 2.3)."""
    reached = 11
    for before, nxt in enumerate(RING_CLOCKWISE[sq]):  # ``before``: the squares passed
        c = klass[board[nxt]]
        if c == FREE:
            moves.append(quiet[nxt])
            continue
        if c == ENEMY:
            moves.append(capture[nxt])
            reached = before + 1
        else:
            reached = before
        break
    for nxt in RING_ANTICLOCKWISE_PREFIX[sq][reached]:
        c = klass[board[nxt]]
        if c == FREE:
            moves.append(quiet[nxt])
            continue
        if c == ENEMY:
            moves.append(capture[nxt])
        break


def _diagonals(
    board: list[int], klass: tuple[int, ...], sq: int, quiet: tuple[PieceMove, ...], capture: tuple[PieceMove, ...],
    moves: list[PieceMove], passes_barricades: bool,
) -> None:
    """The four diagonal rays. A Pilot passes over Barricades (never stopping on one, rules
    3.5); a Commander is stopped by them. Where the two outward (or inward) diagonals meet,
    the square is listed once (rules 2.3)."""
    for first, second, meet in DIAGONAL_PAIRS[sq]:
        listed_meet = False
        for nxt in first:
            c = klass[board[nxt]]
            if c == FREE:
                moves.append(quiet[nxt])
                if nxt == meet:
                    listed_meet = True
                continue
            if c == WALL and passes_barricades:
                continue
            if c == ENEMY:
                moves.append(capture[nxt])
                if nxt == meet:
                    listed_meet = True
            break
        for nxt in second:
            c = klass[board[nxt]]
            if c == FREE:
                if not (listed_meet and nxt == meet):
                    moves.append(quiet[nxt])
                continue
            if c == WALL and passes_barricades:
                continue
            if c == ENEMY and not (listed_meet and nxt == meet):
                moves.append(capture[nxt])
            break


def has_move(board: list[int], squares: list[int], seat: int) -> bool:
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
            lines = SOLDIER_LINES[sq] if kind == SOLDIER or kind == OVERSEER or kind == COMMANDER else ORTHOGONAL_LINES[sq]
            for nxt, beyond in lines:
                c = klass[board[nxt]]
                if c <= ENEMY:  # FREE or ENEMY
                    return True
                if c == WALL and kind == SOLDIER and beyond >= 0 and klass[board[beyond]] <= ENEMY:
                    return True
    return False


def is_attacked(board: list[int], sq: int, by: int) -> bool:
    """Whether a piece of seat ``by`` could move onto ``sq`` at once if an enemy piece
    (not a Barricade) stood there: the test behind "the Overseer can be captured".

    Looks outwards from ``sq`` along every line for the first piece (rules 3); ``passed``
    counts the squares before it (0: it stands next to ``sq``). Cost: a few dozen lookups.
    """
    mine = by * 8
    soldier, overseer, captain, general = mine + SOLDIER, mine + OVERSEER, mine + CAPTAIN, mine + GENERAL
    pilot, commander = mine + PILOT, mine + COMMANDER
    for direction in FILE_DIRECTIONS:
        ray = RAYS[direction][sq]
        for passed, nxt in enumerate(ray):
            piece = board[nxt]
            if not piece:
                continue
            if piece == captain or piece == commander:
                return True
            if passed == 0 and (piece == general or piece == soldier or piece == overseer):
                return True
            if passed == 0 and piece & 7 == BARRICADE and len(ray) > 1 and board[ray[1]] == soldier:
                return True
            break
    for direction in RING_DIRECTIONS:
        ray = RAYS[direction][sq]
        for passed, nxt in enumerate(ray):
            piece = board[nxt]
            if not piece:
                continue
            if piece == general or piece == commander:
                return True
            if passed == 0 and (piece == captain or piece == soldier or piece == overseer):
                return True
            if passed == 0 and piece & 7 == BARRICADE and board[ray[1]] == soldier:
                return True
            break
    for direction in DIAGONAL_DIRECTIONS:
        ray = RAYS[direction][sq]
        behind_barricade = False
        for passed, nxt in enumerate(ray):
            piece = board[nxt]
            if not piece:
                continue
            if piece & 7 == BARRICADE:
                if passed == 0 and len(ray) > 1 and board[ray[1]] == soldier:
                    return True
                behind_barricade = True  # only a Pilot sees past it
                continue
            if piece == pilot or (piece == commander and not behind_barricade):
                return True
            if passed == 0 and (piece == soldier or piece == overseer):
                return True
            break
    return False


# --- applying a move ------------------------------------------------------------------
def move_piece(
    board: list[int], squares: tuple[list[int], ...], counts: tuple[int, ...], army: tuple[int, ...],
    overseers: tuple[int, ...], seat: int, origin: int, target: int, zobrist: int,
) -> tuple[list[int], tuple[list[int], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]:
    """The state's fields after ``seat`` moves its piece from ``origin`` to ``target``: (board,
    squares, counts, army, overseers, the captured piece or 0, hash with the turn passed).
    Fresh lists and tuples replace those that change; the arguments stay as they were."""
    other = 1 - seat
    board = board.copy()
    piece = board[origin]
    captured = board[target]
    board[origin] = 0
    board[target] = piece
    zobrist ^= ZOBRIST[piece][origin] ^ ZOBRIST[piece][target] ^ BLACK_TO_MOVE
    mine = squares[seat].copy()
    mine.remove(origin)
    insort(mine, target)
    theirs = squares[other]
    if captured:
        zobrist ^= ZOBRIST[captured][target]
        theirs = theirs.copy()
        theirs.remove(target)
        remaining = list(counts)
        remaining[captured] -= 1
        counts = tuple(remaining)
        if captured & 7 == OVERSEER:
            overseers = (-1, overseers[1]) if other == WHITE else (overseers[0], -1)
        else:
            army = (army[0] - 1, army[1]) if other == WHITE else (army[0], army[1] - 1)
    if piece & 7 == OVERSEER:
        overseers = (target, overseers[1]) if seat == WHITE else (overseers[0], target)
    squares = (mine, theirs) if seat == WHITE else (theirs, mine)
    return board, squares, counts, army, overseers, captured, zobrist


# --- the static evaluation (evaluation.py explains it) ------------------------------
#: material in Soldier units by kind. Barricades are never captured, so they cancel out;
#: the others follow their reach on an empty board (rules 3: 8, 9, 12-13, 14 on one colour, 32)
VALUES: Final[dict[int, float]] = {
    BARRICADE: 0.0, SOLDIER: 1.0, CAPTAIN: 2.5, GENERAL: 3.0, PILOT: 3.0, COMMANDER: 7.0, OVERSEER: 0.0,
}
#: PIECE_VALUE[piece] for both seats' piece codes
PIECE_VALUE: Final[tuple[float, ...]] = tuple(VALUES.get(code & 7, 0.0) if code & 7 else 0.0 for code in range(16))
WEIGHT_MOBILITY: Final = 0.05
#: the side to move has an Overseer that can be taken next turn: it must spend its move on it
PENALTY_OVERSEER_ATTACKED: Final = 1.0
#: per square next to the enemy Overseer that one's pieces attack: the net closing in
WEIGHT_PRESSURE: Final = 0.3
#: per square next to one's Overseer it could step to without being attacked there: room to run
WEIGHT_ESCAPE: Final = 0.2
#: a side to move that can take the enemy Overseer is as good as winning (not 1: not yet played)
CERTAIN: Final = 0.98
#: one Soldier unit of advantage moves the estimate by about 0.14 near an even position. MCTS
#: tells moves apart by these differences against its exploration term: at SCALE 4 (0.06 a
#: Soldier) its visits spread almost evenly and it lost to greedy (which any rising curve
#: ranks alike); a sharper curve lets it concentrate on the moves that win material
SCALE: Final = 1.5
#: estimates of unfinished positions stay strictly between a lost and a won Overseer
#: (1 - CERTAIN, CERTAIN): a material lead never outranks a capture of the Overseer
SPREAD: Final = 2 * CERTAIN - 1 - 0.02
#: with little material left nobody can catch an Overseer on a board without corners (rule
#: 7.2): the advantage counts for ``material / (material + FEW_PIECES)`` of itself
FEW_PIECES: Final = 12.0
#: the share of its best capture that the side not to move is credited with (the side to move
#: may parry it); the side to move gets all of its own
THREAT_SHARE: Final = 0.3
#: per index an Overseer stands away from index 1 or 8 (rule 1.3), for the side with more
#: material: the edges are the only walls to drive it against; times the material lead / 10
WEIGHT_EDGE: Final = 0.5
#: the endgame (rule 7.2): when the side behind has at most this much material left besides
#: its Overseer and Barricades and the other leads by at least ENDGAME_LEAD, the side ahead is
#: credited with the net it draws round the enemy Overseer, NOT shrunk by FEW_PIECES (that
#: shrinking is what left the hunters without a direction: 15 of 41 games against greedy were
#: drawn by the no-capture limit with mcts ahead in material)
ENDGAME_MATERIAL: Final = 3.0
ENDGAME_LEAD: Final = 3.0
#: per square of the enemy Overseer's box (the squares it reaches by steps through squares
#: the side ahead does not attack), counted from the 96 of the board: shrink the box
WEIGHT_BOX: Final = 0.03
#: per square next to the enemy Overseer it cannot step to safely (of 8)
WEIGHT_SAFE: Final = 0.25
#: per step nearer than FAR (king distance round the cylinder) that one's own Overseer, and
#: each of one's other pieces, stands to the enemy Overseer: bring the hunters close
WEIGHT_OVERSEER_DISTANCE: Final = 0.15
WEIGHT_HUNTER_DISTANCE: Final = 0.08
FAR: Final = 6
#: In the endgame the estimate is not the logistic of the whole score, which sits near the top
#: of its band for any clear lead, leaving the net differences of a few thousandths, below the
#: search's noise. It is the logistic of the score capped at ENDGAME_CAP Soldier units (about
#: 0.72 for the side ahead; what it had with a little material left in the shrunk score) plus
#: the net's share, net / NET_MAX (at most 1), of the way from there to ENDGAME_TOP. ENDGAME_TOP
#: lies below CERTAIN: a capture of the Overseer still ranks above any net
ENDGAME_CAP: Final = 1.5
NET_MAX: Final = 6.0
ENDGAME_TOP: Final = 0.975


def best_capture(board: list[int], moves: list[PieceMove], seat: int) -> float:
    """What ``seat`` wins by its best capture, counting the capturing piece as lost when the
    enemy can take it back on that square (a one-exchange look at the trade). Cost: one attack
    test per capture."""
    best = 0.0
    enemy = 1 - seat
    for move in moves:
        if not move.capture:
            continue
        target = move.target
        gain = PIECE_VALUE[board[target]]
        if gain <= best:
            continue
        origin = move.origin
        attacker = board[origin]
        # the board after the capture, made in place and undone at once (cheaper than a copy)
        captured = board[target]
        board[target] = attacker
        board[origin] = 0
        recaptured = is_attacked(board, target, enemy)
        board[origin] = attacker
        board[target] = captured
        if recaptured:
            gain -= PIECE_VALUE[attacker]
        if gain > best:
            best = gain
    return best


def overseer_zone(board: list[int], overseer: int, seat: int) -> tuple[int, int]:
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


def can_save_overseer(board: list[int], moves: list[PieceMove], overseer: int, enemy: int) -> bool:
    """Whether one of ``moves`` leaves the mover's Overseer (on ``overseer``, now attacked) where
    ``enemy`` cannot capture it: by moving it, blocking the line, or taking the attacker."""
    for move in moves:
        origin = move.origin
        target = move.target
        piece = board[origin]
        there = board[target]
        # the board after the move, made in place and undone at once (cheaper than a copy)
        board[target] = piece
        board[origin] = 0
        saved = not is_attacked(board, target if origin == overseer else overseer, enemy)
        board[origin] = piece
        board[target] = there
        if saved:
            return True
    return False


def distance(a: int, b: int) -> int:
    """Overseer steps between two squares on the cylinder (rule 1.3)."""
    sectors = abs(a % NUM_SECTORS - b % NUM_SECTORS)
    return max(min(sectors, NUM_SECTORS - sectors), abs(a // NUM_SECTORS - b // NUM_SECTORS))


def _safe(test: list[int], sq: int, hunter_seat: int, known: list[int]) -> bool:
    """An empty square of ``test`` the hunters do not attack; ``known`` caches the answers by
    square (-1: not asked yet)."""
    answer = known[sq]
    if answer < 0:
        answer = known[sq] = 1 if not test[sq] and not is_attacked(test, sq, hunter_seat) else 0
    return answer == 1


def endgame_net(board: list[int], hunters: list[int], overseer: int, own_overseer: int) -> float:
    """The net the hunting side (owning ``hunters`` and ``own_overseer``) draws round the enemy
    Overseer on ``overseer``, in Soldier units (higher: more tightly caught): its box (the
    squares it reaches stepping through empty squares the hunters do not attack; pieces stand
    in its way, a hunter it could take next is in its safe neighbours), its safe neighbours,
    and how near the hunters stand. Cost: one attack test per square of the box."""
    hunter_seat = board[own_overseer] >> 3
    test = board.copy()
    test[overseer] = 0  # the Overseer does not shield squares behind it from an attack
    known = [-1] * NUM_SQUARES
    # next to it, an undefended hunter is a square it can take (best_capture counts the piece)
    safe_neighbours = 0
    for nxt in NEIGHBOURS[overseer]:
        piece = test[nxt]
        if _safe(test, nxt, hunter_seat, known) or (
            piece and piece & 7 != BARRICADE and piece >> 3 == hunter_seat and not is_attacked(test, nxt, hunter_seat)
        ):
            safe_neighbours += 1
    box = {overseer}
    frontier = [overseer]
    while frontier:
        sq = frontier.pop()
        for nxt in NEIGHBOURS[sq]:
            if nxt not in box and _safe(test, nxt, hunter_seat, known):
                box.add(nxt)
                frontier.append(nxt)
    net = WEIGHT_BOX * (len(board) - len(box)) + WEIGHT_SAFE * (8 - safe_neighbours)
    net += WEIGHT_OVERSEER_DISTANCE * (FAR - distance(own_overseer, overseer))
    nearness = 0
    for sq in hunters:
        nearness += FAR - distance(sq, overseer)
    net += WEIGHT_HUNTER_DISTANCE * nearness
    return net


def _won_by(seat: int) -> tuple[float, float]:
    return (CERTAIN, 1.0 - CERTAIN) if seat == 0 else (1.0 - CERTAIN, CERTAIN)


def estimate_position(
    board: list[int],
    squares: tuple[list[int], ...],
    counts: tuple[int, ...],
    overseers: tuple[int, ...],
    to_move: int,
    mover_moves: list[PieceMove],
) -> tuple[float, float]:
    """Estimated returns (White, Black) of an unfinished position with ``to_move`` to play,
    whose legal moves are ``mover_moves``."""
    other = 1 - to_move
    if is_attacked(board, overseers[other], to_move):
        return _won_by(to_move)  # it captures the Overseer now (rule 7.1)
    in_danger = is_attacked(board, overseers[to_move], other)
    if in_danger and not can_save_overseer(board, mover_moves, overseers[to_move], other):
        return _won_by(other)  # whatever it plays, its Overseer is taken next
    material = [0.0, 0.0]
    for code in range(16):
        count = counts[code]
        if count:
            material[code >> 3] += PIECE_VALUE[code] * count
    other_moves = generate_moves(board, squares[other], other)
    score = [material[0], material[1]]
    score[to_move] += WEIGHT_MOBILITY * len(mover_moves) + best_capture(board, mover_moves, to_move)
    score[other] += WEIGHT_MOBILITY * len(other_moves) + THREAT_SHARE * best_capture(board, other_moves, other)
    if in_danger:
        score[to_move] -= PENALTY_OVERSEER_ATTACKED
    lead = material[0] - material[1]
    for seat in range(2):
        attacked, escapes = overseer_zone(board, overseers[seat], seat)
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
        hunters = [sq for sq in squares[hunter] if board[sq] & 7 != BARRICADE and board[sq] & 7 != OVERSEER]
        net = min(endgame_net(board, hunters, overseers[1 - hunter], overseers[hunter]) / NET_MAX, 1.0)
        ahead = min(advantage if hunter == 0 else -advantage, ENDGAME_CAP)
        base = 0.5 + SPREAD * (1.0 / (1.0 + math.exp(-ahead / SCALE)) - 0.5)
        value = base + (ENDGAME_TOP - base) * net
        return (value, 1.0 - value) if hunter == 0 else (1.0 - value, value)
    white = 0.5 + SPREAD * (1.0 / (1.0 + math.exp(-advantage / SCALE)) - 0.5)
    return (white, 1.0 - white)


# --- the fitted evaluation's terms (evaluation.py names them) ---------------------------------
#: terms per seat, in the order of :func:`terms`
TERMS_PER_SEAT: Final = 12
#: what :func:`terms` found: an ordinary position, a win for the side to move, a win for the other
ORDINARY: Final = 0
MOVER_WINS: Final = 1
OTHER_WINS: Final = 2


def terms(
    board: list[int],
    squares: tuple[list[int], ...],
    counts: tuple[int, ...],
    overseers: tuple[int, ...],
    to_move: int,
    mover_moves: list[PieceMove],
    quiet_share: float,
) -> tuple[int, list[float]]:
    """(ORDINARY, both seats' terms, White's first) of an unfinished position, or (MOVER_WINS
    or OTHER_WINS, []) where :func:`estimate_position` sees the game decided. ``quiet_share``:
    the plies since the last capture over the no-capture limit (rules 7.4)."""
    other = 1 - to_move
    if is_attacked(board, overseers[other], to_move):
        return MOVER_WINS, []
    in_danger = is_attacked(board, overseers[to_move], other)
    if in_danger and not can_save_overseer(board, mover_moves, overseers[to_move], other):
        return OTHER_WINS, []
    material = [0.0, 0.0]
    for code in range(16):
        count = counts[code]
        if count:
            material[code >> 3] += PIECE_VALUE[code] * count
    other_moves = generate_moves(board, squares[other], other)
    total = material[0] + material[1]
    few = total / (total + FEW_PIECES)
    lead = material[0] - material[1]
    hunter = 0 if lead > 0 else 1
    endgame = abs(lead) >= ENDGAME_LEAD and material[1 - hunter] <= ENDGAME_MATERIAL
    net = 0.0
    if endgame:
        hunters = [sq for sq in squares[hunter] if board[sq] & 7 != BARRICADE and board[sq] & 7 != OVERSEER]
        net = min(endgame_net(board, hunters, overseers[1 - hunter], overseers[hunter]) / NET_MAX, 1.0)
    # per seat: the squares next to its Overseer the enemy attacks, and those it could flee to
    zone_white = overseer_zone(board, overseers[0], 0)
    zone_black = overseer_zone(board, overseers[1], 1)
    values: list[float] = []
    for seat in range(2):
        moves = mover_moves if seat == to_move else other_moves
        capture = best_capture(board, moves, seat)
        own_escapes = zone_white[1] if seat == 0 else zone_black[1]
        enemy_attacked = zone_black[0] if seat == 0 else zone_white[0]
        ahead = lead if seat == 0 else -lead
        edge = 0.0
        if ahead > 0:
            index = overseers[1 - seat] // 12 + 1
            edge = min(index - 1, 8 - index) * min(ahead, 10.0) / 10.0
        values.append(material[seat])
        values.append(material[seat] * few)
        values.append(material[seat] * quiet_share)
        values.append(float(len(moves)))
        values.append(capture if seat == to_move else 0.0)
        values.append(0.0 if seat == to_move else capture)
        values.append(1.0 if seat == to_move and in_danger else 0.0)
        values.append(float(enemy_attacked))
        values.append(float(own_escapes))
        values.append(edge)
        values.append(1.0 if seat == to_move else 0.0)
        values.append(net if endgame and seat == hunter else 0.0)
    return ORDINARY, values


def fitted_position(
    board: list[int],
    squares: tuple[list[int], ...],
    counts: tuple[int, ...],
    overseers: tuple[int, ...],
    to_move: int,
    mover_moves: list[PieceMove],
    quiet_share: float,
    weights: tuple[float, ...],
    bias: tuple[float, ...],
    linear: float,
    square: float,
) -> tuple[float, float]:
    """As :func:`estimate_position`, by fitted ``weights`` (one per term), ``bias`` (one per
    seat) and curve: the logistic curve of the difference z of the seats' weighted terms, bent
    to linear * z + square * z * |z| / 2 (boardlab.core.fitted), kept strictly
    between a lost and a won Overseer as there (SPREAD), so that a capture of the Overseer
    still ranks above any estimate."""
    found, values = terms(board, squares, counts, overseers, to_move, mover_moves, quiet_share)
    if found == MOVER_WINS:
        return _won_by(to_move)
    if found == OTHER_WINS:
        return _won_by(1 - to_move)
    lead = bias[0] - bias[1]
    for index in range(TERMS_PER_SEAT):
        lead += weights[index] * (values[index] - values[TERMS_PER_SEAT + index])
    lead = linear * lead + square * lead * abs(lead) / 2.0
    if lead > 30.0:
        lead = 30.0
    elif lead < -30.0:
        lead = -30.0
    white = 0.5 + SPREAD * (1.0 / (1.0 + math.exp(-lead)) - 0.5)
    return (white, 1.0 - white)
