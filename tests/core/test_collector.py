"""fewer_collections: the young threshold raised for a block and put back after, counted across
nested blocks and threads, left alone when automatic collection is off or switched off."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from boardlab.agents import make_agent
from boardlab.core.collector import COLLECTOR_VARIABLE, YOUNG_THRESHOLD, collector_setting, fewer_collections
from boardlab.lab import SimulationPlan, play_one
from tests.support.dicenim import DiceNim


@pytest.fixture(autouse=True)
def python_thresholds(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts from Python's own thresholds, switch unset, and leaves them so."""
    monkeypatch.delenv(COLLECTOR_VARIABLE, raising=False)
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_the_threshold_is_raised_inside_and_put_back_after() -> None:
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_an_exception_in_the_block_still_puts_the_threshold_back() -> None:
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("inside")
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_blocks_put_back_only_when_the_outer_one_closes() -> None:
    with fewer_collections():
        with fewer_collections():
            pass
        # the inner block closing must not put back 700 under the outer one
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    assert gc.get_threshold()[0] == 700


def test_blocks_in_two_threads_that_overlap_put_back_once_both_are_done() -> None:
    first_inside = threading.Event()
    second_done = threading.Event()
    seen: list[int] = []

    def first() -> None:
        with fewer_collections():
            first_inside.set()
            second_done.wait(5)
            seen.append(gc.get_threshold()[0])  # the other thread's block closed meanwhile

    worker = threading.Thread(target=first)
    worker.start()
    assert first_inside.wait(5)
    with fewer_collections():
        pass
    second_done.set()
    worker.join(5)
    assert seen == [YOUNG_THRESHOLD]
    assert gc.get_threshold()[0] == 700


def test_a_higher_threshold_or_collection_switched_off_is_left_as_it_is() -> None:
    gc.set_threshold(50_000, 10, 10)
    with fewer_collections():
        assert gc.get_threshold()[0] == 50_000
    assert gc.get_threshold()[0] == 50_000
    gc.set_threshold(0, 10, 10)  # a threshold of 0: automatic collection off
    with fewer_collections():
        assert gc.get_threshold()[0] == 0
    assert gc.get_threshold()[0] == 0


def test_the_environment_switch_leaves_pythons_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COLLECTOR_VARIABLE, "python")
    assert collector_setting() == "python"
    with fewer_collections():
        assert gc.get_threshold()[0] == 700


def test_an_unknown_switch_value_warns_with_the_values_it_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COLLECTOR_VARIABLE, "sometimes")
    with pytest.warns(RuntimeWarning, match="'sometimes' is not one of fewer, python"):
        assert collector_setting() == "fewer"


def test_a_threshold_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="young threshold 0"), fewer_collections(0):
        pass


@pytest.mark.parametrize("spec", ["mcts:iterations=40", "ismcts:iterations=40"])
def test_a_tree_search_runs_inside_and_leaves_the_threshold_as_it_found_it(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = DiceNim(pile=9)
    state = game.new_state(1)
    while state.current_player() < 0:
        state.apply(state.sample_chance())
    during: list[int] = []
    copy = type(state).copy

    def spying_copy(self):  # type: ignore[no-untyped-def]
        during.append(gc.get_threshold()[0])  # every iteration starts from a copy of the root
        return copy(self)

    monkeypatch.setattr(type(state), "copy", spying_copy)
    make_agent(spec, seed=1, game=game).choose(state)
    assert during and set(during) == {YOUNG_THRESHOLD}
    assert gc.get_threshold()[0] == 700


def test_the_labs_games_are_played_inside(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardlab.games.towers.state import TowersState

    during: list[int] = []
    apply = TowersState.apply

    def spying_apply(self, move):  # type: ignore[no-untyped-def]
        during.append(gc.get_threshold()[0])
        apply(self, move)

    monkeypatch.setattr(TowersState, "apply", spying_apply)
    played = play_one(SimulationPlan("towers", ("random",), games=1, seed=3), 0)
    assert played.outcome.moves == len(during) > 0
    assert set(during) == {YOUNG_THRESHOLD}
    assert gc.get_threshold()[0] == 700
