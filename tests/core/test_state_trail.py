"""The history and undo of the core's State (the trail of moves and snapshots): a long game is
undone move by move to its start, copies share the past without sharing the future, and a
state of thousands of moves crosses pickle and deepcopy (a state reaches a worker process
that way) with its history and undo intact."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass

import pytest

from boardlab.core import Game, IllegalMoveError, Move, State
from boardlab.core.state import StateFields


@dataclass(frozen=True, slots=True)
class Step(Move):
    size: int

    def __str__(self) -> str:
        return f"+{self.size}"


class Walk(Game):
    """A test-only game that never ends: step 1 or 2 forward; the position is the distance."""

    id = "walk"
    name = "Walk (test)"
    min_players = max_players = 1

    @property
    def max_moves(self) -> int:
        return 1_000_000

    def _new_state(self, seed: int) -> WalkState:
        return WalkState(self, seed)


class WalkState(State):
    state_fields = StateFields(shared=("distance", "steps"))
    __slots__ = state_fields.names

    def __init__(self, game: Walk, seed: int) -> None:
        super().__init__(game, seed)
        self.distance = 0
        self.steps: tuple[int, ...] = ()

    def current_player(self) -> int:
        return 0

    def _legal_moves(self) -> list[Move]:
        return [Step(1), Step(2)]

    def _apply(self, move: Move) -> None:
        assert isinstance(move, Step)
        self.distance += move.size
        self.steps = (*self.steps[-2:], move.size)

    def result(self) -> None:
        return None

    def position(self) -> str:
        return f"{self.distance} {self.steps}"


def walked(plies: int) -> WalkState:
    state = Walk().new_state(0)
    for ply in range(plies):
        state.apply(Step(1 + ply % 2))
    assert isinstance(state, WalkState)
    return state


def test_history_and_ply_follow_apply_and_undo() -> None:
    state = walked(5)
    assert state.ply == 5 and [str(move) for move in state.history] == ["+1", "+2", "+1", "+2", "+1"]
    assert state.undo() == Step(1) and state.ply == 4 and state.distance == 6
    state.apply(Step(2))
    assert state.history[-1] == Step(2) and state.distance == 8
    assert state.last_move == Step(2)
    state.undo()
    assert state.last_move == Step(2) == state.history[-1]  # the fourth move, +2, is last again


def test_a_copy_shares_the_past_but_not_what_follows() -> None:
    state = walked(4)
    clone = state.copy()
    clone.undo()
    clone.undo()
    clone.apply(Step(2))
    assert state.ply == 4 and state.distance == 6 and len(state.history) == 4
    assert clone.ply == 3 and clone.distance == 5
    # the original undoes its own moves, not the copy's
    assert state.undo() == Step(2) and state.distance == 4


def test_rebase_keeps_the_ply_and_forgets_the_moves() -> None:
    state = walked(3)
    state.rebase()
    assert state.ply == 3 and state.history == () and state.start_position == "4 (1, 2, 1)"
    assert state.last_move is None  # the moves before a rebase are forgotten
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        state.undo()
    state.apply(Step(1))
    assert state.ply == 4 and state.history == (Step(1),)


@pytest.mark.parametrize("clone", [lambda s: pickle.loads(pickle.dumps(s)), copy.deepcopy], ids=["pickle", "deepcopy"])
def test_a_long_game_survives_pickle_and_deepcopy_with_its_undo(clone) -> None:  # type: ignore[no-untyped-def]
    state = walked(5_000)  # far deeper than pickle or deepcopy may recurse
    twin = clone(state)
    assert twin.ply == 5_000 and twin.distance == state.distance and twin.history == state.history
    while twin.ply:
        twin.undo()
    assert twin.distance == 0 and twin.steps == () and state.ply == 5_000
