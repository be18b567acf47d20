"""Setup, supply, building and notation basics (rules 1.3, 1.6, 2.1, 2.3, 4.2, 5.1, 5.7, 9.1, 9.3)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import IllegalMoveError, NotationError
from tests.towers.helpers import DEFAULT_CASTLES, cells, changed, load

LAYOUTS = [(2, "diagram"), (2, "split_sides"), (2, "pinwheel"), (4, "diagram"), (4, "four_each"), (4, "blocks")]


@pytest.mark.parametrize(("players", "layout"), LAYOUTS)
def test_r2_1_every_layout_has_the_five_castles_of_the_plus(players: int, layout: str) -> None:
    state = boardlab.load("towers", players=players, layout=layout).new_state(seed=0)
    board = cells(state)
    assert sorted(state.view()["board"]["castles"]) == sorted(DEFAULT_CASTLES)
    assert all(board[square] == "C" for square in DEFAULT_CASTLES)


def test_r2_3_four_players_each_hold_one_corner_with_two_towers() -> None:
    state = boardlab.load("towers", players=4).new_state(seed=0)
    towers = {square: stack for square, stack in cells(state).items() if stack != "C"}
    assert towers == {
        "a6": "WW", "b7": "WW", "f7": "UU", "g6": "UU", "f1": "RR", "g2": "RR", "a2": "BB", "b1": "BB",
    }


@pytest.mark.parametrize(("players", "reserve"), [(2, 67), (4, 46)])
def test_r1_3_setup_pieces_come_out_of_the_supply(players: int, reserve: int) -> None:
    # 75 (2P) or 50 (4P) per colour, the setup towers included: 75 - 8 and 50 - 4.
    state = boardlab.load("towers", players=players).new_state(seed=0)
    assert state.view()["board"]["reserves"] == [reserve] * players


def test_r1_3_a_build_uses_one_reserve_piece_and_a_push_none() -> None:
    state = boardlab.load("towers").new_state(seed=0)
    state.play("b7+")
    assert state.view()["board"]["reserves"] == [66, 67]
    state.play("g6W")
    assert state.view()["board"]["reserves"] == [66, 67]


def test_r1_6_castle_pieces_stay_at_the_bottom_of_the_same_squares_through_a_game() -> None:
    state = boardlab.load("towers").new_state(seed=0)
    rng = random.Random(4)
    for _ in range(150):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_moves()))
        board = cells(state)
        assert all(board[square].startswith("C") for square in DEFAULT_CASTLES)
        assert sum(stack.count("C") for stack in board.values()) == 5


def test_r4_2_a_build_puts_one_piece_of_the_builders_colour_on_top() -> None:
    # Black builds on his tower that has a White piece underneath: only the top matters.
    state = load({"c3": "WB", "e5": "WW"}, to_move="B")
    before = cells(state)
    state.play("c3+")
    assert changed(before, cells(state)) == {"c3": "WBB"}


def test_r5_1_a_single_piece_cannot_be_pushed_but_a_castle_with_one_piece_on_it_can() -> None:
    state = load({"c3": "W", "b4": "CW", "e5": "BB"})
    with pytest.raises(IllegalMoveError, match="c3E"):
        state.play("c3E")
    before = cells(state)
    state.play("b4E")
    assert changed(before, cells(state)) == {"b4": "C", "c4": "W"}


def test_r5_7_a_push_goes_as_far_as_it_can_even_when_stopping_short_would_be_better() -> None:
    # A 5-tall tower pushed along an empty rank spreads over four more squares, one piece
    # left in each; the push cannot be cut short to keep the tower together.
    state = load({"a3": "WWWWW", "g7": "BB"})
    before = cells(state)
    state.play("a3E")
    assert changed(before, cells(state)) == {"a3": "W", "b3": "W", "c3": "W", "d3": "W", "e3": "W"}


@pytest.mark.parametrize("text", ["h1+", "a0+", "a8S", "11+", "b7X"])
def test_r9_1_squares_outside_a1_to_g7_are_not_notation(text: str) -> None:
    state = boardlab.load("towers").new_state(seed=0)
    with pytest.raises(NotationError):
        state.play(text)


@pytest.mark.parametrize(("text", "target"), [("f1N", "f2"), ("g2W", "f2"), ("g2S", "g1"), ("f1E", "g1")])
def test_r9_3_push_letters_name_the_compass_direction(text: str, target: str) -> None:
    # N is towards rank 7, E towards file g (rule 1.1).
    state = boardlab.load("towers").new_state(seed=0)
    before = cells(state)
    state.play(text)
    assert changed(before, cells(state))[target] == "W"
