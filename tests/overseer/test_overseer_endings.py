"""The end of the game (rules 7) and finished positions read from a string (rule 10.4)."""

from __future__ import annotations

import boardlab
from boardlab.core import TERMINAL
from tests.overseer.helpers import load, play_all, position_text


# --- 7.1 win ------------------------------------------------------------------------
def test_r7_1_capturing_the_overseer_wins_at_once() -> None:
    state = load({"D4": "O", "E5": "o", "A1": "M", "H8": "m"})
    state.play("D4xE5")
    assert state.current_player() == TERMINAL and state.legal_moves() == []
    result = state.result()
    assert result.code == "overseer_captured" and result.winners == (0,) and state.returns() == (1.0, 0.0)
    assert result.reason == "White captured Black's Overseer on E5"
    assert state.position() == position_text({"E5": "O", "A1": "M", "H8": "m"}, "b", 0, 1)


def test_r7_1_the_win_comes_first_even_when_only_overseers_and_barricades_are_left() -> None:
    # the captured Overseer was Black's last piece but its Barricade: a win, not a draw (7.6)
    state = load({"D4": "O", "E5": "o", "A1": "b"})
    assert not state.is_over()  # adjacent Overseers: play goes on (7.2)
    state.play("D4xE5")
    assert state.result().code == "overseer_captured"


# --- 7.2 insufficient material --------------------------------------------------------
def test_r7_2_only_overseers_and_barricades_far_apart_is_a_draw_at_once() -> None:
    state = load({"A1": "O", "G8": "o", "B2": "B", "H7": "b"})
    assert state.is_over()
    assert state.result().code == "insufficient_material" and state.returns() == (0.5, 0.5)


def test_r7_2_adjacent_overseers_play_on_and_the_side_to_move_can_win() -> None:
    state = load({"A1": "O", "L2": "o", "B2": "B"}, to_move="b")  # next to each other across the seam
    assert not state.is_over()
    assert "L2xA1" in {str(m) for m in state.legal_moves()}
    state.play("L2-K3")  # Black walks away instead: now they are apart, and it is a draw
    assert state.result().code == "insufficient_material"


def test_r7_2_capturing_the_last_other_piece_draws_unless_the_overseers_touch() -> None:
    far = load({"D4": "O", "E5": "s", "H7": "o", "A1": "B"})
    far.play("D4xE5")
    assert far.result().code == "insufficient_material"
    near = load({"D4": "O", "E5": "s", "F6": "o", "A1": "B"})
    near.play("D4xE5")  # the Overseers now stand side by side: Black may capture
    assert not near.is_over()
    near.play("F6xE5")
    assert near.winners() == (1,)


def test_r7_2_one_minor_piece_plays_on_unless_the_option_draws_it() -> None:
    pieces = {"A1": "O", "G5": "o", "D4": "S"}
    assert not load(pieces).is_over()
    assert load(pieces, extended_material_draw=True).result().code == "insufficient_material"
    for minor in "CGP":
        assert load({**pieces, "D4": minor}, extended_material_draw=True).is_over()
    # a Commander wins that ending, and two pieces are more than one minor piece
    assert not load({**pieces, "D4": "M"}, extended_material_draw=True).is_over()
    assert not load({**pieces, "D5": "S"}, extended_material_draw=True).is_over()
    # Black's lone Soldier is the same ending
    assert load({"A1": "O", "G5": "o", "D4": "s"}, extended_material_draw=True).is_over()
    # with the extension too, a side to move that can capture the Overseer plays on
    assert not load({"A1": "O", "B2": "o", "D4": "S"}, extended_material_draw=True).is_over()


# --- 7.3 repetition -------------------------------------------------------------------
SHUTTLE = {"A1": "O", "G8": "o", "D4": "S", "J5": "s"}
ROUND = ["A1-B1", "G8-H8", "B1-A1", "H8-G8"]


def test_r7_3_the_third_occurrence_draws_and_the_start_counts() -> None:
    state = load(SHUTTLE)
    play_all(state, ROUND + ROUND[:3])
    assert not state.is_over()  # the start position has come twice
    state.play(ROUND[3])  # and now a third time
    assert state.result().code == "repetition" and state.returns() == (0.5, 0.5)
    assert state.ply == 8


def test_r7_3_a_position_other_than_the_start_repeats_too() -> None:
    state = load(SHUTTLE)
    state.play("D4-D5")  # not a capture: the run goes on, the start will not come back
    play_all(state, ["G8-H8", "A1-B1", "H8-G8", "B1-A1", "G8-H8", "A1-B1", "H8-G8"])
    assert not state.is_over()  # after D4-D5 the position with Black to move came twice
    state.play("B1-A1")
    assert state.result().code == "repetition"


def test_r7_3_undo_and_copies_keep_their_own_count() -> None:
    state = load(SHUTTLE)
    play_all(state, ROUND + ROUND[:3])
    clone = state.copy()
    state.play(ROUND[3])
    assert state.is_over()
    state.undo()
    assert not state.is_over()
    state.play("H8-H7")  # another move avoids the third time
    assert not state.is_over()
    assert not clone.is_over()
    clone.play(ROUND[3])  # the copy still counts two earlier occurrences
    assert clone.result().code == "repetition"


def test_r7_3_after_a_capture_the_count_starts_again() -> None:
    state = load({"A1": "O", "G8": "o", "D4": "S", "J5": "s", "D7": "s"})
    play_all(state, ROUND + ROUND[:3])
    state.play("D7-D6")  # Black plays elsewhere
    state.play("D4-D5")
    state.play("D6xD5")  # a capture: every earlier position is forgotten
    assert state.since_capture == 0
    play_all(state, ["A1-B1", "H8-G8", "B1-A1", "G8-H8", "A1-B1", "H8-G8", "B1-A1"])
    assert not state.is_over()
    state.play("G8-H8")  # the third time since the capture
    assert state.result().code == "repetition"


# --- 7.4 the no-capture limit ---------------------------------------------------------------
def test_r7_4_a_hundred_plies_without_a_capture_draw() -> None:
    state = load(SHUTTLE, since_capture=98)
    state.play("D4-D5")
    assert state.since_capture == 99 and not state.is_over()
    state.play("J5-J4")
    assert state.result().code == "no_capture_limit"
    assert state.result().reason == "100 plies without a capture"


def test_r7_4_a_capture_resets_the_count_and_the_limit_is_an_option() -> None:
    state = load({**SHUTTLE, "D5": "s"}, since_capture=99)
    state.play("D4xD5")
    assert state.since_capture == 0 and not state.is_over()
    state = load(SHUTTLE, no_capture_limit=3)
    play_all(state, ROUND[:3])
    assert state.result().code == "no_capture_limit"


def test_r7_6_repetition_comes_before_the_no_capture_limit() -> None:
    state = load(SHUTTLE, since_capture=92)
    play_all(state, ROUND * 2)  # the 100th quiet ply is also the third occurrence
    assert state.since_capture == 100
    assert state.result().code == "repetition"


# --- 7.5 no legal move ---------------------------------------------------------------------
WALLED = {"A1": "O", "L1": "b", "B1": "b", "L2": "b", "A2": "b", "B2": "b", "G8": "o", "G5": "s"}


def test_r7_5_a_player_without_a_legal_move_draws() -> None:
    state = load(WALLED)
    assert state.result().code == "no_moves" and state.returns() == (0.5, 0.5)
    assert state.result().reason == "White has no legal move"


def test_r7_5_with_the_option_he_loses_and_it_can_happen_after_a_move() -> None:
    assert load(WALLED, no_moves="loss").winners() == (1,)
    open_wall = {**{k: v for k, v in WALLED.items() if k != "B2"}, "C3": "b"}
    state = load(open_wall, to_move="b", no_moves="loss")
    state.play("C3-C2")  # not yet: B2 is still free
    assert not state.is_over()
    state.play("A1-B2")
    state.play("G5-G4")
    state.play("B2-A1")
    state.play("C2-B2")  # the wall is closed
    assert state.result().code == "no_moves" and state.winners() == (1,)


def test_r7_2_r7_6_insufficient_material_comes_before_no_legal_move() -> None:
    walled_bare = {key: value for key, value in WALLED.items() if key != "G5"}
    assert load(walled_bare).result().code == "insufficient_material"


# --- 7.7 the bound, 10.4 finished positions --------------------------------------------------
def test_r7_7_max_moves_is_the_proven_bound() -> None:
    assert boardlab.load("overseer").max_moves == 95 * 101
    assert boardlab.load("overseer", no_capture_limit=10).max_moves == 95 * 11


def test_r10_4_a_position_without_the_movers_overseer_is_a_finished_win() -> None:
    state = load({"E5": "O", "A1": "M", "H8": "m"}, to_move="b")
    assert state.is_over() and state.winners() == (0,) and state.result().code == "overseer_captured"
    state = load({"A1": "O", "G8": "o", "D4": "S", "J5": "s"}, since_capture=100)
    assert state.result().code == "no_capture_limit"


def test_r7_3_position_key_is_the_position_without_its_counters() -> None:
    # the lab's repetition statistics compare position_key(): cheap, blind to the move counters
    state = load({"A1": "O", "G8": "o", "D4": "M", "H5": "m"})
    start_key = state.position_key()
    assert isinstance(start_key, int)
    play_all(state, ["D4-D5", "H5-H6", "D5-D4", "H6-H5"])
    assert state.position_key() == start_key and state.position() != position_text(
        {"A1": "O", "G8": "o", "D4": "M", "H5": "m"}
    )
    state.play("D4-D5")
    assert state.position_key() != start_key  # other pieces' squares, the other side to move
    state.undo()
    assert state.position_key() == start_key
    black = load({"A1": "O", "G8": "o", "D4": "M", "H5": "m"}, to_move="b")
    assert black.position_key() != start_key
