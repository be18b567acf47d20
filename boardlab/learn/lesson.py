"""Lessons: a game's guided first steps, read from ``lesson.json`` in the game's own folder.

A lesson is data (docs/learn.md): the game's options, then 6-12 steps, each a real position in
the game's own position string, a short explanation citing the rule, a task as a condition on
the move and the position it leads to (:mod:`boardlab.learn.conditions`), hints and the
solution. This module reads and checks the file and judges a person's move; it reaches the
game only through the protocol (positions, legal moves, the game's refusal of an illegal
move, views), so a sixth game adds its lesson by adding its file.

A lesson is read for one medium, the browser or the terminal: a text that depends on where the
person is ("click the stack twice" against "type b7+") is written as
``{"browser": "...", "terminal": "..."}`` and each medium gets its own words.

>>> lesson = load_lesson("towers")
>>> attempt = lesson.attempt(0, "b7+")
>>> attempt.outcome
'done'
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from ..core.errors import BoardlabError
from ..core.game import Game
from ..core.registry import game_class, game_ids, load
from ..core.state import State
from .conditions import LessonError, Played, check_condition, evaluate, move_texts, path_exists, view_paths

#: the lesson's file in a game's folder
LESSON_FILE = "lesson.json"
#: how many steps a lesson has
MIN_STEPS, MAX_STEPS = 6, 12
#: the computer's level a lesson's practice game is played against
PRACTICE_LEVEL = "beginner"
#: a rule number as the rules documents write them: 5.3, 1.9.4, R7.2
RULE_NUMBER = re.compile(r"^R?\d+(\.\d+)*$")

Outcome = Literal["done", "illegal", "not_done"]
#: where a lesson is taken: its texts may say what to do there (click, or type)
Medium = Literal["browser", "terminal"]
MEDIA: tuple[Medium, ...] = ("browser", "terminal")

_STEP_KEYS = {"title", "rule", "explanation", "task", "position", "goal", "hints", "solution", "why_not", "on_illegal"}
_LESSON_KEYS = {"format", "title", "intro", "players", "options", "steps", "outro"}
#: the keys whose text may be given per medium (a condition's why_not, at any depth, too)
_TEXT_KEYS = {"title", "intro", "outro", "explanation", "task", "why_not", "on_illegal"}


@dataclass(frozen=True)
class Step:
    """One step: a position to move in, what to learn from it and what to do there."""

    number: int  # 1-based
    title: str
    rule: str  # the rule number the explanation cites (the rules document's own)
    explanation: str
    task: str
    position: str
    goal: Mapping[str, Any]
    hints: tuple[str, ...]
    solution: str
    why_not: str | None = None  # said when a legal move misses the task and no condition says why
    on_illegal: str | None = None  # said after the game's refusal of an illegal move (a reminder)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "title": self.title,
            "rule": self.rule,
            "explanation": self.explanation,
            "task": self.task,
            "hints": list(self.hints),
            "solution": self.solution,
        }


@dataclass(frozen=True)
class Attempt:
    """A person's move judged: ``done`` (legal, and it does the task), ``illegal`` (the
    game's own refusal in ``message``) or ``not_done`` (legal; ``message`` says why it misses
    the task). ``after`` is the position the legal move leads to."""

    outcome: Outcome
    message: str
    move: Any = None
    after: State | None = None

    @property
    def done(self) -> bool:
        return self.outcome == "done"


@dataclass(frozen=True)
class Lesson:
    """A game's lesson: its steps, and the game (with the lesson's options) they are played in."""

    game_id: str
    title: str
    intro: str
    outro: str
    players: int | None
    options: Mapping[str, Any]
    steps: tuple[Step, ...]
    source: str = field(default="", compare=False)

    def game(self) -> Game:
        return _game(self.game_id, self.players, tuple(sorted(self.options.items())))

    def state(self, index: int) -> State:
        """A fresh state of step ``index`` (0-based). LessonError for a bad index."""
        step = self.step(index)
        try:
            return self.game().state_from_position(step.position)
        except BoardlabError as exc:
            raise LessonError(f"{self.source}: step {step.number}: its position is refused: {exc}") from None

    def step(self, index: int) -> Step:
        if not 0 <= index < len(self.steps):
            raise LessonError(f"the {self.game_id} lesson has steps 1-{len(self.steps)}, not {index + 1}")
        return self.steps[index]

    def mover(self, index: int) -> int:
        """The seat the person plays in step ``index``: whoever is to move in its position."""
        return self.state(index).current_player()

    def attempt(self, index: int, text: str) -> Attempt:
        """Judge ``text`` played in step ``index``: the game refuses it, or it is legal and
        does the task or not. Never changes the lesson."""
        step = self.step(index)
        state = self.state(index)
        mover = state.current_player()
        try:
            move = state.parse_move(text)
        except BoardlabError as exc:
            return Attempt("illegal", f"{exc} {step.on_illegal}" if step.on_illegal else str(exc))
        after = state.copy()
        after.play(move)
        verdict = evaluate(step.goal, Played(state, move, after, mover))
        if verdict.met:
            return Attempt("done", f"{move}: well done.", move, after)
        reason = verdict.why_not or step.why_not or f"it is legal, but it does not do the task: {step.task}"
        return Attempt("not_done", f"{move}: {reason}", move, after)

    def problems(self) -> list[str]:
        """Everything wrong with the lesson against the rules as they are now: a position the
        game refuses, a position where nobody decides, a solution that is illegal or misses
        its task, a task that every legal move does, a condition reading a view field that
        does not exist or naming a move that does not parse. Empty when the lesson is sound."""
        found: list[str] = []
        for index, step in enumerate(self.steps):
            where = f"{self.game_id} lesson step {step.number} ({step.title})"
            try:
                state = self.state(index)
            except LessonError as exc:
                found.append(str(exc))
                continue
            if state.current_player() < 0:
                found.append(f"{where}: nobody decides in its position (a chance node or the end)")
                continue
            attempt = self.attempt(index, step.solution)
            if not attempt.done:
                found.append(f"{where}: the solution {step.solution!r} fails: {attempt.message}")
                continue
            mover = state.current_player()
            for path in view_paths(step.goal):
                if not path_exists(attempt.after.view(mover), path):  # type: ignore[union-attr]
                    found.append(f"{where}: the view after the solution has no field {path!r}")
            for text in move_texts(step.goal):
                try:
                    state.parse_move(text)
                except BoardlabError as exc:
                    found.append(f"{where}: the task names {text!r}, which is not a move here: {exc}")
            if wrong_move(self, index) is None:
                found.append(f"{where}: every legal move does the task, so the step teaches nothing")
        return found


def wrong_move(lesson: Lesson, index: int) -> str | None:
    """A legal move of step ``index`` that does not do its task (the notation), or None. The
    browser test plays it to see its explanation; a step without one teaches nothing."""
    state = lesson.state(index)
    for move in state.legal_moves():
        if not lesson.attempt(index, str(move)).done:
            return str(move)
    return None


@lru_cache(maxsize=32)
def _game(game_id: str, players: int | None, options: tuple[tuple[str, Any], ...]) -> Game:
    return load(game_id, players, **dict(options))


def lesson_path(game_id: str) -> Path | None:
    """The game's ``lesson.json`` (next to the module defining its Game class), or None.
    UnknownGameError for an id that is not registered."""
    module = sys.modules.get(game_class(game_id).__module__)
    module_file = getattr(module, "__file__", None)
    if module_file is None:
        return None
    path = Path(module_file).resolve().parent / LESSON_FILE
    return path if path.is_file() else None


def lesson_games() -> list[str]:
    """The registered games that have a lesson, in the registry's order."""
    return [game_id for game_id in game_ids() if lesson_path(game_id) is not None]


def load_lesson(game_id: str, medium: Medium = "browser") -> Lesson:
    """The game's lesson with the texts for ``medium``, read and checked (LessonError names the
    file and the fault; a game without one gets a LessonError listing the games that have one)."""
    path = lesson_path(game_id)
    if path is None:
        raise LessonError(f"{game_id} has no lesson yet; lessons: {', '.join(lesson_games()) or 'none'}")
    return _load(game_id, str(path), path.stat().st_mtime_ns, medium)


@lru_cache(maxsize=32)
def _load(game_id: str, path: str, mtime: int, medium: Medium) -> Lesson:  # mtime: a changed file is read again
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LessonError(f"{path}: not readable as JSON: {exc}") from None
    return parse_lesson(game_id, data, source=path, medium=medium)


def for_medium(data: Any, medium: Medium, where: str) -> Any:
    """``data`` (a lesson's JSON, or a part of it) with each text given per medium
    (``{"browser": ..., "terminal": ...}``) replaced by ``medium``'s; LessonError naming
    ``where`` for a per-medium text that lacks a medium or holds another key."""
    if isinstance(data, list):
        return [for_medium(item, medium, where) for item in data]
    if not isinstance(data, dict):
        return data
    resolved = {}
    for key, value in data.items():
        if isinstance(value, dict) and (key in _TEXT_KEYS or set(value) & set(MEDIA)):
            resolved[key] = _medium_text(value, medium, f"{where}: {key}")
        elif key == "hints" and isinstance(value, list):
            resolved[key] = [_medium_text(hint, medium, f"{where}: hints") if isinstance(hint, dict) else hint for hint in value]
        else:
            resolved[key] = for_medium(value, medium, where)
    return resolved


def _medium_text(value: dict[str, Any], medium: Medium, where: str) -> Any:
    if set(value) != set(MEDIA):
        raise LessonError(f"{where}: a text given per medium has exactly the keys {' and '.join(MEDIA)}, not {sorted(value)}")
    return value[medium]


def parse_lesson(game_id: str, data: Any, source: str = "lesson", medium: Medium = "browser") -> Lesson:
    """A lesson from its JSON data, with the texts for ``medium`` (LessonError naming
    ``source``, the step and the fault)."""
    if not isinstance(data, dict):
        raise LessonError(f"{source}: a lesson is a JSON object")
    data = for_medium(data, medium, source)
    unknown = sorted(set(data) - _LESSON_KEYS)
    if unknown:
        raise LessonError(f"{source}: unknown key(s) {', '.join(unknown)}; a lesson has {', '.join(sorted(_LESSON_KEYS))}")
    if data.get("format") != 1:
        raise LessonError(f"{source}: 'format' must be 1 (this boardlab reads lesson format 1)")
    title, intro, outro = (_text(data, key, source) for key in ("title", "intro", "outro"))
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise LessonError(f"{source}: 'players' is a number of seats")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise LessonError(f"{source}: 'options' maps the game's option names to values")
    try:
        _game(game_id, players, tuple(sorted(options.items())))
    except BoardlabError as exc:
        raise LessonError(f"{source}: the lesson's game does not load: {exc}") from None
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not MIN_STEPS <= len(raw_steps) <= MAX_STEPS:
        raise LessonError(f"{source}: 'steps' is a list of {MIN_STEPS}-{MAX_STEPS} steps")
    steps = tuple(_step(raw, number, f"{source}: step {number}") for number, raw in enumerate(raw_steps, 1))
    return Lesson(game_id, title, intro, outro, players, dict(options), steps, source)


def _step(raw: Any, number: int, where: str) -> Step:
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: a step is a JSON object")
    unknown = sorted(set(raw) - _STEP_KEYS)
    if unknown:
        raise LessonError(f"{where}: unknown key(s) {', '.join(unknown)}; a step has {', '.join(sorted(_STEP_KEYS))}")
    rule = _text(raw, "rule", where)
    if not RULE_NUMBER.match(rule):
        raise LessonError(f"{where}: 'rule' is a rule number as the rules document writes it (5.3, R7.2), not {rule!r}")
    hints = raw.get("hints", [])
    if not isinstance(hints, list) or not hints or not all(isinstance(hint, str) and hint.strip() for hint in hints):
        raise LessonError(f"{where}: 'hints' is a non-empty list of texts")
    goal = raw.get("goal")
    check_condition(goal, f"{where}: goal")
    assert isinstance(goal, dict)  # check_condition refuses anything else
    why_not, on_illegal = raw.get("why_not"), raw.get("on_illegal")
    for key, value in (("why_not", why_not), ("on_illegal", on_illegal)):
        if value is not None and not (isinstance(value, str) and value.strip()):
            raise LessonError(f"{where}: {key!r} is a non-empty text")
    return Step(
        number=number,
        title=_text(raw, "title", where),
        rule=rule,
        explanation=_text(raw, "explanation", where),
        task=_text(raw, "task", where),
        position=_text(raw, "position", where),
        goal=goal,
        hints=tuple(hints),
        solution=_text(raw, "solution", where),
        why_not=why_not,
        on_illegal=on_illegal,
    )


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise LessonError(f"{where}: {key!r} is a non-empty text")
    return value


__all__ = [
    "LESSON_FILE",
    "MAX_STEPS",
    "MEDIA",
    "MIN_STEPS",
    "PRACTICE_LEVEL",
    "Attempt",
    "Lesson",
    "Medium",
    "Step",
    "for_medium",
    "lesson_games",
    "lesson_path",
    "load_lesson",
    "parse_lesson",
    "wrong_move",
]
