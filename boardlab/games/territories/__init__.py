"""Territories: a 2-player dice-and-cards game (rules: docs/rules/territories.md).

Importing this package registers the game::

    import boardlab
    game = boardlab.load("territories", counter_offers=True)
"""

from .game import Territories
from .moves import parse_token
from .rules import RESULT_CODES, TerritoriesRules
from .state import TerritoriesState
from .trades import proposal_count

__all__ = ["RESULT_CODES", "Territories", "TerritoriesRules", "TerritoriesState", "parse_token", "proposal_count"]
