"""Honor: a 2-4 player tower-balancing bidding game on a pymunk physics table.

Importing this package needs only the standard library: pymunk (extra
``physics``) is imported when a state is created, matplotlib (extra ``plot``)
when a picture is drawn. Rules: docs/rules/honor.md::

    import boardlab
    game = boardlab.load("honor", players=3, tremor=False)
"""

from .game import HonorGame
from .moves import Accept, Build, Pass, PassOn, Push, Raise, Release, Resign, Tremor, parse_move_text
from .position import parse_position
from .rules import HonorRules
from .state import RESULT_CODES, HonorState
from . import agent as _agent  # registers the "honor" agent

__all__ = [
    "Accept",
    "Build",
    "HonorGame",
    "HonorRules",
    "HonorState",
    "Pass",
    "PassOn",
    "Push",
    "RESULT_CODES",
    "Raise",
    "Release",
    "Resign",
    "Tremor",
    "parse_move_text",
    "parse_position",
]
