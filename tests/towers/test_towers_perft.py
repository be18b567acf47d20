"""Move generation against the plain reference model (tests/towers/reference.py): perft
counts from the start positions and a move-by-move comparison along random games."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.testing import perft
from tests.towers import reference

LETTERS = {2: "WB", 4: "WURB"}


@pytest.mark.parametrize(
    ("players", "counts"),
    [(2, [16, 256, 3712]), (4, [8, 64, 512])],
)
def test_r2_perft_from_the_default_start_matches_the_reference(players: int, counts: list[int]) -> None:
    state = boardlab.load("towers", players=players).new_state(seed=1)
    board, _ = reference.parse_board(state.position())
    for depth, expected in enumerate(counts, 1):
        assert reference.perft(board, LETTERS[players], 0, depth) == expected
        assert perft(state, depth) == expected
    assert state.ply == 0  # undo brought everything back


def test_r2_perft_depth_four_of_the_two_player_start() -> None:
    # 53,824 was computed once with the reference model (about 5 s there)
    state = boardlab.load("towers").new_state(seed=1)
    assert perft(state, 4) == 53_824


@pytest.mark.parametrize("layout", ["pinwheel", "split_sides"])
def test_r2_4_perft_of_the_other_layouts_matches_the_reference(layout: str) -> None:
    state = boardlab.load("towers", layout=layout).new_state(seed=1)
    board, _ = reference.parse_board(state.position())
    assert perft(state, 3) == reference.perft(board, "WB", 0, 3)


@pytest.mark.parametrize(("players", "layout"), [(2, "diagram"), (2, "pinwheel"), (4, "diagram"), (4, "blocks")])
def test_r5_every_move_along_random_games_matches_the_reference(players: int, layout: str) -> None:
    rng = random.Random(players * 100 + len(layout))
    game = boardlab.load("towers", players=players, layout=layout)
    letters = LETTERS[players]
    checked = 0
    for seed in range(2):
        state = game.new_state(seed)
        while not state.is_over() and state.ply < 150:
            if state.ply % 4:  # compare every fourth position, to keep the test quick
                state.apply(rng.choice(state.legal_moves()))
                continue
            board, letter = reference.parse_board(state.position())
            seat = letters.index(letter)
            expected = sorted(reference.legal_moves(board, letter, players))
            moves = state.legal_moves()
            assert sorted(str(m) for m in moves) == expected, state.position()
            for move in moves:
                state.apply(move)
                after = reference.apply(board, str(move), letter)
                assert state.position().split()[0] == reference.board_text(after), (state.position(), move)
                nxt, over = reference.next_turn(after, letters, seat)
                if over:
                    assert state.is_over()
                elif not state.is_over():  # a draw rule may also end it
                    assert state.current_player() == nxt
                state.undo()
                checked += 1
            state.apply(rng.choice(moves))
    assert checked > 200
