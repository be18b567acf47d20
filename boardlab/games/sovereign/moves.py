"""Sovereign moves and their notation (docs/rules/sovereign.md, rule 5.2).

| action | form | example |
| --- | --- | --- |
| placement (setup) | ``K@sq``, the third Contractor ``B@sq^tower`` | ``S@d1``, ``B@d2^d3`` |
| Sovereign / Diplomat | ``Kfrom-to`` | ``Sd1-c1`` |
| Contractor | ``Bfrom-to^build`` (``^^``, ``^^^``: levels, build options) | ``Bc2-c3^c2`` |
| Consultant | ``Cfrom-to``, a capture ``Cfromxto`` | ``Cb7-c5``, ``Cc4xd6`` |

The moves of ordinary play are built once at import; move generation hands out these
shared objects, so it allocates nothing but the list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from boardlab.core import Move, NotationError

from .board import (
    CONSULTANT,
    CONTRACTOR,
    KIND_LETTERS,
    KIND_NAMES,
    KING_TARGETS,
    KNIGHT_TARGETS,
    NUM_SQUARES,
    SQUARE_BY_NAME,
    SQUARE_NAMES,
    Square,
)

#: suffixes a record may add (rule 5.2): "+" the opponent's Sovereign is threatened, "#" a win
CHECK_SUFFIX: Final = "+"
WIN_SUFFIX: Final = "#"


def _check_fields(move: Move, squares: tuple[int, ...], kind: int = 0, levels: int = 1) -> None:
    """Refuse a move object naming squares off the board (or an unknown kind, a level count
    other than 1-3), so that no such object exists to be shown or played."""
    if not all(type(sq) is int and 0 <= sq < NUM_SQUARES for sq in squares):
        raise NotationError(f"{type(move).__name__}{squares}: a square is off the 7x7 board (rule 1.1.1)")
    if type(kind) is not int or not 0 <= kind < 4 or type(levels) is not int or not 1 <= levels <= 3:
        raise NotationError(f"{type(move).__name__}: piece kind {kind!r} or levels {levels!r} out of range")


@dataclass(frozen=True, slots=True)
class Placement(Move):
    """Setup: put a piece (with its tower) on ``square``; the third Contractor brings the
    1-level tower, placed on ``tower`` (rules 1.2). Notation ``S@d1``, ``B@d2^d3``."""

    kind: int
    square: Square
    tower: Square = -1

    def __post_init__(self) -> None:
        _check_fields(self, (self.square,) if self.tower == -1 else (self.square, self.tower), self.kind)

    def __str__(self) -> str:
        text = f"{KIND_LETTERS[self.kind]}@{SQUARE_NAMES[self.square]}"
        return text if self.tower < 0 else f"{text}^{SQUARE_NAMES[self.tower]}"

    def __repr__(self) -> str:
        return f"Placement({self})"

    def json_fields(self) -> dict[str, object]:
        return {
            "piece": KIND_LETTERS[self.kind],
            "square": SQUARE_NAMES[self.square],
            "tower": None if self.tower < 0 else SQUARE_NAMES[self.tower],
        }


@dataclass(frozen=True, slots=True)
class Slide(Move):
    """A Sovereign or Diplomat move from ``origin`` to ``target`` by any legal path (rule 1.5).
    Notation ``Sd1-c1``."""

    kind: int
    origin: Square
    target: Square

    def __post_init__(self) -> None:
        _check_fields(self, (self.origin, self.target), self.kind if self.kind in (0, 1) else -1)

    def __str__(self) -> str:
        return f"{KIND_LETTERS[self.kind]}{SQUARE_NAMES[self.origin]}-{SQUARE_NAMES[self.target]}"

    def __repr__(self) -> str:
        return f"Slide({self})"

    def json_fields(self) -> dict[str, object]:
        return {"piece": KIND_LETTERS[self.kind], "from": SQUARE_NAMES[self.origin], "to": SQUARE_NAMES[self.target]}


@dataclass(frozen=True, slots=True)
class ContractorMove(Move):
    """A Contractor step then its build of ``levels`` levels on ``build`` (rule 1.6).
    Notation ``Bc2-c3^c2`` (one ``^`` per level)."""

    origin: Square
    target: Square
    build: Square
    levels: int = 1

    def __post_init__(self) -> None:
        _check_fields(self, (self.origin, self.target, self.build), levels=self.levels)

    def __str__(self) -> str:
        return (
            f"B{SQUARE_NAMES[self.origin]}-{SQUARE_NAMES[self.target]}"
            f"{'^' * self.levels}{SQUARE_NAMES[self.build]}"
        )

    def __repr__(self) -> str:
        return f"ContractorMove({self})"

    def json_fields(self) -> dict[str, object]:
        return {
            "piece": "B",
            "from": SQUARE_NAMES[self.origin],
            "to": SQUARE_NAMES[self.target],
            "build": SQUARE_NAMES[self.build],
            "levels": self.levels,
        }


@dataclass(frozen=True, slots=True)
class ConsultantJump(Move):
    """A Consultant's knight jump (rule 1.7). ``capture``: an enemy piece stands on ``target``
    (notation ``Cc4xd6``, else ``Cb7-c5``). ``reduces`` (not part of the move's identity, it
    follows from the position): the target has a tower that loses its top level."""

    origin: Square
    target: Square
    capture: bool = False
    reduces: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        _check_fields(self, (self.origin, self.target))

    def __str__(self) -> str:
        return f"C{SQUARE_NAMES[self.origin]}{'x' if self.capture else '-'}{SQUARE_NAMES[self.target]}"

    def __repr__(self) -> str:
        return f"ConsultantJump({self})"

    def json_fields(self) -> dict[str, object]:
        target = SQUARE_NAMES[self.target]
        return {
            "piece": "C",
            "from": SQUARE_NAMES[self.origin],
            "to": target,
            "captures": target if self.capture else None,
            "reduces": target if self.reduces else None,
        }


# --- the shared move objects ----------------------------------------------------------
#: PLACEMENTS[kind][square] (no tower); TOWER_PLACEMENTS[square][tower] for the third Contractor
PLACEMENTS: Final = tuple(tuple(Placement(kind, sq) for sq in range(NUM_SQUARES)) for kind in range(4))
TOWER_PLACEMENTS: Final = tuple(
    {tower: Placement(CONTRACTOR, sq, tower) for tower in KING_TARGETS[sq]} for sq in range(NUM_SQUARES)
)
#: SLIDES[kind][origin * 49 + target] for the Sovereign (0) and the Diplomat (1)
SLIDES: Final = tuple(
    tuple(Slide(kind, origin, target) for origin in range(NUM_SQUARES) for target in range(NUM_SQUARES))
    for kind in range(2)
)
#: STEP_BUILDS[origin * 49 + target]: ((build bit, one-level move), ...) for a king step, else None
STEP_BUILDS: Final[list[tuple[tuple[int, ContractorMove], ...] | None]] = [None] * (NUM_SQUARES * NUM_SQUARES)
#: JUMPS[(origin * 49 + target) * 4 + capture * 2 + reduces] for a knight jump, else None
JUMPS: Final[list[ConsultantJump | None]] = [None] * (NUM_SQUARES * NUM_SQUARES * 4)


def step_builds(origin: Square, target: Square) -> tuple[tuple[int, ContractorMove], ...]:
    """The one-level Contractor moves from ``origin`` to ``target``, one per square around the
    target, with that square's bit. Made on first use for squares that are not neighbours
    (a Contractor's walk through a castle, an option)."""
    index = origin * NUM_SQUARES + target
    entries = STEP_BUILDS[index]
    if entries is None:
        entries = STEP_BUILDS[index] = tuple(
            (1 << build, ContractorMove(origin, target, build)) for build in KING_TARGETS[target]
        )
    return entries


def _build_tables() -> None:
    for origin in range(NUM_SQUARES):
        for target in KING_TARGETS[origin]:
            step_builds(origin, target)
        for target in KNIGHT_TARGETS[origin]:
            base = (origin * NUM_SQUARES + target) * 4
            for capture in (0, 1):
                for reduces in (0, 1):
                    JUMPS[base + capture * 2 + reduces] = ConsultantJump(origin, target, bool(capture), bool(reduces))


_build_tables()
#: contractor moves that build several levels (build options), made on first use
_MULTI_LEVEL: dict[tuple[int, int, int, int], ContractorMove] = {}


def contractor_move(origin: Square, target: Square, build: Square, levels: int = 1) -> ContractorMove:
    """The shared object of a Contractor move (any squares; made and cached on first use)."""
    if levels == 1:
        for bit, move in step_builds(origin, target):
            if bit == 1 << build:
                return move
    key = (origin, target, build, levels)
    made = _MULTI_LEVEL.get(key)
    if made is None:
        made = _MULTI_LEVEL[key] = ContractorMove(origin, target, build, levels)
    return made


def consultant_jump(origin: Square, target: Square, capture: bool, reduces: bool) -> ConsultantJump:
    """The shared object of a Consultant jump (a fresh one for squares no knight joins)."""
    move = JUMPS[(origin * NUM_SQUARES + target) * 4 + capture * 2 + reduces]
    return move if move is not None else ConsultantJump(origin, target, capture, reduces)


# --- reading notation ---------------------------------------------------------------------
_SQUARE = r"([A-Za-z])(\d{1,3})"
_PLACEMENT = re.compile(rf"([A-Za-z])@{_SQUARE}(?:\^{_SQUARE})?")
_MOVE = re.compile(rf"([A-Za-z]){_SQUARE}([-xX]){_SQUARE}(?:(\^+){_SQUARE})?")
_FORMS = "S@d1, B@d2^d3, Sd1-c1, Bc2-c3^c2, Cb7-c5 or Cc4xd6"


def _square(original: str, file: str, rank: str) -> Square:
    name = file.lower() + rank
    square = SQUARE_BY_NAME.get(name)
    if square is None:
        raise NotationError(f"{original!r}: {name} is not a square; files run a-g and ranks 1-7 (rule 1.1)")
    return square


def _kind(original: str, letter: str) -> int:
    kind = KIND_LETTERS.find(letter.upper())
    if kind < 0:
        raise NotationError(
            f"{original!r}: {letter!r} is not a piece; S Sovereign, D Diplomat, C Consultant, "
            "B Contractor (rule 5.2)"
        )
    return kind


def parse_marks(text: str) -> str:
    """The mark a move text ends with, for the position to confirm (rule 5.2): ``+`` (the move
    threatens the enemy Sovereign), ``#`` (it wins) or ``""``."""
    text = text.strip()
    return text[-1] if text[-1:] in (CHECK_SUFFIX, WIN_SUFFIX) else ""


def parse_move_text(text: str) -> Move:
    """Notation to the move object it writes: legality is not checked here.

    Any case is accepted (``s@D1`` is ``S@d1``); an optional ``+`` or ``#`` suffix is read
    past (:func:`parse_marks` returns it for the position to check). A Consultant jump comes
    back with ``reduces=False``: the position decides it. Raises :class:`NotationError`
    naming the fault.
    """
    original = text
    text = text.strip()
    if parse_marks(text):
        text = text[:-1]
    match = _PLACEMENT.fullmatch(text)
    if match:
        letter, file, rank, tower_file, tower_rank = match.groups()
        kind = _kind(original, letter)
        square = _square(original, file, rank)
        if tower_file is None:
            return PLACEMENTS[kind][square]
        if kind != CONTRACTOR:
            raise NotationError(
                f"{original!r}: only the third Contractor is placed with a tower (^square), "
                f"not the {KIND_NAMES[kind]} (rule 1.2.5)"
            )
        tower = _square(original, tower_file, tower_rank)
        return TOWER_PLACEMENTS[square].get(tower) or Placement(kind, square, tower)
    match = _MOVE.fullmatch(text)
    if not match:
        raise NotationError(f"{original!r}: not Sovereign notation; moves read like {_FORMS} (rule 5.2)")
    letter, file, rank, separator, to_file, to_rank, carets, build_file, build_rank = match.groups()
    kind = _kind(original, letter)
    origin = _square(original, file, rank)
    target = _square(original, to_file, to_rank)
    capture = separator in "xX"
    if kind == CONTRACTOR:
        if capture:
            raise NotationError(f"{original!r}: only Consultants capture; write B{text[1:3]}-... (rule 1.3.2)")
        if carets is None:
            raise NotationError(
                f"{original!r}: a Contractor must build after its step; add the build square, "
                f"e.g. {text}^{SQUARE_NAMES[origin]} (rule 1.6.2)"
            )
        if len(carets) > 3:
            raise NotationError(f"{original!r}: a tower has at most 3 levels, so at most '^^^' (rule 1.1.3)")
        return contractor_move(origin, target, _square(original, build_file, build_rank), len(carets))
    if carets is not None:
        raise NotationError(f"{original!r}: only Contractors build; the {KIND_NAMES[kind]} does not (rule 1.6)")
    if kind == CONSULTANT:
        return consultant_jump(origin, target, capture, False)
    if capture:
        raise NotationError(
            f"{original!r}: only Consultants capture; the {KIND_NAMES[kind]} moves to an empty square "
            f"(write {KIND_LETTERS[kind]}{SQUARE_NAMES[origin]}-{SQUARE_NAMES[target]}, rule 1.3.2)"
        )
    return SLIDES[kind][origin * NUM_SQUARES + target]


__all__ = [
    "JUMPS",
    "PLACEMENTS",
    "SLIDES",
    "STEP_BUILDS",
    "TOWER_PLACEMENTS",
    "ConsultantJump",
    "ContractorMove",
    "Placement",
    "Slide",
    "consultant_jump",
    "contractor_move",
    "parse_marks",
    "parse_move_text",
    "step_builds",
]
