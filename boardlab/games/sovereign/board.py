"""Sovereign board geometry, piece codes and hashing tables, all built once at import.

Squares are ints ``0..48``: ``square = (rank - 1) * 7 + file`` with files ``a..g`` as
``0..6`` and ranks ``1..7`` (rank 1 is the first player's side, rules 1.1). Sets of
squares are 49-bit ints (bit ``square``), so the hot paths test, join and flood-fill
whole sets with a few integer operations.

Seats are 0 (P1, moves first, ranks 1-2) and 1 (P2, ranks 6-7). A piece is one int
``code = seat * 4 + kind + 1`` (``0`` is an empty square), with kinds
:data:`SOVEREIGN`, :data:`DIPLOMAT`, :data:`CONSULTANT`, :data:`CONTRACTOR`.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from boardlab.core.zobrist import zobrist_key

Square: TypeAlias = int
SquareSet: TypeAlias = int

SIZE: Final = 7
NUM_SQUARES: Final = SIZE * SIZE
FILES: Final = "abcdefg"
MAX_HEIGHT: Final = 3

SQUARE_NAMES: Final[tuple[str, ...]] = tuple(f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in range(NUM_SQUARES))
SQUARE_BY_NAME: Final[dict[str, Square]] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
BIT: Final[tuple[int, ...]] = tuple(1 << sq for sq in range(NUM_SQUARES))
ALL_SQUARES: Final = (1 << NUM_SQUARES) - 1

# --- pieces ---------------------------------------------------------------------
SOVEREIGN: Final = 0
DIPLOMAT: Final = 1
CONSULTANT: Final = 2
CONTRACTOR: Final = 3
#: notation letters of the kinds (B for the Contractor, "Builder": C is taken, rules 5.2)
KIND_LETTERS: Final = "SDCB"
KIND_NAMES: Final = ("Sovereign", "Diplomat", "Consultant", "Contractor")
#: pieces of each kind a player has (rules 1.1.2)
PIECE_COUNTS: Final = (1, 1, 2, 3)
SEAT_NAMES: Final = ("P1", "P2")
EMPTY: Final = 0
#: CODE_LETTERS[code]: the position-string letter of a piece code (uppercase P1, lowercase P2)
CODE_LETTERS: Final = ".SDCBsdcb"


#: CODE_SEAT[code], CODE_KIND[code] (index 0, the empty square, maps to -1)
CODE_SEAT: Final[tuple[int, ...]] = (-1, 0, 0, 0, 0, 1, 1, 1, 1)
CODE_KIND: Final[tuple[int, ...]] = (-1, 0, 1, 2, 3, 0, 1, 2, 3)

# --- the setup (rules 1.2.3) ------------------------------------------------------
#: the kinds each player places, in order; the last Contractor comes with the 1-level tower
SETUP_SEQUENCE: Final = (SOVEREIGN, DIPLOMAT, CONSULTANT, CONSULTANT, CONTRACTOR, CONTRACTOR, CONTRACTOR)
SETUP_PLACEMENTS: Final = 2 * len(SETUP_SEQUENCE)
#: the height of the tower a kind is placed with (Sovereign 3, Diplomat 2, others on the ground)
SETUP_TOWER: Final = (3, 2, 0, 0)
#: what one player's setup towers take from the supply: 5 lower pieces and 1 top piece (rules 1.2.1)
SETUP_LOWER_PER_PLAYER: Final = 5
SETUP_TOP_PER_PLAYER: Final = 1


def setup_item(placements: int) -> tuple[int, int, bool]:
    """(seat, kind, comes with the 1-level tower) of the placement number ``placements`` (0..13)."""
    index = placements // 2
    return placements % 2, SETUP_SEQUENCE[index], index == len(SETUP_SEQUENCE) - 1


# --- geometry ---------------------------------------------------------------------
def _square(file: int, rank: int) -> Square:
    """The square at 0-based (file, rank), or -1 off the board."""
    return rank * SIZE + file if 0 <= file < SIZE and 0 <= rank < SIZE else -1


def _targets(deltas: tuple[tuple[int, int], ...]) -> tuple[tuple[Square, ...], ...]:
    out = []
    for sq in range(NUM_SQUARES):
        file, rank = sq % SIZE, sq // SIZE
        out.append(tuple(t for t in (_square(file + df, rank + dr) for df, dr in deltas) if t >= 0))
    return tuple(out)


def _mask(squares: tuple[Square, ...]) -> SquareSet:
    value = 0
    for sq in squares:
        value |= 1 << sq
    return value


#: orthogonal directions in the order N, E, S, W (N = towards rank 7)
ORTHOGONAL: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))
KING: Final = (*ORTHOGONAL, (1, 1), (1, -1), (-1, -1), (-1, 1))
KNIGHT: Final = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

#: RAYS[square][direction]: the squares from ``square`` (excluded) to the edge, nearest first
RAYS: Final[tuple[tuple[tuple[Square, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            _square(sq % SIZE + df * step, sq // SIZE + dr * step)
            for step in range(1, SIZE)
            if _square(sq % SIZE + df * step, sq // SIZE + dr * step) >= 0
        )
        for df, dr in ORTHOGONAL
    )
    for sq in range(NUM_SQUARES)
)
KING_TARGETS: Final = _targets(KING)
KNIGHT_TARGETS: Final = _targets(KNIGHT)
KING_MASK: Final[tuple[SquareSet, ...]] = tuple(_mask(t) for t in KING_TARGETS)
KNIGHT_MASK: Final[tuple[SquareSet, ...]] = tuple(_mask(t) for t in KNIGHT_TARGETS)

_FILE_A: Final = _mask(tuple(rank * SIZE for rank in range(SIZE)))
_FILE_G: Final = _mask(tuple(rank * SIZE + SIZE - 1 for rank in range(SIZE)))
NOT_FILE_A: Final = ALL_SQUARES & ~_FILE_A
NOT_FILE_G: Final = ALL_SQUARES & ~_FILE_G


def orthogonal_spread(squares: SquareSet) -> SquareSet:
    """The squares orthogonally next to any of ``squares`` (a few shifts, no loop)."""
    return (
        ((squares << 1) & NOT_FILE_A)
        | ((squares >> 1) & NOT_FILE_G)
        | ((squares << SIZE) & ALL_SQUARES)
        | (squares >> SIZE)
    )


def rank_mask(*ranks: int) -> SquareSet:
    """The squares of the given 1-based ranks."""
    return _mask(tuple((rank - 1) * SIZE + file for rank in ranks for file in range(SIZE)))


#: each seat's back two ranks (rules 1.2.4) and third rank (rules 1.2.5)
HOME_RANKS: Final = (rank_mask(1, 2), rank_mask(6, 7))
THIRD_RANK: Final = (rank_mask(3), rank_mask(5))
#: a seat's goal ranks are the opponent's back two ranks (rules 1.10)
GOAL_RANKS: Final = (HOME_RANKS[1], HOME_RANKS[0])

def squares_of(squares: SquareSet) -> list[Square]:
    """The squares of a set, lowest first."""
    out = []
    while squares:
        low = squares & -squares
        out.append(low.bit_length() - 1)
        squares ^= low
    return out


# --- Zobrist keys ------------------------------------------------------------------


#: HEIGHT_KEYS[square * 4 + height], PIECE_KEYS[square * 9 + code] (code 0 has key 0)
HEIGHT_KEYS: Final[tuple[int, ...]] = tuple(
    0 if h == 0 else zobrist_key(f"h{sq}:{h}") for sq in range(NUM_SQUARES) for h in range(4)
)
PIECE_KEYS: Final[tuple[int, ...]] = tuple(
    0 if code == 0 else zobrist_key(f"p{sq}:{code}") for sq in range(NUM_SQUARES) for code in range(9)
)
#: TURN_KEYS[seat]: the key of "seat is to move"
TURN_KEYS: Final = (zobrist_key("turn0"), zobrist_key("turn1"))


def board_hash(heights: list[int], pieces: list[int], to_move: int) -> int:
    """The hash of a position from scratch (heights, pieces, seat to move)."""
    value = TURN_KEYS[to_move]
    for sq in range(NUM_SQUARES):
        value ^= HEIGHT_KEYS[sq * 4 + heights[sq]] ^ PIECE_KEYS[sq * 9 + pieces[sq]]
    return value
