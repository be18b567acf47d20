"""Fitting an evaluation to game results (boardlab.lab.training and ``boardlab train``)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import boardlab
from boardlab.cli import main
from boardlab.core.errors import OptionError
from boardlab.core.fitted import FittedEvaluation, judging_by, read_evaluations, terms_of
from boardlab.lab.calibration import CLIP, calibration
from boardlab.lab.training import Positions, TrainingSetup, fit, is_held_out

pytest.importorskip("numpy")


def synthetic(weights: list[float], bias: float, square: float, count: int, seed: int) -> Positions:
    """Two-seat positions whose results are drawn from a known model (a curve bent by ``square``)."""
    rng = random.Random(seed)
    found = Positions(2)
    for _ in range(count):
        terms = [[rng.gauss(0, 1) for _ in weights] for _seat in range(2)]
        scores = [sum(w * t for w, t in zip(weights, seat)) for seat in terms]
        scores[0] += bias
        half = (scores[0] - scores[1]) / 2
        lead = 2 * (half + square * half * abs(half))
        first_wins = rng.random() < 1 / (1 + math.exp(-lead))
        found.terms.append(terms)
        found.returns.append((1.0, 0.0) if first_wins else (0.0, 1.0))
        found.hand.append((0.5, 0.5))
    return found


def true_chance(weights: list[float], bias: float, square: float, terms: list[list[float]]) -> float:
    scores = [sum(w * t for w, t in zip(weights, seat)) for seat in terms]
    half = (scores[0] + bias - scores[1]) / 2
    return 1 / (1 + math.exp(-2 * (half + square * half * abs(half))))


def test_the_fit_finds_the_model_that_made_the_results() -> None:
    """The straight part and the curve trade off (a steeper line, a flatter curve), so what
    must come back is the model's chances and the weights' proportions, not each number."""
    weights, bias, square = [1.2, -0.7, 0.0], 0.4, 0.3
    result = fit(synthetic(weights, bias, square, 20_000, seed=1))
    assert result.weights[1] / result.weights[0] == pytest.approx(-0.7 / 1.2, abs=0.05)
    assert abs(result.weights[2]) < 0.05 * abs(result.weights[0])
    assert result.curve[1] > 0.05  # bent: a straight line would understate large leads
    model = FittedEvaluation("g", 2, {}, "1", ("a", "b", "c"), result.weights, result.seat_bias, curve=result.curve)
    rng = random.Random(9)
    for _ in range(200):
        terms = [[rng.gauss(0, 1) for _ in weights] for _seat in range(2)]
        assert model.chances(terms)[0] == pytest.approx(true_chance(weights, bias, square, terms), abs=0.04)
    straight = fit(synthetic(weights, bias, 0.0, 20_000, seed=2))
    assert straight.curve[1] < 0.05 and straight.curve[0] * straight.weights[0] == pytest.approx(1.2, abs=0.1)


def test_too_few_positions_are_refused() -> None:
    with pytest.raises(OptionError, match="play more games"):
        fit(synthetic([1.0], 0.0, 0.0, 5, seed=3))


def test_calibration_scores_chances_against_results_per_seat_and_tenth() -> None:
    chances = [(0.8, 0.2), (0.8, 0.2), (0.5, 0.5), (1.0, 0.0)]
    results = [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.0, 1.0)]
    measured = calibration(chances, results)
    expected_log = (
        -math.log(0.8) - math.log(0.2) - (0.5 * math.log(0.5) * 2) - math.log(CLIP)
    ) / 4
    assert measured.log_loss == pytest.approx(expected_log)
    # Brier: the mean over seats of the squared error, then over positions
    assert measured.brier == pytest.approx((0.04 + 0.64 + 0.0 + 1.0) / 4)
    count, predicted, won = measured.table[8]
    assert (count, predicted, won) == (2, pytest.approx(0.8), pytest.approx(0.5))
    assert measured.table[9][0] == 1 and measured.table[9][2] == 0.0  # a sure 1.0 that lost
    assert measured.table[5] == (2, 0.5, 0.5)
    assert measured.worst_gap(2) == pytest.approx(0.3)  # the 0.8s won half the time; the 1.0 is alone


def test_the_worst_gaps_interval_resamples_whole_games_so_few_long_games_are_unsure() -> None:
    """The same 2,000 seat-positions at a chance of 0.8, won 80% of the time: as 2,000 games
    of one position the worst gap's interval is narrow; as 20 games of 100 positions each (a
    game's positions share its result) it is wide, as it must be with 20 results."""
    rng = random.Random(11)
    many_chances, many_results, many_games = [], [], []
    few_chances, few_results, few_games = [], [], []
    for game in range(2_000):
        won = 1.0 if rng.random() < 0.8 else 0.0
        many_chances.append((0.85, 0.15))
        many_results.append((won, 1.0 - won))
        many_games.append(game)
    for game in range(20):
        won = 1.0 if game % 5 else 0.0  # 16 of 20 won: 80%
        for _ in range(100):
            few_chances.append((0.85, 0.15))
            few_results.append((won, 1.0 - won))
            few_games.append(game)
    many = calibration(many_chances, many_results, many_games)
    few = calibration(few_chances, few_results, few_games)
    assert len(few.per_game) == 20 and len(many.per_game) == 2_000
    assert many.worst_gap(200) == pytest.approx(few.worst_gap(200), abs=0.02)
    many_low, many_high = many.worst_gap_interval(200, draws=300)  # type: ignore[misc]
    few_low, few_high = few.worst_gap_interval(200, draws=300)  # type: ignore[misc]
    assert many_high - many_low < 0.05
    assert few_high - few_low > 0.15
    for measured, (low, high) in ((many, (many_low, many_high)), (few, (few_low, few_high))):
        assert measured.worst_tenth(200) in (1, 8)  # the two seats mirror each other
        assert low <= measured.worst_gap(200) <= high  # type: ignore[operator]
    assert calibration(many_chances, many_results).worst_gap_interval(200) is None  # no games: no interval
    with pytest.raises(OptionError, match="a game for every position"):
        calibration(many_chances, many_results, many_games[:-1])


def test_held_out_games_are_every_fifth_the_last_unless_another_is_chosen() -> None:
    assert [index for index in range(12) if is_held_out(index)] == [4, 9]
    assert [index for index in range(12) if is_held_out(index, 0)] == [0, 5, 10]
    with pytest.raises(OptionError, match="held-out fifth is 0 to 4, not 5"):
        is_held_out(3, 5)


def test_a_game_without_terms_or_too_few_games_is_refused_before_any_game_is_played() -> None:
    with pytest.raises(OptionError, match="at least 5 games"):
        TrainingSetup("towers", games=4).study()


def test_boardlab_train_plays_fits_measures_and_writes_weights_that_evaluate_reads(tmp_path: Path) -> None:
    weights = tmp_path / "towers.json"
    out = tmp_path / "train"
    command = ["train", "towers", "--games", "10", "--pairing", "beginner,easy", "--out", str(out),
               "--weights", str(weights)]
    assert main(command) == 0
    (model,) = read_evaluations(weights)
    game = boardlab.load("towers")
    assert model.holds_for(game) and model.terms == terms_of(game).names
    assert model.about["held_out"]["games"] == 2 and model.about["train"]["games"] == 8
    assert model.about["command"].startswith("boardlab train towers --games 10")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["held_out"]["hand"]["positions"] == report["held_out"]["fitted"]["positions"] > 0
    records = sorted((out / "games" / "records").glob("*.json"))
    assert len(records) == 10
    # the same command again plays nothing new: the games are kept, the fit is the same
    stamp = [path.stat().st_mtime_ns for path in records]
    assert main(command) == 0
    assert [path.stat().st_mtime_ns for path in records] == stamp
    (again,) = read_evaluations(weights)
    assert again.weights == model.weights
    # holding out another fifth of the same games fits on others and says so in the command
    other = tmp_path / "towers-fifth-0.json"
    assert main([*command[:-1], str(other), "--held-out", "0"]) == 0
    assert [path.stat().st_mtime_ns for path in records] == stamp
    (crossed,) = read_evaluations(other)
    assert crossed.about["held_out"]["games"] == 2 and crossed.weights != model.weights
    assert crossed.about["command"].endswith("--held-out 0")
    with pytest.raises(SystemExit) as refused:  # refused by the argument parser, before any game
        main([*command, "--held-out", "5"])
    assert refused.value.code == 2
    # the weights judge: evaluate() by them differs from the hand-set evaluation
    state = game.new_state(1)
    for move in ("a6+", "b1+"):
        state.play(move)
    hand = tuple(state.evaluate())
    with judging_by(str(weights)):
        assert tuple(state.evaluate()) != hand
