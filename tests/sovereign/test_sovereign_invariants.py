"""Property tests (hypothesis) along random games: the invariants of docs/rules/sovereign.md
(rule 1.9.5 and invariants I1-I4), and the engine's incremental state, undo and copies."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import boardlab
from boardlab.games.sovereign import SovereignState
from boardlab.games.sovereign.board import ALL_SQUARES, board_hash
from boardlab.games.sovereign.kernel import seat_threatened
from tests.support.budgets import budget

SETTINGS = budget(60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTION_SETS = [
    {},
    {"height_model": "relative", "towers_block_slides": False},
    {"threat_response": "any_resolving_move", "diplomat_pin": "keep_protection"},
    {"build": "multi_level", "contractor_transit": True},
    {"supply_lower": 16, "supply_top": 4},
]


def fields(state: SovereignState) -> tuple:
    return (
        state.position(), list(state.level_sets), list(state.piece_sets), state.occupied, state.zobrist,
        state.current_player(), state.result(), sorted(map(str, state.legal_moves())),
    )


def check_invariants(state: SovereignState) -> None:
    rules = state.rules
    heights, pieces = state.heights, state.pieces
    # I1: the supply and the board (and the setup towers still in hand) hold every tower piece
    lower_on_board = sum(min(h, 2) for h in heights)
    top_on_board = sum(1 for h in heights if h == 3)
    in_hand_lower = in_hand_top = 0
    if state.in_setup:
        in_hand_lower = 10 - lower_on_board
        in_hand_top = 2 - top_on_board
        assert in_hand_lower >= 0 and in_hand_top >= 0
    assert state.pool_lower + lower_on_board + in_hand_lower == rules.supply_lower
    assert state.pool_top + top_on_board + in_hand_top == rules.supply_top
    assert state.pool_lower >= 0 and state.pool_top >= 0
    assert all(0 <= h <= 3 for h in heights)
    # I4: Consultants stand at height 2 at most
    assert all(heights[sq] <= 2 for sq in range(49) if pieces[sq] in (3, 7))
    if not state.in_setup:
        # rule 1.9.5 / I2: a Sovereign is never captured
        assert pieces.count(1) == 1 and pieces.count(5) == 1
        # I3: the player who just moved is not threatened (unless they won)
        result = state.result()
        if result is None or result.code != "objective":
            mover = 1 - state.to_move
            low = ALL_SQUARES ^ state.level_sets[3]
            assert not seat_threatened(mover, heights, state.piece_sets, low, rules.kernel_flags())
    # the incremental fields agree with a state built from scratch from the position
    fresh = state.game.state_from_position(state.position())
    assert fresh.level_sets == state.level_sets and fresh.piece_sets == state.piece_sets
    assert fresh.occupied == state.occupied
    assert board_hash(heights, pieces, state.to_move) == state.zobrist == state.progress.last_key
    assert fresh.current_player() == state.current_player()
    assert sorted(map(str, fresh.legal_moves())) == sorted(map(str, state.legal_moves()))


@SETTINGS
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 2**32), st.integers(1, 240))
def test_invariants_undo_and_copies_along_random_games(options: int, seed: int, plies: int) -> None:
    game = boardlab.load("sovereign", **OPTION_SETS[options])
    state = game.new_state(seed)
    assert isinstance(state, SovereignState)
    rng = random.Random(seed)
    history = [fields(state)]
    while not state.is_over() and state.ply < plies:
        move = rng.choice(state.legal_moves())
        clone = state.copy()
        state.apply(move)
        if state.ply % 7 == 0 or state.is_over():
            check_invariants(state)
        assert fields(clone) == history[-1]  # the copy did not move with the original
        history.append(fields(state))
    while state.ply:
        history.pop()
        state.undo()
        assert fields(state) == history[-1]  # apply then undo restores the position exactly


@SETTINGS
@given(st.integers(0, 2**32))
def test_no_move_leaves_its_own_sovereign_capturable(seed: int) -> None:
    """The ruling's defensive check (rule 1.9): after any legal move, the mover's Sovereign is
    not threatened, unless the move won the game."""
    state = boardlab.load("sovereign").new_state(seed)
    rng = random.Random(seed)
    while not state.is_over() and state.ply < 120:
        moves = state.legal_moves()
        for move in rng.sample(moves, min(6, len(moves))):
            mover = state.to_move
            state.apply(move)
            result = state.result()
            if not state.in_setup and (result is None or result.code != "objective"):
                low = ALL_SQUARES ^ state.level_sets[3]
                assert not seat_threatened(mover, state.heights, state.piece_sets, low, state.flags)
            state.undo()
        state.apply(rng.choice(moves))
