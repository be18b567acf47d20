"""Parametrize the conformance suite over every registered game.

Per-game budgets live in :data:`BUDGETS`, the one place to make a slow game
(physics, say) run fewer or shorter checks. A game that is not listed gets
the default :class:`Budget`.
"""

from __future__ import annotations

import pytest

import boardlab
from tests.conformance.helpers import Budget, configurations

BUDGETS: dict[str, Budget] = {
    # physics settles every move: a few games, spot checks, fewer fuzz examples
    "honor": Budget(random_games=3, variant_games=1, check_every=7, moves_per_check=6, fuzz_examples=40),
    # long games with many moves per position
    "territories": Budget(random_games=6, variant_games=1, check_every=5, moves_per_check=25),
    "towers": Budget(random_games=8, variant_games=1, check_every=4, moves_per_check=30),
    "sovereign": Budget(random_games=8, variant_games=1, check_every=4, moves_per_check=30),
    "overseer": Budget(random_games=8, variant_games=1, check_every=4, moves_per_check=30),
}


def budget_for(game_id: str) -> Budget:
    return BUDGETS.get(game_id, Budget())


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_id" in metafunc.fixturenames:
        metafunc.parametrize("game_id", boardlab.game_ids())
    if "config" in metafunc.fixturenames:
        configs = [c for game_id in boardlab.game_ids() for c in configurations(game_id)]
        metafunc.parametrize("config", configs, ids=[str(c) for c in configs])


@pytest.fixture
def budget(request: pytest.FixtureRequest) -> Budget:
    game_id = request.getfixturevalue("game_id") if "game_id" in request.fixturenames else None
    if game_id is None:
        game_id = request.getfixturevalue("config").game_id
    return budget_for(game_id)


@pytest.fixture
def game(game_id: str) -> boardlab.Game:
    """The game in its default configuration."""
    return boardlab.load(game_id)
