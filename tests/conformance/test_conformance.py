"""The conformance suite over every registered game (each check: boardlab/testing/checks.py)."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.testing import CHECKS, FUZZ_CHECKS, Budget, Config, check_every_configuration_plays, check_returns
from boardlab.testing.helpers import playthrough


@pytest.mark.parametrize("check", [*CHECKS, *FUZZ_CHECKS], ids=lambda check: check.__name__.removeprefix("check_"))
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
