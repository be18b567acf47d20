"""The report's games to look at and its opening table."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.core.records import Record
from boardlab.lab.highlights import games_to_look_at, opening_table
from boardlab.lab.report import render_html
from boardlab.lab.stats import GameOutcome


def outcome(index: int, decisions: int, winners: tuple[int, ...], code: str, lead_changes: int | None = None,
            seat_agents: tuple[int, ...] = (0, 0)) -> GameOutcome:
    returns = (0.5, 0.5) if len(winners) != 1 else tuple(1.0 if seat == winners[0] else 0.0 for seat in range(2))
    return GameOutcome(index=index, seed=index, seat_agents=seat_agents, winners=winners, returns=returns, code=code,
                       reason="", moves=decisions, decisions=decisions, seconds=0.0, lead_changes=lead_changes,
                       record_path=f"/somewhere/records/g-{index:05d}.json")


def test_each_reason_picks_its_game() -> None:
    games = [
        outcome(0, 50, (0,), "castles", 2),
        outcome(1, 30, (1,), "castles", 9),
        outcome(2, 90, (), "repetition", 1),
        outcome(3, 44, (0,), "castles", 0),
        outcome(4, 70, (), "repetition", 3),
        outcome(5, 80, (), "repetition", 4),
    ]
    picked = {entry["index"]: entry["why"] for entry in games_to_look_at(games)}
    assert picked[1].startswith("the shortest win")  # 30 decisions, a sole winner
    assert "the most lead changes (9)" in picked[1]  # the same game for two reasons says both
    assert picked[2].startswith("the longest game")  # 90 decisions, though a draw
    # castles: lengths 30, 44, 50, median 44 -> game 3; repetition: 70, 80, 90, median 80 -> game 5
    assert picked[3].startswith("a typical game ending 'castles' (3 of 6 games, median 44")
    assert picked[5].startswith("a typical game ending 'repetition' (3 of 6 games, median 80")
    assert all(entry["record"].startswith("records/") for entry in games_to_look_at(games))


def test_an_upset_is_the_weaker_agents_shortest_win_and_only_between_different_agents() -> None:
    # agent 0 wins three games of four; agent 1's one win is the upset
    games = [
        outcome(0, 40, (0,), "win", seat_agents=(0, 1)),
        outcome(1, 41, (1,), "win", seat_agents=(1, 0)),
        outcome(2, 60, (0,), "win", seat_agents=(1, 0)),
        outcome(3, 42, (0,), "win", seat_agents=(0, 1)),
    ]
    picked = games_to_look_at(games, ["mcts", "random"])
    upsets = [entry for entry in picked if "upset" in entry["why"]]
    assert [entry["index"] for entry in upsets] == [2] and "random" in upsets[0]["why"]
    assert not any("upset" in entry["why"] for entry in games_to_look_at(games, ["greedy", "greedy"]))


def test_no_games_no_highlights() -> None:
    assert games_to_look_at([]) == []
    assert opening_table([]) == {"games": 0, "distinct": 0, "rows": [], "others": 0}


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lab") / "towers"
    assert main(["lab", "towers", "--preset", "quick", "-n", "10", "--out", str(folder)]) == 0
    return folder


def test_the_report_links_the_shortest_and_longest_games(study: Path) -> None:
    report = json.loads((study / "report.json").read_text())
    with (study / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    picked = report["highlights"][0]["games"]
    longest = max(rows, key=lambda row: (int(row["decisions"]), -int(row["index"])))
    wins = [row for row in rows if len(row["winners"].split()) == 1]
    shortest = min(wins, key=lambda row: (int(row["decisions"]), int(row["index"])))
    by_why = {entry["why"].split(";")[0].split(" (")[0]: entry for entry in picked}
    assert by_why["the longest game"]["record"] == longest["record"]
    assert by_why["the shortest win"]["record"] == shortest["record"]
    for entry in picked:  # every link opens: the record replays to the stored length
        record = Record.load(study / entry["record"])
        assert sum(1 for by in record.movers if by >= 0) == entry["decisions"]
    page = (study / "report.html").read_text()
    assert f'href="{longest["record"]}"' in page and "boardlab replay records/NAME.json" in page


def test_the_opening_table_counts_every_first_move_and_how_it_scored(study: Path) -> None:
    report = json.loads((study / "report.json").read_text())
    openings = report["highlights"][0]["openings"]
    firsts: dict[str, list[float]] = {}
    with (study / "games.csv").open() as handle:
        for row in csv.DictReader(handle):
            record = Record.load(study / row["record"])
            seat = record.movers[0]  # Towers has no chance: the first move is a decision (rules 2.5: White)
            won = row["winners"].split() == [str(seat)]
            firsts.setdefault(record.moves[0], []).append(1.0 if won else 0.5 if len(row["winners"].split()) != 1 else 0.0)
    assert openings["games"] == 10 and openings["distinct"] == len(firsts)
    for row in openings["rows"]:
        assert row["games"] == len(firsts[row["move"]])
        assert row["score"] == pytest.approx(sum(firsts[row["move"]]) / row["games"])
    assert [row["games"] for row in openings["rows"]] == sorted((row["games"] for row in openings["rows"]), reverse=True)


def test_the_server_page_links_the_browser_replay(study: Path) -> None:
    report = json.loads((study / "report.json").read_text())
    page = render_html(report, replay_url=lambda record: f"/lab/s1/replay?record={record}")
    first = report["highlights"][0]["games"][0]["record"]
    assert f'href="/lab/s1/replay?record={first}"' in page
