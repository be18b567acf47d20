"""Hypothesis fuzzing of a game's parsers: only BoardlabError may escape, and whatever
parses is consistent (a parsed move is legal, a parsed position round-trips).

Needs hypothesis (the ``dev`` or ``testing`` extra); imported only when a fuzz check runs.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from ..core.errors import BoardlabError, IllegalMoveError
from ..core.game import Game
from ..core.state import State
from .helpers import Budget, playthrough

if TYPE_CHECKING:
    import hypothesis
    from hypothesis.strategies import SearchStrategy


def _require_hypothesis() -> None:
    if importlib.util.find_spec("hypothesis") is None:  # pragma: no cover - the dev extra installs it
        raise ImportError("the fuzz checks need hypothesis: pip install 'boardlab[testing]'", name="hypothesis")


def sample_states(game: Game, count: int = 4) -> list[State]:
    """Copies of positions spread over one random game (start, middle, end)."""
    states = [s.copy() for s in playthrough(game, 5)]
    step = max(1, len(states) // count)
    return [*states[::step][:count], states[-1]]


def _mutated(texts: list[str]) -> SearchStrategy[str]:
    """Real notation with a random edit: a slice replaced by arbitrary characters."""
    from hypothesis import strategies as st

    def edit(args: tuple[str, int, int, str]) -> str:
        text, start, length, insert = args
        start = start % (len(text) + 1)
        return text[:start] + insert + text[start + length :]

    return st.tuples(st.sampled_from(texts), st.integers(0, 200), st.integers(0, 4), st.text(max_size=4)).map(edit)


def _settings(budget: Budget) -> hypothesis.settings:
    import hypothesis

    return hypothesis.settings(
        max_examples=budget.fuzz_examples,
        deadline=None,
        database=None,
        suppress_health_check=[hypothesis.HealthCheck.too_slow],
    )


def check_fuzz_parse_move(game: Game, budget: Budget) -> None:
    """Arbitrary and mutated move text: only IllegalMoveError escapes, and whatever parses is legal."""
    _require_hypothesis()
    import hypothesis
    from hypothesis import strategies as st

    states = sample_states(game)
    texts = sorted({str(m) for s in states for m in s.legal_moves()} | {"x"})

    @_settings(budget)
    @hypothesis.given(index=st.integers(0, len(states) - 1), text=st.one_of(st.text(max_size=30), _mutated(texts)))
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


def check_fuzz_positions(game: Game, budget: Budget) -> None:
    """Arbitrary and mutated position strings: only BoardlabError escapes, and what loads round-trips."""
    _require_hypothesis()
    import hypothesis
    from hypothesis import strategies as st

    positions = sorted({s.position() for s in sample_states(game)})

    @_settings(budget)
    @hypothesis.given(text=st.one_of(st.text(max_size=60), _mutated(positions)))
    def check(text: str) -> None:
        try:
            state = game.state_from_position(text, seed=1)
        except BoardlabError:
            return
        again = game.state_from_position(state.position(), seed=1)
        assert again.position() == state.position()

    check()


FUZZ_CHECKS = (check_fuzz_parse_move, check_fuzz_positions)

__all__ = ["FUZZ_CHECKS", "check_fuzz_parse_move", "check_fuzz_positions", "sample_states"]
