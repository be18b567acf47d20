"""Move generation against the plain reference model (tests/sovereign/reference.py): perft counts
from fixed positions (setup, the start of play, and middle games with a threat, a pin, a win in
reach and an exhausted supply), and a move-by-move comparison along random games."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import State
from tests.sovereign import reference

GAME = boardlab.load("sovereign")
SETUP_12 = "00c03s2d0c0/000b00b00/0000000/0000000/0000000/000B00B00/00C03S2D0C0 1 s12 25/12 0"
START = "00c03s2d0c0/000b0b0b00/0001000/0000000/0001000/000B0B0B00/00C03S2D0C0 1 p 25/12 0"
#: name -> (position, perft counts for depths 1, 2, 3), each confirmed by the reference model
POSITIONS = {
    "setup_start": ("0000000/0000000/0000000/0000000/0000000/0000000/0000000 1 s0 25/12 0", [14, 196, 2548]),
    "third_contractors": (SETUP_12, [29, 841, 80475]),
    "start_of_play": (START, [84, 7056, 697574]),
    "no_lower_pieces": (
        "31b20c020b/011s0003/11d00001/10B11110/03000c01b/0331D033/0C0B1B1200S 1 p 0/7 54", [9, 269, 2929]
    ),
    "threatened": (
        "00c32003/0010b0c0b0/0111D3s31/10B1C11b01/01330B30/011000C3/00S30001B 2 p 1/5 47", [2, 147, 2708]
    ),
    "win_in_reach": ("00330C13/0100300/100C0330/1030000/01S330B30/0100013/0030B2s11 2 p 0/2 137", [6, 83, 366]),
    "no_top_pieces": (
        "030c1003/130b0000s/111B3001d/0c00C0303/0S3330b00/000031B3/30b030C0B3 2 p 0/0 109", [9, 99, 1943]
    ),
    "pinned": ("0101000/00d11301C/00b30b300/312c3100/1S131B010/02D3031s0/0130c00b0 1 p 0/5 132", [8, 130, 2370]),
}
#: the reference takes seconds on this one; its depth-3 count is checked by the engine only
REFERENCE_DEPTH_LIMIT = {"start_of_play": 2}


def engine_perft(state: State, depth: int) -> int:
    """Leaf count with apply/undo; finished games are leaves."""
    total = 0
    for move in state.legal_moves():
        if depth == 1:
            total += 1
            continue
        state.apply(move)
        total += 1 if state.is_over() else engine_perft(state, depth - 1)
        state.undo()
    return total


def test_the_perft_positions_hold_what_their_names_say() -> None:
    threatened = GAME.state_from_position(POSITIONS["threatened"][0])
    assert threatened.threatened
    assert GAME.state_from_position(POSITIONS["no_lower_pieces"][0]).pool_lower == 0
    assert GAME.state_from_position(POSITIONS["no_top_pieces"][0]).pool_top == 0
    win = GAME.state_from_position(POSITIONS["win_in_reach"][0])
    assert any(_wins(win, move) for move in win.legal_moves())
    pinned = GAME.state_from_position(POSITIONS["pinned"][0])
    assert pinned.square_set(0, 1) and not any(str(m).startswith("D") for m in pinned.legal_moves())


def _wins(state: State, move: object) -> bool:
    state.apply(move)  # type: ignore[arg-type]
    won = state.is_over() and state.result().code == "objective"  # type: ignore[union-attr]
    state.undo()
    return won


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_r1_perft_matches_the_reference_model(name: str) -> None:
    text, counts = POSITIONS[name]
    state = GAME.state_from_position(text)
    position = reference.parse(text)
    for depth, expected in enumerate(counts, 1):
        assert engine_perft(state, depth) == expected
        if depth <= REFERENCE_DEPTH_LIMIT.get(name, 3):
            assert reference.perft(position, depth) == expected
    assert state.position() == text  # undo brought everything back


@pytest.mark.parametrize("seed", [3, 17])
def test_r1_every_move_along_random_games_matches_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for game_number in range(3):
        state = GAME.new_state(seed * 10 + game_number)
        while not state.is_over():
            position = reference.parse(state.position())
            expected = sorted(reference.legal_moves(position))
            legal = state.legal_moves()
            assert sorted(str(m) for m in legal) == expected, state.position()
            move = rng.choice(legal)
            after, won = reference.apply(position, str(move))
            state.apply(move)
            assert state.position().split()[:5] == reference.text(after).split(), (state.position(), move)
            if state.is_over():
                assert state.result().code == "repetition" or reference.ended(after, won)
            else:
                assert not reference.ended(after, won)
            checked += 1
    assert checked > 300
