"""Overseer moves and their notation (rules 9).

A move is identified by its two squares (rules 2.3, 9.2): ``F1-H3`` moves a piece, ``B1xH7``
captures. Every possible move object is built once at import (``QUIET[from][to]``,
``CAPTURE[from][to]``), so the move generator hands out shared objects and allocates
nothing but its list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, NamedTuple

from boardlab.core import Move, NotationError

from .board import KIND_BY_LETTER, NUM_SQUARES, RAYS, SQUARE_BY_NAME, SQUARE_NAMES, Square

#: the mark a record for people may add after a move that captures an Overseer (rules 9.2)
OVERSEER_MARK: Final = "#"
NOTATION_HELP: Final = "a square, '-' or 'x', a square: F1-H3 or B1xH7"


@dataclass(frozen=True, slots=True)
class PieceMove(Move):
    """Move the piece on ``origin`` to ``target``; ``capture`` when an enemy piece stands
    there (rules 4). Notation ``F1-H3``, ``B1xH7``."""

    origin: Square
    target: Square
    capture: bool

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.origin]}{'x' if self.capture else '-'}{SQUARE_NAMES[self.target]}"

    def __repr__(self) -> str:
        return f"PieceMove({self})"

    def json_fields(self) -> dict[str, str | None]:
        """The two squares by name, and the square of the captured piece (None without capture)."""
        target = SQUARE_NAMES[self.target]
        return {"from": SQUARE_NAMES[self.origin], "to": target, "captured": target if self.capture else None}


def _table(capture: bool) -> tuple[tuple[PieceMove | None, ...], ...]:
    """Move objects for every pair of squares on one line (a ray of any direction): the only
    pairs any piece can ever join (a Soldier's jump is two steps of one ray)."""
    rows = []
    for origin in range(NUM_SQUARES):
        row: list[PieceMove | None] = [None] * NUM_SQUARES
        for ray in RAYS:
            for target in ray[origin]:
                row[target] = PieceMove(origin, target, capture)
        rows.append(tuple(row))
    return tuple(rows)


#: QUIET[from][to] and CAPTURE[from][to]: the shared move objects (None: no piece joins them)
QUIET: Final = _table(False)
CAPTURE: Final = _table(True)


class Marks(NamedTuple):
    """What a move text says beyond its two squares and its capture mark, for the position to
    confirm (rules 9.2)."""

    #: the kind named by a leading piece letter, or 0
    kind: int
    #: the text ended in ``#`` (an Overseer is captured)
    overseer_mark: bool


_PATTERN = re.compile(r"([A-Za-z]?)([A-Za-z])(\d{1,3})([-xX])([A-Za-z])(\d{1,3})(#?)")


def _square(original: str, sector: str, digits: str) -> Square:
    name = sector.upper() + digits
    square = SQUARE_BY_NAME.get(name)
    if square is None:
        raise NotationError(f"{original!r}: {name} is no square (sectors A-L, indices 1-8)")
    return square


def _read(text: str) -> tuple[Square, Square, bool, Marks]:
    """The squares, the capture mark and the marks of ``[piece letter]<square><- or x><square>[#]``."""
    original = text
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        raise NotationError(f"{original!r}: not Overseer notation ({NOTATION_HELP})")
    letter, sector_from, index_from, mark, sector_to, index_to, overseer = match.groups()
    kind = 0
    if letter:
        kind = KIND_BY_LETTER.get(letter.upper(), 0)
        if not kind:
            raise NotationError(
                f"{original!r}: {letter!r} is no piece letter (O, M, G, C, P, S, B); {NOTATION_HELP}"
            )
    origin = _square(original, sector_from, index_from)
    target = _square(original, sector_to, index_to)
    if origin == target:
        raise NotationError(f"{original!r}: a move goes from one square to another")
    return origin, target, mark in "xX", Marks(kind, bool(overseer))


def parse_move_text(text: str) -> PieceMove:
    """Read ``[piece letter]<square><- or x><square>[#]`` (squares in either case) as the move
    it writes: ``x`` is a capture. The piece letter and ``#`` are read past
    (:func:`parse_marks` returns them for the position to confirm).

    Raises :class:`NotationError` naming what is wrong; legality is the state's business.
    """
    origin, target, capture, _ = _read(text)
    return move_between(origin, target, capture) or PieceMove(origin, target, capture)


def parse_marks(text: str) -> Marks:
    """The piece letter and the ``#`` a move text carries (rules 9.2); errors as :func:`parse_move_text`."""
    return _read(text)[3]


def move_between(origin: Square, target: Square, capture: bool) -> PieceMove | None:
    """The shared move object joining two squares, or None when no piece could ever join them."""
    return (CAPTURE if capture else QUIET)[origin][target]


__all__ = [
    "CAPTURE",
    "NOTATION_HELP",
    "OVERSEER_MARK",
    "QUIET",
    "Marks",
    "PieceMove",
    "move_between",
    "parse_marks",
    "parse_move_text",
]
