"""Towers: a 7x7 board, five castles, stacks you build up and push over (2 or 4 players).

The rules are docs/rules/towers.md; importing this package registers the game::

    import boardlab
    game = boardlab.load("towers", players=4, layout="four_each")
"""

from .board import CASTLE, CASTLE_SQUARES, SQUARE_BY_NAME, SQUARE_NAMES
from .evaluation import evaluate
from .game import TowersGame
from .legality import illegal_reason
from .moves import Build, Push, parse_move_text
from .position import TowersPosition, format_position, parse_position
from .rules import RESULT_CODES, TowersRules
from .state import TowersState

__all__ = [
    "CASTLE",
    "CASTLE_SQUARES",
    "RESULT_CODES",
    "SQUARE_BY_NAME",
    "SQUARE_NAMES",
    "Build",
    "Push",
    "TowersGame",
    "TowersPosition",
    "TowersRules",
    "TowersState",
    "evaluate",
    "format_position",
    "illegal_reason",
    "parse_move_text",
    "parse_position",
]
