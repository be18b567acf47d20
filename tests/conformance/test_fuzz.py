"""Hypothesis fuzzing of every game's parsers: only BoardlabError may escape, and
whatever parses is consistent (a parsed move is legal, a parsed position round-trips)."""

from __future__ import annotations

import boardlab
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardlab.core import BoardlabError, IllegalMoveError, State
from tests.conformance.helpers import Budget, playthrough


def sample_states(game: boardlab.Game, count: int = 4) -> list[State]:
    """Copies of positions spread over one random game (start, middle, end)."""
    states = [s.copy() for s in playthrough(game, 5)]
    step = max(1, len(states) // count)
    return states[::step][:count] + [states[-1]]


def mutated(texts: list[str]) -> st.SearchStrategy[str]:
    """Real notation with a random edit: a slice replaced by arbitrary characters."""

    def edit(args: tuple[str, int, int, str]) -> str:
        text, start, length, insert = args
        start = start % (len(text) + 1)
        return text[:start] + insert + text[start + length :]

    return st.tuples(
        st.sampled_from(texts), st.integers(0, 200), st.integers(0, 4), st.text(max_size=4)
    ).map(edit)


def fuzz_settings(budget: Budget):
    return settings(
        max_examples=budget.fuzz_examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def test_fuzz_parse_move_only_raises_boardlab_errors(game: boardlab.Game, budget: Budget) -> None:
    states = sample_states(game)
    texts = sorted({str(m) for s in states for m in s.legal_moves()} | {"x"})

    @fuzz_settings(budget)
    @given(index=st.integers(0, len(states) - 1), text=st.one_of(st.text(max_size=30), mutated(texts)))
    def check(index: int, text: str) -> None:
        state = states[index]
        before, ply = state.position(), state.ply
        try:
            move = state.parse_move(text)
        except IllegalMoveError:
            pass
        else:
            state.check_move(move)  # what parses is legal here
            assert state.parse_move(str(move)) == move
        assert state.position() == before and state.ply == ply

    check()


def test_fuzz_positions_only_raise_boardlab_errors(game: boardlab.Game, budget: Budget) -> None:
    positions = sorted({s.position() for s in sample_states(game)})

    @fuzz_settings(budget)
    @given(text=st.one_of(st.text(max_size=60), mutated(positions)))
    def check(text: str) -> None:
        try:
            state = game.state_from_position(text, seed=1)
        except BoardlabError:
            return
        again = game.state_from_position(state.position(), seed=1)
        assert again.position() == state.position()

    check()
