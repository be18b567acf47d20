"""bench/evaluation_cost.py, bench/evaluation_gate.py and bench/calibration_folds.py: what they
measure and decide (figures are not asserted: speed is never a timed test)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.core.fitted import read_evaluations, shipped_path
from tests.support.bench import load_bench

cost = load_bench("evaluation_cost")
gate = load_bench("evaluation_gate")
folds = load_bench("calibration_folds")


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
    shipped = shipped_path(boardlab.load("towers"))
    before = shipped.read_bytes()
    out = tmp_path / "turn"
    assert gate.main(["towers", "--spec", "greedy:temperature=0.05", "--games", "5", "--match-games", "2",
                      "--out", str(out)]) == 0
    decision = json.loads((out / "decision.json").read_text(encoding="utf-8"))
    assert decision["games"] == 2 and decision["interval"][0] <= 0.5 and not decision["kept"]
    assert shipped.read_bytes() == before
    (candidate,) = read_evaluations(out / "candidate.json")
    assert candidate.game_id == "towers" and candidate.about["loop"] == "evaluation_gate"
    # the command it was made with, as it was given, whatever launched it
    assert candidate.about["command"].startswith("python bench/evaluation_gate.py towers --spec greedy:temperature=0.05")
    # the candidate's held-out calibration, as boardlab train reports it
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["held_out"]["fitted"]["log_loss"] == pytest.approx(candidate.about["held_out"]["log_loss"]["fitted"], abs=1e-5)
    assert report["weights"] == dict(zip(candidate.terms, candidate.weights))
    assert (out / "reliability.png").read_bytes().startswith(b"\x89PNG")


def test_a_turn_for_a_search_that_loses_writes_no_weights_where_the_game_had_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = boardlab.load("towers")
    assert not shipped_path(game, "search-evaluation.json").exists()  # Towers' searches judge by hand or fitted
    out = tmp_path / "turn"
    assert gate.main(["towers", "--spec", "greedy:temperature=0.05", "--games", "5", "--match-games", "2",
                      "--evaluation", "search", "--out", str(out)]) == 0
    assert not json.loads((out / "decision.json").read_text(encoding="utf-8"))["kept"]
    assert not shipped_path(game, "search-evaluation.json").exists()
    assert "not kept: the game ships no search-evaluation.json" in capsys.readouterr().out


def test_a_turn_for_a_search_plays_by_its_weights_and_a_kept_candidate_replaces_them_not_the_judge(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    # the game's folder stands in a scratch one, and the match is won whatever it scores: the
    # test is about where a kept candidate goes, not about winning
    monkeypatch.setattr(gate, "shipped_path", lambda game, file_name="evaluation.json": shipped / file_name)
    monkeypatch.setattr(gate, "wilson_interval", lambda points, games: (0.75, 0.95))
    out = tmp_path / "turn"
    assert gate.main(["towers", "--spec", "greedy:temperature=0.05", "--games", "5", "--match-games", "2",
                      "--evaluation", "search", "--out", str(out)]) == 0
    decision = json.loads((out / "decision.json").read_text(encoding="utf-8"))
    assert decision["kept"] and decision["evaluation"] == "search"
    assert decision["shipped_file"] == "search-evaluation.json"
    assert sorted(path.name for path in shipped.iterdir()) == ["search-evaluation.json"]
    assert (shipped / "search-evaluation.json").read_bytes() == (out / "candidate.json").read_bytes()
    # the games and the match's current side judged by the search's weights (by hand in Towers,
    # which ships none), never by the analysis' judge
    specs = " ".join(path.read_text(encoding="utf-8") for path in out.rglob("*.json") if path.name != "candidate.json")
    assert "greedy:temperature=0.05,evaluation=search" in specs
    assert "evaluation=fitted" not in specs


def folds_of_a_small_study(tmp_path: Path, game_id: str) -> tuple[Path, dict[str, Any]]:
    """A 10-game training folder of ``game_id`` (beginner against easy) and the folds script's
    figures on it."""
    from boardlab.cli import main as boardlab_main

    out = tmp_path / "train"
    assert boardlab_main(["train", game_id, "--games", "10", "--pairing", "beginner,easy", "--out", str(out),
                          "--weights", str(tmp_path / "w.json")]) == 0
    assert folds.main([str(out), "--json", str(tmp_path / "folds.json")]) == 0
    return out, json.loads((tmp_path / "folds.json").read_text(encoding="utf-8"))


def test_each_fifth_held_out_in_turn_reads_as_boardlab_train_does_and_the_five_add_up(tmp_path: Path) -> None:
    out, found = folds_of_a_small_study(tmp_path, "towers")
    trained = json.loads((out / "report.json").read_text(encoding="utf-8"))["held_out"]
    last = found["fifths"][4]
    assert [fifth["games"] for fifth in found["fifths"]] == [2] * 5 and found["all"]["games"] == 10
    # the default held-out fifth is the last: the same games, the same weights, the same figures
    for side in ("hand", "fitted"):
        assert last[side]["log_loss"] == trained[side]["log_loss"]
        assert last[side]["reliability"] == trained[side]["reliability"]
    # out-of-fold: every position once, judged by weights fitted without its game
    for side in ("hand", "fitted"):
        assert [row["count"] for row in found["all"][side]["reliability"]] == [
            sum(fifth[side]["reliability"][tenth]["count"] for fifth in found["fifths"]) for tenth in range(10)]
    # weights measured on games as they are: nothing fitted, every game judged
    assert folds.main([str(out), "--weights", str(tmp_path / "w.json"), "--json", str(tmp_path / "all.json")]) == 0
    judged = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))["all"]
    assert judged["games"] == 10
    every = found["all"]["hand"]
    assert (judged["hand"]["log_loss"], judged["hand"]["reliability"]) == (every["log_loss"], every["reliability"])
    assert judged["fitted"]["positions"] == judged["hand"]["positions"]
    honor_weights = shipped_path(boardlab.load("honor"))
    with pytest.raises(SystemExit, match="holds no weights for towers"):
        folds.main([str(out), "--weights", str(honor_weights)])


def test_positions_decided_outside_the_model_are_also_left_out_in_a_line_of_their_own(tmp_path: Path) -> None:
    _out, found = folds_of_a_small_study(tmp_path, "overseer")
    every = found["all"]["fitted"]["positions"]
    model = found["model_judged"]
    # a beginner leaves an Overseer that could be taken: such positions are decided outside the model
    assert 0 < model["positions"] < every
    assert model["fitted"]["positions"] == model["positions"]
    assert sum(row["count"] for row in model["fitted"]["reliability"]) == 2 * model["positions"]  # two seats
