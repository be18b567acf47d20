"""Test-only games, registered for the test session only (never in the product).

``dicenim`` (tests/support/dicenim.py) is the protocol's small example with
chance and hidden information. It predates the position hook, so it is given
one here: the conformance suite needs every game to read its own position
strings back. The hook is attached to the class itself (not a subclass) so
that any test module registering ``DiceNim`` registers the very same class.
"""

from __future__ import annotations

from boardlab.core import PositionError, check_position_fields, register
from boardlab.core.game import Game, State
from tests.support.dicenim import DiceNim, DiceNimState

_BASE_HOOK = Game._state_from_position


def _dicenim_state_from_position(game: DiceNim, text: str) -> State:
    """``pile to_move rolling secret0 secret1``, as DiceNimState.position() writes it."""
    fields = check_position_fields(game.id, text, 5)
    try:
        pile, to_move, rolling, secret0, secret1 = (int(field) for field in fields)
    except ValueError:
        raise PositionError(f"dicenim position {text!r}: every field must be a whole number") from None
    if not 0 <= pile <= 60:
        raise PositionError(f"dicenim position {text!r}: pile {pile} is outside 0..60")
    if to_move not in (0, 1) or rolling not in (0, 1):
        raise PositionError(f"dicenim position {text!r}: to_move and rolling must be 0 or 1")
    if not (-1 <= secret0 <= 2 and -1 <= secret1 <= 2):
        raise PositionError(f"dicenim position {text!r}: secrets must be -1 (not dealt) or 0..2")
    if rolling and pile == 0:
        raise PositionError(f"dicenim position {text!r}: no roll follows the last counter")
    state = DiceNimState(game, 0, pile)
    state.to_move = to_move
    state.rolling = bool(rolling)
    state.secrets_ = [secret0, secret1]
    return state


def register_test_games() -> None:
    """Register ``dicenim`` (idempotent)."""
    if DiceNim._state_from_position is _BASE_HOOK:
        DiceNim._state_from_position = _dicenim_state_from_position  # type: ignore[method-assign]
    register(DiceNim)
