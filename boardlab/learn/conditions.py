"""The task of a lesson step as data: a condition on the move played and the position it
leads to, in a small vocabulary that every game shares.

A condition is a JSON object with exactly one *test* key and an optional ``why_not`` (what to
tell a person whose move does not meet it). The tests:

``{"move": "b7S"}`` or ``{"move": ["b7S", "b7E"]}``
    the move's notation is this one (one of these); compared as the game writes the move,
    so ``B7s`` typed by a person matches ``b7S``.
``{"move_has": {"type": "push", "from": "c3"}}``
    every named field of the move's JSON form (``move.to_json()``) has this value.
``{"mover_wins": true}``
    the game ended with the mover among the winners (``false``: it did not).
``{"view": "board.controllers.e3", "equals": 0}``
    a field of the resulting view, seen by the mover: a dotted path into the view envelope
    (api.md), a number picks a list's item. One comparison with it: ``equals``,
    ``not_equals``, ``one_of`` (a list), ``contains`` (a list item or a substring),
    ``at_least``, ``at_most``, ``length`` (of a list, mapping or string), ``changed``
    (true/false: differs from the same field before the move) or ``changes_by`` (a number:
    after minus before).
``{"all": [...]}``, ``{"any": [...]}``, ``{"not": {...}}``
    combinations; a failed ``all`` explains itself with the first failing part's ``why_not``.

The vocabulary sees a game only through the protocol (its moves' notation and JSON, its
views and result), so a sixth game's lesson needs no code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoardlabError
from ..core.state import State

#: the comparisons a ``view`` condition may make
COMPARISONS = ("equals", "not_equals", "one_of", "contains", "at_least", "at_most", "length", "changed", "changes_by")
#: the keys that make a condition what it is
TESTS = ("move", "move_has", "mover_wins", "view", "all", "any", "not")

_MISSING = object()


class LessonError(BoardlabError):
    """A lesson file that is not valid: the message names the file, the step and the fault."""

    code = "bad_lesson"


@dataclass(frozen=True)
class Played:
    """What a condition is judged on: the position before, the move, the position after, and
    the seat that moved (whose view the ``view`` paths read)."""

    before: State
    move: Any
    after: State
    mover: int

    def view_before(self) -> Mapping[str, Any]:
        return self.before.view(self.mover)

    def view_after(self) -> Mapping[str, Any]:
        return self.after.view(self.mover)


@dataclass(frozen=True)
class Verdict:
    """Whether the condition holds, and when not, why (the author's ``why_not``, or None)."""

    met: bool
    why_not: str | None = None


def check_condition(condition: Any, where: str) -> None:
    """Validate the shape of ``condition`` (LessonError naming ``where`` and the fault);
    nothing is played. Paths are checked against real views by :func:`evaluate` in the
    lesson's own validation."""
    if not isinstance(condition, dict):
        raise LessonError(f"{where}: a condition is an object, not {type(condition).__name__}")
    tests = [key for key in condition if key in TESTS]
    if len(tests) != 1:
        raise LessonError(f"{where}: a condition has exactly one of {', '.join(TESTS)} (found {tests or 'none'})")
    test = tests[0]
    allowed = {test, "why_not"} | (set(COMPARISONS) if test == "view" else set())
    unknown = sorted(set(condition) - allowed)
    if unknown:
        raise LessonError(f"{where}: unknown key(s) {', '.join(unknown)} in a {test!r} condition")
    if "why_not" in condition and not (isinstance(condition["why_not"], str) and condition["why_not"].strip()):
        raise LessonError(f"{where}: why_not is a non-empty text")
    value = condition[test]
    if test == "move":
        texts = value if isinstance(value, list) else [value]
        if not texts or not all(isinstance(text, str) and text for text in texts):
            raise LessonError(f"{where}: 'move' is a move's notation or a list of them")
    elif test == "move_has":
        if not isinstance(value, dict) or not value:
            raise LessonError(f"{where}: 'move_has' maps fields of the move's JSON form to their values")
    elif test == "mover_wins":
        if not isinstance(value, bool):
            raise LessonError(f"{where}: 'mover_wins' is true or false")
    elif test == "view":
        if not isinstance(value, str) or not value:
            raise LessonError(f"{where}: 'view' is a dotted path into the view, e.g. board.controllers.e3")
        comparisons = [key for key in condition if key in COMPARISONS]
        if len(comparisons) != 1:
            raise LessonError(f"{where}: a 'view' condition makes one comparison of {', '.join(COMPARISONS)}")
        comparison = comparisons[0]
        operand = condition[comparison]
        if comparison == "one_of" and not isinstance(operand, list):
            raise LessonError(f"{where}: 'one_of' is a list of values")
        if comparison in ("at_least", "at_most", "length", "changes_by") and not _is_number(operand):
            raise LessonError(f"{where}: {comparison!r} compares with a number")
        if comparison == "changed" and not isinstance(operand, bool):
            raise LessonError(f"{where}: 'changed' is true or false")
    elif test in ("all", "any"):
        if not isinstance(value, list) or not value:
            raise LessonError(f"{where}: {test!r} is a non-empty list of conditions")
        for index, part in enumerate(value):
            check_condition(part, f"{where}.{test}[{index}]")
    else:  # not
        check_condition(value, f"{where}.not")


def evaluate(condition: Mapping[str, Any], played: Played) -> Verdict:
    """Judge ``condition`` (already checked) on a played move."""
    met, why_not = _evaluate(condition, played)
    return Verdict(met, None if met else why_not)


def _evaluate(condition: Mapping[str, Any], played: Played) -> tuple[bool, str | None]:
    own = condition.get("why_not")
    if "all" in condition:
        for part in condition["all"]:
            met, why_not = _evaluate(part, played)
            if not met:
                return False, own or why_not
        return True, None
    if "any" in condition:
        reasons = []
        for part in condition["any"]:
            met, why_not = _evaluate(part, played)
            if met:
                return True, None
            reasons.append(why_not)
        return False, own or next((reason for reason in reasons if reason), None)
    if "not" in condition:
        met, _ = _evaluate(condition["not"], played)
        return not met, own
    return _test(condition, played), own


def _test(condition: Mapping[str, Any], played: Played) -> bool:
    if "move" in condition:
        wanted = condition["move"] if isinstance(condition["move"], list) else [condition["move"]]
        return str(played.move) in {_canonical(played.before, text) for text in wanted}
    if "move_has" in condition:
        data = played.move.to_json()
        return all(key in data and _same(data[key], value) for key, value in condition["move_has"].items())
    if "mover_wins" in condition:
        result = played.after.result() if played.after.is_over() else None
        won = result is not None and played.mover in result.winners
        return won is bool(condition["mover_wins"])
    path = condition["view"]
    after = resolve(played.view_after(), path)
    comparison = next(key for key in COMPARISONS if key in condition)
    operand = condition[comparison]
    if comparison in ("changed", "changes_by"):
        before = resolve(played.view_before(), path)
        if comparison == "changed":
            return (not _same(before, after)) is bool(operand)
        if not (_is_number(before) and _is_number(after)):
            return False
        return bool(after - before == operand)
    if after is _MISSING:
        return comparison == "not_equals"
    return _compare(comparison, after, operand)


def _compare(comparison: str, value: Any, operand: Any) -> bool:
    if comparison == "equals":
        return _same(value, operand)
    if comparison == "not_equals":
        return not _same(value, operand)
    if comparison == "one_of":
        return any(_same(value, choice) for choice in operand)
    if comparison == "contains":
        if isinstance(value, str):
            return isinstance(operand, str) and operand in value
        if isinstance(value, dict):
            return isinstance(operand, str) and operand in value
        return isinstance(value, list) and any(_same(item, operand) for item in value)
    if comparison == "length":
        return isinstance(value, (list, dict, str)) and len(value) == operand
    if not _is_number(value):
        return False
    return bool(value >= operand) if comparison == "at_least" else bool(value <= operand)


def resolve(view: Any, path: str) -> Any:
    """The value at a dotted ``path`` in a view (numbers index lists), or a private marker
    when the path leads nowhere."""
    value = view
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part, _MISSING)
        elif isinstance(value, list) and part.lstrip("-").isdecimal() and -len(value) <= int(part) < len(value):
            value = value[int(part)]
        else:
            return _MISSING
        if value is _MISSING:
            return _MISSING
    return value


def path_exists(view: Any, path: str) -> bool:
    return resolve(view, path) is not _MISSING


def view_paths(condition: Mapping[str, Any]) -> list[str]:
    """Every view path a condition reads (for validating a lesson against real views)."""
    if "view" in condition:
        return [condition["view"]]
    if "all" in condition or "any" in condition:
        return [path for part in condition.get("all", condition.get("any", [])) for path in view_paths(part)]
    if "not" in condition:
        return view_paths(condition["not"])
    return []


def move_texts(condition: Mapping[str, Any]) -> list[str]:
    """Every notation a condition names (for checking that each one reads as a move)."""
    if "move" in condition:
        return list(condition["move"]) if isinstance(condition["move"], list) else [condition["move"]]
    if "all" in condition or "any" in condition:
        return [text for part in condition.get("all", condition.get("any", [])) for text in move_texts(part)]
    if "not" in condition:
        return move_texts(condition["not"])
    return []


def _canonical(state: State, text: str) -> str:
    """The notation as the game writes it (``B7s`` -> ``b7S``); text that is no legal move here
    stays as written, so it simply matches nothing."""
    try:
        return str(state.parse_move(text))
    except BoardlabError:
        return text


def _same(a: Any, b: Any) -> bool:
    # JSON has no tuples: a view's [x, y] and a move's (x, y) are the same point
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(a == b)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


__all__ = [
    "COMPARISONS",
    "TESTS",
    "LessonError",
    "Played",
    "Verdict",
    "check_condition",
    "evaluate",
    "move_texts",
    "path_exists",
    "resolve",
    "view_paths",
]
