"""Stop when sure: anytime-valid intervals, and a study played in batches until they settle.

A fixed-n interval (Wilson, Newcombe) is valid only at the one n chosen in
advance: looking after every batch and stopping at the first interval that
excludes 0 makes "sure" come out by chance far more often than 1 time in 20.
A *confidence sequence* is a sequence of intervals that holds the truth at
every n at once with probability 95%, so the study may look after each batch
and stop whenever it likes.

The method is the predictable plug-in empirical-Bernstein confidence sequence
of Waudby-Smith and Ramdas (*Estimating means of bounded random variables by
betting*, JRSS B 2023, Theorem 2) for a mean of values in [0, 1] (docs/lab.md
gives the formula). It adapts to the variance (a rare draw is settled sooner
than a coin flip) where a Hoeffding sequence would not, and needs only the
standard library. A difference in draws is the sequence of the paired
differences (game i of each variant shares its seed); a difference in the first
player's share of decided games takes each variant's sequence at half the error
(a union bound). Both hold at every n.

:func:`run_until_sure` plays a study in batches of games per variant and stops
as soon as every watched figure (:func:`watched_figures`) is settled: its
interval excludes the reference (0 for a difference, an even share for a
single study) or is narrower than the designer's width, or at the study's
``games``. The schedule of looks is fixed (multiples of ``batch``), so a
resumed study stops at the same game as an uninterrupted one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .stats import GameOutcome
from .study import OutcomeSink, Study, run_study

ALPHA = 0.05
#: the largest bet: the method's c (1/2 or 3/4 in the paper; 1/2 is the safer choice)
LARGEST_BET = 0.5
METHOD = "empirical-Bernstein confidence sequence (Waudby-Smith and Ramdas 2023), 95% at every n"

Interval = tuple[float, float]


def confidence_sequence(values: Sequence[float], alpha: float = ALPHA) -> list[Interval]:
    """The interval for the mean of ``values`` (each in [0, 1]) after each of them, valid
    at every length at once with probability 1 - ``alpha``; entry t uses values[:t + 1]."""
    log_term = math.log(2 / alpha)
    mean_sum, spread_sum = 0.5, 0.25  # the method's priors: a mean of 1/2, a variance of 1/4
    weighted, weights, penalty = 0.0, 0.0, 0.0
    low, high = 0.0, 1.0
    intervals = []
    for number, value in enumerate(values, start=1):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"a confidence sequence needs values in [0, 1], got {value}")
        prior_mean = mean_sum / number
        prior_variance = spread_sum / number
        bet = min(math.sqrt(2 * log_term / (prior_variance * number * math.log(1 + number))), LARGEST_BET)
        weighted += bet * value
        weights += bet
        penalty += (value - prior_mean) ** 2 * (-math.log1p(-bet) - bet)  # v_t psi_E(lambda_t)
        centre = weighted / weights
        half = (log_term + penalty) / weights
        # intersecting with the earlier intervals keeps the guarantee and never widens
        low, high = max(low, centre - half), min(high, centre + half)
        if low > high:  # only by chance beyond the 5%: keep a point rather than an empty set
            low = high = centre
        intervals.append((low, high))
        mean_sum += value
        spread_sum += (value - mean_sum / (number + 1)) ** 2
    return intervals


def sequence_interval(values: Sequence[float], alpha: float = ALPHA) -> Interval:
    """The confidence sequence's interval after all of ``values``; (0, 1) with none."""
    return confidence_sequence(values, alpha)[-1] if values else (0.0, 1.0)


def sequence_difference(values_a: Sequence[float], values_b: Sequence[float], alpha: float = ALPHA) -> Interval:
    """An anytime-valid interval for mean(b) - mean(a): each sequence at alpha / 2."""
    low_a, high_a = sequence_interval(values_a, alpha / 2)
    low_b, high_b = sequence_interval(values_b, alpha / 2)
    return (low_b - high_a, high_b - low_a)


def paired_difference(values_a: Sequence[float], values_b: Sequence[float], alpha: float = ALPHA) -> Interval:
    """An anytime-valid interval for mean(b) - mean(a) from pairs (game i of each variant):
    the sequence of (b_i - a_i + 1) / 2, which lies in [0, 1], mapped back. Variants play
    game i on the same seed, so the pairs move together and this is far narrower than
    :func:`sequence_difference` where a rule change alters few games."""
    if len(values_a) != len(values_b):
        raise ValueError("paired values need as many of each")
    low, high = sequence_interval([(b - a + 1) / 2 for a, b in zip(values_a, values_b)], alpha)
    return (2 * low - 1, 2 * high - 1)


@dataclass(frozen=True)
class Watched:
    """One figure a stopping study waits for: ``reference`` is what "no difference" is."""

    label: str
    value: float
    low: float
    high: float
    reference: float
    games: int

    def settled(self, width: float | None) -> bool:
        excludes = self.low > self.reference or self.high < self.reference
        return excludes or (width is not None and self.high - self.low < width)

    def to_json(self, width: float | None) -> dict[str, Any]:
        return {
            "label": self.label, "value": self.value, "low": self.low, "high": self.high,
            "reference": self.reference, "games": self.games, "settled": self.settled(width),
        }


def _first_player(outcome: GameOutcome) -> float | None:
    if outcome.is_draw or outcome.first_mover is None:
        return None
    return float(outcome.winners[0] == outcome.first_mover)


def _draw(outcome: GameOutcome) -> float:
    return float(outcome.is_draw)


def _score(agent: int) -> Callable[[GameOutcome], float | None]:
    def per_game(outcome: GameOutcome) -> float | None:
        seats = [seat for seat, sitting in enumerate(outcome.seat_agents) if sitting == agent]
        return sum(outcome.returns[seat] for seat in seats) / len(seats) if seats else None

    return per_game


def _values(outcomes: Sequence[GameOutcome], per_game: Callable[[GameOutcome], float | None]) -> list[float]:
    ordered = sorted(outcomes, key=lambda outcome: outcome.index)
    return [value for value in map(per_game, ordered) if value is not None]


def watched_figures(
    outcomes: Mapping[str, Sequence[GameOutcome]], agents: Sequence[str], seats: int, alpha: float = ALPHA
) -> list[Watched]:
    """What a study asks about, with anytime-valid intervals.

    Several variants: each variant minus the first in who wins (the first player's share
    of decided games) and in draws. One variant with different agents: each agent's score
    rate against an even share; one agent in every seat: the first player's share of
    decided games against 1/seats.
    """
    names = list(outcomes)
    figures = []
    if len(names) > 1:
        baseline = outcomes[names[0]]
        for name in names[1:]:
            for title, per_game in (("first player wins", _first_player), ("draws", _draw)):
                values_a, values_b = _values(baseline, per_game), _values(outcomes[name], per_game)
                if not values_a or not values_b:
                    continue
                # a draw is defined for every game, so games pair up by index; the first
                # player's share is of decided games only, which differ between variants
                paired = per_game is _draw and len(values_a) == len(values_b)
                low, high = (paired_difference if paired else sequence_difference)(values_a, values_b, alpha)
                value = sum(values_b) / len(values_b) - sum(values_a) / len(values_a)
                figures.append(Watched(f"{name}: {title}", value, low, high, 0.0, min(len(values_a), len(values_b))))
        return figures
    games = outcomes[names[0]] if names else []
    checks: list[tuple[str, Callable[[GameOutcome], float | None]]]
    if len(set(agents)) > 1:
        checks = [(f"{agent} score rate", _score(number)) for number, agent in enumerate(agents)]
    else:
        checks = [("first player wins", _first_player)]
    for title, value_of in checks:
        values = _values(games, value_of)
        if values:
            low, high = sequence_interval(values, alpha)
            figures.append(Watched(title, sum(values) / len(values), low, high, 1 / seats, len(values)))
    return figures


@dataclass(frozen=True)
class Stopping:
    """How a stopping study ended: after ``games`` per variant (of at most ``limit``)."""

    games: int
    limit: int
    batch: int
    width: float | None
    watched: tuple[Watched, ...]

    @property
    def settled(self) -> bool:
        return bool(self.watched) and all(figure.settled(self.width) for figure in self.watched)

    def reason(self) -> str:
        """Why it stopped, with every watched interval."""
        def shown(figure: Watched) -> str:
            return (f"{figure.label} {figure.value:.0%} [{figure.low:.0%}, {figure.high:.0%}]"
                    f"{' (settled)' if figure.settled(self.width) else ''}")

        figures = "; ".join(shown(figure) for figure in self.watched) or "nothing to watch yet"
        narrow = f", or narrower than {self.width:.0%}" if self.width is not None else ""
        if self.settled:
            return (f"sure after {self.games} games per variant (of at most {self.limit}): every watched "
                    f"interval excludes no difference{narrow}: {figures}")
        return f"not sure after {self.limit} games per variant (the -n limit): {figures}"

    def to_json(self) -> dict[str, Any]:
        return {
            "method": METHOD, "games": self.games, "limit": self.limit, "batch": self.batch, "width": self.width,
            "settled": self.settled, "reason": self.reason(),
            "watched": [figure.to_json(self.width) for figure in self.watched],
        }


def run_until_sure(
    study: Study,
    agents: Sequence[str],
    seats: int,
    batch: int,
    width: float | None = None,
    run: Callable[[Study], dict[str, list[GameOutcome]]] | None = None,
    sink: OutcomeSink | None = None,
) -> tuple[dict[str, list[GameOutcome]], Stopping]:
    """Play ``study`` ``batch`` games per variant at a time until every watched figure is
    settled or ``study.games`` are played. ``run`` plays a study of the first n games (by
    default :func:`run_study` into ``sink``); games stored earlier are not played again."""
    if batch < 1:
        raise ValueError("a batch needs at least one game")
    play = run or (lambda part: run_study(part, sink=sink))
    played = 0
    while True:
        played = min(played + batch, study.games)
        outcomes = play(replace(study, games=played))
        stopping = Stopping(played, study.games, batch, width, tuple(watched_figures(outcomes, agents, seats)))
        if stopping.settled or played >= study.games:
            return outcomes, stopping
