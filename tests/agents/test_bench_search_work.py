"""bench/search_work.py searches the same positions in every run (its CPU time is not asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import boardlab


def _load() -> object:
    path = Path(__file__).resolve().parents[2] / "bench" / "search_work.py"
    spec = importlib.util.spec_from_file_location("bench_search_work", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


search_work = _load()


def test_the_positions_are_decisions_at_the_plies_asked_and_the_same_each_run() -> None:
    game = boardlab.load("territories")
    first = search_work.positions(game, 2, [150, 250])  # type: ignore[attr-defined]
    again = search_work.positions(game, 2, [150, 250])  # type: ignore[attr-defined]
    # a ply where chance is due (a roll, a draw) gives no position
    assert len(first) >= 2 and {state.ply for state in first} <= {150, 250}
    assert all(state.current_player() >= 0 for state in first)
    assert [state.position() for state in first] == [state.position() for state in again]
