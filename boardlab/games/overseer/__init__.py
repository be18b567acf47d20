"""Overseer: a disc of 12 sectors by 8 rings, seven kinds of piece; capture the enemy Overseer.

The rules are docs/rules/overseer.md; importing this package registers the game::

    import boardlab
    game = boardlab.load("overseer", setup="diametric")
    state = game.new_state()
    state.play("F1-H3")       # the Soldier on F1 jumps the Barricade on G2
"""

from .board import SECTORS, SQUARE_BY_NAME, SQUARE_NAMES, setup_board
from .evaluation import evaluate
from .game import OverseerGame
from .legality import illegal_reason
from .movegen import generate_moves, is_attacked
from .moves import Marks, PieceMove, parse_marks, parse_move_text
from .position import OverseerPosition, format_position, parse_position
from .rules import RESULT_CODES, OverseerRules
from .state import OverseerState

__all__ = [
    "RESULT_CODES",
    "SECTORS",
    "SQUARE_BY_NAME",
    "SQUARE_NAMES",
    "Marks",
    "OverseerGame",
    "OverseerPosition",
    "OverseerRules",
    "OverseerState",
    "PieceMove",
    "evaluate",
    "format_position",
    "generate_moves",
    "illegal_reason",
    "is_attacked",
    "parse_marks",
    "parse_move_text",
    "parse_position",
    "setup_board",
]
