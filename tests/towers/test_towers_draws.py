"""Draws and the length of a game (rules 8)."""

from __future__ import annotations

import boardlab
from boardlab.core import TERMINAL
from tests.towers.helpers import load

# two shuttling pairs: each push moves one piece level with the target, nothing drops
SHUTTLE = {"a1": "WWW", "b1": "WW", "g7": "BBB", "f7": "BB"}
ROUND = ["a1E", "g7W", "b1W", "f7E"]  # back to the same position after these four


def test_r8_1_third_occurrence_of_a_position_draws() -> None:
    state = load(SHUTTLE)
    start = state.position()
    for move in ROUND + ROUND[:3]:
        state.play(move)
        assert state.result() is None
    state.play(ROUND[3])  # the start position for the third time
    assert state.position() == start + " 8"  # same stacks and mover; the counter is not compared
    assert state.current_player() == TERMINAL
    assert state.result().reason == "threefold repetition"
    assert state.returns() == (0.5, 0.5)


def test_r8_1_repetition_counts_are_undone_and_copied_correctly() -> None:
    state = load(SHUTTLE)
    for move in ROUND * 2:
        state.play(move)
    assert state.is_over()
    state.undo()
    assert not state.is_over()
    clone = state.copy()
    # a different last move avoids the third occurrence; the draw is not remembered
    state.play("f7+")
    assert not state.is_over()
    state.undo()
    state.undo()
    state.play("b1+")  # White builds instead: progress, the old positions are gone
    for move in ("f7E", "b1+", "g7W", "a1+", "f7E"):
        state.play(move)
    assert not state.is_over()
    assert not state.is_over()
    clone.play(ROUND[3])
    assert clone.result().reason == "threefold repetition"


def test_r8_2_no_progress_limit_draws() -> None:
    state = load(SHUTTLE, counter=98)
    state.play("a1E")
    assert state.no_progress == 99 and not state.is_over()
    state.play("g7W")
    assert state.is_over()
    assert state.result().reason == "100 moves without a build or a dropping push"


def test_r8_2_builds_and_dropping_pushes_reset_the_counter() -> None:
    state = load({**SHUTTLE, "c5": "WW"}, counter=50)
    state.play("a1+")
    assert state.no_progress == 0
    state.play("g7W")
    assert state.no_progress == 1
    state.play("c5E")  # the top piece falls to the empty d5
    assert state.no_progress == 0


def test_r8_2_the_limit_is_an_option_and_four_players_default_to_200() -> None:
    assert boardlab.load("towers", players=4).rules.no_progress_limit == 200
    state = load(SHUTTLE, no_progress_limit=3)
    for move in ROUND[:3]:
        state.play(move)
    assert state.result().reason == "3 moves without a build or a dropping push"


def test_r8_3_the_optional_ply_cap_draws() -> None:
    game = boardlab.load("towers", ply_cap=3)
    state = game.new_state(seed=1)
    for move in ("b7+", "b1+", "b7+"):
        assert not state.is_over()
        state.play(move)
    assert state.result().reason == "the ply cap of 3 was reached"
    assert game.max_moves == 3


def test_r8_4_castle_win_comes_before_the_draw_rules() -> None:
    # the winning push is also the 100th move without progress: the win counts
    state = load({"b4": "CW", "d2": "CW", "d6": "CW", "g4": "WWW", "f4": "CB", "g1": "B"}, counter=99)
    state.play("g4W")  # one piece lands level on f4 (2 tall): no drop
    assert state.winners() == (0,)


def test_r8_5_max_moves_is_the_proven_bound() -> None:
    assert boardlab.load("towers").max_moves == 750 + 751 * 100
    assert boardlab.load("towers", players=4).max_moves == 1000 + 1001 * 200
    assert boardlab.load("towers", no_progress_limit=10).max_moves == 750 + 751 * 10
