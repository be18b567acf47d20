"""Confidence intervals and tests for the lab's metrics (standard library only).

Every interval is 95% unless ``z`` says otherwise. Which one a metric uses is
set by its kind (docs/lab.md, "How sure is a figure?"):

* a rate (a share of games): the Wilson score interval; the difference of two
  rates: Newcombe's hybrid score interval built from the two Wilson intervals;
* a mean (of a per-game figure): the normal interval mean +- z s / sqrt(n); the
  difference of two means: Welch's normal interval; their ratio: a normal interval for
  its logarithm;
* a share (a mean of figures between 0 and 1: a score rate, a draw counting half): the
  Wilson interval of its sum, which a normal interval would shrink to nothing when every
  game scores alike (a 100% score over 20 games is not certain);
* anything else (balance): a percentile bootstrap with a fixed seed, so a
  report is reproducible; with two seats whose returns add up to 1 in every game the
  balance follows from one seat's score rate, and its interval from that rate's (a bootstrap
  of games that all end alike would again be no wider than a point).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from typing import TypeVar

from .stats import wilson_interval

Z95 = 1.96
BOOTSTRAP_SAMPLES = 1000
BOOTSTRAP_SEED = 20240611

Row = TypeVar("Row")
Interval = tuple[float, float]


def newcombe_difference(
    successes_a: int, trials_a: int, successes_b: int, trials_b: int, z: float = Z95
) -> tuple[float, Interval]:
    """The difference of two rates, b - a, and Newcombe's hybrid score interval for it."""
    if trials_a == 0 or trials_b == 0:
        return (math.nan, (math.nan, math.nan))
    rate_a, rate_b = successes_a / trials_a, successes_b / trials_b
    low_a, high_a = wilson_interval(successes_a, trials_a, z)
    low_b, high_b = wilson_interval(successes_b, trials_b, z)
    difference = rate_b - rate_a
    low = difference - math.sqrt((rate_b - low_b) ** 2 + (high_a - rate_a) ** 2)
    high = difference + math.sqrt((high_b - rate_b) ** 2 + (rate_a - low_a) ** 2)
    return difference, (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, Interval]:
    """The mean and its normal interval; (nan, nan) bounds with fewer than two values."""
    if not values:
        return (math.nan, (math.nan, math.nan))
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, (math.nan, math.nan))
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, (mean - half, mean + half)


def welch_difference(values_a: Sequence[float], values_b: Sequence[float], z: float = Z95) -> tuple[float, Interval]:
    """mean(b) - mean(a) with Welch's normal interval (unequal variances)."""
    if len(values_a) < 2 or len(values_b) < 2:
        return (math.nan, (math.nan, math.nan))
    difference = statistics.fmean(values_b) - statistics.fmean(values_a)
    spread = math.sqrt(statistics.variance(values_a) / len(values_a) + statistics.variance(values_b) / len(values_b))
    return difference, (difference - z * spread, difference + z * spread)


def ratio_of_means(values_a: Sequence[float], values_b: Sequence[float], z: float = Z95) -> tuple[float, Interval]:
    """mean(b) / mean(a) with a normal interval for its logarithm (the delta method: the log of
    a mean has the variance s^2 / (n mean^2)), so the interval stays positive and a ratio of 1.3
    reads as "30% more". nan without two positive means of at least two values each."""
    if len(values_a) < 2 or len(values_b) < 2:
        return (math.nan, (math.nan, math.nan))
    mean_a, mean_b = statistics.fmean(values_a), statistics.fmean(values_b)
    if mean_a <= 0 or mean_b <= 0:
        return (math.nan, (math.nan, math.nan))
    spread = math.sqrt(
        statistics.variance(values_a) / (len(values_a) * mean_a**2)
        + statistics.variance(values_b) / (len(values_b) * mean_b**2)
    )
    ratio = mean_b / mean_a
    return ratio, (ratio * math.exp(-z * spread), ratio * math.exp(z * spread))


def binomial_two_sided_p(successes: int, trials: int, probability: float) -> float:
    """Exact two-sided binomial test of ``successes`` in ``trials`` against ``probability``:
    the total probability of every count no more likely than the one seen. O(trials)."""
    if trials == 0:
        return 1.0
    if probability <= 0.0 or probability >= 1.0:
        return 1.0 if successes == round(probability * trials) else 0.0

    def log_pmf(k: int) -> float:
        return (
            math.lgamma(trials + 1)
            - math.lgamma(k + 1)
            - math.lgamma(trials - k + 1)
            + k * math.log(probability)
            + (trials - k) * math.log1p(-probability)
        )

    observed = log_pmf(successes)
    # a relative tolerance so counts exactly as likely as the one seen are included
    limit = observed + 1e-7 * max(1.0, abs(observed))
    total = sum(math.exp(value) for value in map(log_pmf, range(trials + 1)) if value <= limit)
    return min(1.0, total)


def share_interval(values: Sequence[float], z: float = Z95) -> tuple[float, Interval]:
    """The mean of ``values`` (each between 0 and 1) and the Wilson interval of their sum."""
    if not values:
        return (math.nan, (math.nan, math.nan))
    return statistics.fmean(values), wilson_interval(math.fsum(values), len(values), z)


def two_seat_balance_interval(first_seat_scores: Sequence[float], z: float = Z95) -> Interval:
    """The interval of 1 - |r - (1 - r)| where r, the first seat's score rate, lies in its
    Wilson interval: the balance of two seats whose returns add up to 1 in every game."""
    low, high = wilson_interval(math.fsum(first_seat_scores), len(first_seat_scores), z)

    def balance(rate: float) -> float:
        return 1.0 - abs(2.0 * rate - 1.0)

    top = 1.0 if low <= 0.5 <= high else max(balance(low), balance(high))
    return min(balance(low), balance(high)), top


def bootstrap_interval(
    rows: Sequence[Row], statistic: Callable[[Sequence[Row]], float], samples: int = BOOTSTRAP_SAMPLES
) -> Interval:
    """A percentile bootstrap interval of ``statistic`` over games (seeded: reproducible)."""
    values = _bootstrap(rows, statistic, samples, random.Random(BOOTSTRAP_SEED))
    return _percentiles(values)


def bootstrap_difference(
    rows_a: Sequence[Row],
    rows_b: Sequence[Row],
    statistic: Callable[[Sequence[Row]], float],
    samples: int = BOOTSTRAP_SAMPLES,
) -> tuple[float, Interval]:
    """statistic(b) - statistic(a) with a percentile bootstrap interval, each set resampled alone."""
    if not rows_a or not rows_b:
        return (math.nan, (math.nan, math.nan))
    rng = random.Random(BOOTSTRAP_SEED)
    values_a = _bootstrap(rows_a, statistic, samples, rng)
    values_b = _bootstrap(rows_b, statistic, samples, rng)
    differences = [b - a for a, b in zip(values_a, values_b)]
    return statistic(rows_b) - statistic(rows_a), _percentiles(differences)


def _bootstrap(rows: Sequence[Row], statistic: Callable[[Sequence[Row]], float], samples: int, rng: random.Random) -> list[float]:
    if not rows:
        return []
    return [statistic(rng.choices(rows, k=len(rows))) for _ in range(samples)]


def _percentiles(values: list[float]) -> Interval:
    if not values:
        return (math.nan, math.nan)
    values = sorted(values)
    last = len(values) - 1
    return values[round(0.025 * last)], values[round(0.975 * last)]
