"""Parametrize the conformance suite (boardlab.testing) over every registered game.

Each game's budget comes from its own ``conformance_budget`` (boardlab.testing.budget_for); its
fuzz checks try a share of their examples in CI and all of them in the slow run
(tests/support/budgets.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import boardlab
from boardlab.testing import Budget, budget_for, configurations
from tests.support.budgets import examples


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_id" in metafunc.fixturenames:
        metafunc.parametrize("game_id", boardlab.game_ids())
    if "config" in metafunc.fixturenames:
        configs = [c for game_id in boardlab.game_ids() for c in configurations(game_id)[1:]]
        metafunc.parametrize("config", configs, ids=[str(c) for c in configs])


@pytest.fixture
def budget(request: pytest.FixtureRequest) -> Budget:
    game_id = request.getfixturevalue("game_id") if "game_id" in request.fixturenames else None
    if game_id is None:
        game_id = request.getfixturevalue("config").game_id
    declared = budget_for(game_id)
    return replace(declared, fuzz_examples=examples(declared.fuzz_examples))


@pytest.fixture
def game(game_id: str) -> boardlab.Game:
    """The game in its default configuration."""
    return boardlab.load(game_id)
