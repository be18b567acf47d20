"""bench/vs_openspiel.py --match: two tiny Towers games against OpenSpiel's MCTSBot give a
report of the documented shape (strength is not asserted: these budgets are far too small)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.bench import load_bench

pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.mcts")

bench = load_bench("vs_openspiel")  # after the skips: the bench imports OpenSpiel


def test_match_mode_reports_a_row_per_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "vs.json"
    # an agent spec rather than a level: the levels' budgets are being tuned, this stays tiny
    ours = "mcts:iterations=20"
    bench.main(["--match", "--game", "towers", "--games", "2", "--level", ours, "--seconds-per-move", "0.01",
                "--calibration-positions", "1", "--max-decisions", "10", "--out", str(out), "--markdown"])
    printed = capsys.readouterr().out
    assert f"| towers | {ours} | 2 |" in printed and "load average" in printed

    report = json.loads(out.read_text())
    assert report["command"].endswith("--markdown") and report["seconds_per_move"] == 0.01
    assert len(report["load_start"]) == 3 and len(report["load_end"]) == 3
    [row] = report["rows"]
    assert row["game"] == "towers" and row["level"] == ours and row["games"] == 2
    assert row["spec"] == "mcts:iterations=20,seconds=0.01"
    assert row["wins"] + row["draws"] + row["losses"] == 2
    low, high = row["score_ci95"]
    assert 0.0 <= low <= row["score"] <= high <= 1.0
    assert row["passes"] == (row["score"] >= 0.9)
    # seats rotated: our level moved first in one game and second in the other
    assert sorted(game["ours_seat"] for game in row["outcomes"]) == [0, 1]
    for game in row["outcomes"]:
        assert game["finished"] or game["code"] == "unfinished"
        assert len(game["spiel_cpu"]) == len(game["spiel_sims"])
        assert all(sims >= 1 for sims in game["spiel_sims"])
    assert row["ours_moves"] > 0 and row["spiel_moves"] > 0
    assert row["ours_cpu_s_per_move"] > 0 and row["spiel_cpu_s_per_move"] > 0
    assert row["calibration"]["spiel_sims_per_cpu_s"] > 0


def test_a_time_cap_replaces_the_levels_own() -> None:
    assert bench.capped_spec("mcts:iterations=300,seconds=3", 0.5) == "mcts:iterations=300,seconds=0.5"
    assert bench.capped_spec("honor:level=hard", 0.25) == "honor:level=hard,seconds=0.25"
    assert bench.capped_spec("greedy", None) == bench.capped_spec("greedy", 0.5) == "greedy"


def test_the_bot_chooses_a_move_when_the_calibration_affords_one_simulation() -> None:
    # a loaded machine once calibrated the bot to 1 simulation a move: OpenSpiel's MCTSBot then
    # never expands its root and raises on max() of no children
    import boardlab
    from boardlab.adapters import openspiel as adapter

    spiel_game = adapter.load("towers")
    state = boardlab.load("towers").new_state(seed=3)
    bot = bench.spiel_bot(spiel_game, 1, seed=7)
    action = bot.step(spiel_game.from_boardlab_state(state))
    assert action in spiel_game.from_boardlab_state(state).legal_actions()


def test_the_stock_bot_rolls_out_at_random_and_the_report_says_so(tmp_path: Path) -> None:
    from boardlab.adapters import openspiel as adapter

    spiel_game = adapter.load("towers")
    assert isinstance(bench.spiel_bot(spiel_game, 4, seed=1, evaluator="stock").evaluator,
                      bench.spiel_mcts.RandomRolloutEvaluator)
    assert isinstance(bench.spiel_bot(spiel_game, 4, seed=1).evaluator, bench.TruncatedRolloutEvaluator)
    out = tmp_path / "vs.json"
    bench.main(["--match", "--game", "towers", "--games", "1", "--level", "mcts:iterations=10", "--seconds-per-move",
                "0.01", "--calibration-positions", "1", "--max-decisions", "4", "--bot-evaluator", "stock",
                "--out", str(out)])
    report = json.loads(out.read_text())
    assert report["openspiel_bot"]["evaluator"].startswith("OpenSpiel's RandomRolloutEvaluator")
    assert report["rows"][0]["bot_evaluator"] == "stock"


def test_the_bot_is_owed_our_mean_time_per_move_and_makes_up_a_move_it_misjudged() -> None:
    calibration = bench.Calibration(positions=6, ours_mean_s=0.5, spiel_sims_per_cpu_s=100.0, spiel_simulations=50)
    clock = bench.EqualTime.start(calibration)
    # our time per move grows fivefold in the middle game; the bot is really twice as fast as calibrated
    ours = [0.5] * 10 + [2.5] * 30 + [1.0] * 10
    true_rate = 200.0
    spiel = []
    for seconds in ours:
        clock.ours_moved(seconds)
        simulations = clock.simulations()
        spiel.append(simulations / true_rate)
        clock.spiel_moved(simulations, spiel[-1])
    # a count kept at the calibration would give it 0.25 s a move; it is owed ours, and gets it
    assert abs(sum(spiel) - sum(ours)) < 0.1 * max(ours)
    assert sum(spiel[10:40]) / 30 > 0.9 * 2.5  # it follows the middle game's longer moves
    # a move it over-spent is taken off the next one
    clock.spiel_moved(clock.simulations() * 3, 3 * clock.simulations() / true_rate)
    assert clock.simulations() == bench.MIN_SPIEL_SIMULATIONS
