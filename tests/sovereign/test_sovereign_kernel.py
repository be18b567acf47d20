"""The kernel (boardlab/games/sovereign/kernel.py), which may be compiled, against its own Python
source run as plain Python, and its board changes against the position rebuilt from scratch.

A careless port shows up here as a move list in another order, a turn status or evaluation
that differs (floats to the last bit), a hash or set out of step with the board, or a list
changed in place that a snapshot still holds.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardlab
from boardlab.compiled import pure_source
from boardlab.games.sovereign import ConsultantJump, ContractorMove, Slide, SovereignState, kernel
from boardlab.games.sovereign.board import (
    ALL_SQUARES,
    BIT,
    NOT_FILE_A,
    NOT_FILE_G,
    NUM_SQUARES,
    SIZE,
    board_hash,
    setup_item,
)
from tests.sovereign.test_sovereign_invariants import OPTION_SETS, SETTINGS
from tests.support.kernels import skip_unless_compiled

#: option sets that reach the kernel's other branches (straight walks, whole-tower builds, the
#: Diplomat's path ban and self-protection)
MORE_OPTION_SETS: list[dict[str, Any]] = [
    {"transit_shape": "straight"},
    {"transit_shape": "straight", "towers_block_slides": False, "build": "whole_tower"},
    {"diplomat_self_protect": True, "path_ban_applies_to_diplomat": True, "winning_move_ignores_threat": False},
]


def kernel_source() -> ModuleType:
    """kernel.py executed as plain Python, whether or not the imported kernel is compiled."""
    return pure_source(kernel)


def random_positions(options: dict[str, Any], games: int, seed: int) -> list[SovereignState]:
    """Positions along seeded random games (setup and play), about one in four."""
    game = boardlab.load("sovereign", **options)
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = game.new_state(rng.getrandbits(32))
        while not state.is_over():
            if rng.random() < 0.25:
                positions.append(state.copy())
            moves = state.legal_moves()
            state.apply(moves[int(rng.random() * len(moves))])
    return positions


def move_fields(move: object) -> tuple[int, int, int, int, int]:
    """(kind, origin, target, build, levels) of a move of play, as the state hands them to the kernel."""
    if type(move) is Slide:
        return move.kind, move.origin, move.target, -1, 0
    if type(move) is ContractorMove:
        return 3, move.origin, move.target, move.build, move.levels
    assert type(move) is ConsultantJump
    return 2, move.origin, move.target, -1, 0


def kernel_answers(module: ModuleType, state: SovereignState) -> list[object]:
    """Everything the kernel says about ``state``: its moves, the turn status, the evaluation,
    and each move of play applied (the board, the hash, the supply and the next turn)."""
    seat, flags = state.to_move, state.flags
    board = (state.heights, state.piece_sets, state.level_sets, state.occupied)
    answers: list[object] = [
        module.estimate(seat, state.threatened, state.in_setup, *board, flags),
        module.scores(seat, False, *board, flags),
    ]
    if state.in_setup:
        placer, kind, with_tower = setup_item(state.placements)
        answers.append([str(m) for m in module.setup_moves(placer, kind, with_tower, state.level_sets, state.occupied)])
        return answers
    status = module.turn_status(seat, *board, state.pool_lower, state.pool_top, flags)
    moves, threatened, has_sovereign_move = module.play_moves(
        seat, *board, state.pool_lower, state.pool_top, flags, *status[3:]
    )
    answers += [status, [str(m) for m in moves], threatened, has_sovereign_move]
    for move in moves:
        answers.append(module.play_move(
            seat, *move_fields(move), state.heights, state.pieces, state.level_sets, state.piece_sets,
            state.occupied, state.zobrist, state.pool_lower, state.pool_top, flags,
        ))
    return answers


@skip_unless_compiled(kernel)
@pytest.mark.parametrize("options", OPTION_SETS + MORE_OPTION_SETS, ids=str)
def test_the_kernel_answers_as_its_python_source_does(options: dict[str, Any]) -> None:
    source = kernel_source()
    positions = random_positions(options, games=2, seed=len(str(options)))
    assert sum(not state.in_setup for state in positions) > 20
    for state in positions:
        # exact equality: the same moves in the same order, the same floats to the last bit
        assert kernel_answers(kernel, state) == kernel_answers(source, state), state.position()


@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from(OPTION_SETS + MORE_OPTION_SETS))
@SETTINGS
def test_a_move_of_play_leaves_its_inputs_and_agrees_with_the_board_rebuilt(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = boardlab.load("sovereign", **options).new_state(seed)
    while not state.is_over():
        moves = state.legal_moves()
        if not state.in_setup:
            move = moves[int(rng.random() * len(moves))]
            inputs = [state.heights.copy(), state.pieces.copy(), state.level_sets.copy(), state.piece_sets.copy()]
            heights, pieces, level_sets, piece_sets, occupied, zobrist, pool_lower, pool_top, *_ = kernel.play_move(
                state.to_move, *move_fields(move), state.heights, state.pieces, state.level_sets, state.piece_sets,
                state.occupied, state.zobrist, state.pool_lower, state.pool_top, state.flags,
            )
            # copy-on-write: a snapshot may hold the lists it was given
            assert [state.heights, state.pieces, state.level_sets, state.piece_sets] == inputs
            assert level_sets == [sum(BIT[sq] for sq in range(NUM_SQUARES) if heights[sq] == h) for h in range(4)]
            assert piece_sets[1:] == [sum(BIT[sq] for sq in range(NUM_SQUARES) if pieces[sq] == c) for c in range(1, 9)]
            assert occupied == sum(BIT[sq] for sq in range(NUM_SQUARES) if pieces[sq])
            assert zobrist == board_hash(heights, pieces, 1 - state.to_move)
            lower_used = sum(min(h, 2) for h in heights)
            assert (pool_lower + lower_used, pool_top + heights.count(3)) == (
                state.rules.supply_lower, state.rules.supply_top
            )
        state.apply(moves[int(rng.random() * len(moves))] if state.in_setup else move)


def test_the_kernels_literal_geometry_is_the_boards() -> None:
    assert (kernel.SIZE, kernel.NUM_SQUARES, kernel.ALL_SQUARES) == (SIZE, NUM_SQUARES, ALL_SQUARES)
    assert (kernel.NOT_FILE_A, kernel.NOT_FILE_G) == (NOT_FILE_A, NOT_FILE_G)
