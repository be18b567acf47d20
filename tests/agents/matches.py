"""Strength matches for the slow agent tests: one agent against another, seats alternating."""

from __future__ import annotations

import boardlab
from boardlab.agents import make_agent
from tests.support.play import played_record


def match_score(game_id: str, spec: str, opponent: str, games: int) -> float:
    """The total return of ``spec`` over ``games`` games of ``game_id`` against ``opponent``.

    Game ``i`` uses seed ``i``; ``spec`` takes seat ``i % 2``, so both seats are played equally.
    """
    game = boardlab.load(game_id)
    score = 0.0
    for seed in range(games):
        seat = seed % 2
        agents = [make_agent(spec, seed=seed), make_agent(opponent, seed=seed + 1000)]
        if seat:
            agents.reverse()
        result = played_record(game, agents, seed=seed).result
        assert result is not None
        score += result.returns[seat]
    return score
