"""Honor: a 2-4 player tower-balancing bidding game on a pymunk physics table.

Importing this package needs only the standard library: pymunk (extra
``physics``) is imported when a state is created, matplotlib/pillow (extra
``plot``) when a picture is drawn. Rules: docs/rules/honor.md.
"""

from .game import HonorGame
from .state import HonorState
from . import agent as _agent  # registers the "honor" agent

__all__ = ["HonorGame", "HonorState"]
