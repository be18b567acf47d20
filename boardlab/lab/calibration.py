"""How well chances predicted results: log loss, Brier score and the reliability table, with an
interval for its worst tenth from resampling whole games (docs/evaluation.md).

Used by the training of fitted evaluations (:mod:`boardlab.lab.training`) on held-out games;
the standard library only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import OptionError

#: chances are clipped to [CLIP, 1 - CLIP] for the log loss, so that a single confident
#: mistake (an estimate of exactly 0 for a seat that won) counts as a large loss, not infinity
CLIP = 1e-4
#: the reliability table's bins: predicted chance in tenths
BINS = 10
#: resamples of the held-out games for the interval of the worst tenth's gap
GAP_DRAWS = 1000
#: a tenth of the reliability table counts towards the worst gap when it holds this many seat-positions
RELIABLE_COUNT = 200


@dataclass(frozen=True)
class Calibration:
    """How well chances predicted returns: log loss (per position, nats), Brier score (mean
    over seats of the squared error) and the reliability table: per tenth of predicted
    chance, the seat-positions in it, their mean chance and their mean return."""

    positions: int
    log_loss: float
    brier: float
    table: tuple[tuple[int, float, float], ...]
    #: per game (when the positions' games were given): per tenth (count, sum of chances, sum of returns)
    per_game: tuple[tuple[tuple[int, float, float], ...], ...] = ()
    #: intervals already resampled, by (least, draws, seed): the report and the printout ask alike
    _intervals: dict[tuple[int, int, int], tuple[float, float] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    def worst_gap(self, least: int) -> float | None:
        """The largest |mean chance - mean return| over the tenths holding ``least`` or more."""
        tenth = self.worst_tenth(least)
        if tenth is None:
            return None
        _count, chance, won = self.table[tenth]
        return abs(chance - won)

    def worst_tenth(self, least: int) -> int | None:
        """The tenth of the largest |mean chance - mean return| among those holding ``least`` or more."""
        gaps = [(abs(chance - won), tenth) for tenth, (count, chance, won) in enumerate(self.table) if count >= least]
        return max(gaps)[1] if gaps else None

    def worst_gap_interval(self, least: int, draws: int = GAP_DRAWS, seed: int = 0) -> tuple[float, float] | None:
        """A 95% interval of the worst tenth's gap, from resampling whole games (a game's
        positions come in a row and are not independent: a tenth of 1,000 seat-positions may
        hold a few dozen games). The gap is signed the way the measured one points, so a low
        end below 0 says the data allow a gap the other way. (The tenth is fixed: the largest
        of ten resampled gaps would lean high.) None without the games, or when no tenth
        holds ``least``."""
        key = (least, draws, seed)
        if key not in self._intervals:
            self._intervals[key] = self._resampled_interval(least, draws, seed)
        return self._intervals[key]

    def _resampled_interval(self, least: int, draws: int, seed: int) -> tuple[float, float] | None:
        tenth = self.worst_tenth(least)
        if not self.per_game or tenth is None:
            return None
        sign = 1.0 if self.table[tenth][1] >= self.table[tenth][2] else -1.0
        rows = [game[tenth] for game in self.per_game]
        rng = random.Random(seed)
        gaps: list[float] = []
        for _ in range(draws):
            count, chances, won = 0, 0.0, 0.0
            for _game in range(len(rows)):
                game_count, game_chances, game_won = rows[rng.randrange(len(rows))]
                count += game_count
                chances += game_chances
                won += game_won
            if count:
                gaps.append(sign * (chances - won) / count)
        if not gaps:
            return None
        gaps.sort()
        return gaps[int(0.025 * len(gaps))], gaps[min(len(gaps) - 1, int(0.975 * len(gaps)))]

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "log_loss": round(self.log_loss, 5),
            "brier": round(self.brier, 5),
            "reliability": [
                {"tenth": tenth, "count": count, "predicted": round(chance, 4), "won": round(won, 4)}
                for tenth, (count, chance, won) in enumerate(self.table)
            ],
            "worst_gap": self._worst_gap_json(),
        }

    def _worst_gap_json(self) -> dict[str, Any] | None:
        gap = self.worst_gap(RELIABLE_COUNT)
        if gap is None:
            return None
        interval = self.worst_gap_interval(RELIABLE_COUNT)
        return {"least_count": RELIABLE_COUNT, "gap": round(gap, 4),
                "interval_95": None if interval is None else [round(interval[0], 4), round(interval[1], 4)]}


def calibration(chances: Sequence[Sequence[float]], returns: Sequence[Sequence[float]],
                game_of: Sequence[int] | None = None) -> Calibration:
    """Score ``chances`` (per position, per seat) against the ``returns`` the games ended with;
    ``game_of`` (per position, its game's number) lets the result resample whole games."""
    if len(chances) != len(returns) or not chances:
        raise OptionError(f"calibration needs as many chances as results, and some: {len(chances)}, {len(returns)}")
    if game_of is not None and len(game_of) != len(chances):
        raise OptionError(f"calibration needs a game for every position: {len(game_of)} for {len(chances)}")
    per_game: dict[int, list[list[float]]] = {}
    log_loss = 0.0
    brier = 0.0
    counts = [0] * BINS
    predicted = [0.0] * BINS
    won = [0.0] * BINS
    for number, (position, result) in enumerate(zip(chances, returns)):
        for chance, value in zip(position, result):
            clipped = min(max(chance, CLIP), 1.0 - CLIP)
            if value > 0.0:
                log_loss -= value * math.log(clipped)
            brier += (chance - value) ** 2 / len(position)
            tenth = min(int(chance * BINS), BINS - 1)
            counts[tenth] += 1
            predicted[tenth] += chance
            won[tenth] += value
            if game_of is not None:
                row = per_game.setdefault(game_of[number], [[0, 0.0, 0.0] for _ in range(BINS)])[tenth]
                row[0] += 1
                row[1] += chance
                row[2] += value
    table = tuple(
        (count, predicted[tenth] / count if count else 0.0, won[tenth] / count if count else 0.0)
        for tenth, count in enumerate(counts)
    )
    games = tuple(tuple((int(count), chance, value) for count, chance, value in rows) for rows in per_game.values())
    return Calibration(len(chances), log_loss / len(chances), brier / len(chances), table, games)


__all__ = ["BINS", "CLIP", "GAP_DRAWS", "RELIABLE_COUNT", "Calibration", "calibration"]
