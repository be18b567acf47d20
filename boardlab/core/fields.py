"""The declaration of a game state's fields (:class:`StateFields`), from which the state's
snapshot, restore and copy (and its ``apply`` and ``copy`` with those written inline) are
generated once per class; see :class:`~boardlab.core.state.State`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import State

#: the fields of the core's State itself (its ``__slots__``, or its native attributes compiled), which
#: every copy carries over and no game declares
CORE_FIELDS = ("_base_ply", "_ply", "_start_position", "_trail", "game", "seed")
#: the hooks a declaration generates; a class that declares ``state_fields`` may not also write them
GENERATED_HOOKS = ("_snapshot", "_restore", "_copy")
#: the public methods a declaration also generates (unless the class writes them), each with the
#: hook it would call written inline: one call less for every move and copy of a search
INLINED_HOOKS = {"_snapshot": "apply", "_copy": "copy"}


class StateFields:
    """A game state's fields, declared once, by how a move may change them.

    Snapshot, restore, copy and the ``__slots__`` of the state class all follow from it, so a
    field cannot be forgotten in one of them (``__slots__ = state_fields.names`` in the class
    body; an attribute the declaration lacks then cannot be set at all)::

        class TowersState(State):
            state_fields = StateFields(
                shared=("stacks", "control", "reserves", "to_move", "_current", "zobrist", "_result"),
                fixed=("rules", "castles"),
                trackers=("progress",),
            )
            __slots__ = state_fields.names

    The kinds, each a tuple of attribute names:

    * ``shared``: immutable values (ints, tuples, frozen records, bytes) and containers the game
      replaces instead of changing (copy-on-write): snapshots and copies hold the same object;
    * ``copied``: flat containers (list, dict, set) that moves change in place: snapshot,
      restore and copy each take a shallow ``.copy()``;
    * ``nested``: lists of such containers (a hand per seat): copied two levels deep;
    * ``fixed``: set when the state is made, never changed by a move (the rules, tables of the
      layout): copies share them, snapshots skip them;
    * ``trackers``: objects that keep their own undo stack (:class:`~boardlab.core.ProgressTracker`):
      restore calls their ``undo()``, copy their ``copy()``;
    * ``transient``: values of one moment (a memo of a simulation, a preview's marker): restore
      and copy reset them to None.

    The generated hooks are plain attribute code compiled once per class (as
    :mod:`dataclasses` does), as fast as the hand-written tuples they replace. The class also
    gets :meth:`State.apply` and :meth:`State.copy` with the snapshot and the copy written inline
    (unless it writes them).
    """

    __slots__ = ("copied", "fixed", "nested", "shared", "trackers", "transient")

    def __init__(
        self,
        *,
        shared: Sequence[str] = (),
        copied: Sequence[str] = (),
        nested: Sequence[str] = (),
        fixed: Sequence[str] = (),
        trackers: Sequence[str] = (),
        transient: Sequence[str] = (),
    ) -> None:
        self.shared = _field_names("shared", shared)
        self.copied = _field_names("copied", copied)
        self.nested = _field_names("nested", nested)
        self.fixed = _field_names("fixed", fixed)
        self.trackers = _field_names("trackers", trackers)
        self.transient = _field_names("transient", transient)
        seen: dict[str, str] = {}
        for kind, names in self.kinds().items():
            for name in names:
                if name in seen:
                    raise TypeError(f"state field {name!r} is declared twice: {seen[name]} and {kind}")
                if name in CORE_FIELDS:
                    raise TypeError(f"state field {name!r} belongs to the core's State; declare only the game's")
                seen[name] = kind

    def kinds(self) -> dict[str, tuple[str, ...]]:
        """Each kind with its names, in the order the constructor takes them."""
        return {
            "shared": self.shared, "copied": self.copied, "nested": self.nested,
            "fixed": self.fixed, "trackers": self.trackers, "transient": self.transient,
        }

    @property
    def names(self) -> tuple[str, ...]:
        """Every declared attribute: the ``__slots__`` of the state class."""
        return (*self.positional, *self.fixed, *self.trackers, *self.transient)

    @property
    def positional(self) -> tuple[str, ...]:
        """The fields a snapshot holds: what a move may change (trackers keep their own undo)."""
        return (*self.shared, *self.copied, *self.nested)

    @property
    def restored(self) -> tuple[str, ...]:
        """The fields apply-then-undo must leave equal: every kind but ``transient``."""
        return (*self.positional, *self.fixed, *self.trackers)

    def assign(self, state: State, values: Mapping[str, Any]) -> None:
        """Set positional fields of ``state`` from ``values`` (a parsed position), each copied as
        its kind says, so that the state never shares a container it changes in place with
        what it was made from. TypeError names a value that is not a positional field."""
        kinds = {name: kind for kind in ("shared", "copied", "nested") for name in self.kinds()[kind]}
        for name, value in values.items():
            kind = kinds.get(name)
            if kind is None:
                raise TypeError(f"{name!r} is not a positional field of this state ({', '.join(self.positional)})")
            if kind == "copied":
                value = value.copy()
            elif kind == "nested":
                value = [item.copy() for item in value]
            setattr(state, name, value)

    def install(self, cls: type[State]) -> None:
        """Give ``cls`` the hooks generated from this declaration; TypeError if ``cls`` also
        writes one of them, or names in ``__slots__`` an attribute the declaration lacks."""
        written = [hook for hook in GENERATED_HOOKS if hook in cls.__dict__]
        if written:
            raise TypeError(
                f"{cls.__name__} declares state_fields and also writes {', '.join(written)}: "
                "the declaration generates them"
            )
        slots = cls.__dict__.get("__slots__", ())
        undeclared = sorted(set((slots,) if isinstance(slots, str) else slots) - set(self.names) - {"__weakref__"})
        if undeclared:
            raise TypeError(
                f"{cls.__name__}.__slots__ names {', '.join(undeclared)}, which state_fields does not declare"
            )
        for name, function in self._compile(cls.__qualname__).items():
            if name in INLINED_HOOKS.values() and name in cls.__dict__:
                continue  # the class applies moves or copies its own way
            function.__doc__ = getattr(cls, name).__doc__  # the core's method it replaces
            function.__module__ = cls.__module__
            function.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, function)

    def _compile(self, owner: str) -> dict[str, Callable[..., Any]]:
        """The source of the three hooks, compiled: straight-line attribute code, no loops."""
        snapshot_items = [
            *(f"self.{name}" for name in self.shared),
            *(f"self.{name}.copy()" for name in self.copied),
            *(f"[item.copy() for item in self.{name}]" for name in self.nested),
        ]
        held = [f"self.{name}" for name in self.shared]
        held += [f"_{index}" for index, _ in enumerate((*self.copied, *self.nested))]
        restore = []
        if held:
            restore.append(f"({', '.join(held)},) = snapshot")
        offset = 0
        for name in self.copied:
            restore.append(f"self.{name} = _{offset}.copy()")
            offset += 1
        for name in self.nested:
            restore.append(f"self.{name} = [item.copy() for item in _{offset}]")
            offset += 1
        restore += [f"self.{name}.undo()" for name in self.trackers]
        restore += [f"self.{name} = None" for name in self.transient]
        # the class's own __new__: the core's State may be a compiled class, whose subclasses
        # object.__new__ refuses to make
        copy = ["cls = type(self)", "clone = cls.__new__(cls)"]
        copy += [f"clone.{name} = self.{name}" for name in (*self.fixed, *self.shared)]
        copy += [f"clone.{name} = self.{name}.copy()" for name in (*self.copied, *self.trackers)]
        copy += [f"clone.{name} = [item.copy() for item in self.{name}]" for name in self.nested]
        copy += [f"clone.{name} = None" for name in self.transient]
        copy.append("return clone")
        # the core's fields through its method: compiled, it sets them natively, where Python's own
        # attribute access to a compiled class's fields is slower than to slots
        full_copy = [*copy[:2], "self._copy_core_fields(clone)", *copy[2:]]
        snapshot = f"({', '.join(snapshot_items)}{',' if snapshot_items else ''})"
        source = "\n".join([
            "def _snapshot(self):",
            f"    return {snapshot}",
            "def apply(self, move):",
            f"    snapshot = {snapshot}",
            "    self._apply(move)",
            "    self._trail = (self._trail, move, snapshot)",
            "    self._ply += 1",
            "def _restore(self, snapshot):",
            *(f"    {line}" for line in restore or ["pass"]),
            "def _copy(self):",
            *(f"    {line}" for line in copy),
            "def copy(self):",
            *(f"    {line}" for line in full_copy),
        ])
        namespace: dict[str, Any] = {}
        exec(compile(source, f"<state_fields of {owner}>", "exec"), namespace)
        return {hook: namespace[hook] for hook in (*GENERATED_HOOKS, *INLINED_HOOKS.values())}

    def __repr__(self) -> str:
        kinds = ", ".join(f"{kind}={names!r}" for kind, names in self.kinds().items() if names)
        return f"StateFields({kinds})"


def _field_names(kind: str, names: Sequence[str]) -> tuple[str, ...]:
    """``names`` as a tuple of identifiers, or TypeError naming the kind and the bad name."""
    if isinstance(names, str):
        raise TypeError(f"state_fields {kind}= takes a tuple of names, not the string {names!r}")
    for name in names:
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"state_fields {kind}=: {name!r} is not an attribute name")
    return tuple(names)


__all__ = ["CORE_FIELDS", "GENERATED_HOOKS", "INLINED_HOOKS", "StateFields"]
