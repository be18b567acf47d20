"""Position strings that must be refused (rule 11.2), regressions, and a
JSON-aware fuzzer of real Honor positions: only PositionError may escape loading, and
whatever loads renders, plays its chance outcomes and round-trips."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core import PositionError
from tests.honor.helpers import exact_game, play

pytest.importorskip("pymunk")


def canonical(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def start_record() -> dict[str, Any]:
    return json.loads(boardlab.load("honor").new_state(seed=1).position())


def load(record: dict[str, Any], players: int = 2, **options: Any) -> Any:
    return boardlab.load("honor", players=players, **options).state_from_position(canonical(record), seed=1)


def tremor_record() -> dict[str, Any]:
    """A real position in phase TREMOR: Red's slab released, the tremor pending."""
    state = play(boardlab.load("honor").new_state(seed=1), "build SL1 0", "pass", "rel 30")
    assert state.phase == "TREMOR"
    return json.loads(state.position())


# --- every field validated before a state exists --------------------------
@pytest.mark.parametrize("value", [5, 10**30, -1, "x", [0], None, True])
def test_turn_player_out_of_range_or_of_the_wrong_type_is_a_position_error(value: Any) -> None:
    with pytest.raises(PositionError, match="turn_player"):
        load({**start_record(), "turn_player": value})


def test_game_over_with_nobody_standing_needs_every_out_at_and_the_last_to_fall() -> None:
    """Rules 6.1 and 8.2: a player who is out has out_at; when nobody stands the winners are
    those who fell last."""
    record = {**start_record(), "phase": "OVER", "standing": [0, 0], "out_at": [None, [0, 0]],
              "result": [[1], "x"], "pools": [0, 0], "bank": 20}
    with pytest.raises(PositionError, match="out_at"):
        load(record)
    record["out_at"] = [[0, 0], [0, 0]]
    with pytest.raises(PositionError, match="fell last"):
        load(record)
    record["result"] = [[0, 1], "collapsed last at the same step (rule 8.2)"]
    state = load(record)
    assert state.result().winners == (0, 1) and state.result().code == "last_to_fall"
    assert "game over" in state.render(None)


def test_a_result_without_winners_is_a_position_error() -> None:
    with pytest.raises(PositionError, match="winners"):
        load({**start_record(), "phase": "OVER", "result": [[], "x"]})


def test_placement_index_beyond_rule_12_is_refused_and_the_last_legal_one_samples() -> None:
    """Rule 12: at most 30 placements per player; the tremor's counter (rule 11.5) takes any
    index up to that."""
    with pytest.raises(PositionError, match="placement_index"):
        load({**tremor_record(), "placement_index": 10**30})
    state = load({**tremor_record(), "placement_index": 60})
    assert state.sample_chance() in {move for move, _ in state.chance_outcomes()} or state.is_chance()


def test_a_pending_release_outside_its_window_is_refused_and_a_loaded_tremor_takes_every_outcome() -> None:
    """Rule 4.3 on the intended release: a TREMOR position's pending release must be legal,
    so every outcome its chance_outcomes() lists is accepted (rule 4.5)."""
    for pending in ([-10**30, 0, 5], [3000, 3600, 5], [3000, 0, 1], [500, 0, 5]):
        with pytest.raises(PositionError, match="pending"):
            load({**tremor_record(), "pending": pending})
    state = load(tremor_record())
    for move, _ in state.chance_outcomes():
        state.check_move(move)
    state.play(state.chance_outcomes()[0][0])
    assert state.phase == "CHOOSE" and len(state.table) == 1


@pytest.mark.parametrize("field, value", [("timeouts", 10**30), ("turn_no", 10**30), ("bank", 10**30)])
def test_counts_beyond_their_bounds_are_refused(field: str, value: int) -> None:
    with pytest.raises(PositionError, match=field):
        load({**start_record(), field: value})


def test_auction_and_push_must_be_as_the_procedures_leave_them() -> None:
    """Rules 7.3, 7.4 and 7.7: the player to act in an auction can raise and has not passed;
    a pushed piece's holder can pay the fee (else they would have accepted, 7.8)."""
    state = play(exact_game(2).new_state(seed=1), "build SL1 0")
    record = json.loads(state.position())
    for auction in (["SL1", 0, 0, [1], 1], ["SL1", 0, 0, [], 0], ["SL1", 10, 0, [], 1]):
        with pytest.raises(PositionError, match="auction"):
            load({**record, "auction": auction}, tremor=False)
    pushed = json.loads(play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30",
                             "push LG1").position())
    with pytest.raises(PositionError, match="push"):
        load({**pushed, "push": ["LG1", 1, 1, 0]}, tremor=False)
    with pytest.raises(PositionError, match="fee"):
        load({**pushed, "pools": [0, 10], "bank": 10}, tremor=False)


def test_each_tower_has_one_foundation_its_first_piece() -> None:
    """Rule 6.3: a player's first piece is their foundation; orders are distinct."""
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass",
                 "rel 90", "build CU1 0", "pass", "rel 30")
    record = json.loads(state.position())
    broken = copy.deepcopy(record)
    broken["table"][2][2] = 1  # the cube claims to be a second foundation
    with pytest.raises(PositionError, match="foundation"):
        load(broken, tremor=False)
    broken = copy.deepcopy(record)
    broken["table"][2][3] = broken["table"][0][3]
    with pytest.raises(PositionError, match="order"):
        load(broken, tremor=False)


# --- coordinates over the table ---------------------------------------------
@pytest.mark.parametrize("y", [10**30, 10**12, -5])
def test_a_piece_far_off_the_table_is_refused_before_any_drawing(y: int) -> None:
    """Rule 3.1: pieces lie over the table, between its end walls (400 cm high); a y of
    10^30 made the text drawing spin, 1e8 took 6.5 s."""
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30")
    record = json.loads(state.position())
    record["table"][0][5] = y
    with pytest.raises(PositionError, match="yq"):
        load(record, tremor=False)
    record["table"][0][5] = 30000
    record["table"][0][4] = 10**30
    with pytest.raises(PositionError, match="xq"):
        load(record, tremor=False)


def test_the_highest_legal_piece_renders_quickly(tmp_path) -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30")
    record = json.loads(state.position())
    record["table"][0][5] = 400 * 10**4  # the top of the end walls
    loaded = load(record, tremor=False)
    started = time.perf_counter()
    text = loaded.render(0)
    assert time.perf_counter() - started < 5 and "▓" in text
    if pytest.importorskip("matplotlib"):
        loaded.game.render_image(loaded.view(0), str(tmp_path / "high.png"))


# --- the fuzzer ---------------------------------------------------------------------------
def _real_positions() -> list[tuple[dict[str, Any], str]]:
    """(options, position) at every phase, in a 2-player game with tremor and a 3-player one without."""
    found: list[tuple[dict[str, Any], str]] = []
    state = boardlab.load("honor").new_state(seed=4)
    for text in ("build SL1 0", "raise 1", "pass", "rel 90", "build PL1 0", "pass", "rel 30", "push LG1",
                 "passon", "acc", "rel 90", "resign"):
        found.append(({"players": 2}, state.position()))
        state.play(text)
        if state.is_chance():
            found.append(({"players": 2}, state.position()))
            state.play(state.sample_chance())
    found.append(({"players": 2}, state.position()))
    state = exact_game(3).new_state(seed=2)
    for text in ("build SL1 0", "pass", "pass", "rel 30", "build BR1 0", "pass", "pass", "rel 90", "push RF1",
                 "acc"):
        state.play(text)
        found.append(({"players": 3, "tremor": False}, state.position()))
    return found


POSITIONS = _real_positions()
ODD = st.one_of(
    st.sampled_from([0, 1, -1, 2, 3, 5, 59, 60, 3599, 3600, 10**8, 10**30, -10**30, 1e8, 0.5, float("nan"), True,
                     False, None, "", "x", "CU1", "CHOOSE", "OVER", "TREMOR", [], [0], [None], [[]], {}, {"a": 1}]),
    st.integers(), st.text(max_size=6),
)


def _pose_path(draw: Any, record: dict[str, Any]) -> tuple[Any, ...]:
    """A piece on the table (its pose is the likeliest edit to load)."""
    return ("table", draw(st.integers(0, len(record["table"]) - 1)))


def _path(draw: Any, record: dict[str, Any]) -> tuple[Any, ...]:
    """A field of the record: a top-level key (each alike), then maybe deeper, a level at a time."""
    node: Any = record
    path: tuple[Any, ...] = ()
    while isinstance(node, (dict, list)) and node and (not path or draw(st.booleans())):
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path += (key,)
        node = node[key]
    return path


@st.composite
def mutated_positions(draw: Any) -> tuple[dict[str, Any], str]:
    """A real position with one or two JSON-aware edits: a number nudged, a value replaced by
    an extreme or odd one, a key or list item dropped, or one added."""
    options, text = draw(st.sampled_from(POSITIONS))
    record = json.loads(text)
    for _ in range(draw(st.integers(1, 2))):
        table = record.get("table")
        if (isinstance(table, list) and table and all(isinstance(e, list) and len(e) == 7 for e in table)
                and draw(st.integers(0, 2)) == 0):
            path = (*_pose_path(draw, record), draw(st.sampled_from([4, 5, 6])))
        else:
            path = _path(draw, record)
        parent = record
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        action = draw(st.sampled_from(["replace", "replace", "nudge", "nudge", "nudge", "drop", "add"]))
        value = copy.deepcopy(draw(ODD))  # the sampled lists and objects are shared between examples
        current = parent[key]
        if action == "nudge" and isinstance(current, int) and not isinstance(current, bool):
            parent[key] = current + draw(st.sampled_from([-1, 1, -2, 2, -10, 10, -1000, 1000, -10**5, 10**5]))
        elif action in ("replace", "nudge"):
            parent[key] = value
        elif action == "drop":
            del parent[key]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=4))] = value
        else:
            parent.insert(key, value)
    return options, canonical(record)


def check_loaded_position(options: dict[str, Any], text: str, pictures: bool = False, tmp: Any = None) -> None:
    """Only PositionError escapes; what loads round-trips exactly, renders, lists its moves,
    and takes its own chance outcomes."""
    game = boardlab.load("honor", **options)
    try:
        state = game.state_from_position(text, seed=1)
    except PositionError:
        return
    assert state.position() == text
    assert game.state_from_position(state.position(), seed=1).position() == text
    for viewer in (0, None):
        json.dumps(state.view(viewer))
        assert isinstance(state.render(viewer), str)
    if pictures:
        game.render_image(state.view(0), str(tmp / "fuzz.png"))
    state.result()
    if state.is_over():
        return
    if state.is_chance():
        outcomes = state.chance_outcomes()
        for move, _ in outcomes:
            state.check_move(move)
        state.sample_chance()
        state.copy().play(outcomes[0][0])
        return
    moves = state.legal_moves()
    assert moves
    state.check_move(state.default_move())
    for move in moves[:3]:
        state.check_move(move)


def test_fuzz_mutated_real_positions_only_position_error_escapes() -> None:
    """A few dozen examples in CI; the slow test below runs many more."""

    @settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(mutated_positions())
    def check(case: tuple[dict[str, Any], str]) -> None:
        check_loaded_position(*case)

    check()


@pytest.mark.slow
def test_fuzz_mutated_real_positions_at_length(tmp_path) -> None:
    pytest.importorskip("matplotlib")

    @settings(max_examples=1500, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(mutated_positions(), st.booleans())
    def check(case: tuple[dict[str, Any], str], picture: bool) -> None:
        check_loaded_position(*case, pictures=picture, tmp=tmp_path)

    check()


def test_every_real_position_of_the_fuzzer_loads() -> None:
    """The fuzzer starts from positions that load (else it would test only refusals)."""
    for options, text in POSITIONS:
        check_loaded_position(options, text)
    phases = {json.loads(text)["phase"] for _, text in POSITIONS}
    assert phases == {"CHOOSE", "AUCTION", "PUSH", "PLACE", "TREMOR", "OVER"}
