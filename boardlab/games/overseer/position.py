"""The Overseer position string ("OFEN", rules 10): writing it and reading it back.

``opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 1``: the rings from
index 8 (the rim) down to index 1, separated by ``/``; each ring lists sectors ``A`` to
``L`` with a piece letter per piece (White upper case, Black lower case) and the number of
empty squares between them; then ``w`` or ``b`` for the side to move, the plies since the
last capture, and the move number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardlab.core import PositionError

from .board import (
    BLACK,
    NUM_INDICES,
    NUM_SECTORS,
    NUM_SQUARES,
    OVERSEER,
    PIECE_BY_LETTER,
    PIECE_LETTERS,
    SEAT_NAMES,
    WHITE,
    Piece,
    square_of,
)
from .rules import OverseerRules

if TYPE_CHECKING:
    from .state import OverseerState

SIDE_LETTERS = "wb"
#: the largest move number a position may give (far beyond any game's length, rules 7.6)
MAX_MOVE_NUMBER = 1_000_000


def format_position(state: OverseerState) -> str:
    """The position string (OFEN, rules 10.1) of ``state``."""
    return write_position(state.board, state.to_move, state.progress.quiet_moves, state.move_number)


def write_position(board: Sequence[Piece], to_move: int, since_capture: int, move_number: int) -> str:
    """The OFEN of ``board`` (96 pieces, 0 = empty)."""
    rings = []
    for index in range(NUM_INDICES, 0, -1):
        text = ""
        empty = 0
        for sector in range(NUM_SECTORS):
            piece = board[square_of(sector, index)]
            if piece:
                if empty:
                    text += str(empty)
                    empty = 0
                text += PIECE_LETTERS[piece]
            else:
                empty += 1
        if empty:
            text += str(empty)
        rings.append(text)
    return f"{'/'.join(rings)} {SIDE_LETTERS[to_move]} {since_capture} {move_number}"


@dataclass(frozen=True, slots=True)
class OverseerPosition:
    """A checked position, before any state exists: the 96 squares' piece codes, the side to
    move, the plies since the last capture and the move number (rules 10)."""

    board: tuple[Piece, ...]
    to_move: int
    since_capture: int = 0
    move_number: int = 1


def parse_position(text: str, rules: OverseerRules) -> OverseerPosition:
    """Read an OFEN, checking everything rules 10.3 asks of a position before any state exists.

    Raises :class:`PositionError` naming the fault.
    """
    prefix = f"overseer position {text[:100]!r}"
    fields = text.split()
    if len(fields) != 4:
        raise PositionError(
            f"{prefix}: expected 4 fields separated by spaces (the rings, the side to move, the plies "
            f"since the last capture, the move number), got {len(fields)} (rule 10.1)"
        )
    rings_text, side, clock_text, number_text = fields
    rings = rings_text.split("/")
    if len(rings) != NUM_INDICES:
        raise PositionError(f"{prefix}: expected {NUM_INDICES} rings separated by '/', got {len(rings)} (rule 10.1)")
    board = [0] * NUM_SQUARES
    for row, ring in enumerate(rings):
        _read_ring(prefix, NUM_INDICES - row, ring, board)
    if side not in SIDE_LETTERS:
        raise PositionError(f"{prefix}: the side to move {side!r} is not 'w' or 'b' (rule 10.1)")
    to_move = SIDE_LETTERS.index(side)
    since_capture = _number(prefix, clock_text, "the plies since the last capture", 0, rules.no_capture_limit)
    move_number = _number(prefix, number_text, "the move number", 1, MAX_MOVE_NUMBER)
    overseers = [board.count(seat * 8 + OVERSEER) for seat in (WHITE, BLACK)]
    if overseers == [0, 0]:
        raise PositionError(f"{prefix}: neither side has an Overseer (rule 10.3)")
    for seat in (WHITE, BLACK):
        count = overseers[seat]
        if count > 1:
            raise PositionError(f"{prefix}: {SEAT_NAMES[seat]} has {count} Overseers, at most 1 (rule 10.3)")
        if count == 0 and seat != to_move:
            raise PositionError(
                f"{prefix}: {SEAT_NAMES[seat]} has no Overseer but {SEAT_NAMES[to_move]} is to move; only the "
                "side to move can have lost its Overseer, to the move just made (rule 10.3)"
            )
    return OverseerPosition(tuple(board), to_move, since_capture, move_number)


_RING_TOKENS = re.compile(r"[0-9]+|.", re.DOTALL)


def _read_ring(prefix: str, index: int, ring: str, board: list[Piece]) -> None:
    """Put the pieces of one ring (sectors A to L) on ``board``."""
    sector = 0
    for token in _RING_TOKENS.findall(ring):
        if token[0] in "0123456789":
            if token[0] == "0" or len(token) > 2:
                raise PositionError(
                    f"{prefix}: ring {index} has the count {token!r}; counts of empty squares are 1 to 12 (rule 10.1)"
                )
            sector += int(token)
            continue
        piece = PIECE_BY_LETTER.get(token)
        if piece is None:
            raise PositionError(
                f"{prefix}: ring {index} has {token!r}; a ring holds the letters O M G C P S B (White) or "
                "o m g c p s b (Black) and counts of empty squares (rule 10.1)"
            )
        if sector < NUM_SECTORS:
            board[square_of(sector, index)] = piece
        sector += 1
    if sector != NUM_SECTORS:
        raise PositionError(
            f"{prefix}: ring {index} ({ring[:30]!r}) describes {sector} squares, not {NUM_SECTORS} (A to L) (rule 10.1)"
        )


def _number(prefix: str, text: str, what: str, low: int, high: int) -> int:
    if not text.isdigit() or not text.isascii() or (len(text) > 1 and text[0] == "0"):
        raise PositionError(f"{prefix}: {what} {text!r} is not a whole number (rule 10.1)")
    if len(text) > 7 or not low <= int(text) <= high:
        raise PositionError(f"{prefix}: {what} {text} is not between {low} and {high} (rules 7.4, 10.1)")
    return int(text)


__all__ = ["MAX_MOVE_NUMBER", "OverseerPosition", "format_position", "parse_position", "write_position"]
