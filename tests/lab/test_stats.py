"""Simulation statistics from hand-made outcomes, where every figure is known."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.lab.stats import GameOutcome, LengthStats, summarize, wilson_interval


def outcome(index: int, seating: tuple[int, ...], winners: tuple[int, ...], moves: int, decisions: int) -> GameOutcome:
    share = 1.0 / len(winners)
    returns = tuple(share if seat in winners else 0.0 for seat in range(len(seating)))
    return GameOutcome(index, index, seating, winners, returns, "test", "test ending", moves, decisions, 0.5)


def test_wins_per_seat_and_per_agent_follow_the_seating() -> None:
    games = [
        outcome(0, (0, 1), (0,), 10, 5),  # agent 0 in seat 0 wins
        outcome(1, (1, 0), (0,), 20, 10),  # rotated: agent 1 in seat 0 wins
        outcome(2, (0, 1), (1,), 30, 15),  # agent 1 in seat 1 wins
        outcome(3, (1, 0), (0, 1), 40, 20),  # draw
    ]
    summary = summarize(games, ["mcts", "random"], ["P1", "P2"])
    assert summary.seat_wins == (2, 1)
    assert summary.agent_wins == (1, 2)
    assert summary.draws == 1
    assert summary.agent_score == (1.5, 2.5)  # a draw gives each half
    assert sum(summary.agent_score) == summary.games
    assert summary.agent_games == (4, 4)
    assert summary.moves.mean == 25 and summary.moves.median == 25
    assert summary.moves.stdev == pytest.approx(math.sqrt(500 / 3))
    assert (summary.decisions.minimum, summary.decisions.maximum) == (5, 20)


def test_the_same_agent_in_every_seat_counts_each_game_once() -> None:
    summary = summarize([outcome(0, (0, 0), (1,), 5, 5)], ["random"], ["P1", "P2"])
    assert summary.agent_games == (1,)
    assert summary.agent_wins == (1,)
    assert summary.seat_wins == (0, 1)


@given(st.integers(min_value=1, max_value=5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_wilson_interval_always_holds_its_proportion(case: tuple[int, int]) -> None:
    successes, trials = case
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_none_and_all_give_exact_bounds() -> None:
    # rounding once gave 1.7e-18 for 0 of 225 and 0.9999999999999998 for 225 of 225
    assert wilson_interval(0, 225)[0] == 0.0 and wilson_interval(225, 225)[1] == 1.0


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(50, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_json_has_no_nan_for_an_empty_run() -> None:
    data = summarize([], ["a"], ["P1", "P2"]).to_json()
    assert data["moves"]["mean"] is None
    json.dumps(data, allow_nan=False)


def test_length_of_one_game_has_zero_spread() -> None:
    assert LengthStats.of([7]) == LengthStats(7, 0.0, 7, 7, 7)


def test_score_by_agent_and_seat_separates_seat_advantage() -> None:
    # seat 0 always wins, whoever sits there: each agent scores 100% in seat 0, 0% in seat 1
    games = [outcome(i, (i % 2, 1 - i % 2), (0,), 10, 10) for i in range(4)]
    summary = summarize(games, ["a", "b"], ["P1", "P2"])
    assert summary.agent_seat_score == ((2.0, 0.0), (2.0, 0.0))
    assert summary.agent_seat_games == ((2, 2), (2, 2))
    assert summary.agent_score == (2.0, 2.0)


def test_chi_square_survival_matches_known_quantiles() -> None:
    from boardlab.lab.stats import chi_square_survival

    # the 5% critical values of the chi-square table for 1, 2, 3 and 4 degrees of freedom
    for degrees, critical in ((1, 3.841), (2, 5.991), (3, 7.815), (4, 9.488)):
        assert chi_square_survival(critical, degrees) == pytest.approx(0.05, abs=2e-4)
    assert chi_square_survival(0.0, 3) == 1.0


def test_seat_balance_flags_a_lopsided_table_only() -> None:
    from boardlab.lab.stats import seat_balance

    assert seat_balance([50, 50])[1] == pytest.approx(1.0)
    assert seat_balance([70, 30])[1] < 0.001  # chi2 = 16 on 1 degree of freedom
    assert seat_balance([27, 23, 25, 25])[1] > 0.5
    assert math.isnan(seat_balance([0, 0])[1])
