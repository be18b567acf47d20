"""Overseer: a disc of 12 sectors by 8 rings, seven kinds of piece; capture the enemy Overseer.

The rules are docs/rules/overseer.md; importing this package registers the game::

    import boardlab
    game = boardlab.load("overseer", setup="diametric")
    state = game.new_state()
    state.play("F1-H3")       # the Soldier on F1 jumps the Barricade on G2
"""

from .board import SECTORS, SQUARE_BY_NAME, SQUARE_NAMES, setup_board
from .evaluation import evaluate_position
from .game import Overseer
from .movegen import generate_moves, is_attacked
from .moves import PieceMove, parse_notation
from .position import format_position, parse_position
from .rules import OverseerRules
from .state import OverseerState

__all__ = [
    "SECTORS",
    "SQUARE_BY_NAME",
    "SQUARE_NAMES",
    "Overseer",
    "OverseerRules",
    "OverseerState",
    "PieceMove",
    "evaluate_position",
    "format_position",
    "generate_moves",
    "is_attacked",
    "parse_notation",
    "parse_position",
    "setup_board",
]
