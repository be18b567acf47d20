"""The mutable half of the protocol: a :class:`State` is a position plus its history.

Games fill in the private hooks (``_legal_moves``, ``_apply``, ``_snapshot`` ...);
history, undo, validation, chance sampling, copying and the view envelope live
here, once for every game. See docs/api.md for the contract of each hook.

The class itself is written in :mod:`.kernel`, which is compiled where a compiler is at hand
(docs/speed.md); this module is where it is imported from, and gives it the one hook a
compiled class cannot define itself.
"""

from __future__ import annotations

from typing import Any

from .fields import INLINED_HOOKS, StateFields
from .kernel import MAX_MOVE_TEXT, VIEW_FORMAT, State, Trail


def _install_declared_fields(cls: type[State], /, **kwargs: Any) -> None:
    """``State.__init_subclass__``: a subclass that declares ``state_fields`` gets its snapshot,
    restore and copy (and apply and copy with them inline) generated from the declaration."""
    super(State, cls).__init_subclass__(**kwargs)
    declared = vars(cls).get("state_fields")
    if declared is not None:
        declared.install(cls)
    else:
        # a generated apply or copy above inlines its class's snapshot or copy: a class that
        # writes its own hook needs the method that calls it
        for hook, method in INLINED_HOOKS.items():
            if hook in vars(cls) and method not in vars(cls):
                setattr(cls, method, getattr(State, method))


# set here, not in the class body: a compiled (native) class that defines __init_subclass__
# does not construct its native subclasses (mypyc 2.4)
State.__init_subclass__ = classmethod(_install_declared_fields)  # type: ignore[assignment, method-assign]


__all__ = ["MAX_MOVE_TEXT", "VIEW_FORMAT", "State", "StateFields", "Trail"]
