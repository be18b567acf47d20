"""The kernel (boardlab/games/towers/kernel.py), which may be compiled, against its own Python
source run as plain Python, and the evaluation against a plain restatement on the reference model.

A careless port shows up here as a move list in another order, a different hash or control
mask after a move, or an evaluation that differs in its last bit.
"""

from __future__ import annotations

import math
import random
from types import ModuleType

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import boardlab
from boardlab.compiled import pure_source
from boardlab.games.towers import TowersState, kernel
from boardlab.games.towers.moves import Build
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


def kernel_answers(module: ModuleType, state: TowersState) -> list[object]:
    """Everything the kernel says about ``state``: its moves, the evaluation, and each move
    played on private copies (the hash, the lists and the ending)."""
    seat = state.to_move
    rules = state.rules
    moves = module.legal_moves(state.stacks, state.control[seat], state.reserves[seat] > 0)
    answers: list[object] = [
        [str(move) for move in moves],
        module.evaluate(state.stacks, state.control, state.castles, state.castle_rays, rules.players),
        [module.can_move(state.stacks, state.control[other], state.reserves[other] > 0) for other in range(rules.players)],
    ]
    for move in moves:
        stacks, control, reserves = state.stacks.copy(), state.control.copy(), state.reserves.copy()
        direction = -1 if type(move) is Build else move.direction_index
        outcome = module.play(
            stacks, control, reserves, seat, move.square, direction, state.zobrist, state.castles,
            rules.players, rules.castles_to_win, rules.crowns_to_win,
        )
        answers.append((outcome, stacks, control, reserves))
    return answers


@pytest.mark.parametrize(("players", "layout"), [(2, "diagram"), (2, "pinwheel"), (4, "diagram"), (4, "blocks")])
def test_the_kernel_answers_as_its_python_source_does(players: int, layout: str) -> None:
    source = kernel_source()
    positions = random_positions(players, layout, games=3, seed=players * 31 + len(layout))
    assert len(positions) > 50
    for state in positions:
        # exact equality: the same moves in the same order, the same floats to the last bit
        assert kernel_answers(kernel, state) == kernel_answers(source, state), state.position()


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


@given(st.integers(0, 48), st.lists(st.sampled_from([0, 1]), min_size=1, max_size=5))
def test_a_build_changes_the_hash_by_the_two_stack_keys(square: int, stack: list[int]) -> None:
    assume(len(stack) < 5)
    stacks: list[tuple[int, ...]] = [()] * 49
    stacks[square] = tuple(stack)
    zobrist = kernel.build(stacks, square, 1, 0)
    assert stacks[square] == (*stack, 1)
    assert zobrist == kernel.stack_key(square, tuple(stack)) ^ kernel.stack_key(square, (*stack, 1))
