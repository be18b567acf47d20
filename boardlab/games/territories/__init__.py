"""Territories: a 2-player dice-and-cards game (rules: docs/rules/territories.md).

Importing this package registers the game::

    import boardlab
    game = boardlab.load("territories", counter_offers=True)
"""

from .evaluation import evaluate
from .game import TerritoriesGame
from .legality import illegal_reason
from .moves import parse_move_text
from .position import TerritoriesPosition, format_position, parse_position
from .rules import RESULT_CODES, TerritoriesRules
from .state import TerritoriesState
from .trades import proposal_count

__all__ = [
    "RESULT_CODES",
    "TerritoriesGame",
    "TerritoriesPosition",
    "TerritoriesRules",
    "TerritoriesState",
    "evaluate",
    "format_position",
    "illegal_reason",
    "parse_move_text",
    "parse_position",
    "proposal_count",
]
