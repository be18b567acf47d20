"""Elo by maximum likelihood (boardlab.lab.ratings.fit_elo): known results give known ratings."""

from __future__ import annotations

import math

import pytest

from boardlab.lab.ratings import elo_expected, fit_elo, outcome_comparisons, tournament_elo
from boardlab.lab.stats import GameOutcome
from boardlab.lab.study import Study, Variant


def games(a: str, b: str, wins: int, draws: int, losses: int) -> list[tuple[str, str, float]]:
    return [(a, b, 1.0)] * wins + [(a, b, 0.5)] * draws + [(a, b, 0.0)] * losses


def by_agent(comparisons: list[tuple[str, str, float]], anchor: str, **kwargs: float) -> dict:
    return {entry.agent: entry for entry in fit_elo(comparisons, anchor, **kwargs)}


def test_a_76_percent_score_is_200_points() -> None:
    fitted = by_agent(games("A", "B", 76, 0, 24), "B", prior_draws=0)
    assert fitted["B"].elo == 0.0
    assert fitted["A"].elo == pytest.approx(400 * math.log10(76 / 24), abs=0.01)  # 200.2
    assert elo_expected(fitted["A"].elo) == pytest.approx(0.76)
    # one standard error of the log-odds is 1 / sqrt(n p (1 - p)), in Elo points
    half = 1.96 / math.sqrt(100 * 0.76 * 0.24) * 400 / math.log(10)
    assert fitted["A"].high - fitted["A"].elo == pytest.approx(half, rel=1e-6)
    assert (fitted["A"].games, fitted["A"].score_rate) == (100, 0.76)


def test_the_anchor_is_zero_whoever_wins() -> None:
    fitted = by_agent(games("random", "greedy", 10, 0, 30), "random", prior_draws=0)
    assert fitted["random"].elo == 0.0 and fitted["random"].low == fitted["random"].high == 0.0
    assert fitted["greedy"].elo == pytest.approx(400 * math.log10(3), abs=0.01)
    assert [entry.agent for entry in fit_elo(games("random", "greedy", 10, 0, 30), "random")] == ["greedy", "random"]


def test_draws_count_half_a_point() -> None:
    with_draws = by_agent(games("A", "B", 50, 40, 10), "B", prior_draws=0)
    as_points = by_agent(games("A", "B", 70, 0, 30), "B", prior_draws=0)
    assert with_draws["A"].elo == pytest.approx(as_points["A"].elo, abs=1e-6)
    assert by_agent(games("A", "B", 0, 20, 0), "B", prior_draws=0)["A"].elo == pytest.approx(0.0, abs=1e-9)


def test_a_chain_of_pairs_adds_up_and_a_clean_sweep_stays_finite() -> None:
    chain = games("B", "A", 76, 0, 24) + games("C", "B", 76, 0, 24)
    fitted = by_agent(chain, "A", prior_draws=0)
    assert fitted["C"].elo == pytest.approx(2 * fitted["B"].elo, abs=0.01)
    assert fitted["C"].high - fitted["C"].low > fitted["B"].high - fitted["B"].low  # two steps from the anchor
    sweep = by_agent(games("hard", "random", 100, 0, 0), "random")
    # one virtual draw: 100.5 points of 101
    assert sweep["hard"].elo == pytest.approx(400 * math.log10(100.5 / 0.5), abs=0.01)


def test_agents_without_games_linking_them_to_the_anchor_get_no_rating() -> None:
    fitted = by_agent(games("A", "B", 6, 0, 4) + games("C", "D", 5, 0, 5), "A")
    assert fitted["B"].elo is not None
    assert fitted["C"].elo is None and fitted["D"].low is None and fitted["D"].games == 10


def test_a_tournament_rates_from_every_pair_of_seats() -> None:
    study = Study("towers", (Variant("random vs greedy", {}, ("random", "greedy")),), games=4)
    outcomes = [
        GameOutcome(index=i, seed=i, seat_agents=((i % 2), 1 - (i % 2)), winners=(w,), returns=(1.0 - w, float(w)),
                    code="end", reason="", moves=10, decisions=10, seconds=0.0, variant="random vs greedy")
        for i, w in enumerate((1, 0, 1, 0))
    ]
    comparisons, played = outcome_comparisons(study, {"random vs greedy": outcomes})
    # seats alternate, and greedy wins every game
    assert comparisons == [("random", "greedy", 0.0), ("greedy", "random", 1.0)] * 2
    assert played == {"random": 4, "greedy": 4}
    anchor, table = tournament_elo(study, {"random vs greedy": outcomes}, ["greedy", "random"])
    assert anchor == "random" and table[0].agent == "greedy" and table[0].elo > 300
    anchor, _ = tournament_elo(study, {"random vs greedy": outcomes}, ["greedy", "mcts"])
    assert anchor == "greedy"
