"""A lesson in the terminal speaks of the terminal: every text a person meets there (each step's
explanation, task, hints, the answers to a wrong move and to an illegal one, the solution) says
what can be done where they are, typing, never what only the browser has (a click, a button, a
tray, a colour the terminal does not draw)."""

from __future__ import annotations

import re

import pytest

from boardlab.learn import MEDIA, load_lesson, wrong_move
from boardlab.learn.conditions import LessonError
from boardlab.learn.lesson import for_medium
from tests.lessons.test_learn_command import run

GAMES = ["towers", "sovereign", "overseer", "territories", "honor"]
#: what the browser's lesson page has and the terminal does not
BROWSER_WORDS = re.compile(
    r"\b(click\w*|tap\w*|button\w*|tray|dashed|drag\w*|drop it here|hover\w*|lights? up|highlight\w*|"
    r"gold ring|drawn in red|grey|gray|green|yellow|shaded|pill\w*|slider)\b",
    re.IGNORECASE,
)


def browser_words(text: str) -> list[str]:
    return sorted({match.group(0).lower() for match in BROWSER_WORDS.finditer(text)})


@pytest.mark.parametrize("game_id", GAMES)
def test_each_lesson_in_the_terminal_names_nothing_of_the_browser(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    lesson = load_lesson(game_id, medium="terminal")
    typed: list[str] = []
    for index, step in enumerate(lesson.steps):
        wrong = wrong_move(lesson, index)
        assert wrong is not None
        # a legal move that misses the task, an illegal one, every hint and one more, the solution
        typed += [wrong, "xx9", *["hint"] * (len(step.hints) + 1), "show"]
    status, out, _ = run(["learn", game_id], typed, capsys)
    assert status == 0 and "Lesson complete." in out
    assert out.count("Not yet:") == len(lesson.steps) and out.count("Not legal:") == len(lesson.steps)
    assert browser_words(out) == [], f"the {game_id} lesson in the terminal says: {browser_words(out)}"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_browser_keeps_its_own_words(game_id: str) -> None:
    """The check above can fail: the same lesson read for the browser does name clicks."""
    browser = load_lesson(game_id, medium="browser")
    texts = [text for step in browser.steps for text in (step.explanation, step.task, *step.hints, step.why_not or "")]
    texts += [str(step.goal) for step in browser.steps]
    assert browser_words(" ".join(texts)), f"the {game_id} lesson has no browser words at all: the check proves nothing"


def test_the_lessons_terminal_and_browser_texts_differ_where_they_must() -> None:
    terminal, browser = load_lesson("towers", medium="terminal"), load_lesson("towers", medium="browser")
    assert terminal.steps[0].hints[1].startswith("Type b7+") and browser.steps[0].hints[1].startswith("Click")
    assert terminal.steps[0].title == browser.steps[0].title  # a text given once serves both


def test_a_text_given_per_medium_must_name_each_medium() -> None:
    assert for_medium({"task": {"browser": "click", "terminal": "type"}}, "terminal", "x") == {"task": "type"}
    with pytest.raises(LessonError, match="exactly the keys browser and terminal"):
        for_medium({"task": {"browser": "click"}}, "terminal", "lesson.json: step 1")
    assert set(MEDIA) == {"browser", "terminal"}


def test_sovereigns_first_step_says_why_a_diagonal_slide_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["learn", "sovereign"], ["Sb2-c3", "moves S", "quit"], capsys)
    words = " ".join(out.split())
    assert "Not legal: Sb2-c3" in words and "never diagonally" in words
    # moves takes a prefix in a lesson as in a game: the Sovereign's moves, not the Contractor's
    assert "starting with 'S':" in words and "Sb2-b5" in words and "Be2" not in words
