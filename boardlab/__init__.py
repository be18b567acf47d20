"""boardlab: exact rules, play, computer opponents and a balance lab for five tabletop games.

>>> import boardlab
>>> game = boardlab.load("towers", players=2)
>>> state = game.new_state(seed=1)
>>> state.play("b7+")          # doctest: +SKIP
"""

# first: a kernel imported from here on runs compiled, or as its .py where it must (compiled.py)
from . import compiled as _compiled

_compiled.install()

from .core import *  # noqa: E402, F403
from .core import __all__ as _core_all  # noqa: E402

__version__ = "0.1.0"
__all__ = [*list(_core_all), "__version__"]
