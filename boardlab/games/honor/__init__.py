"""Honor: a 2-4 player tower-balancing bidding game on a pymunk physics table.

Importing this package needs only the standard library: pymunk (extra
``physics``) is imported when a state is created, matplotlib (extra ``plot``)
when a picture is drawn. Rules: docs/rules/honor.md::

    import boardlab
    game = boardlab.load("honor", players=3, tremor=False)
"""

from .evaluation import evaluate
from .game import HonorGame
from .legality import illegal_reason
from .moves import Accept, Build, Pass, PassOn, Push, Raise, Release, Resign, Tremor, parse_move_text
from .position import HonorPosition, format_position, parse_position
from .rules import RESULT_CODES, HonorRules
from .state import HonorState

__all__ = [
    "RESULT_CODES",
    "Accept",
    "Build",
    "HonorGame",
    "HonorPosition",
    "HonorRules",
    "HonorState",
    "Pass",
    "PassOn",
    "Push",
    "Raise",
    "Release",
    "Resign",
    "Tremor",
    "evaluate",
    "format_position",
    "illegal_reason",
    "parse_move_text",
    "parse_position",
]
