"""Overseer board geometry, pieces and hashing tables, all built once at import.

The board is a disc of 12 sectors ``A``-``L`` (clockwise, ``A`` from 12 to 1
o'clock) by 8 indices (1 = the innermost ring, 8 = the rim): a cylinder that wraps
round the ring across the L/A seam and ends at index 1 and index 8 (rules 1.1-1.3).

Squares are ints ``0..95``: ``square = (index - 1) * 12 + sector`` with sectors
``A..L`` as ``0..11``. A piece is an int ``seat * 8 + kind`` (kinds 1..7 below),
0 is an empty square, so ``piece >> 3`` is its seat and ``piece & 7`` its kind.
The move generator reads only the tuples built here.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from boardlab.core.zobrist import zobrist_key

Square: TypeAlias = int
Piece: TypeAlias = int

SECTORS: Final = "ABCDEFGHIJKL"
NUM_SECTORS: Final = 12
NUM_INDICES: Final = 8
NUM_SQUARES: Final = NUM_SECTORS * NUM_INDICES

WHITE: Final = 0
BLACK: Final = 1
SEAT_NAMES: Final = ("White", "Black")

# piece kinds (rules 3); the order is also the order of the material lists in the view
BARRICADE: Final = 1
SOLDIER: Final = 2
CAPTAIN: Final = 3
GENERAL: Final = 4
PILOT: Final = 5
COMMANDER: Final = 6
OVERSEER: Final = 7
KINDS: Final = (OVERSEER, COMMANDER, GENERAL, CAPTAIN, PILOT, SOLDIER, BARRICADE)
#: the letter of each kind, indexed by kind (rules 9.3); White upper case, Black lower case
KIND_LETTERS: Final = " BSCGPMO"
KIND_NAMES: Final = ("", "Barricade", "Soldier", "Captain", "General", "Pilot", "Commander", "Overseer")
KIND_BY_LETTER: Final[dict[str, int]] = {letter: kind for kind, letter in enumerate(KIND_LETTERS) if kind}
#: every piece code (both seats), and its letter in position strings
PIECES: Final = tuple(seat * 8 + kind for seat in (WHITE, BLACK) for kind in range(1, 8))
PIECE_LETTERS: Final[dict[Piece, str]] = {
    seat * 8 + kind: (KIND_LETTERS[kind] if seat == WHITE else KIND_LETTERS[kind].lower())
    for seat in (WHITE, BLACK)
    for kind in range(1, 8)
}
PIECE_BY_LETTER: Final[dict[str, Piece]] = {letter: piece for piece, letter in PIECE_LETTERS.items()}


def describe_piece(piece: Piece) -> str:
    """A piece in words, for refusals: "White's Captain"."""
    return f"{SEAT_NAMES[piece >> 3]}'s {KIND_NAMES[piece & 7]}"


def square_of(sector: int, index: int) -> Square:
    """The square of ``sector`` (0..11) and ``index`` (1..8)."""
    return (index - 1) * NUM_SECTORS + sector


def sector_of(sq: Square) -> int:
    return sq % NUM_SECTORS


def index_of(sq: Square) -> int:
    return sq // NUM_SECTORS + 1


SQUARE_NAMES: Final[tuple[str, ...]] = tuple(f"{SECTORS[sector_of(sq)]}{index_of(sq)}" for sq in range(NUM_SQUARES))
SQUARE_BY_NAME: Final[dict[str, Square]] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
#: the colour class of a square (rules 1.4): a Pilot never leaves its own
SQUARE_COLOUR: Final[tuple[int, ...]] = tuple((sector_of(sq) + index_of(sq)) % 2 for sq in range(NUM_SQUARES))

# --- directions (rules 2) ----------------------------------------------------------
#: (sector step, index step) of the 8 directions: forward/backward (along the index),
#: radial (round the ring, +1 = clockwise) and the four diagonals
OUT, IN, CLOCKWISE, ANTICLOCKWISE, OUT_CW, OUT_ACW, IN_CW, IN_ACW = range(8)
DELTAS: Final = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
FORWARD_BACKWARD: Final = (OUT, IN)
RADIAL: Final = (CLOCKWISE, ANTICLOCKWISE)
DIAGONAL: Final = (OUT_CW, OUT_ACW, IN_CW, IN_ACW)
ALL_DIRECTIONS: Final = tuple(range(8))
#: the longest ray in each direction (rules 2.2): a ring ray stops before it comes back round
RAY_LENGTH: Final = (7, 7, 11, 11, 7, 7, 7, 7)
#: after this many steps the two outward (or the two inward) diagonals reach the same square
DIAGONALS_MEET_AFTER: Final = NUM_SECTORS // 2


def step(sq: Square, direction: int) -> Square:
    """The next square from ``sq`` towards ``direction``, or -1 past index 1 or 8 (rules 2.1)."""
    d_sector, d_index = DELTAS[direction]
    index = index_of(sq) + d_index
    if not 1 <= index <= NUM_INDICES:
        return -1
    return square_of((sector_of(sq) + d_sector) % NUM_SECTORS, index)


def _ray(sq: Square, direction: int) -> tuple[Square, ...]:
    squares = []
    current = sq
    for _ in range(RAY_LENGTH[direction]):
        current = step(current, direction)
        if current < 0 or current == sq:
            break
        squares.append(current)
    return tuple(squares)


#: STEP[direction][square]: the neighbour that way, or -1
STEP: Final = tuple(tuple(step(sq, d) for sq in range(NUM_SQUARES)) for d in ALL_DIRECTIONS)
#: RAYS[direction][square]: the squares from the next one outwards, as far as the board goes
RAYS: Final = tuple(tuple(_ray(sq, d) for sq in range(NUM_SQUARES)) for d in ALL_DIRECTIONS)


def _neighbours(directions: tuple[int, ...]) -> tuple[tuple[Square, ...], ...]:
    return tuple(tuple(STEP[d][sq] for d in directions if STEP[d][sq] >= 0) for sq in range(NUM_SQUARES))


#: one-step neighbours by pattern: all 8 (Soldier, Overseer), F/B + radial (Barricade),
#: radial only (Captain), F/B only (General)
NEIGHBOURS: Final = _neighbours(ALL_DIRECTIONS)
ORTHOGONAL_NEIGHBOURS: Final = _neighbours(FORWARD_BACKWARD + RADIAL)
RING_NEIGHBOURS: Final = _neighbours(RADIAL)
FILE_NEIGHBOURS: Final = _neighbours(FORWARD_BACKWARD)

#: SOLDIER_LINES[square]: (next square, the square beyond it or -1) in every direction that
#: exists: a Soldier steps to the first, or jumps to the second over a Barricade (rules 3.2)
SOLDIER_LINES: Final = tuple(
    tuple((STEP[d][sq], STEP[d][STEP[d][sq]]) for d in ALL_DIRECTIONS if STEP[d][sq] >= 0)
    for sq in range(NUM_SQUARES)
)
#: FILE_RAYS[square]: the outward and the inward ray (each may be empty)
FILE_RAYS: Final = tuple((RAYS[OUT][sq], RAYS[IN][sq]) for sq in range(NUM_SQUARES))
#: the clockwise ring ray (11 squares) of each square
RING_CLOCKWISE: Final = RAYS[CLOCKWISE]
#: RING_ANTICLOCKWISE_PREFIX[square][n]: the first 11 - n squares of the anticlockwise ray.
#: When the clockwise ray reached n squares, the rest of the ring is what the other way adds:
#: a square reachable both ways round is one move (rules 2.3), listed once.
RING_ANTICLOCKWISE_PREFIX: Final = tuple(
    tuple(RAYS[ANTICLOCKWISE][sq][: 11 - n] for n in range(12)) for sq in range(NUM_SQUARES)
)


def _diagonal_pairs(sq: Square) -> tuple[tuple[tuple[Square, ...], tuple[Square, ...], Square], ...]:
    """(first ray, second ray, the square both reach after 6 steps or -1) for the outward
    and the inward pair of diagonals of ``sq``; pairs with two empty rays are left out."""
    pairs = []
    for first, second in ((OUT_CW, OUT_ACW), (IN_CW, IN_ACW)):
        a, b = RAYS[first][sq], RAYS[second][sq]
        meet = -1
        if len(a) >= DIAGONALS_MEET_AFTER and len(b) >= DIAGONALS_MEET_AFTER:
            meet = a[DIAGONALS_MEET_AFTER - 1]
            assert meet == b[DIAGONALS_MEET_AFTER - 1]
        if a or b:
            pairs.append((a, b, meet))
    return tuple(pairs)


#: DIAGONAL_PAIRS[square]: see :func:`_diagonal_pairs` (rules 2.3: the meeting square is one move)
DIAGONAL_PAIRS: Final = tuple(_diagonal_pairs(sq) for sq in range(NUM_SQUARES))

# --- what a square holds, seen by the seat to move ------------------------------
#: classes of a square's content for the mover: free, an enemy it may capture, its own
#: piece, a Barricade of either colour (never captured, never landed on: rules 4.2)
FREE: Final = 0
ENEMY: Final = 1
OWN: Final = 2
WALL: Final = 3


def _classes(seat: int) -> tuple[int, ...]:
    table = [FREE] * 16
    for piece in PIECES:
        if piece & 7 == BARRICADE:
            table[piece] = WALL
        else:
            table[piece] = OWN if piece >> 3 == seat else ENEMY
    return tuple(table)


#: SQUARE_CLASS[seat][piece]: what a square holding ``piece`` is to ``seat``
SQUARE_CLASS: Final = (_classes(WHITE), _classes(BLACK))

# --- set-ups (rules 5) -----------------------------------------------------------
#: White's rings 1 and 2, sectors A..L, of each set-up; ``.`` is an empty square
WHITE_ARMIES: Final[dict[str, tuple[str, str]]] = {
    "concentric": ("OPGCCSSCCGPM", "SSSBSBBSBSSS"),
    "chess_sized": ("OPGC....CGPM", "SSSS.BB.SSSS"),
    "diametric": ("OPGCCSSCCGPM", "SSSBSBBSBSSS"),
}
#: how Black's army is placed: mirrored (s, i) -> (s, 9 - i), or also turned by 6 sectors
BLACK_TURN: Final[dict[str, int]] = {"concentric": 0, "chess_sized": 0, "diametric": 6}
SETUPS: Final = tuple(WHITE_ARMIES)


def setup_board(setup: str) -> list[Piece]:
    """The 96 squares at the start of ``setup``: White's army on indices 1-2 and Black's its
    image under (s, i) -> (s + turn, 9 - i), a symmetry of every movement rule (rules 5.1)."""
    board = [0] * NUM_SQUARES
    turn = BLACK_TURN[setup]
    for ring, row in enumerate(WHITE_ARMIES[setup], start=1):
        for sector, letter in enumerate(row):
            if letter == ".":
                continue
            kind = KIND_BY_LETTER[letter]
            board[square_of(sector, ring)] = WHITE * 8 + kind
            board[square_of((sector + turn) % NUM_SECTORS, NUM_INDICES + 1 - ring)] = BLACK * 8 + kind
    return board


# --- Zobrist keys (repetition, rules 7.3) -----------------------------------------


#: ZOBRIST[piece][square]: the key of ``piece`` standing on ``square`` (row 0 unused: empty)
ZOBRIST: Final = tuple(
    tuple(zobrist_key(f"overseer:{piece}:{sq}") if piece in PIECE_LETTERS else 0 for sq in range(NUM_SQUARES))
    for piece in range(16)
)
#: the key of "Black is to move"
BLACK_TO_MOVE_KEY: Final = zobrist_key("overseer:black-to-move")


def board_hash(board: list[Piece], to_move: int) -> int:
    """The Zobrist hash of a whole position, from scratch (cost: 96 lookups)."""
    value = BLACK_TO_MOVE_KEY if to_move == BLACK else 0
    for sq, piece in enumerate(board):
        if piece:
            value ^= ZOBRIST[piece][sq]
    return value


__all__ = [
    "ALL_DIRECTIONS",
    "BARRICADE",
    "BLACK",
    "BLACK_TO_MOVE_KEY",
    "CAPTAIN",
    "COMMANDER",
    "DELTAS",
    "DIAGONAL",
    "DIAGONAL_PAIRS",
    "ENEMY",
    "FILE_NEIGHBOURS",
    "FILE_RAYS",
    "FORWARD_BACKWARD",
    "FREE",
    "GENERAL",
    "KINDS",
    "KIND_BY_LETTER",
    "KIND_LETTERS",
    "KIND_NAMES",
    "NEIGHBOURS",
    "NUM_INDICES",
    "NUM_SECTORS",
    "NUM_SQUARES",
    "ORTHOGONAL_NEIGHBOURS",
    "OVERSEER",
    "OWN",
    "PIECES",
    "PIECE_BY_LETTER",
    "PIECE_LETTERS",
    "PILOT",
    "RADIAL",
    "RAYS",
    "RING_ANTICLOCKWISE_PREFIX",
    "RING_CLOCKWISE",
    "RING_NEIGHBOURS",
    "SEAT_NAMES",
    "SECTORS",
    "SETUPS",
    "SOLDIER",
    "SOLDIER_LINES",
    "SQUARE_BY_NAME",
    "SQUARE_CLASS",
    "SQUARE_COLOUR",
    "SQUARE_NAMES",
    "STEP",
    "WALL",
    "WHITE",
    "ZOBRIST",
    "board_hash",
    "describe_piece",
    "index_of",
    "sector_of",
    "setup_board",
    "square_of",
    "step",
]
