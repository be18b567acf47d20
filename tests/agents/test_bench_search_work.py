"""bench/search_work.py searches the same positions in every run (its CPU time is not asserted)."""

from __future__ import annotations

import boardlab
from tests.support.bench import load_bench

search_work = load_bench("search_work")


def test_the_positions_are_decisions_at_the_plies_asked_and_the_same_each_run() -> None:
    game = boardlab.load("territories")
    first = search_work.positions(game, 2, [150, 250])
    again = search_work.positions(game, 2, [150, 250])
    # a ply where chance is due (a roll, a draw) gives no position
    assert len(first) >= 2 and {state.ply for state in first} <= {150, 250}
    assert all(state.current_player() >= 0 for state in first)
    assert [state.position() for state in first] == [state.position() for state in again]
