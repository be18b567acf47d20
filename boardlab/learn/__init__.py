"""Learning to play: each game's guided lesson (``lesson.json`` in its folder) and the positions
its rules document draws (docs/learn.md). Reaches the games only through the protocol."""

from .conditions import LessonError
from .lesson import (
    MEDIA,
    PRACTICE_LEVEL,
    Attempt,
    Lesson,
    Medium,
    Step,
    lesson_games,
    lesson_path,
    load_lesson,
    parse_lesson,
    wrong_move,
)

__all__ = [
    "MEDIA",
    "PRACTICE_LEVEL",
    "Attempt",
    "Lesson",
    "LessonError",
    "Medium",
    "Step",
    "lesson_games",
    "lesson_path",
    "load_lesson",
    "parse_lesson",
    "wrong_move",
]
