"""Notation (rules 9) and the position string (rules 10)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import IllegalMoveError, NotationError, PositionError
from boardlab.games.towers import SQUARE_BY_NAME, Build, Push
from tests.towers.helpers import load, position_text

START_2P = "-,WW,-,-,-,BB,-/WW,-,-,C,-,-,BB/-,-,-,-,-,-,-/-,C,-,C,-,C,-/-,-,-,-,-,-,-/BB,-,-,C,-,-,WW/-,BB,-,-,-,WW,- W"
START_4P = "-,WW,-,-,-,UU,-/WW,-,-,C,-,-,UU/-,-,-,-,-,-,-/-,C,-,C,-,C,-/-,-,-,-,-,-,-/BB,-,-,C,-,-,RR/-,BB,-,-,-,RR,- W"


def test_r9_2_r9_3_notation_of_builds_and_pushes() -> None:
    assert str(Build(SQUARE_BY_NAME["b7"])) == "b7+"
    assert str(Push(SQUARE_BY_NAME["b7"], "S")) == "b7S"
    assert repr(Push(SQUARE_BY_NAME["b7"], "S")) == "Push(b7, S)"


def test_r9_notation_round_trips_for_every_legal_move_along_random_games() -> None:
    rng = random.Random(3)
    for players in (2, 4):
        state = boardlab.load("towers", players=players).new_state(seed=1)
        for _ in range(120):
            if state.is_over():
                break
            for move in state.legal_moves():
                assert state.parse_move(str(move)) is move  # shared move objects
            state.apply(rng.choice(state.legal_moves()))


def test_r9_4_annotation_suffixes_are_ignored_and_case_does_not_matter() -> None:
    state = boardlab.load("towers").new_state(seed=1)
    assert str(state.parse_move("b7+*^#")) == "b7+"
    assert str(state.parse_move("B7s")) == "b7S"
    assert str(state.parse_move(" a6E# ")) == "a6E"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("z9", "z9: no such square"),
        ("h1+", "h1: no such square"),
        ("a8S", "a8: no such square"),
        ("b7X", "expected '+' (build) or one of N, E, S, W"),
        ("b7", "expected '+' (build) or one of N, E, S, W"),
        ("+", "not Towers notation"),
        ("77+", "not Towers notation"),
    ],
)
def test_r9_4_malformed_text_is_a_notation_error(text: str, message: str) -> None:
    state = boardlab.load("towers").new_state(seed=1)
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        state.parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("b7N", "b7N: the push would move no piece: the next square is off the board (rules 5.5, 5.6)"),
        ("d4+", "d4+: cannot build on a castle (rules 4.1)"),
        ("d4E", "d4E: the castle on d4 is bare and controlled by nobody (rules 1.5, 5.1)"),
        ("c3+", "c3+: c3 is empty; you may only build on a stack you control (rules 4.1)"),
        ("a2N", "a2N: a2 is controlled by Black, not White (rules 5.1)"),
    ],
)
def test_r9_4_illegal_moves_name_the_rule(text: str, message: str) -> None:
    state = boardlab.load("towers").new_state(seed=1)
    with pytest.raises(IllegalMoveError) as caught:
        state.play(text)
    assert str(caught.value) == message
    assert state.ply == 0 and state.position() == START_2P  # nothing changed


def test_r4_1_building_needs_a_piece_in_reserve() -> None:
    # 75 White pieces on the board: none left to build with
    squares = {f"{f}{r}": "WWWWW" for f in "aceg" for r in (1, 3, 5, 7)}
    squares["g1"] = "B"
    squares["a1"] = "WWWW"
    squares["e2"] = "W"  # 14 x 5 + 4 + 1 = 75
    state = load(squares)
    assert state.view()["board"]["reserves"][0] == 0
    with pytest.raises(IllegalMoveError, match="White has no pieces left in reserve"):
        state.play("a1+")


def test_r10_1_start_positions_are_exactly_the_documented_strings() -> None:
    assert boardlab.load("towers").new_state(seed=1).position() == START_2P
    assert boardlab.load("towers", players=4).new_state(seed=1).position() == START_4P


def test_r10_position_round_trips_along_random_games() -> None:
    rng = random.Random(5)
    for players in (2, 4):
        game = boardlab.load("towers", players=players)
        state = game.new_state(seed=2)
        while not state.is_over() and state.ply < 300:
            state.apply(rng.choice(state.legal_moves()))
            text = state.position()
            again = game.state_from_position(text)
            assert again.position() == text
            assert again.zobrist == state.zobrist
            assert again.control == state.control and again.reserves == state.reserves


def test_r10_2_the_counter_field_is_optional() -> None:
    game = boardlab.load("towers")
    assert game.state_from_position(START_2P).no_progress == 0
    state = game.state_from_position(START_2P + " 17")
    assert state.no_progress == 17 and state.position() == START_2P + " 17"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (START_2P.replace(" W", ""), "expected the board, the seat to move"),
        (START_2P + " 3 4", "got 4 fields"),
        (START_2P.replace("/", "|", 1), "expected 7 ranks"),
        (START_2P.replace("-,WW,-,-,-,BB,-/", "-,WW,-,-,-,BB/", 1), "rank 7 has 6 squares"),
        (START_2P.replace("-,WW", "X,WW", 1), "square a7 has token 'X'"),
        (START_2P.replace("-,WW", "R,WW", 1), "square a7 has token 'R'; a 2-player position uses W, B and C"),
        (START_2P.replace("-,WW", ",WW", 1), "square a7 is blank"),
        (START_2P.replace("-,WW", "WWWWWW,WW", 1), "square a7 holds 6 pieces, at most 5"),
        (START_2P.replace("-,WW", "WC,WW", 1), "square a7 has a castle piece at level 1"),
        (START_2P.replace("-,WW", "C,WW", 1), "6 castles on the board, the game has 5"),
        (START_2P.replace(" W", " U"), "seat to move 'U' is not one of W, B in a 2-player game"),
        (START_2P + " x", "counter 'x' is not a whole number"),
        (START_2P + " 101", "counter 101 exceeds the limit 100"),
    ],
)
def test_r10_3_malformed_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        boardlab.load("towers").state_from_position(text)


def test_r10_3_no_colour_may_exceed_its_supply() -> None:
    squares = {f"{f}{r}": "BBBBB" for f in "abcdefg" for r in (1, 3, 5, 7)}  # 140 Black pieces
    with pytest.raises(PositionError, match="140 B pieces on the board, more than the supply of 75"):
        boardlab.load("towers").state_from_position(position_text(squares))


def test_r10_1_four_player_letters() -> None:
    game = boardlab.load("towers", players=4)
    state = game.state_from_position(START_4P.replace(" W", " R"))
    assert state.current_player() == 2
    assert game.player_name(1) == "Blue"
