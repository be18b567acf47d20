"""``boardlab playtests --demo GAME``: a new data folder of simulated people's games in two
sessions (the rules as written and a variant) with their answers, and a lab study of the same
rules beside them; a folder that holds anything already is refused, and so is a count of games
below one, before the demo says or makes anything; the help says the default count."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from boardlab.cli import main


def test_the_demo_fills_a_new_data_folder_the_command_and_the_page_then_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "demo"
    assert main(["playtests", "--demo", "towers", "--data-dir", str(folder), "--games", "8"]) == 0
    shown = capsys.readouterr()
    assert "8 games of simulated people" in shown.err
    assert f"boardlab serve --data-dir {folder}" in shown.out.replace("\n", "") and "/playtests/towers" in shown.out
    assert main(["playtests", "towers", "--data-dir", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 8 and report["left_out"] == {}
    assert [variant["variant"] for variant in report["variants"]] == ["", "layout=split_sides"]
    assert [session["name"] for session in report["sessions"]] == ["Demo: layout=split_sides", "Demo: the rules as written"]
    for variant in report["variants"]:
        assert variant["people"]["games"] == 4 and variant["lab"]["games"] == 8
        assert variant["people"]["form"]["answers"] > 0
        assert all(name for game in variant["people"]["games_list"] for name in game["players"].values())
        assert variant["people"]["minutes"]["value"] > 1  # a person's pace, not a computer's


def test_the_demo_never_writes_into_a_folder_that_holds_anything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "boardlab.sqlite3").write_text("a server's own")
    assert main(["playtests", "--demo", "towers", "--data-dir", str(tmp_path)]) == 2
    assert "is not empty" in " ".join(capsys.readouterr().err.split())  # however the terminal wraps
    assert (tmp_path / "boardlab.sqlite3").read_text() == "a server's own"


def test_the_demo_reads_its_own_lab_not_a_study_in_the_folder_it_runs_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # a designer's own study of the same game, with more games than the demo plays
    assert main(["lab", "towers", "--players", "greedy,greedy", "-n", "12", "--jobs", "1", "--out", "lab-towers"]) == 0
    capsys.readouterr()
    folder = tmp_path / "demo"
    assert main(["playtests", "--demo", "towers", "--data-dir", str(folder), "--games", "6", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [variant["lab"]["games"] for variant in report["variants"]] == [6, 6]
    assert all(str(tmp_path / "lab-towers") not in json.dumps(variant["lab"]) for variant in report["variants"])


@pytest.mark.parametrize("games", ["-3", "0"])
def test_a_count_of_games_below_one_is_refused_before_the_demo_says_or_makes_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, games: str
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the demo's default folder would go
    assert main(["playtests", "--demo", "towers", "--games", games]) == 2
    shown = capsys.readouterr()
    assert shown.err.strip().endswith(f"error: --games must be at least 1, not {games}")
    assert "The demo" not in shown.err and not shown.out
    assert list(tmp_path.iterdir()) == []


def test_a_count_of_games_without_the_demo_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playtests", "towers", "--games", "5"]) == 2
    assert "--games counts the demo's games: use it with --demo" in capsys.readouterr().err


def test_the_help_says_the_demos_default_count_of_games(capsys: pytest.CaptureFixture[str]) -> None:
    from boardlab.server.playtest_demo import DEMO_SECONDS, MAX_GAMES, MIN_GAMES

    with pytest.raises(SystemExit):
        main(["playtests", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    # the demo plays the most games unless they would take over half its time, judged by the first
    slowest = DEMO_SECONDS / 2 / MAX_GAMES
    said = f"(default: {MAX_GAMES}, or fewer, down to {MIN_GAMES}, where the first game takes over about {slowest:.1f} s)"
    assert said in shown
