"""bench/evaluation_cost.py and bench/evaluation_gate.py: what they measure and decide (figures are
not asserted: speed is never a timed test)."""

from __future__ import annotations

import json
from pathlib import Path

from boardlab.core.fitted import read_evaluations, shipped_path
from tests.support.bench import load_bench

cost = load_bench("evaluation_cost")
gate = load_bench("evaluation_gate")


def test_the_cost_of_both_evaluations_is_timed_on_the_same_positions() -> None:
    row = cost.measure("towers", 1, 1, seed=2)
    assert row["game"] == "towers" and row["positions"] > 10
    assert row["hand_us"] > 0 and row["fitted_us"] > 0
    # the microseconds are printed to 0.01: the ratio, from the unrounded times, lies within their rounding
    low = (row["fitted_us"] - 0.005) / (row["hand_us"] + 0.005)
    high = (row["fitted_us"] + 0.005) / (row["hand_us"] - 0.005)
    assert low - 0.0005 <= row["ratio"] <= high + 0.0005  # the ratio itself is printed to 0.001


def test_a_spec_is_made_to_judge_by_the_named_evaluation_whatever_it_named() -> None:
    assert gate.judged("greedy", "fitted") == "greedy:evaluation=fitted"
    assert gate.judged("mcts:iterations=30,evaluation=hand,c=0.2", "x.json") == "mcts:iterations=30,c=0.2,evaluation=x.json"


def test_a_candidate_that_does_not_win_leaves_the_shipped_weights_alone(tmp_path: Path) -> None:
    shipped = shipped_path(__import__("boardlab").load("towers"))
    before = shipped.read_bytes()
    out = tmp_path / "turn"
    assert gate.main(["towers", "--spec", "greedy:temperature=0.05", "--games", "5", "--match-games", "2",
                      "--out", str(out)]) == 0
    decision = json.loads((out / "decision.json").read_text(encoding="utf-8"))
    assert decision["games"] == 2 and decision["interval"][0] <= 0.5 and not decision["kept"]
    assert shipped.read_bytes() == before
    (candidate,) = read_evaluations(out / "candidate.json")
    assert candidate.game_id == "towers" and candidate.about["loop"] == "evaluation_gate"
