"""The conformance suite over every registered game (each check: boardlab/testing/checks.py)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.testing import CHECKS, FUZZ_CHECKS, Budget, Config, check_every_configuration_plays, check_returns, helpers
from boardlab.testing.helpers import playthrough
from tests.support.budgets import full_budgets

#: the fuzz checks try a share of each game's examples in CI, all of them in the slow run
#: (tests/support/budgets.py), where they count as slow
FUZZ = [pytest.param(check, marks=pytest.mark.slow) if full_budgets() else check for check in FUZZ_CHECKS]


@pytest.mark.parametrize("check", [*CHECKS, *FUZZ], ids=lambda check: check.__name__.removeprefix("check_"))
def test_game_passes(check, game: boardlab.Game, budget: Budget) -> None:
    check(game, budget)


def test_every_configuration_plays(config: Config, budget: Budget) -> None:
    check_every_configuration_plays(config, budget)


@pytest.mark.slow
def test_many_random_games_end_within_the_bound(game: boardlab.Game, budget: Budget) -> None:
    """The long version of the termination check (`python -m pytest -m slow`): 20x the games."""
    for seed in range(1000, 1000 + 20 * budget.random_games):
        for state in playthrough(game, seed):  # noqa: B007 (the last state is the end)
            pass
        assert state.ply <= game.max_moves
        check_returns(state)


def test_a_seeded_game_is_drawn_once_then_replayed_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks share each seed's game: its moves are drawn on the first walk only, and a
    replay passes through the same positions; ``fresh`` draws them again (as the determinism
    check needs)."""
    game = boardlab.load("towers")
    drawn: list[int] = []
    draw = helpers.random_move

    def counted(state: boardlab.State, rng: random.Random) -> boardlab.Move:
        drawn.append(state.ply)
        return draw(state, rng)

    monkeypatch.setattr(helpers, "random_move", counted)
    seed = 4242  # a seed none of the checks walks
    first = [state.position() for state in playthrough(game, seed)]
    assert len(drawn) == len(first) - 1 > 10
    again = [state.position() for state in playthrough(game, seed)]
    assert again == first and len(drawn) == len(first) - 1
    redrawn = [state.position() for state in playthrough(game, seed, fresh=True)]
    assert redrawn == first and len(drawn) == 2 * (len(first) - 1)
