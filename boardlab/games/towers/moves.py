"""Towers moves and their notation (rules 9.1-9.4).

Every possible move object is built once at import; ``legal_moves()`` hands out
these shared objects, so move generation allocates nothing but the list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from boardlab.core import Move, NotationError

from .board import DIRECTIONS, NUM_SQUARES, SIZE, SQUARE_BY_NAME, SQUARE_NAMES, STEP, Square

#: suffixes a human record may add; parsers drop them and recompute (rules 9.4)
ANNOTATION_SUFFIXES: Final = "*^#"


#: a move's ``action``: its square * 5, plus the push direction 0..3 (N, E, S, W) or BUILD_ACTION
BUILD_ACTION: Final = 4


@dataclass(frozen=True, slots=True)
class Build(Move):
    """Put one piece of the mover's colour on ``square`` (rules 4). Notation ``b7+``.

    ``action`` (``square * 5 + 4``) is derived, for the state's hot path: one attribute says
    what the move does."""

    square: Square
    action: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", self.square * 5 + BUILD_ACTION)

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.square]}+"

    def __repr__(self) -> str:
        return f"Build({SQUARE_NAMES[self.square]})"

    def json_fields(self) -> dict[str, str]:
        return {"square": SQUARE_NAMES[self.square]}


@dataclass(frozen=True, slots=True)
class Push(Move):
    """Push the stack on ``square`` towards ``direction`` (rules 5). Notation ``b7S``.

    ``direction_index`` (0..3 for N, E, S, W) and ``action`` (``square * 5 + direction_index``)
    are derived and kept for the hot path.
    """

    square: Square
    direction: str
    direction_index: int = field(init=False, compare=False, repr=False)
    action: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        index = DIRECTIONS.find(self.direction) if len(self.direction) == 1 else -1
        if index < 0:
            raise NotationError(f"{self.direction!r}: a push direction is one of N, E, S, W")
        object.__setattr__(self, "direction_index", index)
        object.__setattr__(self, "action", self.square * 5 + index)

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.square]}{self.direction}"

    def __repr__(self) -> str:
        return f"Push({SQUARE_NAMES[self.square]}, {self.direction})"

    def json_fields(self) -> dict[str, str]:
        """The pushed square, the direction and the first square the stack moves onto."""
        return {
            "from": SQUARE_NAMES[self.square],
            "direction": self.direction,
            "to": SQUARE_NAMES[STEP[self.direction_index][self.square]],
        }


#: BUILDS[square] and PUSHES[square][direction_index]: the only move objects ever made
BUILDS: Final[tuple[Build, ...]] = tuple(Build(sq) for sq in range(NUM_SQUARES))
PUSHES: Final[tuple[tuple[Push, ...], ...]] = tuple(
    tuple(Push(sq, DIRECTIONS[d]) for d in range(4)) for sq in range(NUM_SQUARES)
)


def parse_move_text(text: str) -> Build | Push:
    """Notation to a move object (legality is not checked here).

    Accepts ``<square>+`` and ``<square><N|E|S|W>``, any case, with the optional
    ``*``, ``^`` and ``#`` suffixes ignored. Raises :class:`NotationError` naming
    what is wrong.
    """
    original = text
    text = text.strip().rstrip(ANNOTATION_SUFFIXES)
    if len(text) < 2:
        raise NotationError(
            f"{original!r}: not Towers notation (a square a1-g7 then '+' to build or N/E/S/W to push)"
        )
    file_char = text[0].lower()
    digits = ""
    index = 1
    while index < len(text) and text[index].isdigit():
        digits += text[index]
        index += 1
    if not file_char.isalpha() or not digits:
        raise NotationError(
            f"{original!r}: not Towers notation (a square a1-g7 then '+' to build or N/E/S/W to push)"
        )
    name = file_char + digits
    square = SQUARE_BY_NAME.get(name)
    if square is None:
        raise NotationError(f"{name}: no such square (files a-{SQUARE_NAMES[SIZE - 1][0]}, ranks 1-{SIZE})")
    action = text[index:]
    if action == "+":
        return BUILDS[square]
    direction = DIRECTIONS.find(action.upper()) if len(action) == 1 else -1
    if direction < 0:
        raise NotationError(
            f"{original!r}: after the square expected '+' (build) or one of N, E, S, W (push), got {action!r}"
        )
    return PUSHES[square][direction]
