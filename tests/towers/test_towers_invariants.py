"""Property tests (hypothesis): push invariants of rules 5.8 on arbitrary boards, and the
engine's incremental state, undo and copies along random games."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st

import boardlab
from boardlab.games.towers import CASTLE_SQUARES, SQUARE_NAMES, TowersPosition, TowersState
from boardlab.games.towers.board import STEP, board_hash
from boardlab.games.towers.moves import Push
from tests.support.budgets import budget
from tests.towers import reference

SETTINGS = budget(120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def two_player_boards(draw: st.DrawFn) -> str:
    """A 2-player position string with random stacks (castles keep their green piece at the bottom)."""
    cells = []
    for sq in range(49):
        top = 4 if sq in CASTLE_SQUARES else 5
        stack = "".join(draw(st.lists(st.sampled_from("WB"), max_size=top)))
        cells.append(("C" + stack) if sq in CASTLE_SQUARES else (stack or "-"))
    assume(sum(c.count("W") for c in cells) <= 75 and sum(c.count("B") for c in cells) <= 75)
    ranks = ["," .join(cells[(rank - 1) * 7 + f] for f in range(7)) for rank in range(7, 0, -1)]
    return "/".join(ranks) + " " + draw(st.sampled_from("WB"))


def snapshot(state: TowersState) -> tuple:
    return (
        state.position(), list(state.control), list(state.reserves), state.zobrist,
        state.progress.moves, state.current_player(), state.result(),
    )


def assert_matches_recomputation(state: TowersState) -> None:
    """The incremental fields equal those of a state built from scratch from the position."""
    fresh = TowersState(state.game, 0, TowersPosition(tuple(state.stacks), state.to_move, state.no_progress))
    assert fresh.control == state.control
    assert fresh.reserves == state.reserves
    assert board_hash(state.stacks, state.to_move) == state.zobrist == state.progress.last_key
    assert fresh.castles == state.castles


@SETTINGS
@given(two_player_boards(), st.integers(0, 10_000))
def test_r5_8_push_invariants_on_arbitrary_boards(position: str, pick: int) -> None:
    game = boardlab.load("towers")
    state = game.state_from_position(position)
    assume(not state.is_over())
    pushes = [m for m in state.legal_moves() if isinstance(m, Push)]
    assume(pushes)
    move = pushes[pick % len(pushes)]
    before_board, mover = reference.parse_board(position)
    before = snapshot(state)
    state.apply(move)
    after_board, _ = reference.parse_board(state.position())
    start = SQUARE_NAMES[move.square]
    height = len(before_board[start])
    # the squares the push may reach: the start and at most height - 1 beyond (5.8 b)
    ray = [move.square]
    while len(ray) < height and STEP[move.direction_index][ray[-1]] >= 0:
        ray.append(STEP[move.direction_index][ray[-1]])
    ray_names = [SQUARE_NAMES[sq] for sq in ray]
    changed = [sq for sq in after_board if after_board[sq] != before_board[sq]]
    assert changed and set(changed) <= set(ray_names)
    assert all(len(stack) <= 5 for stack in after_board.values())  # 5.8 a
    for token in "WBC":  # pieces are conserved
        assert sum(s.count(token) for s in after_board.values()) == sum(s.count(token) for s in before_board.values())
    assert after_board[start][0] == before_board[start][0]  # 5.8 d: the bottom piece stays
    last = max(changed, key=ray_names.index)
    assert after_board[last][-1] == mover  # 5.8 c
    levels = lambda board: sum(sum(range(len(s))) for s in board.values())  # noqa: E731
    assert levels(after_board) <= levels(before_board)  # 5.8 e: no piece rises
    assert after_board == reference.apply(before_board, str(move), mover)
    assert_matches_recomputation(state)
    state.undo()
    assert snapshot(state) == before


@SETTINGS
@given(
    st.sampled_from([(2, "diagram"), (2, "pinwheel"), (2, "split_sides"), (4, "diagram"), (4, "four_each"), (4, "blocks")]),
    st.integers(0, 2**32),
    st.integers(1, 120),
)
def test_incremental_state_undo_and_copy_along_random_games(setup: tuple[int, str], seed: int, plies: int) -> None:
    players, layout = setup
    game = boardlab.load("towers", players=players, layout=layout)
    state = game.new_state(seed)
    rng = random.Random(seed)
    history = [snapshot(state)]
    supply = 75 if players == 2 else 50
    while not state.is_over() and state.ply < plies:
        move = rng.choice(state.legal_moves())
        clone = state.copy()
        state.apply(move)
        assert_matches_recomputation(state)
        assert max(len(s) for s in state.stacks) <= 5
        on_board = [sum(s.count(seat) for s in state.stacks) for seat in range(players)]
        assert [supply - n for n in on_board] == state.reserves
        assert snapshot(clone) == history[-1]  # the copy did not move with the original
        history.append(snapshot(state))
    while state.ply:
        history.pop()
        state.undo()
        assert snapshot(state) == history[-1]
