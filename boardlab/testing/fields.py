"""The state-fields check: apply then undo gives back every field, and every field is declared.

A game declares its state's fields once (:class:`boardlab.core.state.StateFields`) and the core
generates snapshot, restore and copy from that declaration. What a declaration cannot prove by
itself is that it is right: a container declared ``shared`` that a move changes in place, or a
field the state sets that is not declared at all, is a silent undo bug. This check finds both by
playing: at sampled positions it fingerprints every field, applies each sampled move, undoes
it, and compares field by field; a copy must hold the same fields too.

A state without a declaration (hand-written hooks) is checked the same way over every attribute
it holds beyond the core's own.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from typing import Any

from ..core.fields import CORE_FIELDS
from ..core.game import Game
from ..core.state import State
from .helpers import Budget, checked, playthrough, sample_moves

#: how deep :func:`fingerprint` follows containers and objects before it settles for ``repr``
_MAX_DEPTH = 12


def attribute_names(cls: type) -> tuple[str, ...]:
    """The attributes ``cls`` itself declares: its ``__slots__``, and a compiled (mypyc) class's
    native attributes (``__mypyc_attrs__``; such a class has no slots to list)."""
    slots = vars(cls).get("__slots__", ())
    return (*((slots,) if isinstance(slots, str) else slots), *vars(cls).get("__mypyc_attrs__", ()))


def held_attributes(state: State) -> dict[str, Any]:
    """Every attribute ``state`` holds beyond the core's :class:`State` slots (set slots or native
    attributes of its classes, then its ``__dict__``), by name."""
    base = set(CORE_FIELDS)
    held: dict[str, Any] = {}
    for cls in type(state).__mro__:
        for name in attribute_names(cls):
            if name in base or name in ("__dict__", "__weakref__") or name in held:
                continue
            try:
                held[name] = getattr(state, name)
            except AttributeError:
                continue  # a slot the state has not set (yet)
    for name, value in getattr(state, "__dict__", {}).items():
        held.setdefault(name, value)
    return held


def compared_fields(state: State) -> tuple[str, ...]:
    """The fields apply-then-undo must give back: the declared ones except ``transient``, or,
    without a declaration, every attribute the state holds."""
    declared = type(state).state_fields
    if declared is None:
        return tuple(sorted(held_attributes(state)))
    return declared.restored


def undeclared_fields(state: State) -> list[str]:
    """The attributes ``state`` holds that its class's declaration does not name (empty
    without a declaration: nothing is declared, so nothing is missing from it)."""
    declared = type(state).state_fields
    if declared is None:
        return []
    names = set(declared.names)
    return sorted(name for name in held_attributes(state) if name not in names)


def fingerprint(value: Any, depth: int = 0) -> Hashable:
    """A hashable, structural picture of ``value``, equal for equal contents and independent
    of later changes to ``value`` (containers are walked, not referenced). Hashable values
    with their own equality (numbers, text, frozen records) stand for themselves; other
    objects are walked through their slots and ``__dict__``."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return value
    if depth >= _MAX_DEPTH:
        return ("…", repr(value))
    inner = depth + 1
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(fingerprint(item, inner) for item in value))
    if isinstance(value, dict):
        return ("dict", frozenset((fingerprint(k, inner), fingerprint(v, inner)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, frozenset(fingerprint(item, inner) for item in value))
    kind: type = type(value)
    own_equality = any("__eq__" in vars(cls) for cls in kind.__mro__ if cls is not object)
    if own_equality and kind.__hash__ is not None:
        immutable: Hashable = value  # a value object with its own equality (a frozen dataclass, a Result)
        return immutable
    attributes: dict[str, Any] = {}
    for cls in type(value).__mro__:
        for name in attribute_names(cls):
            if name not in ("__dict__", "__weakref__") and hasattr(value, name):
                attributes.setdefault(name, getattr(value, name))
    attributes.update(getattr(value, "__dict__", {}))
    return (type(value).__qualname__, tuple(sorted((k, fingerprint(v, inner)) for k, v in attributes.items())))


def field_prints(state: State, names: tuple[str, ...]) -> dict[str, Hashable]:
    """The fingerprint of each named field (a field not set reads as ``<unset>``)."""
    missing = object()
    prints: dict[str, Hashable] = {}
    for name in names:
        value = getattr(state, name, missing)
        prints[name] = "<unset>" if value is missing else fingerprint(value)
    return prints


def _changed(before: dict[str, Hashable], after: dict[str, Hashable]) -> list[str]:
    return [name for name in before if before[name] != after.get(name)]


def _checked_positions(game: Game, budget: Budget) -> Iterator[State]:
    """The live states of a few random games at the plies the budget checks (not the end)."""
    for seed in range(1, min(budget.random_games, 4) + 1):
        for state in playthrough(game, seed):
            if checked(state, budget) and not state.is_over():
                yield state


def check_undo_restores_every_declared_field(game: Game, budget: Budget) -> None:
    """At sampled positions: the state sets no undeclared field; apply then undo of each sampled
    move gives back every declared field (copies of in-place containers included); a copy holds
    the same fields."""
    rng = random.Random(11)
    for state in _checked_positions(game, budget):
        where = f"{game.id} seed {state.seed} ply {state.ply}"
        undeclared = undeclared_fields(state)
        assert not undeclared, (
            f"{where}: {type(state).__name__} sets {', '.join(undeclared)}, which its state_fields "
            "does not declare (an undeclared field is neither snapshotted nor copied)"
        )
        moves = sample_moves(state, budget, rng)  # first: listing the moves may fill a lazy cache
        names = compared_fields(state)
        before = field_prints(state, names)
        for move in moves:
            state.apply(move)
            undeclared = undeclared_fields(state)
            assert not undeclared, (
                f"{where}: after {move}, {type(state).__name__} sets {', '.join(undeclared)}, which its "
                "state_fields does not declare"
            )
            state.undo()
            changed = _changed(before, field_prints(state, compared_fields(state)))
            assert not changed, (
                f"{where}: apply then undo of {move} left {', '.join(changed)} changed "
                f"({_kinds_of(state, changed)})"
            )
        clone = state.copy()
        changed = _changed(before, field_prints(clone, names))
        assert not changed, f"{where}: a copy differs from the original in {', '.join(changed)}"


def _kinds_of(state: State, names: list[str]) -> str:
    """How the declaration keeps each of ``names``, for a failure message."""
    declared = type(state).state_fields
    if declared is None:
        return "no state_fields declaration: hand-written hooks"
    kinds = {name: kind for kind, members in declared.kinds().items() for name in members}
    return "; ".join(f"{name}: declared {kinds.get(name, 'nowhere')}" for name in names)


FIELD_CHECKS = (check_undo_restores_every_declared_field,)

__all__ = [
    "FIELD_CHECKS",
    "check_undo_restores_every_declared_field",
    "compared_fields",
    "field_prints",
    "fingerprint",
    "held_attributes",
    "undeclared_fields",
]
