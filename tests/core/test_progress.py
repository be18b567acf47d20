"""The progress tracker against the definition it serves: repetitions are counted within the run
since the last progress move (Towers rules 8.1, Sovereign 1.11.3, Overseer's threefold rule), and
undo and copies leave every other tracker as it was."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core import ProgressTracker
from boardlab.testing.fields import fingerprint
from tests.support.budgets import budget


class Model:
    """The definition, written naively: every position reached, and where each run begins."""

    def __init__(self, start: int, quiet_before: int = 0) -> None:
        self.keys = [start]
        self.progress = [True]
        self.quiet_before = quiet_before

    def run(self) -> list[int]:
        start = max(index for index, was_progress in enumerate(self.progress) if was_progress)
        return self.keys[start:]

    def quiet(self) -> int:
        run = len(self.run()) - 1
        return run + self.quiet_before if not any(self.progress[1:]) else run


def test_repetitions_count_only_the_run_since_the_last_progress_move() -> None:
    tracker = ProgressTracker(7)
    for key in (8, 7, 8):
        tracker.record(key, progress=False)
    assert tracker.repetitions() == 2  # 8 twice, 7 twice since the start
    assert tracker.record(7, progress=False) == 3
    # a progress move reaching a position seen before starts a new run: its earlier visits are gone
    assert tracker.record(8, progress=True) == 1
    assert tracker.repetitions(7) == 0
    assert tracker.record(7, progress=False) == 1
    assert tracker.quiet_moves == 1


def test_undo_past_a_progress_move_counts_the_earlier_run_again() -> None:
    tracker = ProgressTracker(1)
    for key in (2, 1, 2):
        tracker.record(key, progress=False)
    tracker.record(1, progress=True)
    tracker.undo()
    assert tracker.repetitions() == 2  # back on the second visit of 2
    assert tracker.repetitions(1) == 2
    assert tracker.record(1, progress=False) == 3


def test_a_copy_and_its_original_count_apart() -> None:
    tracker = ProgressTracker(1)
    tracker.record(2, progress=False)
    clone = tracker.copy()
    clone.record(1, progress=False)
    tracker.record(2, progress=False)
    assert clone.repetitions() == 2 and clone.repetitions(2) == 1
    assert tracker.repetitions() == 2 and tracker.repetitions(1) == 1
    clone.undo()
    clone.undo()
    assert clone.repetitions() == 1 and tracker.repetitions(2) == 2


def test_undo_of_the_start_is_refused() -> None:
    with pytest.raises(IndexError, match="nothing recorded"):
        ProgressTracker(0).undo()


# an action: record a key (a few keys, so that positions come back), with or without progress;
# undo; or go on in a copy (the original must then be left as it was)
actions = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.integers(0, 3), st.booleans()),
        st.tuples(st.just("undo"), st.just(0), st.just(False)),
        st.tuples(st.just("copy"), st.just(0), st.just(False)),
    ),
    max_size=60,
)


@budget(150, deadline=None)
@given(actions, st.integers(0, 5))
def test_the_tracker_agrees_with_the_definition_through_records_undos_and_copies(
    script: list[tuple[str, int, bool]], quiet_before: int
) -> None:
    tracker = ProgressTracker(0, quiet_moves=quiet_before)
    model = Model(0, quiet_before)
    abandoned: list[tuple[ProgressTracker, Model, list[int], int]] = []
    for action, key, progress in script:
        if action == "record":
            count = tracker.record(key, progress)
            model.keys.append(key)
            model.progress.append(progress)
            assert count == model.run().count(key)
        elif action == "undo" and len(model.keys) > 1:
            tracker.undo()
            model.keys.pop()
            model.progress.pop()
        elif action == "copy":
            # the original is left behind: it must not change while the copy goes on
            abandoned.append((tracker, model, model.keys.copy(), tracker.repetitions()))
            tracker = tracker.copy()
            copied = Model(0, quiet_before)
            copied.keys, copied.progress = model.keys.copy(), model.progress.copy()
            model = copied
        for candidate in range(4):
            assert tracker.repetitions(candidate) == model.run().count(candidate)
        assert tracker.repetitions() == model.run().count(model.keys[-1])
        assert tracker.quiet_moves == model.quiet()
        assert tracker.moves == len(model.keys) - 1
        # the same history gives the same fields, however it was reached (the conformance suite
        # compares a state's fields after apply and undo, trackers included)
        fresh = ProgressTracker(0, quiet_moves=quiet_before)
        for reached, was_progress in zip(model.keys[1:], model.progress[1:]):
            fresh.record(reached, was_progress)
        assert fingerprint(tracker) == fingerprint(fresh)
    for old, old_model, keys, repetitions in abandoned:
        assert old_model.keys == keys
        assert old.repetitions() == repetitions
        for candidate in range(4):
            assert old.repetitions(candidate) == old_model.run().count(candidate)
