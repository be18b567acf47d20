"""Why a Towers move is refused, citing the rule (docs/rules/towers.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core import Move

from .board import CASTLE, MAX_HEIGHT, NUM_SQUARES, SQUARE_NAMES, STEP
from .moves import Build, Push

if TYPE_CHECKING:
    from .state import TowersState


def illegal_reason(state: TowersState, move: Move) -> str | None:
    """Why ``move`` is illegal for the seat to move, citing the rule; None if legal."""
    if not isinstance(move, (Build, Push)) or not 0 <= move.square < NUM_SQUARES:
        return "not a Towers move"
    rules = state.rules
    seat = state.to_move
    name = SQUARE_NAMES[move.square]
    stack = state.stacks[move.square]
    is_build = type(move) is Build
    if not stack:
        action = "build on" if is_build else "push"
        return f"{name} is empty; you may only {action} a stack you control (rules {'4.1' if is_build else '5.1'})"
    if is_build and stack[0] == CASTLE:
        return "cannot build on a castle (rules 4.1)"
    top = stack[-1]
    if top == CASTLE:
        return f"the castle on {name} is bare and controlled by nobody (rules 1.5, 5.1)"
    if top != seat:
        return (
            f"{name} is controlled by {rules.names[top]}, not {rules.names[seat]} "
            f"(rules {'4.1' if is_build else '5.1'})"
        )
    height = len(stack)
    if not isinstance(move, Push):
        if height >= MAX_HEIGHT:
            return f"{name} is already {MAX_HEIGHT} tall (rules 4.1)"
        if state.reserves[seat] <= 0:
            return f"{rules.names[seat]} has no pieces left in reserve (rules 4.1)"
        return None
    if height < 2:
        return "cannot push a tower only one piece tall (rules 5.1)"
    nxt = STEP[move.direction_index][move.square]
    if nxt < 0:
        return "the push would move no piece: the next square is off the board (rules 5.5, 5.6)"
    if len(state.stacks[nxt]) >= height:
        return (
            f"the push would move no piece: {SQUARE_NAMES[nxt]} is {len(state.stacks[nxt])} tall, "
            f"not lower than the {height}-tall stack (rules 5.4, 5.6)"
        )
    return None


__all__ = ["illegal_reason"]
