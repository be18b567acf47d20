"""State fields declared once (boardlab.core.state.StateFields) and the check that holds them.

The declaration generates snapshot, restore and copy; the conformance check
(boardlab/testing/fields.py) must catch a declaration that is wrong (an in-place container
declared shared) or incomplete (a field the state sets but does not declare).
"""

from __future__ import annotations

import importlib
import pickle
import random

import pytest

import boardlab
from boardlab.core.fields import CORE_FIELDS
from boardlab.core.state import State, StateFields
from boardlab.testing.fields import (
    attribute_names,
    check_undo_restores_every_declared_field,
    fingerprint,
    held_attributes,
    undeclared_fields,
)
from boardlab.testing.helpers import Budget
from tests.support.dicenim import DiceNim, DiceNimState

#: the games of this repository (a plugin game may keep hand-written hooks; the check covers those too)
BUILTIN_GAMES = ["towers", "sovereign", "overseer", "territories", "honor"]
#: the games whose state class is compiled with the core's State (their hooks are written in their kernel)
COMPILED_STATES = {"towers"}
SMALL = Budget(random_games=3, variant_games=1, check_every=1, moves_per_check=10, fuzz_examples=20)


class DeclaredNimState(DiceNimState):
    """dicenim with its fields declared: the secrets list changes in place, so it is ``copied``."""

    state_fields = StateFields(shared=("pile", "to_move", "rolling"), copied=("secrets_",))


class SharedSecretsState(DiceNimState):
    """Declares the in-place secrets list ``shared``: undo then keeps a drawn secret."""

    state_fields = StateFields(shared=("pile", "to_move", "rolling", "secrets_"))


class HiddenCounterState(DeclaredNimState):
    """Sets a field its declaration lacks: neither snapshotted nor copied."""

    def _apply(self, move: boardlab.Move) -> None:
        super()._apply(move)
        self.applied = getattr(self, "applied", 0) + 1


class ForgottenAfterCopyState(DiceNimState):
    """Hand-written hooks whose copy forgets the secrets (no declaration: every attribute counts)."""

    def _copy(self) -> DiceNimState:
        clone = super()._copy()
        clone.secrets_ = [-1, -1]
        return clone


def nim_game(state_class: type[DiceNimState]) -> DiceNim:
    """dicenim making states of ``state_class`` (never registered)."""

    def _new_state(self: DiceNim, seed: int) -> DiceNimState:
        return state_class(self, seed, self.options["pile"])

    attributes = {"id": f"nim-{state_class.__name__}", "state_class": state_class, "_new_state": _new_state}
    return type(f"Nim{state_class.__name__}", (DiceNim,), attributes)()


def test_the_declared_test_game_passes() -> None:
    check_undo_restores_every_declared_field(nim_game(DeclaredNimState), SMALL)


def test_hand_written_hooks_are_checked_over_every_attribute() -> None:
    check_undo_restores_every_declared_field(nim_game(DiceNimState), SMALL)
    with pytest.raises(AssertionError, match="a copy differs from the original in secrets_"):
        check_undo_restores_every_declared_field(nim_game(ForgottenAfterCopyState), SMALL)


def test_an_in_place_container_declared_shared_is_caught() -> None:
    with pytest.raises(AssertionError, match=r"left secrets_ changed \(secrets_: declared shared\)"):
        check_undo_restores_every_declared_field(nim_game(SharedSecretsState), SMALL)


def test_a_field_the_declaration_lacks_is_reported() -> None:
    with pytest.raises(AssertionError, match="sets applied, which its state_fields does not declare"):
        check_undo_restores_every_declared_field(nim_game(HiddenCounterState), SMALL)


def test_the_generated_hooks_copy_each_kind_as_declared() -> None:
    class Tracker:
        def __init__(self) -> None:
            self.undone = 0

        def undo(self) -> None:
            self.undone += 1

        def copy(self) -> Tracker:
            clone = Tracker()
            clone.undone = self.undone
            return clone

    class Kinds(State):
        state_fields = StateFields(
            shared=("count",), copied=("flat",), nested=("per_seat",), fixed=("table",),
            trackers=("tracker",), transient=("memo",),
        )
        __slots__ = state_fields.names

    state = Kinds.__new__(Kinds)
    state.count, state.flat, state.per_seat, state.table = 1, [1], [[1], [2]], ("t",)
    state.tracker, state.memo = Tracker(), "cached"
    snapshot = state._snapshot()
    state.count = 2
    state.flat.append(2)
    state.per_seat[0].append(2)
    assert snapshot == (1, [1], [[1], [2]]), "the snapshot copied the in-place containers"
    state._restore(snapshot)
    assert (state.count, state.flat, state.per_seat) == (1, [1], [[1], [2]])
    assert state.tracker.undone == 1 and state.memo is None
    state.flat.append(3)
    assert snapshot[1] == [1], "restore hands out a copy: the snapshot (shared with copies) stays"
    state.memo = "again"
    clone = state._copy()
    assert type(clone) is Kinds and clone.table is state.table and clone.memo is None
    assert clone.flat == state.flat and clone.flat is not state.flat
    assert clone.per_seat[1] is not state.per_seat[1] and clone.tracker is not state.tracker


def test_a_declaration_is_refused_where_it_contradicts_itself() -> None:
    with pytest.raises(TypeError, match="'a' is declared twice: shared and copied"):
        StateFields(shared=("a",), copied=("a",))
    with pytest.raises(TypeError, match="not the string"):
        StateFields(shared="abc")
    with pytest.raises(TypeError, match="'seed' belongs to the core's State"):
        StateFields(fixed=("seed",))
    with pytest.raises(TypeError, match="also writes _copy"):
        type("Twice", (State,), {"state_fields": StateFields(shared=("a",)), "_copy": lambda self: self})
    with pytest.raises(TypeError, match=r"__slots__ names b, which state_fields does not declare"):
        type("Extra", (State,), {"state_fields": StateFields(shared=("a",)), "__slots__": ("a", "b")})


@pytest.mark.parametrize("builtin_id", BUILTIN_GAMES)
def test_every_game_declares_its_fields_once(builtin_id: str) -> None:
    state_class = boardlab.game_class(builtin_id).state_class
    if builtin_id in COMPILED_STATES:
        # a state compiled with the core writes its hooks in its kernel; the field check below
        # compares every attribute it holds
        assert state_class.state_fields is None and state_class.__module__.endswith(".kernel")
        return
    declared = state_class.state_fields
    assert declared is not None, f"{builtin_id}: its state declares no state_fields"
    assert state_class.__dict__["__slots__"] == declared.names, "the slots are the declaration's names"
    for hook in ("_snapshot", "_restore", "_copy"):
        assert getattr(state_class, hook).__code__.co_filename.startswith("<state_fields of"), hook


@pytest.mark.parametrize("builtin_id", BUILTIN_GAMES[:4])
def test_random_play_sets_only_declared_fields(builtin_id: str) -> None:
    state = boardlab.load(builtin_id).new_state(5)
    rng = random.Random(5)
    while not state.is_over() and state.ply < 80:
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
        assert undeclared_fields(state) == []
    declared = type(state).state_fields
    if declared is None:
        # a state compiled with the core holds exactly the attributes its class names
        assert builtin_id in COMPILED_STATES
        assert set(held_attributes(state)) == set(attribute_names(type(state))) - set(CORE_FIELDS)
    else:
        assert set(held_attributes(state)) <= set(declared.names)


def test_fingerprints_follow_contents_not_identity() -> None:
    first, second = {"a": [1, {2}]}, {"a": [1, {2}]}
    assert fingerprint(first) == fingerprint(second)
    before = fingerprint(first)
    first["a"][1].add(3)
    assert fingerprint(first) != before
    assert fingerprint((1, 2)) != fingerprint([1, 2])


def test_a_parsed_position_is_assigned_by_kind() -> None:
    class Fields(State):
        state_fields = StateFields(shared=("turn",), copied=("pile",), nested=("hands",))
        __slots__ = state_fields.names

    position = {"turn": 3, "pile": [1, 2], "hands": [[4], [5]]}
    state = Fields.__new__(Fields)
    Fields.state_fields.assign(state, position)
    state.pile.append(9)
    state.hands[0].append(9)
    assert position == {"turn": 3, "pile": [1, 2], "hands": [[4], [5]]}, "a state never shares what it changes"
    with pytest.raises(TypeError, match="'seat' is not a positional field"):
        Fields.state_fields.assign(state, {"seat": 1})


@pytest.mark.parametrize("builtin_id", ["territories", "honor"])
def test_a_state_from_a_position_does_not_share_the_parsed_fields(builtin_id: str) -> None:
    game = boardlab.load(builtin_id)
    text = game.new_state(2).position()
    module = importlib.import_module(f"boardlab.games.{builtin_id}.position")
    position = module.parse_position(text, game.rules)
    first = game.state_class(game, 0, position)
    second = game.state_class(game, 0, position)
    for name in first.state_fields.copied + first.state_fields.nested:
        assert getattr(first, name) is not getattr(second, name), name
    assert first.position() == second.position() == text


@pytest.mark.parametrize("builtin_id", BUILTIN_GAMES[:4])
def test_a_state_with_generated_hooks_pickles_with_its_undo(builtin_id: str) -> None:
    """The server sends states to worker processes: the declared slots pickle, and the copy
    on the other side still undoes (its snapshots travel with it)."""
    state = boardlab.load(builtin_id).new_state(3)
    rng = random.Random(3)
    for _ in range(6):
        state.play(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    travelled = pickle.loads(pickle.dumps(state))
    assert travelled.position() == state.position()
    travelled.undo()
    state.undo()
    assert travelled.position() == state.position()
    # a state compiled with the core copies its own way; a compiled method has no __module__ of its
    # own: its class has
    copy_hook = type(state).copy if builtin_id in COMPILED_STATES else type(state)._copy
    module = getattr(copy_hook, "__module__", None) or copy_hook.__objclass__.__module__
    assert module == type(state).__module__
