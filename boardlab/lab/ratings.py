"""Tournaments: every pairing of agents plays with seats rotated, then the agents are rated.

A tournament is a :class:`~boardlab.lab.study.Study` whose variants are the
pairings (every combination of ``players`` agents out of those listed), so it
runs, stores and resumes like any study. Ratings come from openskill's
Plackett-Luce model (the ``lab`` extra), updated game by game in a fixed order
(game index, then pairing) so the same games always give the same ratings.
A rating's interval is mu +- 1.96 sigma (openskill's uncertainty).

Beside them, Elo ratings fitted by maximum likelihood (:func:`fit_elo`, standard library
only): the scale players know, anchored at ``random`` = 0, from the same games. The level
ladder (bench/levels.py) rates the computer's levels with the same function.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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


# --- Elo by maximum likelihood ----------------------------------------------------------
#: Elo points per natural-log unit of strength: a 400-point gap is odds of 10 to 1
ELO_SCALE = 400.0 / math.log(10.0)
#: the agent that is 0 on every Elo scale where it plays
ELO_ANCHOR = "random"

#: one pairwise result: (agent a, agent b, a's score: 1 a win, 0.5 a draw, 0 a loss)
Comparison = tuple[str, str, float]


@dataclass(frozen=True)
class EloRating:
    """An agent's Elo with its 95% interval [low, high] (None: not linked to the anchor by
    any chain of games), from ``games`` games scoring ``score_rate``."""

    agent: str
    elo: float | None
    low: float | None
    high: float | None
    games: int
    score_rate: float

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def elo_expected(difference: float) -> float:
    """The expected score of a player ``difference`` Elo points above its opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -difference / 400.0))


def fit_elo(
    comparisons: Iterable[Comparison],
    anchor: str,
    agents: Sequence[str] | None = None,
    prior_draws: float = 1.0,
    games: Mapping[str, int] | None = None,
    z: float = 1.96,
) -> list[EloRating]:
    """Elo ratings by maximum likelihood under the Bradley-Terry model, ``anchor`` at 0; best first.

    P(a beats b) = 1 / (1 + 10^((elo_b - elo_a) / 400)); a draw counts as half a win for each
    side (the binomial likelihood of the points scored). Each pair that met gets
    ``prior_draws`` virtual drawn games on top: a level that wins every game against the one
    below would otherwise be infinitely stronger, and one drawn game in a hundred moves a
    rating by only a few points. The interval is elo +- z standard errors, from the inverse of
    the observed information at the maximum (the anchor has none: the others are measured
    from it). ``games`` overrides the count of games per agent (when one game yields several
    comparisons, as a game of four does).
    """
    order: list[str] = list(agents or ())
    points: dict[tuple[str, str], float] = {}
    meetings: dict[tuple[str, str], float] = {}
    played: dict[str, int] = {}
    scored: dict[str, float] = {}
    for a, b, score in comparisons:
        if a == b:
            continue
        for name in (a, b):
            if name not in order:
                order.append(name)
        key, share = ((a, b), score) if order.index(a) < order.index(b) else ((b, a), 1.0 - score)
        points[key] = points.get(key, 0.0) + share
        meetings[key] = meetings.get(key, 0.0) + 1.0
        played[a] = played.get(a, 0) + 1
        played[b] = played.get(b, 0) + 1
        scored[a] = scored.get(a, 0.0) + score
        scored[b] = scored.get(b, 0.0) + 1.0 - score
    if anchor not in order:
        order.insert(0, anchor)
    for key in meetings:
        meetings[key] += prior_draws
        points[key] += prior_draws / 2
    linked = _linked(anchor, meetings)
    free = [name for name in order if name in linked and name != anchor]
    strength, information = _newton(free, anchor, points, meetings)
    covariance = _inverse(information) if free else []
    counts = dict(played) if games is None else dict(games)
    table = []
    for name in order:
        count = counts.get(name, 0)
        rate_ = scored.get(name, 0.0) / played[name] if played.get(name) else 0.0
        if name == anchor:
            table.append(EloRating(name, 0.0, 0.0, 0.0, count, rate_))
        elif name in linked:
            i = free.index(name)
            elo = strength[name] * ELO_SCALE
            spread = z * math.sqrt(max(covariance[i][i], 0.0)) * ELO_SCALE
            table.append(EloRating(name, elo, elo - spread, elo + spread, count, rate_))
        else:
            table.append(EloRating(name, None, None, None, count, rate_))
    return sorted(table, key=lambda entry: -math.inf if entry.elo is None else -entry.elo)


def _linked(anchor: str, meetings: Mapping[tuple[str, str], float]) -> set[str]:
    """The agents joined to ``anchor`` by a chain of games: only they have a rating."""
    linked, frontier = {anchor}, [anchor]
    while frontier:
        here = frontier.pop()
        for a, b in meetings:
            for one, other in ((a, b), (b, a)):
                if one == here and other not in linked:
                    linked.add(other)
                    frontier.append(other)
    return linked


def _newton(
    free: list[str], anchor: str, points: Mapping[tuple[str, str], float], meetings: Mapping[tuple[str, str], float]
) -> tuple[dict[str, float], list[list[float]]]:
    """Maximise the log-likelihood over the free agents' strengths (natural-log units).

    The likelihood is concave, so Newton's method converges; a step is capped so the first
    ones, taken far from the maximum, cannot overshoot into overflow."""
    strength = dict.fromkeys(free, 0.0)
    strength[anchor] = 0.0
    index = {name: i for i, name in enumerate(free)}
    information: list[list[float]] = []
    for _ in range(500):
        gradient = [0.0] * len(free)
        information = [[0.0] * len(free) for _ in free]
        for (a, b), n in meetings.items():
            if a not in strength or b not in strength:
                continue
            p = 1.0 / (1.0 + math.exp(strength[b] - strength[a]))
            residual = points[(a, b)] - n * p
            weight = n * p * (1.0 - p)
            ia, ib = index.get(a), index.get(b)
            if ia is not None:
                gradient[ia] += residual
                information[ia][ia] += weight
            if ib is not None:
                gradient[ib] -= residual
                information[ib][ib] += weight
            if ia is not None and ib is not None:
                information[ia][ib] -= weight
                information[ib][ia] -= weight
        if not free:
            break
        step = _solve(information, gradient)
        largest = max(abs(value) for value in step)
        scale = min(1.0, 2.0 / largest) if largest > 0 else 1.0
        for name, value in zip(free, step):
            strength[name] += scale * value
        if largest < 1e-10:
            break
    return strength, information


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector (Gaussian elimination with partial pivoting)."""
    size = len(vector)
    rows = [[*list(row), value] for row, value in zip(matrix, vector)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-300:
            raise ArithmeticError("the ratings are not determined by these games")
        for r in range(size):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                if factor:
                    rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(size)]) for c in range(size)]
    return [[columns[c][r] for c in range(size)] for r in range(size)]


def outcome_comparisons(study: Study, outcomes: Mapping[str, Sequence[GameOutcome]]) -> tuple[list[Comparison], dict[str, int]]:
    """Every game as pairwise results between its seats (higher return wins, equal draws),
    and the games per agent. A game of k players yields k(k-1)/2 comparisons, which are not
    independent: with more than two players the Elo intervals are too narrow."""
    seating = {variant.name: variant.agents for variant in study.variants}
    comparisons: list[Comparison] = []
    games: dict[str, int] = {}
    for name in outcomes:
        for outcome in outcomes[name]:
            seated = [seating[outcome.variant][agent] for agent in outcome.seat_agents]
            for agent in set(seated):
                games[agent] = games.get(agent, 0) + 1
            for s, t in itertools.combinations(range(len(seated)), 2):
                a, b = outcome.returns[s], outcome.returns[t]
                comparisons.append((seated[s], seated[t], 1.0 if a > b else 0.5 if a == b else 0.0))
    return comparisons, games


def tournament_elo(
    study: Study, outcomes: Mapping[str, Sequence[GameOutcome]], agents: Sequence[str]
) -> tuple[str, list[EloRating]]:
    """A tournament's Elo ratings from the same games as its openskill ratings: the anchor
    (``random`` when it plays, else the first agent listed) and the table, best first."""
    anchor = ELO_ANCHOR if ELO_ANCHOR in agents else agents[0]
    comparisons, games = outcome_comparisons(study, outcomes)
    return anchor, fit_elo(comparisons, anchor, agents, games=games)
