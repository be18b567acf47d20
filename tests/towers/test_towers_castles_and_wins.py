"""Castles, crowns (rules 6), winning and whose turn it is (rules 7)."""

from __future__ import annotations

import pytest

from boardlab.core import TERMINAL, IllegalMoveError, PositionError
from tests.towers.helpers import cells, load

BLACK_SPARE = {"g1": "B"}
FOUR_PLAYER_SPARES = {"g7": "U", "g1": "R", "a1": "B"}


# --- rules 6: castles and crowns ------------------------------------------------------
def test_r6_1_cannot_build_on_a_castle_even_one_you_control() -> None:
    state = load({**BLACK_SPARE, "d4": "CW"})
    with pytest.raises(IllegalMoveError, match=r"d4\+: cannot build on a castle \(rules 4.1\)"):
        state.play("d4+")
    assert "d4+" not in {str(m) for m in state.legal_moves()}


def test_r6_2_a_castle_is_taken_by_falling_on_it() -> None:
    state = load({**BLACK_SPARE, "g4": "WW"})
    state.play("g4W")
    assert cells(state)["f4"] == "CW"
    assert state.view()["board"]["castle_counts"] == [1, 0]


def test_r6_2_pushing_your_castle_can_expose_another_colour() -> None:
    # two White pieces fall onto e4 (2 tall); Black's piece under them now tops d4
    state = load({**BLACK_SPARE, "d4": "CBWW", "e4": "BB"})
    state.play("d4E")
    after = cells(state)
    assert (after["d4"], after["e4"], after["f4"]) == ("CB", "BBW", "CW")
    assert state.view()["board"]["controllers"]["d4"] == 1


def test_r6_3_a_castle_five_tall_counting_the_green_piece_is_crowned() -> None:
    state = load({**BLACK_SPARE, "c4": "WWWWW", "d4": "CBBB"})
    assert state.view()["board"]["crowned"] == {}
    state.play("c4E")
    assert cells(state)["d4"] == "CBBBW"
    assert state.view()["board"]["crowned"] == {"d4": 0}
    assert state.view()["board"]["crown_counts"] == [1, 0]


def test_r6_4_a_push_passing_over_a_castle_never_crowns_it() -> None:
    # b4 is 5 tall for a moment (CBB + two White pieces) but the push goes on
    state = load({**BLACK_SPARE, "a4": "WWWWW", "b4": "CBB"})
    state.play("a4E")
    assert cells(state)["b4"] == "CBBW"
    assert cells(state)["c4"] == "W"
    assert state.view()["board"]["crowned"] == {}


def test_r6_5_a_crowned_castle_cannot_be_landed_on_nor_pushed_by_others() -> None:
    state = load({"d4": "CBBBW", "d5": "BBBBB", "g1": "B", "a1": "W"}, to_move="B")
    with pytest.raises(IllegalMoveError, match="would move no piece"):
        state.play("d5S")
    with pytest.raises(IllegalMoveError, match="d4 is controlled by White, not Black"):
        state.play("d4N")


def test_r6_5_the_owner_pushing_his_crowned_castle_loses_the_crown() -> None:
    state = load({**BLACK_SPARE, "d4": "CBBBW"})
    assert state.view()["board"]["crowned"] == {"d4": 0}
    state.play("d4W")
    after = cells(state)
    assert (after["d4"], after["c4"], after["b4"], after["a4"]) == ("C", "B", "CB", "BW")
    assert state.view()["board"]["crowned"] == {}
    assert "d4" not in state.view()["board"]["controllers"]  # a bare castle: nobody controls it


# --- rules 7: winning ------------------------------------------------------------------
def test_r7_1_four_castles_win_a_two_player_game() -> None:
    state = load({**BLACK_SPARE, "b4": "CW", "d2": "CW", "d6": "CW", "g4": "WW"})
    assert state.result() is None
    state.play("g4W")
    assert state.current_player() == TERMINAL
    assert state.winners() == (0,)
    assert state.result().reason == "White controls 4 castles"


def test_r7_1_three_crowned_castles_win_with_only_three_castles() -> None:
    state = load({**BLACK_SPARE, "b4": "CWWWW", "d2": "CWWWW", "d6": "CBBB", "c6": "WWWWW"})
    state.play("c6E")
    assert state.winners() == (0,)
    assert state.result().reason == "White controls 3 crowned castles"


def test_r7_2_three_castles_win_a_four_player_game() -> None:
    state = load({**FOUR_PLAYER_SPARES, "b4": "CW", "d2": "CW", "c6": "WW"}, players=4)
    state.play("c6E")
    assert state.winners() == (0,)
    assert state.returns() == (1.0, 0.0, 0.0, 0.0)


def test_r7_2_two_crowns_win_a_four_player_game() -> None:
    state = load({**FOUR_PLAYER_SPARES, "b4": "CWWWW", "d6": "CUUU", "c6": "WWWWW"}, players=4)
    state.play("c6E")
    assert state.winners() == (0,)
    assert "2 crowned castles" in state.result().reason


def test_r7_3_an_opponent_can_win_on_your_move() -> None:
    # Black holds 3 castles; White's push leaves a Black piece on top of f4
    state = load({**BLACK_SPARE, "b4": "CB", "d2": "CB", "d6": "CB", "g4": "BBW"})
    state.play("g4W")
    assert cells(state)["f4"] == "CB"
    assert state.winners() == (1,)
    assert state.result().reason == "Black controls 4 castles"


def test_r7_4_tie_goes_to_the_mover() -> None:
    # White's push from d3 leaves Blue on top of d4 (Blue's 3rd castle) and crowns d6
    # for White (White's 2nd crown): both meet a condition, the mover wins
    squares = {
        **FOUR_PLAYER_SPARES, "b4": "CWWWW", "d2": "CU", "f4": "CU",
        "d3": "UUUUW", "d5": "RRR", "d6": "CRRR",
    }
    state = load(squares, players=4)
    state.play("d3N")
    after = cells(state)
    assert after["d4"] == "CUU" and after["d6"] == "CRRRW"
    view = state.view()["board"]
    assert view["castle_counts"][1] == 3 and view["crown_counts"][0] == 2
    assert state.winners() == (0,)


def test_r7_5_two_players_a_player_who_cannot_move_loses() -> None:
    # Black's only stack is c5; White's push covers it
    state = load({"c5": "B", "b5": "WW"})
    state.play("b5E")
    assert state.winners() == (0,)
    assert state.result().reason == "Black cannot move"


def test_r7_5_checked_only_when_the_turn_passes() -> None:
    # Black cannot move in this position, but it is White's turn: nothing is decided yet
    state = load({"c5": "BW", "a1": "W"})
    assert state.result() is None and state.current_player() == 0


def test_r7_6_four_players_a_stuck_player_is_skipped_not_eliminated() -> None:
    squares = {"c5": "U", "b5": "WW", "g3": "UUR", "a1": "BB"}
    state = load(squares, players=4)
    state.play("b5E")  # covers Blue's only piece
    assert state.current_player() == 2  # Blue skipped: Red moves
    state.play("g3W")  # leaves Blue pieces on top of g3 and f3
    assert state.current_player() == 3
    state.play("a1+")
    assert state.current_player() == 0
    state.play("b5+")
    assert state.current_player() == 1  # Blue moves again
    assert "g3+" in {str(m) for m in state.legal_moves()}


def test_r7_7_four_players_nobody_else_can_move_the_mover_wins() -> None:
    # Red and Black pieces are all buried; Blue's only piece gets covered
    state = load({"c5": "U", "b5": "WW", "e5": "RW", "e6": "BW"}, players=4)
    state.play("b5E")
    assert state.winners() == (0,)
    assert state.result().reason == "none of the opponents can move"


def test_r10_4_a_four_player_position_whose_mover_would_have_been_skipped_is_refused() -> None:
    with pytest.raises(PositionError, match="Blue is to move but cannot move"):
        load({"c5": "UW", "a1": "W", "g1": "R", "a7": "B"}, to_move="U", players=4)


def test_r10_4_a_loaded_two_player_position_whose_mover_cannot_move_is_lost() -> None:
    state = load({"c5": "BW", "a1": "W"}, to_move="B")
    assert state.winners() == (0,)
