"""ISMCTS on Territories, the product game with hidden hands (slow: kept out of CI)."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.lab import play_game

pytestmark = pytest.mark.slow


def _score(spec: str, opponent: str, games: int) -> float:
    if "territories" not in boardlab.game_ids():
        pytest.skip("territories is not registered")
    game = boardlab.load("territories")
    score = 0.0
    for seed in range(games):
        seat = seed % 2
        agents = [make_agent(spec, seed=seed), make_agent(opponent, seed=seed + 1000)]
        if seat:
            agents.reverse()
        result = play_game(game, agents, seed=seed).result
        assert result is not None
        score += result.returns[seat]
    return score


def test_ismcts_beats_random_at_territories() -> None:
    assert _score("ismcts:iterations=300", "random", 6) >= 5
