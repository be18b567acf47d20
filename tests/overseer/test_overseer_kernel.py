"""The kernel (boardlab/games/overseer/kernel.py) against the answers the rules gave before it
existed, and against itself where a careless port could go wrong: the same move lists in the
same order, the same evaluations to the bit, boards left as they were handed in.

The digests were recorded with the plain-Python rules and evaluation before they moved into
the kernel. They hold compiled and pure alike; a deliberate change to the rules or
the evaluation changes them, and is recorded again here with the reason.
"""

from __future__ import annotations

import hashlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.agents import make_agent
from boardlab.games.overseer import OverseerPosition, OverseerState, kernel
from boardlab.games.overseer.board import NUM_SQUARES, PIECES

#: sha256 of :func:`random_game_trace` (3 set-ups x 3 seeds), recorded before the port
RANDOM_GAMES_DIGEST = "6d747f22a6bff91a86e9391229bb62144523ec52a5f6be97ed551a4d9736e005"
#: sha256 of :func:`search_trace` (two MCTS levels and greedy from a middle game), recorded before the port
SEARCH_DIGEST = "c8fdde5db774e5df5cd8800d36bd4be4a30e2899b7f8030b4d7360dbc735c9bc"


def random_game_trace(seeds: int) -> str:
    """Every position of seeded random games with its legal moves (in order), evaluation
    (``repr``: every bit), winning move, and each game's result."""
    lines = []
    for setup in ("concentric", "chess_sized", "diametric"):
        game = boardlab.load("overseer", setup=setup)
        for seed in range(seeds):
            rng = random.Random(seed)
            state = game.new_state(seed)
            while not state.is_over():
                moves = state.legal_moves()
                lines.append(f"{state.position()}|{' '.join(map(str, moves))}|{state.evaluate()!r}|{state.winning_move()}")
                state.apply(moves[int(rng.random() * len(moves))])
            lines.append(f"end {state.result()} {state.evaluate()!r}")
    return "\n".join(lines)


def search_trace() -> str:
    """The moves (and iterations) the searches choose from one middle game: the search reads
    the evaluation's floats and the move order, so a difference in either shows here."""
    game = boardlab.load("overseer")
    lines = []
    for spec in ("mcts:iterations=150", "mcts:iterations=100,leaf_eval=true,widen=1,c=0.2,jitter=0.03", "greedy"):
        state = game.new_state(3)
        rng = random.Random(5)
        for _ in range(30):
            moves = state.legal_moves()
            state.apply(moves[int(rng.random() * len(moves))])
        agent = make_agent(spec, seed=7)
        for _ in range(4):
            if state.is_over():
                break
            move = agent.choose(state)
            lines.append(f"{spec} {move} {getattr(agent, 'last_iterations', '')}")
            state.apply(move)
    return "\n".join(lines)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_random_games_are_those_of_the_rules_before_the_kernel() -> None:
    assert digest(random_game_trace(3)) == RANDOM_GAMES_DIGEST


def test_searches_choose_as_before_the_kernel() -> None:
    assert digest(search_trace()) == SEARCH_DIGEST


BOARDS = st.lists(st.sampled_from((0,) * 12 + PIECES), min_size=NUM_SQUARES, max_size=NUM_SQUARES)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BOARDS, st.sampled_from((0, 1)))
def test_the_evaluation_leaves_the_board_as_it_was_handed_in(board: list[int], seat: int) -> None:
    """best_capture and can_save_overseer try each move on the board in place and take it back."""
    before = list(board)
    squares = ([sq for sq in range(NUM_SQUARES) if board[sq] and board[sq] >> 3 == 0],
               [sq for sq in range(NUM_SQUARES) if board[sq] and board[sq] >> 3 == 1])
    moves = kernel.generate_moves(board, squares[seat], seat)
    kernel.best_capture(board, moves, seat)
    for overseer in squares[seat][:3]:
        kernel.can_save_overseer(board, moves, overseer, 1 - seat)
    assert board == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 200))
def test_the_state_answers_as_the_kernel_from_scratch(seed: int, plies: int) -> None:
    """Along a random game the state's incremental board, lists and hash (move_piece) give the
    same moves and evaluation as a state built from the position alone."""
    state = boardlab.load("overseer").new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        moves = state.legal_moves()
        state.apply(moves[int(rng.random() * len(moves))])
    assert isinstance(state, OverseerState)
    fresh = OverseerState(
        state.game, 0, OverseerPosition(tuple(state.board), state.to_move, state.since_capture, state.move_number)
    )
    assert fresh.zobrist == state.zobrist and fresh.squares == state.squares
    if not state.is_over():
        assert kernel.generate_moves(fresh.board, fresh.squares[fresh.to_move], fresh.to_move) == state.legal_moves()
        assert fresh.evaluate() == state.evaluate()
