"""Tournaments: every pairing of agents plays with seats rotated, then the agents are rated.

A tournament is a :class:`~boardlab.lab.study.Study` whose variants are the
pairings (every combination of ``players`` agents out of those listed), so it
runs, stores and resumes like any study. Ratings come from openskill's
Plackett-Luce model (the ``lab`` extra), updated game by game in a fixed order
(game index, then pairing) so the same games always give the same ratings.
A rating's interval is mu +- 1.96 sigma (openskill's uncertainty).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.errors import OptionError
from .stats import GameOutcome
from .study import Study, Variant

PAIRING_SEPARATOR = " vs "


def pairings(agents: Sequence[str], players: int) -> tuple[Variant, ...]:
    """One variant per combination of ``players`` distinct agents, in the order listed."""
    if len(set(agents)) != len(agents):
        raise OptionError(f"--agents lists an agent twice: {','.join(agents)}")
    if len(agents) < max(2, players):
        raise OptionError(f"a tournament of {players}-player games needs at least {max(2, players)} agents, got {len(agents)}")
    return tuple(
        Variant(PAIRING_SEPARATOR.join(group), {}, tuple(group)) for group in itertools.combinations(agents, players)
    )


@dataclass(frozen=True)
class Rating:
    """An agent's rating: ``mu`` with the interval [low, high], over ``games`` games scoring ``score_rate``."""

    agent: str
    mu: float
    sigma: float
    low: float
    high: float
    games: int
    score_rate: float

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def rate(study: Study, outcomes: Mapping[str, Sequence[GameOutcome]], agents: Sequence[str]) -> list[Rating]:
    """Rate ``agents`` from a tournament's games; best first."""
    try:
        from openskill.models import PlackettLuce  # the lab extra: only ratings need it
    except ImportError:
        raise OptionError("ratings need openskill: pip install 'boardlab[lab]'") from None
    model = PlackettLuce()
    ratings = {agent: model.rating(name=agent) for agent in agents}
    games = dict.fromkeys(agents, 0)
    scores = dict.fromkeys(agents, 0.0)
    seating = {variant.name: variant.agents for variant in study.variants}
    ordered = sorted(
        ((outcome.index, number, outcome) for number, name in enumerate(outcomes) for outcome in outcomes[name]),
        key=lambda item: item[:2],
    )
    for _index, _pairing, outcome in ordered:
        seated = [seating[outcome.variant][agent] for agent in outcome.seat_agents]
        teams = [[ratings[agent]] for agent in seated]
        # openskill ranks: lower is better; equal returns share a rank (a draw)
        ranks = [-value for value in outcome.returns]
        updated = model.rate(teams, ranks=ranks)
        for agent, (rating,) in zip(seated, updated):
            ratings[agent] = rating
            games[agent] += 1
        for agent, value in zip(seated, outcome.returns):
            scores[agent] += value
    table = [
        Rating(
            agent=agent,
            mu=rating.mu,
            sigma=rating.sigma,
            low=rating.mu - 1.96 * rating.sigma,
            high=rating.mu + 1.96 * rating.sigma,
            games=games[agent],
            score_rate=scores[agent] / games[agent] if games[agent] else 0.0,
        )
        for agent, rating in ratings.items()
    ]
    return sorted(table, key=lambda entry: -entry.mu)
