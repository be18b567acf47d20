"""Move generation against the plain reference model (tests/overseer/reference.py): perft
counts from fixed positions, and a move-by-move comparison along random games (rules 2-4, 7)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.testing import perft
from tests.overseer import reference

#: 8 fixed positions: the three set-ups (rules 5.1-5.3) and positions built to exercise the
#: seam (1.3), meeting lines (2.3), Barricades (3.1, 3.2, 3.5, 4.2) and quick endings (7.1, 7.2)
PERFT = {
    "concentric start": (
        "opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 1", [32, 1024, 41532],
    ),
    "chess-sized start": ("opgc4cgpm/ssss1bb1ssss/12/12/12/12/SSSS1BB1SSSS/OPGC4CGPM w 0 1", [36, 1296, 55930]),
    "diametric start": ("sccgpmopgccs/bsbssssssbsb/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 1", [32, 1024, 41586]),
    # pieces on both sides of the L|A seam: a General and Commander on open rings, a Pilot
    # behind Barricades, Soldiers next to Barricades at the centre and at the rim
    "across the seam": ("1g4o5/B6p3S/c9b1/5C3P2/s1B8G/1b10/S4s4B1/O10M w 0 1", [64, 3009, 199151]),
    # the two outward diagonals from A1 (Pilot) and G2 (Commander) and the two inward ones
    # from H7 (Commander) meet six sectors on: G7, A8, B1 (the White Overseer)
    "meeting diagonals": ("4poS5/6sm4/12/b11/3B5b2/12/6M5/PO10 w 0 1", [52, 2969, 146667]),
    # Commander and Overseer against a bare Overseer behind Barricades
    "commander ending": ("12/9bo1/12/3MB7/b11/2O9/12/12 b 0 1", [14, 579, 8159, 321817]),
    # Overseers a knight's move apart, captures everywhere, wins inside the tree
    "tactics": ("10p1/12/5G6/2sBo7/3OS7/c4b6/1P10/12 w 0 1", [31, 1102, 34917]),
    # the last Soldier can fall to the Overseer: insufficient material ends lines (rule 7.2)
    "last soldier": ("12/12/6o5/4sb6/2BO8/12/12/12 w 0 1", [10, 163, 1726, 29824]),
}


@pytest.mark.parametrize("name", list(PERFT))
def test_r2_r3_perft_matches_the_reference(name: str) -> None:
    position, counts = PERFT[name]
    state = boardlab.load("overseer").state_from_position(position, seed=0)
    board, side = reference.parse(position)
    for depth, expected in enumerate(counts, 1):
        if depth <= 3 or name == "last soldier":
            assert reference.perft(board, side, depth) == expected, (name, depth)
        assert perft(state, depth) == expected, (name, depth)
    assert state.position() == position  # undo brought everything back


def test_r2_perft_depth_four_across_the_seam() -> None:
    # 9,420,973 was computed once with the reference model (about 45 s there)
    state = boardlab.load("overseer").state_from_position(PERFT["across the seam"][0], seed=0)
    assert perft(state, 4) == 9_420_973


def test_r5_the_setups_are_the_ruled_positions() -> None:
    for setup, name in (("concentric", "concentric start"), ("chess_sized", "chess-sized start"),
                        ("diametric", "diametric start")):
        assert boardlab.load("overseer", setup=setup).new_state(seed=1).position() == PERFT[name][0]


@pytest.mark.parametrize("setup", ["concentric", "chess_sized", "diametric"])
def test_r2_r7_every_move_along_random_games_matches_the_reference(setup: str) -> None:
    rng = random.Random(len(setup))
    game = boardlab.load("overseer", setup=setup)
    checked = 0
    for seed in range(2):
        state = game.new_state(seed)
        while not state.is_over() and state.ply < 160:
            if state.ply % 5:  # compare every fifth position, to keep the test quick
                state.apply(rng.choice(state.legal_moves()))
                continue
            board, side = reference.parse(state.position())
            other = "b" if side == "w" else "w"
            moves = state.legal_moves()
            texts = [str(m) for m in moves]
            assert len(texts) == len(set(texts)), f"a move listed twice in {state.position()}"
            assert set(texts) == reference.legal_moves(board, side), state.position()
            for move in moves:
                state.apply(move)
                after = reference.apply(board, str(move))
                assert state.position().split()[0] == reference.board_text(after), (state.position(), move)
                if reference.over_after(after, other):
                    assert state.is_over(), (state.position(), move)
                elif state.is_over():  # only the rules the reference leaves out may end it
                    assert state.result().code in ("repetition", "no_capture_limit"), state.result()
                state.undo()
                checked += 1
            state.apply(rng.choice(moves))
    assert checked > 500
