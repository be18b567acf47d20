"""What an Overseer state shows: the board part of its view. Overseer hides nothing, so every
seat sees the same. Squares are given by name, so a browser can draw the real disc."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.core import Player

from .board import (
    BLACK,
    KIND_LETTERS,
    KIND_NAMES,
    KINDS,
    NUM_INDICES,
    SEAT_NAMES,
    SECTORS,
    SQUARE_COLOUR,
    SQUARE_NAMES,
    WHITE,
)
from .movegen import is_attacked

if TYPE_CHECKING:
    from .state import OverseerState


def state_view(state: OverseerState, viewer: Player | None) -> dict[str, Any]:
    """A JSON-safe description of the whole position, the same for every ``viewer`` (nothing
    is hidden). Cost: one board scan, two attack tests."""
    board = state.board
    pieces = {
        SQUARE_NAMES[sq]: {
            "letter": KIND_LETTERS[piece & 7] if piece >> 3 == WHITE else KIND_LETTERS[piece & 7].lower(),
            "kind": KIND_NAMES[piece & 7],
            "seat": piece >> 3,
        }
        for sq, piece in enumerate(board)
        if piece
    }
    material = [
        {KIND_NAMES[kind]: state.counts[seat * 8 + kind] for kind in KINDS if state.counts[seat * 8 + kind]}
        for seat in (WHITE, BLACK)
    ]
    in_danger = []
    for seat in (WHITE, BLACK):
        square = state.overseers[seat]
        in_danger.append(square >= 0 and is_attacked(board, square, 1 - seat))
    last_move = state.last_move
    last = last_move.json_fields() if last_move is not None else None
    rules = state.rules
    return {
        #: the geometry: sectors clockwise from 12 o'clock, index 1 the innermost ring
        "sectors": list(SECTORS),
        "indices": NUM_INDICES,
        #: squares whose colour class (sector + index) is odd, for drawing the chequer
        "dark_squares": [name for sq, name in enumerate(SQUARE_NAMES) if SQUARE_COLOUR[sq]],
        "pieces": pieces,
        "overseers": [SQUARE_NAMES[sq] if sq >= 0 else None for sq in state.overseers],
        #: per seat: its Overseer could be captured by the other side's next move (rules 7.1)
        "overseer_in_danger": in_danger,
        "material": material,
        "seat_names": list(SEAT_NAMES),
        "last_move": last,
        "plies_since_capture": state.since_capture,
        "no_capture_limit": rules.no_capture_limit,
        #: what the limit gives (rules 7.4): "draw", or "material" (the side ahead wins)
        "no_capture_ending": "material" if rules.no_capture_material else "draw",
        "move_number": state.move_number,
        "setup": rules.setup,
        "position": state.position(),
    }


__all__ = ["state_view"]
