"""The kernel (boardlab/games/towers/kernel.py), which may be compiled, against its own Python
source run as plain Python, and the evaluation against a plain restatement on the reference model.

A careless port shows up here as a move list in another order, a different hash or control
mask after a move, an evaluation that differs in its last bit, or a stack int that loses a
token (the state keeps each stack as one int, the masks as machine integers).
"""

from __future__ import annotations

import dataclasses
import math
import random
from types import ModuleType

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import boardlab
from boardlab.compiled import pure_source
from boardlab.core.fitted import FITTED, HAND, EvaluationChoice, judging_by, shipped_evaluation
from boardlab.games.towers import TowersPosition, TowersState, kernel
from boardlab.games.towers.board import MAX_HEIGHT, board_hash
from tests.support.kernels import skip_unless_compiled
from tests.towers import reference
from tests.towers.test_towers_invariants import SETTINGS, two_player_boards


def kernel_source() -> ModuleType:
    """kernel.py executed as plain Python, whether or not the imported kernel is compiled."""
    return pure_source(kernel)


def random_positions(players: int, layout: str, games: int, seed: int) -> list[TowersState]:
    """Running positions along seeded random games, about one in four."""
    game = boardlab.load("towers", players=players, layout=layout)
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


def fields(state: TowersState) -> list[object]:
    """What a state says of itself, as plain values."""
    board = state.board
    masks = [board.tall2, board.tall3, board.tall4, board.tall5, board.castle_squares]
    return [
        state.position(), state.control, state.reserves, state.zobrist, masks, state.current_player(),
        repr(state.result()), state.no_progress,
    ]


def kernel_answers(module: ModuleType, state: TowersState) -> list[object]:
    """Everything the state class of ``module`` says about ``state``'s position: its moves, both
    evaluations, which seats can move, and each move played (what it leads to, then undone)."""
    game = state.game
    twin = module.TowersState(game, state.seed, TowersPosition(tuple(state.stacks), state.to_move, state.no_progress))
    moves = twin.legal_moves()
    model = shipped_evaluation(game)
    answers: list[object] = [
        [str(move) for move in moves],
        twin.hand_evaluation(),
        None if model is None else twin.fitted_evaluation(model),
        twin.terms(),
        [twin.can_move(seat) for seat in range(game.num_players)],
        fields(twin),
    ]
    for move in moves:
        before = fields(twin)
        twin.apply(move)
        answers.append((str(move), fields(twin), twin.evaluate() if not twin.is_over() else None))
        twin.undo()
        assert fields(twin) == before
    return answers


@skip_unless_compiled(kernel)
@pytest.mark.parametrize(("players", "layout"), [(2, "diagram"), (2, "pinwheel"), (4, "diagram"), (4, "blocks")])
def test_the_kernel_answers_as_its_python_source_does(players: int, layout: str) -> None:
    source = kernel_source()
    positions = random_positions(players, layout, games=3, seed=players * 31 + len(layout))
    assert len(positions) > 50
    with judging_by("fitted"):
        for state in positions:
            # exact equality: the same moves in the same order, the same floats to the last bit
            assert kernel_answers(kernel, state) == kernel_answers(source, state), state.position()


def test_a_leaf_judges_by_the_weights_of_the_choice_in_force_for_its_own_game_however_the_two_alternate() -> None:
    """A leaf keeps the last weights it read (kernel.LeafWeights) instead of asking which
    evaluation is in force each time. Kept for the wrong key it would judge one game by
    another's weights, or by the weights of a choice no longer in force: the shipped weights
    hold for the plain game and none for the pinwheel layout (hand there), and a second model
    judges the plain game differently; the four cases interleaved must each give what is worked
    out afresh for them."""
    plain, pinwheel = boardlab.load("towers"), boardlab.load("towers", layout="pinwheel")
    shipped = shipped_evaluation(plain)
    assert shipped is not None and shipped_evaluation(pinwheel) is None
    steeper = dataclasses.replace(shipped, weights=tuple(3 * weight for weight in shipped.weights))
    states = []
    for game in (plain, pinwheel):
        state = game.new_state(4)
        for _ply in range(6):
            state.apply(state.legal_moves()[len(state.legal_moves()) // 3])
        states.append(state)
    first, second = states
    other = EvaluationChoice("steeper", steeper)
    expected = {
        (FITTED, 0): first.fitted_evaluation(shipped),
        (FITTED, 1): second.hand_evaluation(),
        ("steeper", 0): first.fitted_evaluation(steeper),
        (HAND, 0): first.hand_evaluation(),
    }
    assert len({expected[(FITTED, 0)], expected[("steeper", 0)], expected[(HAND, 0)]}) == 3
    order = [(FITTED, 0), (FITTED, 1), ("steeper", 0), (FITTED, 0), (HAND, 0), ("steeper", 0), (FITTED, 1), (FITTED, 0)]
    for name, index in order:
        with judging_by(other if name == "steeper" else name):
            assert tuple(states[index].evaluate()) == expected[(name, index)], (name, index)


@given(st.lists(st.integers(0, 4), max_size=MAX_HEIGHT))
def test_a_stack_int_keeps_every_token(stack: list[int]) -> None:
    code = kernel.stack_code(stack)
    assert kernel.stack_tokens(code) == tuple(stack) and code & kernel.HEIGHT_MASK == len(stack)
    if stack:
        assert kernel.top_token(code) == stack[-1]
    for keep in range(len(stack) + 1):
        assert kernel.stack_tokens(kernel.lowest(code, keep)) == tuple(stack[:keep])
    if len(stack) < MAX_HEIGHT:
        assert kernel.stack_tokens(kernel.pushed_on(code, 3)) == (*stack, 3)


@given(st.integers(0, 48), st.lists(st.integers(0, 4), max_size=MAX_HEIGHT), st.integers(0, MAX_HEIGHT))
def test_a_stack_key_changes_by_the_keys_of_the_tokens_added_or_taken(square: int, stack: list[int], keep: int) -> None:
    assume(keep <= len(stack))
    full, kept = kernel.stack_code(stack), kernel.stack_code(stack[:keep])
    change = kernel.stack_key(square, full) ^ kernel.stack_key(square, kept)
    assert kernel._key_change(square, kept, full) == change == kernel._key_change(square, full, kept)
    stacks: list[tuple[int, ...]] = [()] * 49
    stacks[square] = tuple(stack)
    assert board_hash(stacks, 1) == kernel.board_key([kernel.stack_code(s) for s in stacks], 1)


def test_masks_reach_the_squares_above_bit_31() -> None:
    # compiled, a literal 1 shifted by a machine integer is a 32-bit C int: a mask of g7 (bit 48)
    # built that way is empty
    assert [kernel.one_bit(place) for place in (0, 31, 32, 48, 62)] == [1 << 0, 1 << 31, 1 << 32, 1 << 48, 1 << 62]
    ranks = ["-,-,-,-,-,-,WW", "-,-,-,C,-,-,B", "-,-,-,-,-,-,-", "-,C,-,C,-,C,-"]
    ranks += ["-,-,-,-,-,-,-", "-,-,-,C,-,-,-", "-,-,-,-,-,-,-"]
    state = boardlab.load("towers").state_from_position("/".join(ranks) + " W")
    assert [str(move) for move in state.legal_moves()] == ["g7+", "g7S", "g7W"]


@SETTINGS
@given(two_player_boards())
def test_move_generation_on_arbitrary_boards_matches_the_reference(position: str) -> None:
    """The pushes come from masks of the squares at least 2 to 5 tall, shifted a row or a file:
    every edge of the board and every pair of heights must give the reference's moves, in the
    order of the rules (square a1..g7, the build, then N, E, S, W)."""
    state = boardlab.load("towers").state_from_position(position)
    assume(not state.is_over())
    board, letter = reference.parse_board(position)
    moves = [str(move) for move in state.legal_moves()]
    assert sorted(moves) == sorted(reference.legal_moves(board, letter, 2))
    order = [(move.square, "+NESW".index(str(move)[-1])) for move in state.legal_moves()]
    assert order == sorted(order)
    fresh = kernel.Board(state.cells.copy(), state.board.reserves.copy(), state.to_move)
    for seat in (0, 1):
        assert state.can_move(seat) == bool(fresh.legal_moves(seat)) == bool(reference.legal_moves(board, "WB"[seat], 2))


def reference_evaluation(position: str, players: int) -> tuple[float, ...]:
    """The evaluation as evaluation.py describes it, computed on the reference model: per seat
    castles held, crowned castles, castles not its own that the top piece of one of its pushes
    would land on, and squares held; weighted, then a softmax."""
    board, _ = reference.parse_board(position)
    letters = "WB" if players == 2 else "WURB"
    castles = [sq for sq, stack in board.items() if stack and stack[0] == "C"]
    scores = []
    for letter in letters[:players]:
        held = [sq for sq, stack in board.items() if stack and stack[-1] == letter]
        controlled = sum(1 for sq in castles if len(board[sq]) > 1 and board[sq][-1] == letter)
        crowned = sum(1 for sq in castles if len(board[sq]) == 5 and board[sq][-1] == letter)
        threatened = set()
        for sq in held:
            if len(board[sq]) < 2:
                continue
            for direction in "NESW":
                marked = {name: list(stack) for name, stack in board.items()}
                marked[sq][-1] = "*"  # follow the top piece
                after, _moved, _dropped = reference.push(marked, sq, direction)
                end = next(name for name, stack in after.items() if "*" in stack)
                if end in castles and board[end][-1] != letter:
                    threatened.add(end)
        scores.append(
            kernel.WEIGHT_CASTLE * controlled
            + kernel.WEIGHT_CROWN * crowned
            + kernel.WEIGHT_THREAT * len(threatened)
            + kernel.WEIGHT_SQUARE * len(held)
        )
    best = max(scores)
    weights = [math.exp(kernel.SHARPNESS * (score - best)) for score in scores]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


@pytest.mark.parametrize(("players", "layout"), [(2, "split_sides"), (4, "four_each")])
def test_the_evaluation_along_random_games_matches_the_reference(players: int, layout: str) -> None:
    for state in random_positions(players, layout, games=1, seed=5)[::3]:
        assert tuple(state.evaluate()) == reference_evaluation(state.position(), players), state.position()


@SETTINGS
@given(two_player_boards())
def test_the_evaluation_of_arbitrary_boards_matches_the_reference(position: str) -> None:
    state = boardlab.load("towers").state_from_position(position)
    assume(not state.is_over())
    assert tuple(state.evaluate()) == reference_evaluation(position, 2)
