"""ISMCTS on Territories, the product game with hidden hands (slow: kept out of CI)."""

from __future__ import annotations

import pytest

import boardlab
from tests.agents.matches import match_score

pytestmark = pytest.mark.slow


def _score(spec: str, opponent: str, games: int) -> float:
    if "territories" not in boardlab.game_ids():
        pytest.skip("territories is not registered")
    return match_score("territories", spec, opponent, games)


def test_ismcts_beats_random_at_territories() -> None:
    assert _score("ismcts:iterations=300", "random", 6) >= 5


def test_greedy_beats_random_at_territories() -> None:
    # with every trade proposal listed once announced (docs/rules/territories.md, R8.2, R10.3)
    assert _score("greedy", "random", 6) >= 5
