"""The mutable half of the protocol: a :class:`State` is a position plus its history.

Games fill in the private hooks (``_legal_moves``, ``_apply``, ``_snapshot`` ...);
history, undo, validation, chance sampling, copying and the view envelope live
here, once for every game. See docs/api.md for the contract of each hook.

The class itself is written in :mod:`.kernel`, which is compiled where a compiler is at hand
(docs/speed.md); this module is where it is imported from, and gives it the one hook a
compiled class cannot define itself.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import FunctionType
from typing import Any

from . import kernel
from .fields import INLINED_HOOKS, StateFields
from .kernel import MAX_MOVE_TEXT, VIEW_FORMAT, State, Trail

#: the methods a Python subclass gets as Python (:func:`_methods_as_python`): those of the
#: protocol that call the game's hooks back, not the hooks themselves (the declaration generates
#: some, and the agents test others by identity, ``type(state).winning_move is not State.winning_move``),
#: nor ``_copy_core_fields``, which sets the compiled class's own fields faster compiled
_CALLING_BACK = frozenset({
    "__getstate__", "__repr__", "__setstate__", "__str__", "_illegal_chance_reason",
    "_illegal_reason", "_legal_move", "_take_back", "apply", "chance_outcomes", "check_move", "copy", "history",
    "is_chance", "is_over", "last_move", "legal_moves", "move_from_json", "move_text", "num_players", "parse_move",
    "play", "ply", "preview", "rebase", "render", "resample", "returns", "sample_chance", "start_position", "undo",
    "view", "winners",
})


def _methods_as_python() -> dict[str, Any]:
    """State's methods and properties as Python functions, when the class is compiled: its
    ``.py`` run once more as plain Python, under a private name. Empty when it runs as Python.

    A game whose state class is plain Python calls the protocol's methods from Python, and they
    call its hooks back: compiled, each such round trip leaves the interpreter and enters it
    again (a ``legal_moves()`` of Sovereign took a fifth longer). So a Python subclass of
    :class:`State` gets these functions for every method it does not write; a compiled subclass
    (Towers) keeps the compiled methods, which call its compiled hooks directly."""
    compiled = Path(kernel.__file__ or "")
    if compiled.suffix == ".py":
        return {}
    spec = importlib.util.spec_from_file_location(f"{__package__}._kernel_as_python", compiled.with_name("kernel.py"))
    if spec is None or spec.loader is None:
        return {}
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    methods = {name: value for name, value in vars(module.State).items() if isinstance(value, (FunctionType, property))}
    return {name: methods[name] for name in sorted(_CALLING_BACK)}


_PYTHON_METHODS = _methods_as_python()


def _install_declared_fields(cls: type[State], /, **kwargs: Any) -> None:
    """``State.__init_subclass__``: a Python subclass of the compiled class gets the protocol's
    methods as Python (:func:`_methods_as_python`); a subclass that declares ``state_fields`` gets
    its snapshot, restore and copy (and apply and copy with them inline) generated from the declaration."""
    super(State, cls).__init_subclass__(**kwargs)
    declared = vars(cls).get("state_fields")
    if declared is not None:
        declared.install(cls)
    else:
        # a generated apply or copy above inlines its class's snapshot or copy: a class that
        # writes its own hook needs the method that calls it
        for hook, method in INLINED_HOOKS.items():
            if hook in vars(cls) and method not in vars(cls):
                setattr(cls, method, _PYTHON_METHODS.get(method) or getattr(State, method))
    if State in cls.__bases__ and "__mypyc_attrs__" not in vars(cls):
        for name, method in _PYTHON_METHODS.items():
            if name not in vars(cls):
                setattr(cls, name, method)


# set here, not in the class body: a compiled (native) class that defines __init_subclass__
# does not construct its native subclasses (mypyc 2.4)
State.__init_subclass__ = classmethod(_install_declared_fields)  # type: ignore[assignment, method-assign]


__all__ = ["MAX_MOVE_TEXT", "VIEW_FORMAT", "State", "StateFields", "Trail"]
