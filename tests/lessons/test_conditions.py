"""The task vocabulary (boardlab.learn.conditions): each test and comparison holds where it
should and fails where it should, on real Towers moves (rules 5.3 and 6.2 of docs/rules/towers.md)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardlab
from boardlab.learn.conditions import LessonError, Played, check_condition, evaluate, resolve

# c4 WW beside the bare castle d4: c4E drops a piece on the castle and takes it (rule 6.2)
POSITION = "-,-,-,-,-,-,-/-,-,-,C,-,-,BB/-,-,-,-,-,-,-/-,C,WW,C,-,C,-/-,-,-,-,-,-,-/-,-,-,C,-,-,-/-,-,-,-,-,-,- W"


def played(text: str) -> Played:
    state = boardlab.load("towers").state_from_position(POSITION)
    move = state.parse_move(text)
    after = state.copy()
    after.play(move)
    return Played(state, move, after, 0)


def met(condition: dict[str, Any], text: str = "c4E") -> bool:
    check_condition(condition, "test")
    return evaluate(condition, played(text)).met


def test_move_compares_the_games_notation() -> None:
    assert met({"move": "C4e"}) and met({"move": ["c4N", "c4E"]})
    assert not met({"move": "c4N"}) and not met({"move": "nonsense"})


def test_move_has_reads_the_moves_json() -> None:
    assert met({"move_has": {"type": "push", "from": "c4", "direction": "E"}})
    assert not met({"move_has": {"type": "push", "direction": "N"}})
    assert not met({"move_has": {"no_such_field": "E"}})


def test_mover_wins() -> None:
    assert met({"mover_wins": False}) and not met({"mover_wins": True})


@pytest.mark.parametrize(
    "condition, expected",
    [
        ({"view": "board.controllers.d4", "equals": 0}, True),
        ({"view": "board.controllers.d4", "equals": 1}, False),
        ({"view": "board.controllers.d4", "not_equals": 1}, True),
        ({"view": "board.controllers.b4", "not_equals": 0}, True),  # a missing field differs from anything
        ({"view": "board.controllers.d4", "one_of": [1, 0]}, True),
        ({"view": "board.controllers.d4", "one_of": [1]}, False),
        ({"view": "board.stacks.3.3", "equals": "CW"}, True),
        ({"view": "board.stacks.3", "contains": "CW"}, True),
        ({"view": "board.stacks.3.3", "contains": "W"}, True),
        ({"view": "board.controllers", "contains": "d4"}, True),
        ({"view": "board.controllers", "contains": "b4"}, False),
        ({"view": "board.castle_counts.0", "at_least": 1}, True),
        ({"view": "board.castle_counts.0", "at_most": 0}, False),
        ({"view": "board.castles", "length": 5}, True),
        ({"view": "board.castles", "length": 4}, False),
        ({"view": "board.castle_counts.0", "changes_by": 1}, True),
        ({"view": "board.castle_counts.1", "changes_by": 1}, False),
        ({"view": "board.castle_counts.0", "changed": True}, True),
        ({"view": "board.castles", "changed": True}, False),
        ({"view": "board.no_such.path", "equals": 0}, False),
    ],
)
def test_view_comparisons(condition: dict[str, Any], expected: bool) -> None:
    assert met(condition) is expected


def test_booleans_are_not_numbers() -> None:
    assert not met({"view": "over", "equals": 0}) and met({"view": "over", "equals": False})


def test_combinations_and_their_explanations() -> None:
    took = {"view": "board.castle_counts.0", "changes_by": 1, "why_not": "no castle taken"}
    north = {"move_has": {"direction": "N"}, "why_not": "not north"}
    verdict = evaluate({"all": [took, north]}, played("c4E"))
    assert not verdict.met and verdict.why_not == "not north"
    assert evaluate({"any": [took, north]}, played("c4E")).met
    verdict = evaluate({"any": [took, north]}, played("c4+"))
    assert not verdict.met and verdict.why_not == "no castle taken"
    assert evaluate({"not": north}, played("c4E")).met
    assert evaluate({"all": [took], "why_not": "own reason"}, played("c4+")).why_not == "own reason"
    assert evaluate(took, played("c4E")).why_not is None


@pytest.mark.parametrize(
    "condition, fault",
    [
        ([], "a condition is an object"),
        ({}, "exactly one of"),
        ({"move": ""}, "'move' is a move's notation"),
        ({"move_has": {}}, "'move_has' maps fields"),
        ({"view": "", "equals": 1}, "dotted path"),
        ({"view": "a.b"}, "one comparison"),
        ({"view": "a.b", "equals": 1, "at_least": 1}, "one comparison"),
        ({"view": "a.b", "one_of": 1}, "'one_of' is a list"),
        ({"view": "a.b", "changed": 1}, "'changed' is true or false"),
        ({"move": "b7+", "why_not": " "}, "why_not is a non-empty text"),
        ({"not": {"move": "b7+", "equals": 1}}, "test.not: unknown key(s) equals"),
    ],
)
def test_malformed_conditions_name_the_fault(condition: Any, fault: str) -> None:
    with pytest.raises(LessonError, match=fault.replace("(", r"\(").replace(")", r"\)")):
        check_condition(condition, "test")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@given(view=JSON, path=st.text(max_size=30))
def test_resolving_any_path_in_any_view_never_raises(view: Any, path: str) -> None:
    resolve(view, path)


def test_a_superscript_is_no_list_index() -> None:
    """'¹'.isdigit() is True but int('¹') fails: hypothesis found it; the path leads nowhere."""
    assert resolve([[5]], "0.¹") is resolve([], "x")
    assert resolve([[5]], "0.0") == 5 and resolve([[5]], "0.-1") == 5
