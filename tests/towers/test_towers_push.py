"""The push (rules 5), with every quick tip and worked example of the designer's text."""

from __future__ import annotations

import pytest

from boardlab.core import IllegalMoveError
from tests.towers.helpers import cells, changed, load

# Black needs a legal move in every position below, or loading it would end the game
BLACK_SPARE = {"g1": "B"}


def push(squares: dict[str, str], move: str, to_move: str = "W") -> dict[str, str]:
    """Play ``move`` from the position and return the squares it changed."""
    state = load({**BLACK_SPARE, **squares}, to_move)
    before = cells(state)
    state.play(move)
    return changed(before, cells(state))


def test_r5_3_worked_example_five_onto_three_then_four() -> None:
    # c3 WWWWW, d3 BBB, e3 BBBB, f3 empty, pushed east (rules 5.3's example)
    assert push({"c3": "WWWWW", "d3": "BBB", "e3": "BBBB"}, "c3E") == {
        "c3": "WWW", "d3": "BBBW", "e3": "BBBBW",
    }


def test_r5_3_quick_tip_four_tall_onto_three_tall_moves_only_the_top_piece() -> None:
    # "if a tower is 4 tall and the next tower is 3 tall the top piece ... moves on top
    # of the 3 tall one and that's the entire push", even with empty squares beyond
    assert push({"a5": "WWWW", "b5": "BBB"}, "a5E") == {"a5": "WWW", "b5": "BBBW"}


def test_r5_3_only_original_pieces_move_the_landing_stack_stays() -> None:
    # the two Black pieces of b5 decide what is blocked but never move themselves: two
    # White pieces land on them, then the lowest of those stays and the top one drops on
    assert push({"a5": "WWWW", "b5": "BB"}, "a5E") == {"a5": "WW", "b5": "BBW", "c5": "W"}


def test_r5_3_pieces_falling_into_an_empty_row_spread_one_per_square() -> None:
    assert push({"a7": "WWWWW"}, "a7E") == {
        "a7": "W", "b7": "W", "c7": "W", "d7": "W", "e7": "W",
    }


def test_r5_8b_a_tower_never_travels_farther_than_its_height_minus_one() -> None:
    # 3 tall: it reaches at most 2 squares away, though the row is empty
    assert push({"a7": "WWW"}, "a7E") == {"a7": "W", "b7": "W", "c7": "W"}


def test_r5_8c_squares_passed_keep_the_lowest_pieces_and_the_pusher_tops_the_last() -> None:
    # White controls a5 (top piece W) over Black pieces; passed squares get the lower
    # pieces, whatever their colour, and the original top piece ends furthest away
    result = push({"a5": "BWBW"}, "a5E")
    assert result == {"a5": "B", "b5": "W", "c5": "B", "d5": "W"}


def test_r5_4_equal_height_blocks_every_piece() -> None:
    # "you cannot push onto a tower taller than the falling one": equal height blocks too
    state = load({**BLACK_SPARE, "c5": "WWW", "d5": "BBB"})
    with pytest.raises(IllegalMoveError, match=r"c5E: the push would move no piece: d5 is 3 tall"):
        state.play("c5E")


def test_r5_4_a_taller_stack_blocks_and_stops_the_push_midway() -> None:
    # 5 tall: 1 piece lands on the 4-tall b5 (base 4), then the 5-tall c5 blocks it
    assert push({"a5": "WWWWW", "b5": "BBBB", "c5": "BBBBB"}, "a5E") == {
        "a5": "WWWW", "b5": "BBBBW",
    }


def test_r5_4_a_five_tall_square_can_never_be_landed_on() -> None:
    state = load({**BLACK_SPARE, "a5": "WWWWW", "b5": "BBBBB"})
    with pytest.raises(IllegalMoveError, match="would move no piece"):
        state.play("a5E")


def test_r5_5_off_the_board_everything_is_blocked() -> None:
    state = load({**BLACK_SPARE, "a7": "WWW"})
    with pytest.raises(IllegalMoveError, match=r"a7N: the push would move no piece: the next square is off the board"):
        state.play("a7N")
    # pushed along the edge, pieces stop at the last file instead of leaving the board
    assert push({"e6": "WWWWW"}, "e6E") == {"e6": "W", "f6": "W", "g6": "WWW"}


def test_r5_6_one_tall_tower_cannot_be_pushed() -> None:
    state = load({**BLACK_SPARE, "c5": "W"})
    with pytest.raises(IllegalMoveError, match="cannot push a tower only one piece tall"):
        state.play("c5E")
    assert all(str(m) in ("c5+",) for m in state.legal_moves())


def test_r5_6_at_least_one_piece_must_move() -> None:
    state = load({**BLACK_SPARE, "c5": "WW", "d5": "BB", "c6": "BBB", "b5": "WWWW", "c4": "WWW"})
    legal = {str(m) for m in state.legal_moves()}
    # c5 (2 tall) can only go towards lower squares: not E (2), N (3), W (4) or S (3)
    assert not {"c5E", "c5N", "c5W", "c5S"} & legal


def test_r5_2_r5_7_a_push_is_one_square_and_direction_and_goes_as_far_as_possible() -> None:
    # a shorter push would stop on b5 and keep d5 free; the rules do not allow it
    result = push({"a5": "WWW"}, "a5E")
    assert result == {"a5": "W", "b5": "W", "c5": "W"}
    state = load({**BLACK_SPARE, "a5": "WWW"})
    pushes = [m for m in state.legal_moves() if str(m).startswith("a5") and not str(m).endswith("+")]
    assert sorted(str(m) for m in pushes) == ["a5E", "a5N", "a5S"]


def test_r5_9_pushing_a_castle_leaves_its_green_piece() -> None:
    # d4 = castle + two White pieces, pushed east: the green piece stays, the White
    # pieces fall onto e4 and then onto the castle f4, which White thereby takes
    result = push({"d4": "CWW"}, "d4E")
    assert result == {"d4": "C", "e4": "W", "f4": "CW"}


def test_r5_9_a_castle_with_one_piece_on_it_is_two_tall_and_can_be_pushed() -> None:
    assert push({"d4": "CW"}, "d4S") == {"d4": "C", "d3": "W"}


def test_r5_10_dropping_and_level_pushes_set_the_no_progress_counter() -> None:
    state = load({**BLACK_SPARE, "a5": "WWW", "b5": "WW", "g7": "BBB", "f7": "BB"})
    state.play("a5E")  # the top piece moves from level 2 to level 2: nothing drops
    assert state.no_progress == 1
    state.play("g7W")
    assert state.no_progress == 2
    # b5 (3 tall) south: two pieces land level on the castle b4 (1 tall), then the top
    # one falls from level 2 to the empty b3: a dropping push
    state.play("b5S")
    assert state.no_progress == 0
    assert cells(state)["b3"] == "W" and cells(state)["b4"] == "CW"


def test_r4_1_quick_tip_building_changes_how_far_a_push_goes() -> None:
    # "building lets you change how far you go": 2 tall reaches one square, 3 tall two
    assert push({"a5": "WW"}, "a5E") == {"a5": "W", "b5": "W"}
    state = load({**BLACK_SPARE, "a5": "WW", "g7": "BB"})
    state.play("a5+")
    state.play("g7+")
    before = cells(state)
    state.play("a5E")
    assert changed(before, cells(state)) == {"a5": "W", "b5": "W", "c5": "W"}


def test_r4_1_quick_tip_nothing_is_built_above_five() -> None:
    state = load({**BLACK_SPARE, "a5": "WWWWW", "a1": "W"})
    with pytest.raises(IllegalMoveError, match=r"a5\+: a5 is already 5 tall \(rules 4.1\)"):
        state.play("a5+")


def test_r3_1_quick_tip_one_action_per_turn() -> None:
    state = load({**BLACK_SPARE, "a5": "WW"})
    state.play("a5+")
    assert state.current_player() == 1  # the build was White's whole turn
    with pytest.raises(IllegalMoveError, match="a5 is controlled by White, not Black"):
        state.play("a5E")


def test_r5_8b_quick_tip_a_piece_stays_on_every_square_the_push_falls_through() -> None:
    result = push({"a5": "WWWW", "c5": "B"}, "a5E")
    # b5 (empty) and c5 each keep one of the original pieces
    assert result == {"a5": "W", "b5": "W", "c5": "BW", "d5": "W"}
