"""Strength matches for the slow agent tests: one agent against another, seats alternating."""

from __future__ import annotations

from collections.abc import Iterator

import boardlab
from boardlab.agents import make_agent
from boardlab.core import Result
from tests.support.play import played_record


def match_results(game_id: str, spec: str, opponent: str, games: int) -> Iterator[tuple[int, Result]]:
    """Each game's result and the seat ``spec`` sat in, over ``games`` games against ``opponent``.

    Game ``i`` uses seed ``i``; ``spec`` takes seat ``i % 2``, so both seats are played equally.
    """
    game = boardlab.load(game_id)
    for seed in range(games):
        seat = seed % 2
        agents = [make_agent(spec, seed=seed), make_agent(opponent, seed=seed + 1000)]
        if seat:
            agents.reverse()
        result = played_record(game, agents, seed=seed).result
        assert result is not None
        yield seat, result


def match_score(game_id: str, spec: str, opponent: str, games: int) -> float:
    """The total return of ``spec`` over the games of :func:`match_results`."""
    return sum(result.returns[seat] for seat, result in match_results(game_id, spec, opponent, games))


def match_wins(game_id: str, spec: str, opponent: str, games: int) -> int:
    """The games of :func:`match_results` that ``spec`` wins outright."""
    return sum(result.winners == (seat,) for seat, result in match_results(game_id, spec, opponent, games))
