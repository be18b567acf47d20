"""Sovereign: a 7x7 board, towers of 1-3 levels, and a race to stand your Sovereign on a
3-level tower in the enemy's back two ranks (seed 000; the designer's "Settlement", "Corrupt").

The rules are docs/rules/sovereign.md; importing this package registers the game::

    import boardlab
    game = boardlab.load("sovereign")
    state = game.new_state(seed=1)
    state.play("S@d1")
"""

from .board import SQUARE_BY_NAME, SQUARE_NAMES
from .evaluation import evaluate
from .game import SovereignGame
from .legality import illegal_reason
from .moves import ConsultantJump, ContractorMove, Placement, Slide, parse_marks, parse_move_text
from .position import SovereignPosition, format_position, parse_position
from .rules import RESULT_CODES, SovereignRules
from .state import SovereignState

__all__ = [
    "RESULT_CODES",
    "SQUARE_BY_NAME",
    "SQUARE_NAMES",
    "ConsultantJump",
    "ContractorMove",
    "Placement",
    "Slide",
    "SovereignGame",
    "SovereignPosition",
    "SovereignRules",
    "SovereignState",
    "evaluate",
    "format_position",
    "illegal_reason",
    "parse_marks",
    "parse_move_text",
    "parse_position",
]
