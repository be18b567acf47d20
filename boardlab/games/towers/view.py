"""What a Towers state shows: the board part of its view (Towers hides nothing, so every
seat sees the same)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.core import Player

from .board import CASTLE, MAX_HEIGHT, SQUARE_NAMES
from .position import board_rows, position_from_rows

if TYPE_CHECKING:
    from .state import TowersState


def state_view(state: TowersState, viewer: Player | None) -> dict[str, Any]:
    """A JSON-safe description of the whole position, the same for every ``viewer`` (nothing
    is hidden). Cost: one board scan."""
    rules = state.rules
    letters = rules.letters
    stacks = state.stacks
    controlled, crowned = state.castle_counts()
    rows = board_rows(stacks, letters)
    controllers = {
        SQUARE_NAMES[sq]: stack[-1]
        for sq, stack in enumerate(stacks)
        if stack and stack[-1] != CASTLE
    }
    crowns = {
        SQUARE_NAMES[sq]: stacks[sq][-1] for sq in state.castles if len(stacks[sq]) == MAX_HEIGHT
    }
    return {
        "colours": list(rules.names),
        "letters": letters,
        #: ranks 7 down to 1, files a to g: each stack bottom to top (C = castle piece)
        "stacks": rows,
        "castles": [SQUARE_NAMES[sq] for sq in state.castles],
        "controllers": controllers,
        "crowned": crowns,
        "castle_counts": controlled[: rules.players],
        "crown_counts": crowned[: rules.players],
        "castles_to_win": rules.castles_to_win,
        "crowns_to_win": rules.crowns_to_win,
        "reserves": list(state.reserves),
        "no_progress": state.no_progress,
        "no_progress_limit": rules.no_progress_limit,
        "position": position_from_rows(rows, letters, state.to_move, state.no_progress),
    }
