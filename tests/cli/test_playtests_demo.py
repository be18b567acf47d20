"""``boardlab playtests --demo GAME``: a new data folder of simulated people's games in two
sessions (the rules as written and a variant) with their answers, and a lab study of the same
rules beside them; a folder that holds anything already is refused."""

from __future__ import annotations

import json
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
