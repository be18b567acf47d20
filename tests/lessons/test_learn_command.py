"""``boardlab learn GAME`` in the terminal: the steps in order, the game's refusal for an illegal
move, why a legal move misses the task, hints, the solution, and the practice command at the end."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.learn import load_lesson

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], lines: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command with ``lines`` typed one by one (EOFError after the last, as at Ctrl-D)."""
    feed: Iterator[str] = iter(lines)

    def read_line(prompt: str) -> str:
        print(prompt, end="")
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    status = main(argv, read_line=read_line)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("game_id", ["towers", "sovereign", "overseer", "territories", "honor"])
def test_a_whole_lesson_typed_move_by_move(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    lesson = load_lesson(game_id)
    status, out, _ = run(["learn", game_id], [step.solution for step in lesson.steps], capsys)
    assert status == 0
    words = " ".join(out.split())  # the console wraps long lines at 80 columns
    for step in lesson.steps:
        assert f"Step {step.number}/{len(lesson.steps)}: {step.title}" in words
        assert " ".join(step.task.split()) in words
    assert out.count("well done") == len(lesson.steps)
    assert "Lesson complete." in out
    assert f"boardlab play {game_id} --level beginner" in out


def test_wrong_moves_are_explained_and_the_step_stays(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["learn", "towers"], ["b7S", "z9", "hint", "hint", "hint", "b7+", "quit"], capsys)
    assert status == 0
    assert "Not yet: b7S: that is a push, not a build" in out
    assert "Not legal: z9" in out  # the game's own notation error
    assert "Hint: Your stacks are those with W on top" in out and "No more hints" in out
    assert "Step 2/8" in out and "Step 3/8" not in out
    assert "boardlab learn towers --step 2" in out  # where to go on after quitting


def test_an_illegal_move_gets_the_rules_reason(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["learn", "towers", "--step", "2"], ["d4+"], capsys)
    assert "Not legal: d4+: cannot build on a castle (rules 4.1)" in out
    assert "Step 1/8" not in out
    assert "boardlab learn towers --step 2" in out  # end of input stops the lesson where it was


def test_show_plays_the_solution_and_skip_moves_on(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["learn", "overseer"], ["show", "skip", "moves"], capsys)
    assert "The solution: D3xE4" in out
    assert "Step 3/7" in out
    assert re.search(r"J5xB5", out)  # the legal moves of step 3 include its solution


def test_a_bad_step_or_game_is_one_line_of_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["learn", "towers", "--step", "9"], [], capsys)
    assert status == 2 and "the towers lesson has steps 1-8" in err
    status, _, err = run(["learn", "chess"], [], capsys)
    assert status == 2 and "chess" in err


def test_the_installed_command_reads_standard_input(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boardlab", "learn", "sovereign"],
        input="Sb2-b1\nSb2-b5\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "Not yet: Sb2-b1: your Sovereign is not on b5" in done.stdout
    assert "Sb2-b5: well done." in done.stdout and "Step 2/7: Climbing one level" in done.stdout
