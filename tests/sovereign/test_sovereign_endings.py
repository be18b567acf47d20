"""How games end: the draws of rule 1.11 and the order of checks of rule 6
(docs/rules/sovereign.md)."""

from __future__ import annotations

import boardlab
from boardlab.core import TERMINAL
from tests.sovereign.helpers import load, spn

SHUTTLE = "a1:0S g7:0s"
ROUND = ["Sa1-b1", "Sg7-f7", "Sb1-a1", "Sf7-g7"]  # back to the start after these four
# empty supply (10 lower, 2 top, all on the board): Contractors are frozen (rule 1.6.3)
EMPTY_SUPPLY = "e5:3 f5:3 e6:2 f6:2 g5:2"


def test_r1_11_3_the_third_occurrence_of_a_position_draws() -> None:
    state = load(SHUTTLE)
    start = state.position()
    for move in ROUND + ROUND[:3]:
        state.play(move)
        assert not state.is_over()
    state.play(ROUND[3])
    result = state.result()
    assert result is not None and result.code == "repetition" and result.returns == (0.5, 0.5)
    assert state.position() == start.replace(" 0", " 8") + " repetition"  # rule 5.4.6


def test_r1_11_3_a_draw_by_repetition_is_undone_and_reloads_from_its_position() -> None:
    state = load(SHUTTLE)
    for move in ROUND * 2:
        state.play(move)
    reloaded = state.game.state_from_position(state.position())
    assert reloaded.current_player() == TERMINAL and reloaded.result().code == "repetition"
    state.undo()
    assert state.current_player() == 1
    state.play("Sf7-e7")  # another move: no third occurrence
    assert not state.is_over()


def test_r1_11_3_the_position_a_capture_reaches_counts_as_its_first_occurrence() -> None:
    # positions before a capture can never come back, so the engine forgets them; the one the
    # capture reaches is the first of the new run and comes back for the third time 8 plies later
    state = load("a1:0S g7:0s e4:0C d6:0b", to_move=2)
    state.play("Sg7-g6")
    state.play("Ce4xd6")
    after_capture = state.position()
    for move in ["Sg6-g7", "Sa1-b1", "Sg7-g6", "Sb1-a1"] * 2:
        assert not state.is_over()
        state.play(move)
    assert state.result().code == "repetition"
    assert state.position().split()[:3] == after_capture.split()[:3]


def test_r1_11_4_two_hundred_plies_of_play_draw() -> None:
    state = load(SHUTTLE, ply=198)
    state.play("Sa1-a2")
    assert not state.is_over()
    state.play("Sg7-g6")
    result = state.result()
    assert result.code == "move_limit" and state.position().endswith(" 200 move_limit")
    assert state.game.state_from_position(state.position()).result().code == "move_limit"


def test_r6_a_win_on_the_last_ply_is_a_win() -> None:
    state = load("d5:2S d6:3 g1:0s", ply=199)
    state.play("Sd5-d6")
    assert state.result().code == "objective"


def test_r6_repetition_is_checked_before_the_move_limit() -> None:
    state = load(SHUTTLE, ply=192)
    for move in ROUND * 2:
        state.play(move)
    assert state.result().code == "repetition"


def test_r1_11_1_a_threatened_sovereign_without_a_move_draws() -> None:
    # P2's Consultant jumps to b3 and attacks a1, where P1's Sovereign is boxed in by its own pieces
    state = load("a1:0S a2:0B b1:0B d4:0c g7:0s", to_move=2)
    state.play("Cd4-b3")
    result = state.result()
    assert result is not None and result.code == "sovereign_stalemate" and result.is_draw


def test_r1_11_1_a_boxed_in_sovereign_that_is_not_threatened_plays_on() -> None:
    state = load("a1:0S a2:0B b1:0B d4:0c g7:0s", to_move=2)
    state.play("Cd4-c6")
    assert not state.is_over() and state.legal_moves()  # the Contractors can still move


def test_r1_11_2_no_legal_move_at_all_draws() -> None:
    state = load(f"a1:0S a2:0B b1:0B {EMPTY_SUPPLY} g7:0s", supply_lower=10, supply_top=2)
    result = state.result()
    assert result is not None and result.code == "no_moves" and result.is_draw
    assert state.legal_moves() == []


def test_r5_4_a_position_without_its_ending_is_settled_when_loaded() -> None:
    text = spn("a1:0S a2:0B b1:0B b3:0c g7:0s")
    state = boardlab.load("sovereign").state_from_position(text)
    assert state.result().code == "sovereign_stalemate"
    assert state.position() == text + " sovereign_stalemate"


def test_r5_4_6_a_position_written_with_the_former_ending_code_reads_as_no_moves() -> None:
    game = boardlab.load("sovereign", supply_lower=10, supply_top=2)
    text = load(f"a1:0S a2:0B b1:0B {EMPTY_SUPPLY} g7:0s", supply_lower=10, supply_top=2).position()
    assert text.endswith(" no_moves")
    old_text = text.removesuffix(" no_moves") + " no_legal_move"
    assert game.state_from_position(old_text).position() == text


def test_r1_11_3_position_key_is_the_position_without_its_ply_count() -> None:
    # the lab's repetition statistics compare position_key(): cheap, and blind to the ply count
    state = load(SHUTTLE)
    start_key = state.position_key()
    assert isinstance(start_key, int)
    keys = []
    for move in ROUND:
        state.play(move)
        keys.append(state.position_key())
    assert keys[-1] == start_key and len(set(keys)) == 4  # back at the start, ply 4 instead of 0
    state.play("Sa1-b1")
    assert state.position_key() == keys[0] and state.position() != load(SHUTTLE).position()
    state.undo()
    assert state.position_key() == start_key
