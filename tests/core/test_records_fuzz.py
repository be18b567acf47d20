"""Hypothesis: whatever a record file holds, loading and replaying it raise RecordError or succeed."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given
from hypothesis import strategies as st

import boardlab
from boardlab.agents import make_agent
from boardlab.core import RecordError
from boardlab.core.records import Record
from tests.support.budgets import budget
from tests.support.play import played_record

GOOD = played_record(
    boardlab.load("dicenim", pile=6), [make_agent("random", seed=1), make_agent("random", seed=2)], seed=3
).to_json()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def load_and_replay(data: object) -> None:
    try:
        Record.loads(json.dumps(data), "fuzz").replay()
    except RecordError as exc:
        assert str(exc).startswith("fuzz") or "move" in str(exc) or "record" in str(exc)


@budget(200, database=None)
@given(data=json_values)
def test_arbitrary_json_is_refused_with_a_record_error(data: object) -> None:
    load_and_replay(data)


@budget(300, database=None)
@given(key=st.sampled_from(sorted(GOOD)), value=json_values)
def test_one_field_replaced_by_anything(key: str, value: object) -> None:
    load_and_replay({**GOOD, key: value})


@budget(200, database=None)
@given(index=st.integers(0, len(GOOD["moves"]) - 1), value=json_values)
def test_one_move_replaced_by_anything(index: int, value: object) -> None:
    moves = list(GOOD["moves"])
    moves[index] = value
    load_and_replay({**GOOD, "moves": moves})


@budget(100, database=None)
@given(cut=st.integers(0, 2000))
def test_a_truncated_file_is_refused(cut: int) -> None:
    text = json.dumps(GOOD, indent=1)
    with contextlib.suppress(RecordError):
        Record.loads(text[:cut], "cut").replay()
