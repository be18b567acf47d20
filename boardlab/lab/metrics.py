"""The designer's metrics of a study, per variant, and their differences between variants.

Modelled on Browne's and Ludii's game evaluation metrics; docs/lab.md defines
each one and says what a designer reads from it. A metric is a per-game figure
(:class:`Metric.per_game`) of one of three kinds:

* ``rate``: 0 or 1 per game (a draw, a win of the first player ...), reported as
  a share with a Wilson interval; differences by Newcombe's interval;
* ``mean``: a number per game (its length, its mean branching factor ...),
  reported as a mean with a normal interval; differences by Welch's interval;
* ``balance``: the spread of the seats' score rates over the whole set of games,
  with bootstrap intervals.

A game for which a figure is undefined (a lead change in a game without an
evaluation function) gives None and is left out of that metric.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, Literal

from ..core.game import Game
from .intervals import (
    binomial_two_sided_p,
    bootstrap_difference,
    bootstrap_interval,
    mean_interval,
    newcombe_difference,
    share_interval,
    two_seat_balance_interval,
    welch_difference,
)
from .stats import GameOutcome, LengthStats, repeated_games, seat_balance, wilson_interval

#: ending codes that mean "stopped by a limit", not decided by play, in a game that names none
#: of its own (docs/api.md, "Results")
LIMIT_CODES = Game.limit_codes
#: the parts a game's branching factor is averaged over (tenths of the game)
CURVE_PARTS = 10

Kind = Literal["rate", "mean", "balance"]


@dataclass(frozen=True)
class Metric:
    """One figure of a study: its key, its title, its kind and how to read it."""

    key: str
    title: str
    kind: Kind
    per_game: Callable[[GameOutcome], float | None]
    reading: str
    #: a mean of shares in [0, 1], shown as a percentage and kept within [0, 1]
    share: bool = False

    @property
    def shown_as_percent(self) -> bool:
        return self.kind != "mean" or self.share


@dataclass(frozen=True)
class Estimate:
    """A metric's value with a 95% interval over ``games`` games (nan where undefined)."""

    value: float
    low: float
    high: float
    games: int

    def to_json(self) -> dict[str, Any]:
        return {key: (None if isinstance(val, float) and not math.isfinite(val) else val) for key, val in self.__dict__.items()}

    @property
    def excludes_zero(self) -> bool:
        """For a difference: whether the interval lies wholly on one side of 0."""
        return self.low > 0 or self.high < 0


def _rate(test: Callable[[GameOutcome], bool | None]) -> Callable[[GameOutcome], float | None]:
    def per_game(outcome: GameOutcome) -> float | None:
        answer = test(outcome)
        return None if answer is None else float(answer)

    return per_game


def _first_player_won(outcome: GameOutcome) -> bool | None:
    if outcome.is_draw or outcome.first_mover is None:
        return None
    return outcome.winners[0] == outcome.first_mover


def _mean_branching(outcome: GameOutcome) -> float | None:
    return statistics.fmean(outcome.branching) if outcome.branching else None


def _repetition(outcome: GameOutcome) -> float | None:
    return outcome.repeated / outcome.decisions if outcome.decisions else None


def _optional(value: float | int | None) -> float | None:
    return None if value is None else float(value)


def metric_definitions(
    seat_names: Sequence[str], agents: Sequence[str] = (), limit_codes: Collection[str] = LIMIT_CODES,
) -> list[Metric]:
    """Every metric of a study with these seats (and agent labels, for per-agent scores);
    ``limit_codes`` are the game's endings by a limit (``Game.limit_codes``)."""
    limits = frozenset(limit_codes)
    metrics = [
        Metric(
            f"win_{seat}",
            f"{name} wins",
            "rate",
            _rate(partial(_won_alone, seat=seat)),
            "share of games this seat wins alone",
        )
        for seat, name in enumerate(seat_names)
    ]
    metrics += [
        Metric(
            "first_player_wins",
            "first player wins (of decided games)",
            "rate",
            _rate(_first_player_won),
            f"1/{len(seat_names)} is fair; above it the first player has an advantage",
        ),
        Metric("balance", "balance", "balance", lambda o: None, "1 - (highest - lowest seat score rate); 1 is perfectly even"),
        Metric("completion", "decided (a sole winner)", "rate", _rate(lambda o: not o.is_draw), "share of games with a winner"),
        Metric("draws", "draws", "rate", _rate(lambda o: o.is_draw), "share of games shared or drawn"),
        Metric(
            "limit",
            "ended by a limit",
            "rate",
            _rate(lambda o: o.code in limits),
            "games stopped by a move or no-progress limit",
        ),
        Metric(
            "repetition_end",
            "ended by repetition",
            "rate",
            _rate(lambda o: o.code == "repetition"),
            "games drawn by a repeated position",
        ),
        Metric("decisions", "length in decisions", "mean", lambda o: float(o.decisions), "players' moves per game"),
        Metric("moves", "length in all moves", "mean", lambda o: float(o.moves), "moves per game, chance outcomes included"),
        Metric("branching", "branching factor", "mean", _mean_branching, "legal moves per decision, averaged over a game"),
        Metric(
            "repetition", "repeated positions", "mean", _repetition, "share of decisions taken at a position seen before",
            share=True,
        ),
        Metric(
            "lead_changes",
            "lead changes",
            "mean",
            lambda o: _optional(o.lead_changes),
            "changes of the leader by evaluation per game",
        ),
        Metric(
            "decided_at",
            "decided at (fraction of the game)",
            "mean",
            lambda o: o.decided_at,
            "how early the winner could be told: 0% at the start, 100% only at the end",
            share=True,
        ),
        Metric(
            "decisiveness_threshold",
            "decisiveness threshold (the loser's best chance)",
            "mean",
            lambda o: o.decisiveness_threshold,
            "the best chance a loser's evaluation ever gave it",
            share=True,
        ),
    ]
    for number, label in enumerate(agents):
        metrics.append(
            Metric(
                f"score_{number}",
                f"{label} score rate",
                "mean",
                partial(_agent_score, agent=number),
                "wins plus shares of draws, per game played",
                share=True,
            )
        )
    return metrics


def _won_alone(outcome: GameOutcome, seat: int) -> bool:
    return not outcome.is_draw and outcome.winners[0] == seat


def _agent_score(outcome: GameOutcome, agent: int) -> float | None:
    seats = [seat for seat, sitting in enumerate(outcome.seat_agents) if sitting == agent]
    if not seats:
        return None
    return sum(outcome.returns[seat] for seat in seats) / len(seats)


def balance(outcomes: Sequence[GameOutcome]) -> float:
    """1 - (highest - lowest) of the seats' score rates (returns averaged over games)."""
    if not outcomes:
        return math.nan
    totals = [sum(column) for column in zip(*(outcome.returns for outcome in outcomes))]
    rates: list[float] = [total / len(outcomes) for total in totals]
    return 1.0 - (max(rates) - min(rates))


def estimate(metric: Metric, outcomes: Sequence[GameOutcome]) -> Estimate:
    """The metric over ``outcomes`` with its 95% interval."""
    if metric.kind == "balance":
        low, high = balance_interval(outcomes)
        return Estimate(balance(outcomes), low, high, len(outcomes))
    values = [value for value in map(metric.per_game, outcomes) if value is not None]
    if metric.kind == "rate":
        if not values:
            return Estimate(math.nan, math.nan, math.nan, 0)
        successes = round(sum(values))
        low, high = wilson_interval(successes, len(values))
        return Estimate(successes / len(values), low, high, len(values))
    if metric.share:
        mean, (low, high) = share_interval(values)
        return Estimate(mean, low, high, len(values))
    mean, (low, high) = mean_interval(values)
    return Estimate(mean, low, high, len(values))


def balance_interval(outcomes: Sequence[GameOutcome]) -> tuple[float, float]:
    """The balance's 95% interval: from the first seat's score rate where two seats share a
    return of 1 in every game (intervals.two_seat_balance_interval), else bootstrapped."""
    if not outcomes:
        return (math.nan, math.nan)
    if all(len(outcome.returns) == 2 and math.isclose(sum(outcome.returns), 1.0) for outcome in outcomes):
        return two_seat_balance_interval([outcome.returns[0] for outcome in outcomes])
    return bootstrap_interval(outcomes, balance)


def difference(metric: Metric, outcomes_a: Sequence[GameOutcome], outcomes_b: Sequence[GameOutcome]) -> Estimate:
    """metric(b) - metric(a) with a 95% interval (``games``: the smaller sample)."""
    if metric.kind == "balance":
        value, (low, high) = bootstrap_difference(outcomes_a, outcomes_b, balance)
        return Estimate(value, low, high, min(len(outcomes_a), len(outcomes_b)))
    values_a = [value for value in map(metric.per_game, outcomes_a) if value is not None]
    values_b = [value for value in map(metric.per_game, outcomes_b) if value is not None]
    if metric.kind == "rate":
        value, (low, high) = newcombe_difference(round(sum(values_a)), len(values_a), round(sum(values_b)), len(values_b))
    else:
        value, (low, high) = welch_difference(values_a, values_b)
        if metric.share:  # two shares differ by 100 points at most, whatever a normal interval says
            low, high = max(-1.0, low), min(1.0, high)
    return Estimate(value, low, high, min(len(values_a), len(values_b)))


def first_player_test(outcomes: Sequence[GameOutcome], seats: int) -> float:
    """p-value of the exact binomial test "the first player wins 1/seats of the decided games"."""
    results = [won for won in map(_first_player_won, outcomes) if won is not None]
    return binomial_two_sided_p(sum(results), len(results), 1.0 / seats)


def histogram(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """Counts per bin ``[edges[i], edges[i+1])``; the last bin includes its upper edge."""
    counts = [0] * (len(edges) - 1)
    for value in values:
        for number in range(len(counts)):
            last = number == len(counts) - 1
            if edges[number] <= value < edges[number + 1] or (last and value == edges[-1]):
                counts[number] += 1
                break
    return counts


def histogram_edges(values: Sequence[float], bins: int = 20) -> list[float]:
    """``bins`` equal whole-number-wide bins covering every value (shared across variants)."""
    if not values:
        return [0.0, 1.0]
    low, high = math.floor(min(values)), math.ceil(max(values))
    width = max(1, math.ceil((high - low + 1) / bins))
    return [float(low + width * number) for number in range(bins + 1)]


def branching_curve(outcomes: Sequence[GameOutcome], parts: int = CURVE_PARTS) -> list[float | None]:
    """The mean branching factor in each tenth (``parts``) of the game: decision ``i`` of a
    game of ``n`` decisions falls in part ``floor(parts * i / n)``; each game's parts are
    averaged first, then the games."""
    sums = [0.0] * parts
    counts = [0] * parts
    for outcome in outcomes:
        series = outcome.branching
        if not series:
            continue
        per_part: list[list[int]] = [[] for _ in range(parts)]
        for number, value in enumerate(series):
            per_part[parts * number // len(series)].append(value)
        for part, values in enumerate(per_part):
            if values:
                sums[part] += statistics.fmean(values)
                counts[part] += 1
    return [total / count if count else None for total, count in zip(sums, counts)]


@dataclass(frozen=True)
class VariantMetrics:
    """Every metric of one variant, plus the tests and curves a report draws."""

    variant: str
    games: int
    estimates: dict[str, Estimate]
    first_player_p: float
    seat_balance_p: float
    endings: dict[str, int]
    branching_curve: list[float | None]
    #: the spread of the lengths: "decisions" and "moves" -> LengthStats
    lengths: dict[str, LengthStats]
    #: games identical to an earlier one of this variant (stats.repeated_games)
    repeated_games: int = 0
    #: decisions played by the fallback move instead of the agent (GameOutcome.fallback_moves)
    fallback_moves: int = 0
    #: games each seat moved first in (games whose first mover is known): a game that decides
    #: who starts by chance makes a seat's edge a finding of its own, apart from moving first
    first_movers: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "lengths": {name: _finite_fields(asdict(stats)) for name, stats in self.lengths.items()},
            "variant": self.variant,
            "games": self.games,
            "metrics": {key: value.to_json() for key, value in self.estimates.items()},
            "first_player_p": _finite(self.first_player_p),
            "seat_balance_p": _finite(self.seat_balance_p),
            "endings": self.endings,
            "branching_curve": self.branching_curve,
            "repeated_games": self.repeated_games,
            "fallback_moves": self.fallback_moves,
            "first_movers": list(self.first_movers),
        }


def variant_metrics(
    variant: str, outcomes: Sequence[GameOutcome], metrics: Sequence[Metric], seats: int
) -> VariantMetrics:
    seat_wins = [0] * seats
    first_movers = [0] * seats
    endings: dict[str, int] = {}
    for outcome in outcomes:
        endings[outcome.code] = endings.get(outcome.code, 0) + 1
        if outcome.first_mover is not None:
            first_movers[outcome.first_mover] += 1
        if not outcome.is_draw:
            seat_wins[outcome.winners[0]] += 1
    return VariantMetrics(
        variant=variant,
        games=len(outcomes),
        estimates={metric.key: estimate(metric, outcomes) for metric in metrics},
        first_player_p=first_player_test(outcomes, seats),
        seat_balance_p=seat_balance(seat_wins)[1],
        endings=dict(sorted(endings.items(), key=lambda item: -item[1])),
        branching_curve=branching_curve(outcomes),
        lengths={
            "decisions": LengthStats.of([o.decisions for o in outcomes]),
            "moves": LengthStats.of([o.moves for o in outcomes]),
        },
        repeated_games=repeated_games(outcomes),
        fallback_moves=sum(outcome.fallback_moves for outcome in outcomes),
        first_movers=tuple(first_movers),
    )


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _finite_fields(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: _finite(value) if isinstance(value, float) else value for key, value in fields.items()}
