"""Pebbles: a take-away game for boardlab in a package of its own (a plugin).

Installing the package makes ``pebbles`` a boardlab game through the entry point
``pebbles = "boardlab_pebbles.game:PebblesGame"`` in the group ``boardlab.games``; the
rules are ``rules.md`` in this folder.
"""

from .game import PebblesGame
from .moves import Take
from .state import PebblesState

__all__ = ["PebblesGame", "PebblesState", "Take"]
