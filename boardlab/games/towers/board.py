"""Towers board geometry, tokens, layouts and hashing tables, all built once at import.

Squares are ints ``0..48``: ``square = (rank - 1) * 7 + file`` with files ``a..g`` as
``0..6`` and ranks ``1..7`` (rank 7 is the top of the printed diagram, rules 1.1).
A stack is a tuple of tokens from bottom to top; a token is a seat number
``0..3`` or :data:`CASTLE`. Tuples are immutable, so board lists can share them.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from boardlab.core.zobrist import zobrist_key

Square: TypeAlias = int
Token: TypeAlias = int
Stack: TypeAlias = tuple[int, ...]

SIZE: Final = 7
NUM_SQUARES: Final = SIZE * SIZE
FILES: Final = "abcdefg"
MAX_HEIGHT: Final = 5  # rules 1.4: no stack is ever taller than 5

#: the green castle piece (seats are 0..3, so the castle token follows them)
CASTLE: Final = 4

SQUARE_NAMES: Final[tuple[str, ...]] = tuple(
    f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in range(NUM_SQUARES)
)
SQUARE_BY_NAME: Final[dict[str, Square]] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
#: one bit per square, for the per-seat control masks
SQUARE_BIT: Final[tuple[int, ...]] = tuple(1 << sq for sq in range(NUM_SQUARES))

#: directions in notation order (rules 9.3): N = towards rank 7, E = towards file g
DIRECTIONS: Final = "NESW"
_DELTAS: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))  # (file, rank) steps for N, E, S, W


def _step(sq: Square, direction: int) -> Square:
    file, rank = sq % SIZE + _DELTAS[direction][0], sq // SIZE + _DELTAS[direction][1]
    if 0 <= file < SIZE and 0 <= rank < SIZE:
        return rank * SIZE + file
    return -1


#: STEP[direction][square] -> the next square that way, or -1 off the board
STEP: Final[tuple[tuple[Square, ...], ...]] = tuple(
    tuple(_step(sq, d) for sq in range(NUM_SQUARES)) for d in range(4)
)
#: the on-board neighbours of each square
NEIGHBOURS: Final[tuple[tuple[Square, ...], ...]] = tuple(
    tuple(STEP[d][sq] for d in range(4) if STEP[d][sq] >= 0) for sq in range(NUM_SQUARES)
)

#: the five castle squares of every layout (rules 2.1): a "plus" around d4
CASTLE_SQUARES: Final[tuple[Square, ...]] = tuple(
    SQUARE_BY_NAME[name] for name in ("d2", "b4", "d4", "f4", "d6")
)

#: seat colours and their position-string letters (rules 1.2, 10.1)
COLOUR_NAMES: Final[dict[int, tuple[str, ...]]] = {
    2: ("White", "Black"),
    4: ("White", "Blue", "Red", "Black"),
}
COLOUR_LETTERS: Final[dict[int, str]] = {2: "WB", 4: "WURB"}
#: rich styles used when drawing each seat's pieces
COLOUR_STYLES: Final[dict[int, tuple[str, ...]]] = {
    2: ("bold white", "bold magenta"),
    4: ("bold white", "bold blue", "bold red", "bold magenta"),
}
#: pieces per seat including the ones placed at setup (rules 1.3)
SUPPLY: Final[dict[int, int]] = {2: 75, 4: 50}
#: castles needed to win, crowned castles needed to win (rules 7.1, 7.2)
CASTLES_TO_WIN: Final[dict[int, int]] = {2: 4, 4: 3}
CROWNS_TO_WIN: Final[dict[int, int]] = {2: 3, 4: 2}
#: default no-progress limits (rules 8.2)
NO_PROGRESS_DEFAULT: Final[dict[int, int]] = {2: 100, 4: 200}


def _squares(*names: str) -> tuple[Square, ...]:
    return tuple(SQUARE_BY_NAME[name] for name in names)


#: layout name -> (player count, the squares of each seat's 2-tall starting towers), rules 2.1-2.3
LAYOUTS: Final[dict[str, tuple[int, tuple[tuple[Square, ...], ...]]]] = {
    "diagram": (2, (_squares("a6", "b7", "f1", "g2"), _squares("a2", "b1", "f7", "g6"))),
    "split_sides": (2, (_squares("a6", "b7", "f7", "g6"), _squares("a2", "b1", "f1", "g2"))),
    "pinwheel": (2, (_squares("b7", "g6", "f1", "a2"), _squares("a6", "f7", "g2", "b1"))),
    "diagram4": (4, (
        _squares("a6", "b7"), _squares("f7", "g6"), _squares("f1", "g2"), _squares("a2", "b1"),
    )),
    "four_each": (4, (
        _squares("a5", "a6", "b7", "c7"),
        _squares("e7", "f7", "g6", "g5"),
        _squares("g3", "g2", "f1", "e1"),
        _squares("c1", "b1", "a2", "a3"),
    )),
    "blocks": (4, (
        _squares("a6", "a7", "b6", "b7"),
        _squares("f7", "g7", "f6", "g6"),
        _squares("f1", "g1", "f2", "g2"),
        _squares("a1", "b1", "a2", "b2"),
    )),
}
#: what the layout option's "diagram" value means for each player count
DEFAULT_LAYOUT: Final[dict[int, str]] = {2: "diagram", 4: "diagram4"}
LAYOUT_CHOICES: Final[dict[int, tuple[str, ...]]] = {
    2: ("diagram", "split_sides", "pinwheel"),
    4: ("diagram", "four_each", "blocks"),
}


def layout_stacks(layout: str, players: int) -> list[Stack]:
    """The 49 starting stacks of ``layout`` ("diagram" picks the player count's diagram)."""
    key = DEFAULT_LAYOUT[players] if layout == "diagram" else layout
    count, seats = LAYOUTS[key]
    if count != players:
        raise ValueError(f"layout {layout!r} is for {count} players, not {players}")
    stacks: list[Stack] = [()] * NUM_SQUARES
    for sq in CASTLE_SQUARES:
        stacks[sq] = (CASTLE,)
    for seat, squares in enumerate(seats):
        for sq in squares:
            stacks[sq] = (seat, seat)
    return stacks


# --- Zobrist keys -------------------------------------------------------------
# One key per token on each square and level (boardlab.core.zobrist); a stack's key is its
# tokens' keys XORed, so a move changes the hash by the keys of the tokens it moves.

#: TOKEN_KEYS[(square * MAX_HEIGHT + level) * 5 + token]: the key of ``token`` (a seat or CASTLE)
#: at ``level`` (0 = bottom) of ``square``
TOKEN_KEYS: Final[tuple[int, ...]] = tuple(
    zobrist_key(f"{sq}:{level}:{token}") for sq in range(NUM_SQUARES) for level in range(MAX_HEIGHT) for token in range(5)
)
#: key of "seat s is to move"
TURN_KEYS: Final[tuple[int, ...]] = tuple(zobrist_key(f"turn:{seat}") for seat in range(4))


def board_hash(stacks: list[Stack], to_move: int) -> int:
    """The Zobrist hash of a whole position from scratch (the state keeps it up to date move by move)."""
    value = TURN_KEYS[to_move]
    for sq, stack in enumerate(stacks):
        for level, token in enumerate(stack):
            value ^= TOKEN_KEYS[(sq * MAX_HEIGHT + level) * 5 + token]
    return value
