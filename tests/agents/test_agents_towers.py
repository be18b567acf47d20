"""The search agents on Towers positions (docs/rules/towers.md), and slow strength matches."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core import State
from tests.agents.matches import match_score

# White holds b4, d2 and d6 (rule 7.1: 4 castles win). c4 is a 2-high White tower: pushing it
# east drops one piece on the bare castle d4 (rules 5.3, 6.2) and wins. Elsewhere nothing wins.
WHITE_WINS_BY_C4E = "-,-,-,-,-,-,BB/-,-,-,CW,-,-,-/-,-,-,-,-,-,-/-,CW,WW,C,-,CB,-/-,-,-,-,-,-,-/-,-,-,CW,-,-,-/BB,-,-,-,-,-,- W"
# Black holds d2, d6 and f4 and threatens e4 west onto the bare d4. White's only defence is c4E:
# then d4 is 2 high, as high as e4, and blocks it (rule 5.4).
BLACK_THREATENS_E4W = (
    "-,-,-,-,-,-,BB/WW,-,-,CB,-,-,-/-,-,-,-,-,-,-/-,CW,WW,C,BB,CB,-/-,-,-,-,-,-,-/-,-,-,CB,-,-,-/-,-,-,-,-,-,WW W"
)


def towers(position: str) -> State:
    return boardlab.load("towers").state_from_position(position, seed=0)


def winning_moves(state: State) -> set[str]:
    """The moves after which the mover has won (checked with the rules engine)."""
    mover = state.current_player()
    wins = set()
    for move in state.legal_moves():
        after = state.copy()
        after.apply(move)
        if after.is_over() and after.returns()[mover] == 1.0:
            wins.add(str(move))
    return wins


def test_positions_are_what_the_comments_say() -> None:
    assert winning_moves(towers(WHITE_WINS_BY_C4E)) == {"c4E"}
    defended = towers(BLACK_THREATENS_E4W)
    unsafe = set()
    for move in defended.legal_moves():
        after = defended.copy()
        after.apply(move)
        if winning_moves(after):
            unsafe.add(str(move))
    assert {str(m) for m in defended.legal_moves()} - unsafe == {"c4E"}
    assert len(unsafe) >= 10


@pytest.mark.parametrize("spec", ["mcts:iterations=300", "ismcts:iterations=300", "greedy"])
def test_takes_the_winning_push(spec: str) -> None:
    for seed in range(3):
        assert str(make_agent(spec, seed=seed).choose(towers(WHITE_WINS_BY_C4E))) == "c4E"


@pytest.mark.parametrize("spec", ["mcts:iterations=600", "ismcts:iterations=600"])
def test_blocks_the_opponents_winning_push(spec: str) -> None:
    for seed in range(3):
        assert str(make_agent(spec, seed=seed).choose(towers(BLACK_THREATENS_E4W))) == "c4E"


@pytest.mark.slow
def test_mcts_beats_random_in_19_of_20_towers_games() -> None:
    assert match_score("towers", "mcts", "random", 20) >= 19


@pytest.mark.slow
def test_mcts_beats_greedy_in_most_towers_games() -> None:
    assert match_score("towers", "mcts", "greedy", 20) > 10
