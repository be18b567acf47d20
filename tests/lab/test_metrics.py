"""Every study metric on hand-made games whose answers are worked out by hand (docs/lab.md)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

import boardlab
from boardlab.lab.intervals import (
    binomial_two_sided_p,
    bootstrap_interval,
    mean_interval,
    newcombe_difference,
    welch_difference,
)
from boardlab.lab.metrics import (
    balance,
    branching_curve,
    difference,
    estimate,
    first_player_test,
    histogram,
    histogram_edges,
    metric_definitions,
    variant_metrics,
)
from boardlab.lab.report import build_report
from boardlab.lab.stats import GameOutcome, moves_digest, repeated_games, repeated_games_warning
from boardlab.lab.trace import decisiveness, lead_changes, leaders

SEATS = ["White", "Black"]


def game(
    index: int,
    winners: tuple[int, ...],
    *,
    first: int = 0,
    decisions: int = 10,
    code: str = "castles",
    branching: tuple[int, ...] = (),
    repeated: int = 0,
    lead: int | None = None,
    decided_at: float | None = None,
    threshold: float | None = None,
    seating: tuple[int, ...] = (0, 1),
) -> GameOutcome:
    share = 1.0 / len(winners)
    returns = tuple(share if seat in winners else 0.0 for seat in range(2))
    return GameOutcome(
        index, index, seating, winners, returns, code, code, decisions, decisions, 0.1,
        first_mover=first, branching=branching, repeated=repeated, lead_changes=lead,
        decided_at=decided_at, decisiveness_threshold=threshold,
    )


METRICS = {metric.key: metric for metric in metric_definitions(SEATS, ["a", "b"])}


# --- per-game figures from an evaluation series ---------------------------------------
def test_leaders_skip_ties_and_lead_changes_count_only_real_changes() -> None:
    series = [(0.5, 0.5), (0.6, 0.4), (0.5, 0.5), (0.6, 0.4), (0.3, 0.7), (0.2, 0.8), (0.9, 0.1)]
    assert leaders(series) == [None, 0, None, 0, 1, 1, 0]
    # White leads, a tie in between is no change, then Black, then White again
    assert lead_changes(series) == 2
    assert lead_changes([(0.5, 0.5)] * 4) == 0
    assert lead_changes([(0.2, 0.3, 0.5), (0.6, 0.3, 0.1), (0.1, 0.8, 0.1)]) == 2  # three players


def test_decisiveness_is_the_first_point_above_every_losers_best() -> None:
    # the loser (seat 1) peaks at 0.7; the winner first exceeds 0.7 at point 3 of 0..4
    series = [(0.5, 0.5), (0.3, 0.7), (0.6, 0.4), (0.8, 0.2), (1.0, 0.0)]
    assert decisiveness(series, winner=0) == (0.7, 0.75)
    # a comeback: the winner is never above the loser's best until the final result
    comeback = [(0.5, 0.5), (0.1, 0.9), (0.2, 0.8), (1.0, 0.0)]
    assert decisiveness(comeback, winner=0) == (0.9, 1.0)
    # ahead from the first point on: decided at 0
    assert decisiveness([(0.6, 0.4), (0.7, 0.3), (1.0, 0.0)], winner=0) == (0.4, 0.0)


# --- rates, balance, tests --------------------------------------------------------------
def test_seat_win_rates_draws_completion_and_limits() -> None:
    games = [
        game(0, (0,)), game(1, (0,)), game(2, (1,)),
        game(3, (0, 1), code="move_limit"), game(4, (0, 1), code="repetition"),
    ]
    assert estimate(METRICS["win_0"], games).value == pytest.approx(2 / 5)
    assert estimate(METRICS["win_1"], games).value == pytest.approx(1 / 5)
    assert estimate(METRICS["draws"], games).value == pytest.approx(2 / 5)
    assert estimate(METRICS["completion"], games).value == pytest.approx(3 / 5)
    assert estimate(METRICS["limit"], games).value == pytest.approx(1 / 5)
    assert estimate(METRICS["repetition_end"], games).value == pytest.approx(1 / 5)
    wins = estimate(METRICS["win_0"], games)
    assert (wins.low, wins.high) == (pytest.approx(0.1176, abs=1e-4), pytest.approx(0.7693, abs=1e-4))  # Wilson, 2 of 5


def test_first_player_wins_counts_the_first_mover_among_decided_games() -> None:
    # random_first-style games: seat 1 moved first in games 1 and 2
    games = [game(0, (0,), first=0), game(1, (1,), first=1), game(2, (0,), first=1), game(3, (0, 1))]
    first = estimate(METRICS["first_player_wins"], games)
    assert (first.value, first.games) == (pytest.approx(2 / 3), 3)  # the draw is left out


def test_first_player_test_is_an_exact_binomial_test() -> None:
    # 60 first-player wins of 100 against 1/2: the textbook two-sided p = 0.0569
    games = [game(i, (0,)) for i in range(60)] + [game(60 + i, (1,)) for i in range(40)]
    assert first_player_test(games, seats=2) == pytest.approx(0.05689, abs=1e-4)
    assert binomial_two_sided_p(5, 10, 0.5) == pytest.approx(1.0)
    assert binomial_two_sided_p(0, 10, 0.5) == pytest.approx(2 / 1024)
    assert binomial_two_sided_p(3, 3, 1 / 3) == pytest.approx(1 / 27)


def test_balance_is_one_minus_the_spread_of_seat_score_rates() -> None:
    even = [game(0, (0,)), game(1, (1,))]
    assert balance(even) == 1.0
    lopsided = [game(0, (0,)), game(1, (0,)), game(2, (0,)), game(3, (0, 1))]
    # score rates: White (3 + 0.5) / 4, Black 0.5 / 4: spread 0.75
    assert balance(lopsided) == pytest.approx(0.25)
    figure = estimate(METRICS["balance"], lopsided)
    assert figure.low <= figure.value <= figure.high


def test_means_of_length_branching_repetition_lead_changes_and_decisiveness() -> None:
    games = [
        game(0, (0,), decisions=10, branching=(2, 4), repeated=1, lead=1, decided_at=0.5, threshold=0.6),
        game(1, (1,), decisions=20, branching=(6,), repeated=5, lead=3, decided_at=1.0, threshold=0.8),
    ]
    assert estimate(METRICS["decisions"], games).value == 15
    assert estimate(METRICS["branching"], games).value == pytest.approx(4.5)  # (3 + 6) / 2: each game's mean first
    assert estimate(METRICS["repetition"], games).value == pytest.approx((0.1 + 0.25) / 2)
    assert estimate(METRICS["lead_changes"], games).value == 2
    assert estimate(METRICS["decided_at"], games).value == pytest.approx(0.75)
    assert estimate(METRICS["decisiveness_threshold"], games).value == pytest.approx(0.7)
    interval = estimate(METRICS["decisions"], games)
    # mean 15, sample standard deviation 7.071: 15 +- 1.96 * 7.071 / sqrt(2) = 15 +- 9.8
    assert (interval.low, interval.high) == (pytest.approx(5.2), pytest.approx(24.8))


def test_undefined_figures_leave_a_game_out() -> None:
    games = [game(0, (0,), lead=None), game(1, (1,), lead=4)]
    lead = estimate(METRICS["lead_changes"], games)
    assert (lead.value, lead.games) == (4, 1)
    assert math.isnan(lead.low)  # one game: no interval
    assert math.isnan(estimate(METRICS["lead_changes"], [game(0, (0,))]).value)


def test_agent_score_follows_the_seating() -> None:
    games = [game(0, (0,), seating=(0, 1)), game(1, (0,), seating=(1, 0)), game(2, (0, 1), seating=(0, 1))]
    assert estimate(METRICS["score_0"], games).value == pytest.approx((1 + 0 + 0.5) / 3)
    assert estimate(METRICS["score_1"], games).value == pytest.approx((0 + 1 + 0.5) / 3)


def test_a_score_rate_every_game_alike_is_not_certain() -> None:
    # 20 games won: a normal interval has no width, the Wilson interval of 20 of 20 does
    won = [game(index, (0,), seating=(0, 1) if index % 2 == 0 else (1, 0)) for index in range(20)]
    score = estimate(METRICS["score_0"], [game(index, (0,)) for index in range(20)])
    assert (score.value, score.high) == (1.0, 1.0) and score.low == pytest.approx(0.8389, abs=1e-4)
    # a draw counts half: 10 wins and 10 draws is 15 of 20, the Wilson interval of 15 of 20
    drawn = [game(index, (0,) if index < 10 else (0, 1)) for index in range(20)]
    half = estimate(METRICS["score_0"], drawn)
    assert half.value == 0.75 and (half.low, half.high) == (pytest.approx(0.5313, abs=1e-4), pytest.approx(0.8881, abs=1e-4))
    assert estimate(METRICS["score_0"], won).low < 0.5 < estimate(METRICS["score_0"], won).high


def test_the_balance_of_two_seats_has_the_width_of_one_seats_score_rate() -> None:
    # White wins all 20: its score rate is at least 0.839 (Wilson), so the balance, 1 - |2r - 1|,
    # is at most 1 - (2 * 0.839 - 1): not the single point 0 that resampling alike games gives
    lopsided = estimate(METRICS["balance"], [game(index, (0,)) for index in range(20)])
    assert (lopsided.value, lopsided.low) == (0.0, 0.0) and lopsided.high == pytest.approx(0.3222, abs=1e-4)
    # an even score: the interval reaches a perfect balance
    even = estimate(METRICS["balance"], [game(index, (index % 2,)) for index in range(20)])
    assert even.value == 1.0 and even.high == 1.0 and even.low == pytest.approx(1 - (2 * 0.7007 - 1), abs=1e-3)


# --- differences between variants ---------------------------------------------------------
def test_rate_difference_uses_newcombes_interval() -> None:
    # Newcombe (1998), example (e): 56/70 against 48/80: difference 0.2, interval 0.0524 to 0.3339
    difference_value, (low, high) = newcombe_difference(48, 80, 56, 70)
    assert difference_value == pytest.approx(0.2)
    assert (low, high) == (pytest.approx(0.0524, abs=1e-3), pytest.approx(0.3339, abs=1e-3))


def test_a_clear_difference_is_sure_and_no_difference_is_not() -> None:
    fair = [game(i, (i % 2,)) for i in range(200)]
    unfair = [game(i, (0,) if i % 10 < 8 else (1,)) for i in range(200)]
    change = difference(METRICS["win_0"], fair, unfair)
    assert change.value == pytest.approx(0.3) and change.excludes_zero
    fairer = difference(METRICS["balance"], unfair, fair)
    assert fairer.value == pytest.approx(0.6) and fairer.low > 0
    same = difference(METRICS["win_0"], fair, fair)
    assert same.value == 0 and not same.excludes_zero


def test_mean_difference_uses_welchs_interval() -> None:
    value, (low, high) = welch_difference([1.0, 2.0, 3.0], [4.0, 6.0, 8.0])
    # 6 - 2 = 4; variances 1 and 4 over 3 games: sqrt(5/3) = 1.291
    assert value == 4
    assert (low, high) == (pytest.approx(4 - 1.96 * 1.2910, abs=1e-3), pytest.approx(4 + 1.96 * 1.2910, abs=1e-3))
    assert math.isnan(mean_interval([])[0])  # no games, no mean


def test_bootstrap_is_reproducible() -> None:
    rows = [game(i, (int(i % 3 == 0),)) for i in range(30)]
    assert bootstrap_interval(rows, balance) == bootstrap_interval(rows, balance)


# --- shapes for the report ------------------------------------------------------------------
def test_histogram_bins_cover_every_length_once() -> None:
    lengths = [3, 5, 5, 9, 12]
    edges = histogram_edges(lengths, bins=5)
    assert edges[0] <= 3 and edges[-1] >= 12
    counts = histogram(lengths, edges)
    assert sum(counts) == len(lengths)
    assert histogram([0, 1, 2, 2], [0, 1, 2]) == [1, 3]  # the last bin holds its upper edge


def test_branching_curve_averages_each_tenth_of_each_game() -> None:
    rising = game(0, (0,), branching=tuple(range(10)))  # part p holds decision p
    flat = game(1, (1,), branching=(5,) * 20)  # two decisions per part
    curve = branching_curve([rising, flat])
    assert curve == [(part + 5) / 2 for part in range(10)]
    short = branching_curve([game(0, (0,), branching=(4, 8))])
    assert short[0] == 4 and short[5] == 8 and short[1] is None


def test_variant_metrics_collects_tests_and_endings() -> None:
    games = [game(0, (0,)), game(1, (0,)), game(2, (1,), code="crowns")]
    figures = variant_metrics("layout=a", games, list(METRICS.values()), seats=2)
    assert figures.endings == {"castles": 2, "crowns": 1}
    assert figures.games == 3
    assert figures.first_player_p == pytest.approx(1.0)
    assert figures.to_json()["metrics"]["win_0"]["value"] == pytest.approx(2 / 3)
    assert figures.lengths["decisions"].mean == 10 and figures.lengths["decisions"].stdev == 0


def test_games_identical_to_an_earlier_one_are_counted_once_each() -> None:
    same = [game(i, (0,), branching=(3, 4, 5)) for i in range(3)]
    other_length = game(3, (0,), decisions=11, branching=(3, 4, 5))
    other_choices = game(4, (0,), branching=(3, 4, 6))
    other_winner = game(5, (1,), branching=(3, 4, 5))
    other_seating = game(6, (0,), branching=(3, 4, 5), seating=(1, 0))
    outcomes = [*same, other_length, other_choices, other_winner, other_seating]
    assert repeated_games(outcomes) == 2
    assert repeated_games_warning(0, 7) is None
    assert "2 of 7 games repeat an earlier one" in (repeated_games_warning(2, 7) or "")
    assert variant_metrics("", outcomes, list(METRICS.values()), 2).repeated_games == 2


def test_games_are_compared_by_their_moves_where_the_digest_is_kept() -> None:
    # Honor's games are short, end alike and offer as many candidate releases at every
    # decision: the shape alone took ten of sixty different games for repeats
    alike = [replace(game(i, (0,), branching=(60, 60, 60)), moves_digest=moves_digest([f"rel {i}.5 0.0 0.05"])) for i in range(4)]
    assert repeated_games(alike) == 0
    again = replace(alike[0], index=9)
    assert repeated_games([*alike, again]) == 1
    # the same moves from the other seats are another game
    assert repeated_games([alike[0], replace(again, seat_agents=(1, 0))]) == 0
    assert moves_digest(["a", "bc"]) != moves_digest(["ab", "c"]) and len(moves_digest([])) == 16


def test_overseers_no_capture_limit_counts_as_an_ending_by_a_limit_in_its_reports() -> None:
    """Overseer's rule 7.4 stops a game by its no-capture limit, drawn or won on material: both
    are endings by a limit (``Game.limit_codes``), which the common codes would not count."""
    overseer = boardlab.load("overseer")
    games = [game(0, (0, 1), code="no_capture_limit"), game(1, (0,), code="no_capture_material"),
             game(2, (1,), code="overseer_captured"), game(3, (0, 1), code="repetition")]
    counted = {m.key: m for m in metric_definitions(["White", "Black"], limit_codes=type(overseer).limit_codes)}
    assert estimate(counted["limit"], games).value == pytest.approx(2 / 4)
    assert estimate(METRICS["limit"], games).value == 0.0, "not among the common codes"
    report = build_report({"game": "overseer"}, {"": games}, ["White", "Black"], [])
    assert report["variants"][0]["metrics"]["limit"]["value"] == pytest.approx(0.5)
