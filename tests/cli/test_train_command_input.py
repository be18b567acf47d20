"""``boardlab train``: bad input is refused by name before any game is played, and Ctrl-C
says truly what was kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.cli import main
from boardlab.cli import train as train_module
from boardlab.core.fitted import FittedEvaluation, read_evaluations, terms_of, write_evaluation
from boardlab.lab.store import StudyFolder
from boardlab.lab.training import TrainingSetup

pytest.importorskip("numpy")

TINY = ["--games", "5", "--pairing", "greedy,greedy", "--jobs", "1"]


@pytest.fixture(autouse=True)
def _a_wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # a message on one line however long the temporary paths


def error_line(text: str) -> str:
    """The one line of ``text`` that reports an error (and there must be exactly one)."""
    (line,) = [line for line in text.splitlines() if line.startswith("error:")]
    return line


def overseer_weights(path: Path) -> Path:
    game = boardlab.load("overseer")
    names = terms_of(game).names
    write_evaluation(path, FittedEvaluation(
        game_id=game.id, players=game.num_players, options=dict(game.options), rules_version=str(game.rules_version),
        terms=names, weights=tuple(0.0 for _ in names), seat_bias=tuple(0.0 for _ in range(game.num_players)),
    ))
    return path


@pytest.mark.parametrize(
    ("make_weights", "problem"),
    [
        (lambda tmp: tmp / "nonexist" / "w.json", "there is no folder {tmp}/nonexist to write it in"),
        (lambda tmp: (tmp / "a-folder").mkdir() or tmp / "a-folder", "is a folder; give the path of a weights file"),
        (lambda tmp: (tmp / "a-file").write_text("x") and tmp / "a-file" / "w.json",
         "{tmp}/a-file is a file, not a folder to write it in"),
        (lambda tmp: overseer_weights(tmp / "overseer.json"), "holds weights of another game than towers"),
        (lambda tmp: (tmp / "report.json").write_text("{}") and tmp / "report.json", "not a weights file"),
    ],
    ids=["missing folder", "a folder", "a file as folder", "another game's weights", "not a weights file"],
)
def test_a_weights_path_that_cannot_be_written_is_refused_before_any_game_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make_weights: Any, problem: str
) -> None:
    weights = make_weights(tmp_path)
    out = tmp_path / "train"
    assert main(["train", "towers", *TINY, "--out", str(out), "--weights", str(weights)]) == 2
    line = error_line(capsys.readouterr().err)
    assert line.startswith(f"error: --weights {weights}: ")
    assert problem.format(tmp=tmp_path) in line
    assert not out.exists()  # not a game played, not a folder made


def test_an_interrupted_run_says_how_many_games_it_kept_and_the_same_command_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class InterruptedAfterTwoGames(StudyFolder):
        """Stores two games, then is interrupted as by Ctrl-C."""

        def add(self, played: Any) -> Any:
            outcome = super().add(played)
            if len(self.done()) == 2:
                raise KeyboardInterrupt
            return outcome

    out = tmp_path / "train"
    weights = tmp_path / "towers.json"
    command = ["train", "towers", *TINY, "--out", str(out), "--weights", str(weights)]
    monkeypatch.setattr(train_module, "StudyFolder", InterruptedAfterTwoGames)
    assert main(command) == 130
    captured = capsys.readouterr()
    assert captured.out == ""
    said = captured.err
    assert f"interrupted: 2 of 5 training games are finished and stored in {out / 'games'}/" in said
    assert "no weights were fitted yet. Run the same command again" in said
    assert "statistics" not in said  # none were printed, so none are promised
    records = sorted((out / "games" / "records").glob("*.json"))
    assert len(records) == 2 and not weights.exists()
    stamps = [path.stat().st_mtime_ns for path in records]

    monkeypatch.setattr(train_module, "StudyFolder", StudyFolder)
    assert main(command) == 0
    assert [path.stat().st_mtime_ns for path in records] == stamps  # the kept games are not played again
    assert len(list((out / "games" / "records").glob("*.json"))) == 5
    (model,) = read_evaluations(weights)
    assert model.game_id == "towers"
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["train"]["games"] == 4


def test_an_unknown_agent_is_named_before_the_folder_of_another_run_is_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other_run = tmp_path / "other-run"
    StudyFolder(other_run / "games", TrainingSetup("towers", pairings=(("greedy", "greedy"),), games=5).study())
    assert main(["train", "towers", "--pairing", "greedy,nosuch", "-n", "5", "--out", str(other_run)]) == 2
    line = error_line(capsys.readouterr().err)
    assert line.startswith("error: unknown agent 'nosuch'") and "different study" not in line
    fresh = tmp_path / "fresh"
    assert main(["train", "towers", "--pairing", "greedy,nosuch", "-n", "5", "--out", str(fresh)]) == 2
    assert error_line(capsys.readouterr().err).startswith("error: unknown agent 'nosuch'")
    assert not fresh.exists()  # refused before a folder was made for it


def test_weights_written_as_the_games_own_say_what_now_uses_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "evaluation.json"  # stands in for the game's own file, never the package's
    monkeypatch.setattr(train_module, "shipped_path", lambda game: shipped)
    assert main(["train", "towers", *TINY, "--out", str(tmp_path / "shipped")]) == 0
    said = capsys.readouterr().out
    assert "These are now the shipped weights of Towers" in said and "give --weights FILE" in said
    assert "worst tenth [95%]" in said and "lower is better" in said
    assert read_evaluations(shipped)[0].game_id == "towers"
    assert main(["train", "towers", *TINY, "--out", str(tmp_path / "elsewhere"), "--weights", str(tmp_path / "w.json")]) == 0
    assert "shipped weights" not in capsys.readouterr().out
