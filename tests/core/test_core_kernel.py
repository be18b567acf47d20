"""The core's kernel (boardlab/core/kernel.py): the State base class and the progress tracker,
compiled as native classes where a compiler is at hand, and what that asks of the classes that
derive from them in plain Python (the other games, plugins, tests).

The behaviour of the trail and of the tracker is tested in test_state_trail.py and
test_progress.py; these tests hold what a compiled base could get wrong on its own: the hook
that generates a declared class's snapshot and copy, copies and pickles of classes made
without running ``__init__``, and the core imported without mypy's runtime extensions.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType

from boardlab.core import Game, Move, ProgressTracker, State
from boardlab.core import kernel as core_kernel
from boardlab.core.state import StateFields

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Add(Move):
    amount: int

    def __str__(self) -> str:
        return f"+{self.amount}"


class Counter(Game):
    """A test-only game: add 1 or 2 to a running total, kept three ways."""

    id = "counter"
    name = "Counter (test)"
    min_players = max_players = 1

    @property
    def max_moves(self) -> int:
        return 1_000

    def _new_state(self, seed: int) -> State:
        return DeclaredCounter(self, seed)


class DeclaredCounter(State):
    """Declares its fields: the core generates snapshot, restore, copy and apply."""

    state_fields = StateFields(shared=("total",), copied=("added",), trackers=("progress",))
    __slots__ = state_fields.names

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(game, seed)
        self.total = 0
        self.added: list[int] = []
        self.progress = ProgressTracker(0)

    def current_player(self) -> int:
        return 0

    def _legal_moves(self) -> list[Move]:
        return [Add(1), Add(2)]

    def _apply(self, move: Move) -> None:
        assert isinstance(move, Add)
        self.total += move.amount
        self.added.append(move.amount)
        self.progress.record(self.total % 3, progress=move.amount == 2)

    def result(self) -> None:
        return None

    def position(self) -> str:
        return f"{self.total} {self.added}"


class HandWrittenCounter(State):
    """Writes its own hooks, as a game without a declaration does."""

    __slots__ = ("total",)

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(game, seed)
        self.total = 0

    def current_player(self) -> int:
        return 0

    def _legal_moves(self) -> list[Move]:
        return [Add(1)]

    def _apply(self, move: Move) -> None:
        assert isinstance(move, Add)
        self.total += move.amount

    def _snapshot(self) -> int:
        return self.total

    def _restore(self, snapshot: int) -> None:
        self.total = snapshot

    def _copy(self) -> HandWrittenCounter:
        clone = type(self).__new__(type(self))
        clone.total = self.total
        return clone

    def result(self) -> None:
        return None

    def position(self) -> str:
        return str(self.total)


def test_the_core_state_is_the_kernel_class() -> None:
    assert State is core_kernel.State and ProgressTracker is core_kernel.ProgressTracker


def test_a_declared_python_subclass_gets_its_hooks_generated() -> None:
    state = DeclaredCounter(Counter(), 0)
    for amount in (1, 2, 1, 1):
        state.apply(Add(amount))
    # the hook set on the compiled class ran for this subclass: apply is the generated one
    assert DeclaredCounter.apply is not State.apply and "_snapshot" in vars(DeclaredCounter)
    clone = state.copy()
    assert type(clone) is DeclaredCounter and clone.added == [1, 2, 1, 1] and clone.added is not state.added
    clone.apply(Add(2))
    assert state.total == 5 and state.progress.quiet_moves == 2 and clone.progress.quiet_moves == 0
    state.undo()
    state.undo()
    assert state.total == 3 and state.added == [1, 2] and state.progress.quiet_moves == 0
    assert clone.total == 7 and clone.history == (Add(1), Add(2), Add(1), Add(1), Add(2))


def test_a_python_subclass_runs_the_protocol_as_python_and_keeps_the_compared_hooks() -> None:
    # compiled, the protocol's methods that call a game's hooks back are given to a Python subclass
    # as Python functions (no round trip through compiled code for each call); the hooks the
    # agents and the driver compare by identity stay the class's own
    compiled = Path(core_kernel.__file__ or "").suffix != ".py"
    assert isinstance(vars(DeclaredCounter).get("legal_moves"), FunctionType) == compiled
    assert isinstance(vars(HandWrittenCounter).get("undo"), FunctionType) == compiled
    assert DeclaredCounter.winning_move is State.winning_move
    assert HandWrittenCounter.history_notation is State.history_notation
    state = DeclaredCounter(Counter(), 0)
    assert [str(move) for move in state.legal_moves()] == ["+1", "+2"] and not state.is_over()


def test_a_python_subclass_that_writes_its_hooks_gets_the_core_apply_and_copy() -> None:
    state = HandWrittenCounter(Counter(), 0)
    state.apply(Add(1))
    state.apply(Add(1))
    clone = state.copy()
    assert type(clone) is HandWrittenCounter and clone.total == 2 and clone.ply == 2
    state.undo()
    assert state.total == 1 and clone.total == 2 and clone.history == (Add(1), Add(1))


def test_states_and_trackers_survive_pickle_and_deepcopy_midway() -> None:
    state = DeclaredCounter(Counter(), 5)
    for amount in (1, 1, 2, 1, 1, 1):  # totals 1, 2, 4 (a progress move), 5, 6, 7
        state.apply(Add(amount))
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert type(twin) is DeclaredCounter and twin.seed == 5 and twin.position() == state.position()
        assert twin.progress.repetitions() == state.progress.repetitions() == 2  # totals 4 and 7 (mod 3)
        twin.apply(Add(1))  # the run since the progress move goes on: 8 (mod 3) as 5 was
        assert twin.progress.repetitions() == 2 and twin.progress.quiet_moves == 4
        for _ in range(5):
            twin.undo()
        assert twin.total == 2 and twin.added == [1, 1] and twin.progress.quiet_moves == 2  # before the progress move
        assert state.total == 7 and state.progress.quiet_moves == 3


def test_a_tracker_copy_counts_apart_from_its_original() -> None:
    tracker = ProgressTracker(1, quiet_moves=4, moves=9)
    tracker.record(2, progress=False)
    clone = tracker.copy()
    assert type(clone) is ProgressTracker and (clone.moves, clone.quiet_moves) == (10, 5)
    clone.record(1, progress=False)
    assert tracker.repetitions(1) == 1 and clone.repetitions(1) == 2
    twin = pickle.loads(pickle.dumps(clone))
    assert (twin.moves, twin.quiet_moves, twin.repetitions()) == (11, 6, 2)


def test_the_core_imports_without_mypys_runtime_extensions() -> None:
    """The compiler's hints come from mypy_extensions, which a user's install need not have: the
    core (compiled or not) must import and play without it."""
    probe = textwrap.dedent(
        """
        import sys

        class NoMypyExtensions:
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] == "mypy_extensions":
                    raise ImportError("mypy_extensions is not installed here")
                return None

        sys.meta_path.insert(0, NoMypyExtensions())
        import boardlab
        state = boardlab.load("towers").new_state(1)
        state.apply(state.legal_moves()[0])
        state.copy().undo()
        print("mypy_extensions" in sys.modules, state.ply)
        """
    )
    for pure in ("", "1"):
        environment = dict(os.environ, BOARDLAB_PURE=pure)
        ran = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=environment, capture_output=True, text=True)
        assert ran.returncode == 0, ran.stderr[-3000:]
        assert ran.stdout.split() == ["False", "1"]
