"""Property tests (hypothesis): along random games, pieces disappear only by captures (rule 4.1),
Barricades move only when a Barricade is moved (4.2), the incremental state equals a
recomputation, and apply then undo restores the position exactly; on arbitrary boards the
generator and the attack test agree with the reference model (rules 2-4)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import boardlab
from boardlab.games.overseer import SQUARE_BY_NAME, SQUARE_NAMES, OverseerPosition, OverseerState, is_attacked
from boardlab.games.overseer.board import BLACK_TO_MOVE_KEY, board_hash
from boardlab.games.overseer.movegen import has_move
from tests.overseer import reference
from tests.overseer.helpers import position_text
from tests.support.budgets import budget

SETTINGS = budget(60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_SQUARES = [f"{s}{i}" for s in reference.SECTORS for i in range(1, 9)]


def snapshot(state: OverseerState) -> tuple:
    return (
        state.position(), list(state.board), [list(s) for s in state.squares], state.counts, state.army,
        state.overseers, state.zobrist, state.progress.moves, state.current_player(), state.result(),
        [str(m) for m in state.legal_moves()],
    )


def pieces_by_letter(state: OverseerState) -> Counter:
    return Counter(letter for letter in map(state.piece_at, SQUARE_NAMES) if letter)


def barricades(state: OverseerState) -> set[tuple[str, str]]:
    return {(name, state.piece_at(name)) for name in SQUARE_NAMES if state.piece_at(name) in ("B", "b")}


def assert_matches_recomputation(state: OverseerState) -> None:
    """The incremental fields equal those of a state built from scratch from the position."""
    fresh = OverseerState(
        state.game, 0, OverseerPosition(tuple(state.board), state.to_move, state.since_capture, state.move_number)
    )
    assert fresh.squares == state.squares
    assert fresh.counts == state.counts and fresh.army == state.army
    assert fresh.overseers == state.overseers or state.is_over()
    assert board_hash(state.board, state.to_move) == state.zobrist == state.progress.last_key
    if not state.is_over():
        assert [str(m) for m in fresh.legal_moves()] == [str(m) for m in state.legal_moves()]


@SETTINGS
@given(
    st.sampled_from(["concentric", "chess_sized", "diametric"]),
    st.integers(0, 2**32),
    st.integers(1, 300),
)
def test_r4_pieces_fall_only_by_captures_barricades_stay_and_undo_restores(setup: str, seed: int, plies: int) -> None:
    game = boardlab.load("overseer", setup=setup)
    state = game.new_state(seed)
    rng = random.Random(seed)
    history = [snapshot(state)]
    while not state.is_over() and state.ply < plies:
        move = rng.choice(state.legal_moves())
        before_pieces = pieces_by_letter(state)
        before_barricades = barricades(state)
        mover = state.piece_at(SQUARE_NAMES[move.origin])
        victim = state.piece_at(SQUARE_NAMES[move.target])
        clone = state.copy()
        state.apply(move)
        after_pieces = pieces_by_letter(state)
        # rule 4.1: the only piece that ever leaves is the captured one, and only by a capture
        expected = before_pieces.copy()
        if move.capture:
            assert victim and victim not in "Bb" and (victim.isupper() != mover.isupper())
            expected[victim] -= 1
        else:
            assert victim == ""
        assert after_pieces == +expected
        # rule 4.2: Barricades stay where they are unless the move moved one of them
        after_barricades = barricades(state)
        if mover in "Bb":
            origin, target = SQUARE_NAMES[move.origin], SQUARE_NAMES[move.target]
            assert after_barricades == (before_barricades - {(origin, mover)}) | {(target, mover)}
        else:
            assert after_barricades == before_barricades
        assert_matches_recomputation(state)
        assert snapshot(clone) == history[-1]  # the copy did not move with the original
        history.append(snapshot(state))
    while state.ply:
        history.pop()
        state.undo()
        assert snapshot(state) == history[-1]  # the position string and every field, exactly


@st.composite
def boards(draw: st.DrawFn) -> str:
    """An arbitrary legal position: both Overseers and any mix of other pieces."""
    squares = draw(st.permutations(ALL_SQUARES))
    density = draw(st.floats(0.0, 0.6))
    letters = draw(st.lists(st.sampled_from("BSCGPMbscgpm"), min_size=94, max_size=94))
    chances = draw(st.lists(st.floats(0.0, 1.0), min_size=94, max_size=94))
    pieces = {squares[0]: "O", squares[1]: "o"}
    pieces.update(
        {square: letter for square, letter, chance in zip(squares[2:], letters, chances) if chance < density}
    )
    return position_text(pieces, draw(st.sampled_from("wb")))


@budget(150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_r2_r4_r7_5_the_generator_and_the_attack_test_agree_with_the_reference(position: str) -> None:
    state = boardlab.load("overseer").state_from_position(position)
    board, side = reference.parse(position)
    if not state.is_over():
        texts = [str(m) for m in state.legal_moves()]
        assert len(texts) == len(set(texts))
        assert set(texts) == reference.legal_moves(board, side)
        for move in state.legal_moves():
            before = state.position()
            state.apply(move)
            state.undo()
            assert state.position() == before
    for by, by_side in ((0, "w"), (1, "b")):
        # rule 7.5's quick test agrees with the full list
        assert has_move(state.board, state.squares[by], by) == bool(reference.legal_moves(board, by_side))
        captures = {m[3:] for m in reference.legal_moves(board, by_side) if m[2] == "x"}
        for square, letter in board.items():
            if reference.side_of(letter) != by_side and letter not in "Bb":
                name = reference.name(square)
                attacked = is_attacked(state.board, SQUARE_BY_NAME[name], by)
                assert attacked == (name in captures), (position, name, by)


def test_the_side_to_move_key_is_in_the_hash() -> None:
    state = boardlab.load("overseer").new_state(seed=1)
    assert board_hash(state.board, 1) == board_hash(state.board, 0) ^ BLACK_TO_MOVE_KEY != board_hash(state.board, 0)


def test_r7_5_the_quick_no_move_test_on_crowded_boards() -> None:
    """Boards nearly full of Barricades, where many sides cannot move at all."""
    rng = random.Random(3)
    game = boardlab.load("overseer")
    stuck = 0
    for _ in range(1500):
        squares = ALL_SQUARES.copy()
        rng.shuffle(squares)
        pieces = {squares[0]: "O", squares[1]: "o"}
        for square in squares[2:]:
            if rng.random() < 0.97:
                pieces[square] = rng.choice("BBBBBBBBBBBbbbbbbbbbbbSCGPM")
        position = position_text(pieces, "w")
        state = game.state_from_position(position)
        board, _ = reference.parse(position)
        for seat, side in ((0, "w"), (1, "b")):
            expected = bool(reference.legal_moves(board, side))
            stuck += not expected
            assert has_move(state.board, state.squares[seat], seat) == expected, (position, side)
    assert stuck > 20
