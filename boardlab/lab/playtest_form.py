"""The playtest form: what each person answers after a game, checked, kept and counted.

Fun from 1 to 5, whether the game felt fair or which seat was favoured, its length (too short,
about right, too long) and a free note; each question may be skipped. The server's page and
``boardlab play`` ask it; a record keeps the answers in its ``meta``
(:data:`RECORD_ANSWERS`); :func:`answers_figures` turns them into shares and means with 95%
intervals for the playtest report (:mod:`.playtests`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError, RecordError
from ..core.records import Record
from .intervals import mean_interval
from .metrics import Estimate
from .stats import wilson_interval

#: the form's answer on fairness: it felt fair, or a seat was favoured (``favoured``)
FAIRNESS = ("fair", "favoured")
#: the form's answer on length
LENGTHS = ("short", "right", "long")
LENGTH_WORDS = {"short": "too short", "right": "about right", "long": "too long"}
FUN_RANGE = (1, 5)
#: the longest note the form keeps
NOTE_CHARS = 1000
#: a record's ``meta`` key holding the form's answers (``boardlab play`` writes them there)
RECORD_ANSWERS = "playtest_answers"


@dataclass(frozen=True)
class FormAnswer:
    """One person's answers about one game (each question may be skipped): ``seat`` played it."""

    seat: int
    fun: int | None = None
    fairness: str | None = None
    favoured: int | None = None
    length: str | None = None
    note: str = ""

    @property
    def empty(self) -> bool:
        return self.fun is None and self.fairness is None and self.length is None and not self.note

    def checked(self, players: int) -> FormAnswer:
        """The answer with its note trimmed; OptionError naming the first answer out of range."""
        if not 0 <= self.seat < players:
            raise OptionError(f"seat {self.seat}: the game has seats 0..{players - 1}")
        if self.fun is not None and (isinstance(self.fun, bool) or not FUN_RANGE[0] <= self.fun <= FUN_RANGE[1]):
            raise OptionError(f"fun {self.fun!r}: a whole number from {FUN_RANGE[0]} to {FUN_RANGE[1]}")
        if self.fairness is not None and self.fairness not in FAIRNESS:
            raise OptionError(f"fairness {self.fairness!r}: {' or '.join(FAIRNESS)}")
        if self.fairness == "favoured":
            if self.favoured is None or not 0 <= self.favoured < players:
                raise OptionError(f"fairness 'favoured' names the seat favoured: favoured 0..{players - 1}")
        elif self.favoured is not None:
            raise OptionError("favoured names a seat only with fairness 'favoured'")
        if self.length is not None and self.length not in LENGTHS:
            raise OptionError(f"length {self.length!r}: {', '.join(LENGTHS)}")
        note = self.note.strip()
        if len(note) > NOTE_CHARS:
            raise OptionError(f"the note has {len(note)} characters; the form keeps {NOTE_CHARS}")
        answer = FormAnswer(self.seat, self.fun, self.fairness, self.favoured, self.length, note)
        if answer.empty:
            raise OptionError("the form is empty: answer a question, or skip the form")
        return answer

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "fun": self.fun, "fairness": self.fairness, "favoured": self.favoured,
            "length": self.length, "note": self.note,
        }

    @classmethod
    def from_json(cls, data: Any, players: int) -> FormAnswer:
        """The inverse of :meth:`to_json`, checked; OptionError for what no form answers."""
        if not isinstance(data, Mapping):
            raise OptionError(f"a form's answer is an object, not {type(data).__name__}")
        unknown = set(data) - {"seat", "fun", "fairness", "favoured", "length", "note"}
        if unknown:
            raise OptionError(f"a form's answer has no {', '.join(sorted(unknown))}")
        seat, fun, favoured = data.get("seat"), data.get("fun"), data.get("favoured")
        for name, value in (("seat", seat), ("fun", fun), ("favoured", favoured)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise OptionError(f"{name} {value!r}: a whole number")
        if not isinstance(seat, int):
            raise OptionError("a form's answer names its seat")
        note = data.get("note") or ""
        if not isinstance(note, str):
            raise OptionError("the note is text")
        return cls(seat, fun, data.get("fairness"), favoured, data.get("length"), note).checked(players)


def record_answers(record: Record) -> list[FormAnswer]:
    """The form's answers a record keeps (``boardlab play`` stores them with the game);
    RecordError for answers that are not the form's."""
    found = record.meta.get(RECORD_ANSWERS) or []
    if not isinstance(found, list):
        raise RecordError(f"the record's {RECORD_ANSWERS} is not a list of answers")
    try:
        return [FormAnswer.from_json(entry, record.players) for entry in found]
    except OptionError as exc:
        raise RecordError(f"the record's playtest answers: {exc}") from None


def _share(count: int, total: int) -> dict[str, Any]:
    low, high = wilson_interval(count, total) if total else (math.nan, math.nan)
    return Estimate(count / total if total else math.nan, low, high, total).to_json()


def answers_figures(answers: Sequence[FormAnswer], seats: int) -> dict[str, Any]:
    """The form's answers as figures: fun's mean, the shares that found the game fair, each seat
    favoured, and each length, with 95% intervals (Wilson's for shares, normal for the mean)."""
    fun = [float(answer.fun) for answer in answers if answer.fun is not None]
    mean, (low, high) = mean_interval(fun)
    if math.isfinite(low):  # a normal interval may spill past the scale's ends
        low, high = max(float(FUN_RANGE[0]), low), min(float(FUN_RANGE[1]), high)
    on_fairness = [answer for answer in answers if answer.fairness is not None]
    on_length = [answer for answer in answers if answer.length is not None]
    return {
        "answers": len(answers),
        "fun": Estimate(mean, low, high, len(fun)).to_json(),
        "fair": _share(sum(answer.fairness == "fair" for answer in on_fairness), len(on_fairness)),
        "favoured": [_share(sum(answer.favoured == seat for answer in on_fairness), len(on_fairness)) for seat in range(seats)],
        "length": {name: _share(sum(answer.length == name for answer in on_length), len(on_length)) for name in LENGTHS},
    }


__all__ = [
    "FAIRNESS",
    "FUN_RANGE",
    "LENGTHS",
    "LENGTH_WORDS",
    "NOTE_CHARS",
    "RECORD_ANSWERS",
    "FormAnswer",
    "answers_figures",
    "record_answers",
]
