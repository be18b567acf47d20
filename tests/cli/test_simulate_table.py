"""``boardlab simulate``'s table of agents: score rates as docs/lab.md defines them (an agent's
mean return per game, its seats averaged), and no per-agent table in self-play, where every
agent scores an even share by definition (as ``boardlab lab`` leaves those rows out)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from boardlab.cli import main
from boardlab.cli.simulate import agent_score_rates
from boardlab.lab.executors import SerialExecutor
from boardlab.lab.stats import GameOutcome, summarize


def outcome(index: int, seat_agents: tuple[int, ...], winner: int) -> GameOutcome:
    returns = tuple(1.0 if seat == winner else 0.0 for seat in range(len(seat_agents)))
    return GameOutcome(index, index, seat_agents, (winner,), returns, "won", "", 10, 10, 0.01)


def test_one_agent_playing_itself_scores_an_even_share_not_every_point() -> None:
    games = [outcome(index, (0, 0), winner=index % 2) for index in range(6)]
    summary = summarize(games, ["greedy"], ["White", "Black"])
    assert summary.agent_score == (6.0,)  # it won every game, from one seat or the other
    assert agent_score_rates(games, summary) == [0.5]


def test_an_agent_in_two_seats_of_four_has_its_seats_averaged() -> None:
    # greedy (agent 1) holds seats 0 and 2 and wins every game from seat 0: half its seats' returns
    games = [outcome(index, (1, 0, 1, 0), winner=0) for index in range(4)]
    summary = summarize(games, ["random", "greedy"], ["White", "Blue", "Red", "Black"])
    assert agent_score_rates(games, summary) == [0.0, 0.5]


def test_an_agent_that_never_played_has_no_rate() -> None:
    games = [outcome(0, (0, 0), winner=0)]
    rates = agent_score_rates(games, summarize(games, ["greedy", "random"], ["White", "Black"]))
    assert rates[0] == 0.5 and math.isnan(rates[1])


def test_one_agent_in_every_seat_prints_no_per_agent_score_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "dicenim", "--players", "random", "-n", "4"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "self-play: random in every seat (fixed seats)" in shown
    assert "per agent" not in shown and "100.0%" not in shown
    assert "wins per seat" in shown and "score rate by agent and seat" in shown


def per_agent_rates(shown: str) -> dict[str, float]:
    """The score rate column of the per-agent table (the first table with a row per agent)."""
    table = shown[shown.index("per agent"):shown.index("score rate by agent and seat")]
    rows = [line.split("│") for line in table.splitlines() if line.startswith("│")]
    return {cells[1].strip(): float(cells[5].strip().rstrip("%")) for cells in rows}


def test_copies_of_one_agent_each_score_their_own_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "dicenim", "--players", "random,random", "-n", "4"]) == 0
    shown = capsys.readouterr().out
    assert "self-play: random in every seat, as random#1, random#2 (fixed seats)" in " ".join(shown.split())
    rates = per_agent_rates(shown)
    assert set(rates) == {"random#1", "random#2"} and sum(rates.values()) == pytest.approx(100.0, abs=0.11)


def test_different_agents_keep_their_per_agent_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "dicenim", "--players", "random,greedy", "-n", "4", "--rotate"]) == 0
    shown = capsys.readouterr().out
    assert "self-play" not in shown
    rates = per_agent_rates(shown)
    # two players, one seat each: the rates share the points
    assert set(rates) == {"random", "greedy"} and sum(rates.values()) == pytest.approx(100.0, abs=0.11)


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        (["simulate", "towers", "--players", "random,greedy", "-n", "6"], "--records DIR"),
        (["tournament", "towers", "--agents", "random,greedy", "-n", "6"], "--out DIR"),
    ],
)
def test_an_interrupted_run_without_a_folder_names_the_flag_that_would_keep_its_games(
    command: list[str], flag: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted_after_two(self: SerialExecutor, tasks: Any, on_ply: Any = None) -> Any:
        for number, played in enumerate(real_run(self, tasks, on_ply)):
            if number == 2:
                raise KeyboardInterrupt
            yield played

    real_run = SerialExecutor.run
    monkeypatch.setattr(SerialExecutor, "run", interrupted_after_two)
    assert main(command) == 130
    said = " ".join(capsys.readouterr().err.split())
    assert f"interrupted: statistics of the 2 finished games above. Give {flag} to keep the games for a later run." in said


def test_the_tournaments_table_says_what_its_ratings_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "towers", "--agents", "random,greedy", "-n", "2"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "every agent starts at 25" in shown and "400 points mean the stronger wins ten games to one" in shown
