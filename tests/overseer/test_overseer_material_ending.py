"""The material ending of the no-capture limit (rules 7.4.1, option no_capture_ending)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.agents import make_agent
from boardlab.core import OptionError, Record
from tests.overseer.helpers import load, play_all

MATERIAL = {"no_capture_ending": "material"}
#: White: Overseer, Captain, Soldier (3.5); Black: Overseer, Soldier (1)
WHITE_AHEAD = {"A1": "O", "G8": "o", "D4": "S", "J5": "s", "C3": "C"}
#: the Overseers shuttle between two squares each: no capture is possible on the way
ROUND = ["A1-B1", "G8-H8", "B1-A1", "H8-G8"]


def test_r7_4_1_at_the_limit_the_side_ahead_wins_and_without_the_option_it_is_a_draw() -> None:
    state = load(WHITE_AHEAD, since_capture=99, **MATERIAL)
    state.play("A1-B1")
    result = state.result()
    assert result.code == "no_capture_material" and state.winners() == (0,) and state.returns() == (1.0, 0.0)
    assert result.reason == "100 plies without a capture: White is ahead in material, 3.5 to 1"
    ruled = load(WHITE_AHEAD, since_capture=99)
    ruled.play("A1-B1")
    assert ruled.result().code == "no_capture_limit" and ruled.returns() == (0.5, 0.5)


def test_r7_4_1_the_side_ahead_wins_whoever_makes_the_last_move() -> None:
    # Black ahead by a Commander, and it is White's quiet move that reaches the limit
    state = load({"A1": "O", "G8": "o", "D4": "S", "J6": "m"}, since_capture=9, no_capture_limit=10, **MATERIAL)
    state.play("A1-B1")
    assert state.winners() == (1,) and state.result().reason.endswith("Black is ahead in material, 7 to 1")


def test_r7_4_1_equal_material_draws_and_values_not_piece_numbers_count() -> None:
    equal = load({"A1": "O", "G8": "o", "D4": "S", "J5": "s"}, since_capture=99, **MATERIAL)
    equal.play("A1-B1")
    assert equal.result().code == "no_capture_limit" and equal.returns() == (0.5, 0.5)
    assert equal.result().reason == "100 plies without a capture, and material is equal (1 each)"
    # three Soldiers (3) against one General (3): more pieces, the same material: a draw
    three = {"A1": "O", "G8": "o", "D4": "S", "E4": "S", "F4": "S", "J5": "g"}
    state = load(three, since_capture=99, **MATERIAL)
    state.play("A1-B1")
    assert state.result().code == "no_capture_limit"
    # two Soldiers (2) against one Captain (2.5): fewer pieces, and Black still wins
    state = load({"A1": "O", "G8": "o", "D4": "S", "E4": "S", "J5": "c"}, since_capture=99, **MATERIAL)
    state.play("A1-B1")
    assert state.winners() == (1,) and state.result().reason.endswith("2.5 to 2")


def test_r7_4_1_the_overseer_and_barricades_count_nothing() -> None:
    state = load({"A1": "O", "G8": "o", "D4": "S", "J5": "s", "B4": "B", "C4": "B", "E6": "b"}, **MATERIAL)
    assert state.material() == (1.0, 1.0)
    assert boardlab.load("overseer").new_state(0).material() == (39.0, 39.0)  # rule 5.1's armies
    # White's extra Barricades do not make it ahead: drawn at the limit
    state = load({"A1": "O", "G8": "o", "D4": "S", "J5": "s", "B4": "B", "C4": "B"}, since_capture=99, **MATERIAL)
    state.play("A1-B1")
    assert state.result().code == "no_capture_limit"


def test_r7_4_1_a_capture_on_the_last_ply_resets_the_count_and_play_goes_on() -> None:
    # ply 100 is a capture: the count starts again (rule 7.4), so the limit is not reached,
    # although White is far ahead after it
    state = load({**WHITE_AHEAD, "D5": "s"}, since_capture=99, **MATERIAL)
    state.play("D4xD5")
    assert state.since_capture == 0 and not state.is_over()
    # and the side behind escapes the loss the same way: Black takes on its last ply
    state = load({**WHITE_AHEAD, "B4": "s"}, to_move="b", since_capture=99, **MATERIAL)
    assert state.material() == (3.5, 2.0)
    state.play("B4xC3")
    assert state.since_capture == 0 and not state.is_over()
    assert state.material() == (1.0, 2.0)


def test_r7_4_1_r7_6_a_repetition_on_the_limits_ply_is_still_a_draw() -> None:
    state = load(WHITE_AHEAD, since_capture=92, **MATERIAL)
    play_all(state, ROUND * 2)  # the 100th quiet ply is also the third occurrence (7.6: 7.3 first)
    assert state.since_capture == 100 and state.result().code == "repetition"
    # the same moves from further back: the limit comes first, and White wins it
    state = load(WHITE_AHEAD, since_capture=94, **MATERIAL)
    play_all(state, ROUND + ROUND[:2])
    assert state.result().code == "no_capture_material"


def test_r7_4_1_r10_4_a_loaded_position_at_the_limit_is_settled_on_material() -> None:
    assert load(WHITE_AHEAD, since_capture=100, **MATERIAL).winners() == (0,)
    assert load(WHITE_AHEAD, since_capture=100).result().code == "no_capture_limit"
    # 7.2 comes before 7.4: a lone Soldier ahead is drawn by the option extended_material_draw
    lone = {"A1": "O", "G8": "o", "D4": "S"}
    assert load(lone, since_capture=100, **MATERIAL).winners() == (0,)
    drawn = load(lone, since_capture=100, extended_material_draw=True, **MATERIAL)
    assert drawn.result().code == "insufficient_material"


def test_r11_the_option_refuses_bad_values_and_the_view_names_it() -> None:
    with pytest.raises(OptionError, match=r"no_capture_ending.*draw \| material"):
        boardlab.load("overseer", no_capture_ending="points")
    assert not boardlab.load("overseer").rules.no_capture_material
    state = load(WHITE_AHEAD, **MATERIAL)
    assert state.view(0)["board"]["no_capture_ending"] == "material"
    assert load(WHITE_AHEAD).view(1)["board"]["no_capture_ending"] == "draw"


def test_r7_4_1_records_round_trip_with_the_option() -> None:
    game = boardlab.load("overseer", no_capture_limit=6, **MATERIAL)
    state = game.state_from_position(
        "6o5/12/9s2/3S8/2C9/12/12/O11 w 0 1", seed=3
    )
    play_all(state, [*ROUND[:1], "G8-H8", "D5-D6", "H8-G8", "B1-A1", "G8-H8"])
    assert state.result().code == "no_capture_material"
    text = Record.for_state(state).dumps()
    record = Record.loads(text)
    assert record.options["no_capture_ending"] == "material"
    replayed = record.replay()
    assert replayed.result() == state.result() and replayed.position() == state.position()


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=60,leaf_eval=true,widen=1"])
def test_r7_4_1_the_agents_see_the_limit_decide(spec: str) -> None:
    # White, ahead, could win Black's Soldier on D5, which would start the count again; a
    # quiet move wins at once by the material ending. Without the option, taking is better.
    pieces = {**WHITE_AHEAD, "D5": "s"}
    state = load(pieces, since_capture=99, **MATERIAL)
    state.play(make_agent(spec, seed=1).choose(state))
    assert state.winners() == (0,)
    assert str(make_agent(spec, seed=1).choose(load(pieces, since_capture=99))) == "D4xD5"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), limit=st.integers(4, 30))
def test_r7_4_1_the_option_changes_only_the_result_of_games_ended_at_the_limit(seed: int, limit: int) -> None:
    # the same random moves under both endings: the same game, and the same result unless it
    # ended at the limit, where the side ahead by the count of 7.4.1 wins
    choose = random.Random(seed)
    ruled = boardlab.load("overseer", no_capture_limit=limit).new_state(0)
    option = boardlab.load("overseer", no_capture_limit=limit, **MATERIAL).new_state(0)
    while not ruled.is_over():
        move = choose.choice(ruled.legal_moves())
        ruled.play(move)
        option.play(str(move))
        assert option.is_over() == ruled.is_over()
    code = ruled.result().code
    if code != "no_capture_limit":
        assert option.result() == ruled.result()
        return
    white, black = option.material()
    expected = (1.0, 0.0) if white > black else (0.0, 1.0) if black > white else (0.5, 0.5)
    assert option.returns() == expected
    assert option.result().code == ("no_capture_limit" if white == black else "no_capture_material")
