"""boardlab: exact rules, play, computer opponents and a balance lab for five tabletop games.

>>> import boardlab
>>> game = boardlab.load("towers", players=2)
>>> state = game.new_state(seed=1)
>>> state.play("b7+")          # doctest: +SKIP
"""

from .core import *  # noqa: F401,F403
from .core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = list(_core_all) + ["__version__"]
