"""Every game's lesson checked against the rules as they are now: each step's position
loads, someone decides there, its solution is legal and does its task, some legal move does not
(so the step teaches something), and its explanation cites a rule that the rules document has.
A rules change that makes a task impossible fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.registry import game_ids
from boardlab.learn import LessonError, lesson_games, lesson_path, load_lesson, parse_lesson, wrong_move
from boardlab.learn.lesson import MAX_STEPS, MIN_STEPS
from tests.support.budgets import budget

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
GAMES = ["towers", "sovereign", "overseer", "territories", "honor"]


def test_every_game_has_a_lesson() -> None:
    assert set(GAMES) <= set(lesson_games())


@pytest.mark.parametrize("game_id", GAMES)
def test_the_lesson_is_sound_under_the_current_rules(game_id: str) -> None:
    lesson = load_lesson(game_id)
    assert MIN_STEPS <= len(lesson.steps) <= MAX_STEPS
    assert lesson.problems() == []


@pytest.mark.parametrize("game_id", GAMES)
def test_each_solution_does_its_task_and_another_move_does_not(game_id: str) -> None:
    lesson = load_lesson(game_id)
    for index, step in enumerate(lesson.steps):
        solved = lesson.attempt(index, step.solution)
        assert solved.outcome == "done", (step.title, solved.message)
        assert solved.after is not None and solved.after.ply == lesson.state(index).ply + 1
        wrong = wrong_move(lesson, index)
        assert wrong is not None, step.title
        missed = lesson.attempt(index, wrong)
        assert missed.outcome == "not_done"
        assert missed.message.startswith(f"{missed.move}: ") and len(missed.message) > len(str(missed.move)) + 10


def _rule_exists(document: str, rule: str) -> bool:
    """Whether the rules document has rule ``rule`` as it numbers them: a paragraph opening
    with it (``**5.3 ...**``, ``7.2 Build``, ``**R6.1 Town.**``, ``### 1.7 Consultant``), or an
    item ``c.`` of section ``a.b``'s numbered list (Sovereign's ``1.9.4`` is item 4 of 1.9)."""
    opening = re.compile(rf"^(\*\*|#+ )?{re.escape(rule)}\b", re.MULTILINE)
    if opening.search(document):
        return True
    section, _, item = rule.rpartition(".")
    if not section:
        return False
    heading = re.search(rf"^#+ {re.escape(section)}\b.*$", document, re.MULTILINE)
    if heading is None:
        return False
    body = document[heading.end():]
    following = re.search(r"^#+ ", body, re.MULTILINE)
    body = body[: following.start()] if following else body
    return re.search(rf"^{re.escape(item)}\. ", body, re.MULTILINE) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_each_step_cites_a_rule_of_its_document(game_id: str) -> None:
    document = (RULES_DIR / f"{game_id}.md").read_text(encoding="utf-8")
    for step in load_lesson(game_id).steps:
        assert _rule_exists(document, step.rule), f"{game_id} step {step.number} cites rule {step.rule}, not in the document"
        assert "rule" in step.explanation.lower(), f"{game_id} step {step.number}: the explanation names no rule"


def test_the_rule_check_can_fail() -> None:
    document = (RULES_DIR / "sovereign.md").read_text(encoding="utf-8")
    assert _rule_exists(document, "1.9.4") and _rule_exists(document, "1.10")
    assert not _rule_exists(document, "1.9.9") and not _rule_exists(document, "9.9")


def test_an_illegal_move_gets_the_games_own_refusal() -> None:
    lesson = load_lesson("towers")
    attempt = lesson.attempt(1, "d4+")  # step 2: d4 is a castle
    assert attempt.outcome == "illegal"
    assert attempt.message == "d4+: cannot build on a castle (rules 4.1)"
    assert lesson.attempt(0, "z9+").outcome == "illegal"
    assert "z9" in lesson.attempt(0, "z9+").message


def test_a_legal_move_that_misses_the_task_says_why() -> None:
    lesson = load_lesson("towers")
    attempt = lesson.attempt(0, "b7S")  # a push where a build is asked
    assert attempt.outcome == "not_done"
    assert "that is a push, not a build" in attempt.message
    assert lesson.attempt(0, "B7+").outcome == "done"  # the game's notation reads it case-insensitively


def test_a_refused_release_names_the_window() -> None:
    lesson = load_lesson("honor")
    index = next(i for i, step in enumerate(lesson.steps) if step.title == "The release window")
    attempt = lesson.attempt(index, "rel 50")
    assert attempt.outcome == "illegal" and "rule 4.3" in attempt.message and "[19.50, 40.50]" in attempt.message


def _data(game_id: str) -> dict:
    path = lesson_path(game_id)
    assert path is not None
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_task_made_impossible_is_reported() -> None:
    # as a rules change would: the step's position no longer lets the solution do the task
    data = _data("towers")
    data["steps"][5]["position"] = data["steps"][5]["position"].replace("WW,C,", "W,C,")  # c4 one piece high: no push
    problems = parse_lesson("towers", data).problems()
    assert len(problems) == 1 and "step 6" in problems[0] and "c4E" in problems[0]


def test_a_task_every_move_does_is_reported() -> None:
    data = _data("towers")
    data["steps"][0]["goal"] = {"not": {"mover_wins": True}}
    problems = parse_lesson("towers", data).problems()
    assert problems == ["towers lesson step 1 (Building): every legal move does the task, so the step teaches nothing"]


def test_a_view_path_that_does_not_exist_is_reported() -> None:
    data = _data("towers")
    data["steps"][2]["goal"] = {"any": [{"move": "c3E"}, {"view": "board.no_such_field", "equals": 1}]}
    problems = parse_lesson("towers", data).problems()
    step = "towers lesson step 3 (Pushing a stack over)"
    assert problems == [f"{step}: the view after the solution has no field 'board.no_such_field'"]


def test_a_refused_position_is_reported() -> None:
    data = _data("overseer")
    data["steps"][0]["position"] = "12/12 w 0 1"
    problems = parse_lesson("overseer", data).problems()
    assert len(problems) == 1 and "step 1" in problems[0] and "position is refused" in problems[0]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(format=2), "'format' must be 1"),
        (lambda d: d.update(steps=d["steps"][:5]), "6-12 steps"),
        (lambda d: d.update(colour="red"), "unknown key(s) colour"),
        (lambda d: d.update(options={"no_such_option": 1}), "the lesson's game does not load"),
        (lambda d: d["steps"][0].update(rule="rule four"), "'rule' is a rule number"),
        (lambda d: d["steps"][0].update(hints=[]), "'hints' is a non-empty list"),
        (lambda d: d["steps"][0].pop("solution"), "'solution' is a non-empty text"),
        (lambda d: d["steps"][0].update(goal={"move": "b7+", "view": "x", "equals": 1}), "exactly one of"),
        (lambda d: d["steps"][0].update(goal={"view": "board.x", "bigger": 1}), "unknown key(s) bigger"),
        (lambda d: d["steps"][0].update(goal={"view": "board.x", "at_least": "two"}), "compares with a number"),
        (lambda d: d["steps"][0].update(goal={"all": []}), "non-empty list of conditions"),
        (lambda d: d["steps"][0].update(goal={"mover_wins": "yes"}), "true or false"),
    ],
)
def test_a_malformed_lesson_is_refused_with_the_fault(change, message: str) -> None:
    data = _data("towers")
    change(data)
    with pytest.raises(LessonError, match=re.escape(message)):
        parse_lesson("towers", data, source="towers/lesson.json")


def test_a_game_without_a_lesson_is_named() -> None:
    with pytest.raises(LessonError, match=r"lessons: .*towers"):
        load_lesson(next(game_id for game_id in game_ids() if game_id not in lesson_games()))


def test_a_bad_step_number_is_refused() -> None:
    lesson = load_lesson("towers")
    with pytest.raises(LessonError, match=r"steps 1-8, not 9"):
        lesson.state(len(lesson.steps))


@budget(150)
@given(game_id=st.sampled_from(["towers", "overseer", "sovereign", "territories"]), text=st.text(max_size=20))
def test_any_typed_text_is_judged_never_raised(game_id: str, text: str) -> None:
    lesson = load_lesson(game_id)
    attempt = lesson.attempt(0, text)
    assert attempt.outcome in ("done", "not_done", "illegal") and attempt.message
    assert (attempt.after is None) == (attempt.outcome == "illegal")
