"""Summary statistics of many finished games: wins per seat and per agent, draws, lengths.

Pure standard library; every function is O(number of games).
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameOutcome:
    """What the statistics need from one finished game (small and picklable).

    ``seat_agents[s]`` is the index (into the simulation's agent list) of the
    agent that played seat ``s``. ``moves`` counts every move, chance outcomes
    included; ``decisions`` only the players' moves.
    """

    index: int
    seed: int
    seat_agents: tuple[int, ...]
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    code: str
    reason: str
    moves: int
    decisions: int
    seconds: float
    record_path: str | None = None
    #: the study variant the game belongs to ("" in a single-variant study)
    variant: str = ""
    #: the seat that made the game's first decision (None: no decision was made)
    first_mover: int | None = None
    #: legal moves at each decision (:class:`~boardlab.lab.trace.GameTrace`)
    branching: tuple[int, ...] = ()
    #: decisions taken at a position already seen in this game
    repeated: int = 0
    #: changes of the leader by evaluation; None for a game without ``evaluate()``
    lead_changes: int | None = None
    #: the best evaluation a loser reached, and the fraction of the game after which
    #: the winner's stayed above it; None without a sole winner or an evaluation
    decisiveness_threshold: float | None = None
    decided_at: float | None = None
    #: decisions the computer did not make itself (it failed, overran or chose an illegal
    #: move): the match played the fallback move (``Match.decide``)
    fallback_moves: int = 0
    #: the moves' notations in order, hashed (:func:`moves_digest`); "" in a game stored
    #: before it was kept
    moves_digest: str = ""

    @property
    def is_draw(self) -> bool:
        return len(self.winners) != 1

    @property
    def identity(self) -> tuple[Any, ...]:
        """What tells this game's play from another's: its seating and moves' digest, or for a
        game stored without one, its seating, result, ending, length and choices at each
        decision (which games of continuous moves, as Honor's, share without being alike)."""
        if self.moves_digest:
            return (self.seat_agents, self.moves_digest)
        return (self.seat_agents, self.winners, self.code, self.moves, self.branching)

    @property
    def key(self) -> tuple[str, int]:
        """(variant, index): what identifies a game within a study."""
        return (self.variant, self.index)

    def to_json(self) -> dict[str, Any]:
        """A JSON object (one line of a study's games.jsonl); :meth:`from_json` reads it back."""
        data: dict[str, Any] = _finite(asdict(self))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOutcome:
        """The inverse of :meth:`to_json`; KeyError/TypeError/ValueError on a malformed object."""
        fields = dict(data)
        for name in ("seat_agents", "winners", "returns", "branching"):
            fields[name] = tuple(fields.get(name) or ())
        return cls(**fields)


@dataclass(frozen=True)
class LengthStats:
    """Mean, standard deviation (sample), median, minimum and maximum of a length."""

    mean: float
    stdev: float
    median: float
    minimum: int
    maximum: int

    @classmethod
    def of(cls, values: Sequence[int]) -> LengthStats:
        if not values:
            return cls(math.nan, math.nan, math.nan, 0, 0)
        spread = statistics.stdev(values) if len(values) > 1 else 0.0
        return cls(statistics.fmean(values), spread, statistics.median(values), min(values), max(values))


@dataclass(frozen=True)
class Summary:
    """The table `boardlab simulate` prints, as data (``to_json`` for scripts).

    ``seat_wins[s]``: sole wins of seat ``s``; ``agent_wins[a]``: sole wins of
    agent ``a`` whatever its seat; ``agent_score[a]``: the sum of its returns
    (a draw shared by k players gives each 1/k), so scores add up to ``games``.
    ``seat_win_interval[s]``: a 95% Wilson interval for the seat's win rate.
    ``seat_balance_chi2`` / ``seat_balance_p``: :func:`seat_balance` of the seat wins.
    ``agent_seat_score[a][s]`` / ``agent_seat_games[a][s]``: agent ``a``'s score
    and games in seat ``s`` (with rotation this separates seat advantage from
    agent strength). ``endings``: games per ending code (``Result.code``).
    """

    games: int
    agents: tuple[str, ...]
    seat_names: tuple[str, ...]
    seat_wins: tuple[int, ...]
    seat_win_interval: tuple[tuple[float, float], ...]
    agent_wins: tuple[int, ...]
    agent_score: tuple[float, ...]
    agent_games: tuple[int, ...]
    draws: int
    moves: LengthStats
    decisions: LengthStats
    seconds_per_game: float
    seat_balance_chi2: float = math.nan
    seat_balance_p: float = math.nan
    agent_seat_score: tuple[tuple[float, ...], ...] = ()
    agent_seat_games: tuple[tuple[int, ...], ...] = ()
    endings: dict[str, int] = field(default_factory=dict)
    #: games identical to an earlier one (:func:`repeated_games`)
    repeated_games: int = 0
    #: decisions played by the fallback move instead of the agent, over all games
    fallback_moves: int = 0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["seat_win_interval"] = [list(pair) for pair in self.seat_win_interval]
        finite: dict[str, Any] = _finite(data)
        return finite


def moves_digest(notations: Iterable[str]) -> str:
    """A short hash of a game's moves in order (16 hex digits of SHA-256)."""
    return hashlib.sha256("\n".join(notations).encode("utf-8")).hexdigest()[:16]


def repeated_games(outcomes: Sequence[GameOutcome]) -> int:
    """How many games are an earlier one played again: the same seating and the same moves
    (:attr:`GameOutcome.identity`). Agents that draw no random numbers, in a game without
    chance, replay one game over and over; such repeats are not independent samples, and
    every interval that counts them is too narrow."""
    seen: set[tuple[Any, ...]] = set()
    repeats = 0
    for outcome in outcomes:
        fingerprint = outcome.identity
        if fingerprint in seen:
            repeats += 1
        else:
            seen.add(fingerprint)
    return repeats


def repeated_games_warning(repeats: int, games: int) -> str | None:
    """The sentence a summary prints when games repeat, else None."""
    if not repeats:
        return None
    return (
        f"{repeats} of {games} games repeat an earlier one move for move, so those games are not "
        "independent samples: the agents play with little or no randomness (a search can be given some, "
        "e.g. mcts with widen: jitter=0.03), or the game has few different games to play"
    )


def fallback_moves_warning(fallbacks: int, games: int) -> str | None:
    """The sentence a summary prints when agents failed to decide, else None."""
    if not fallbacks:
        return None
    return (
        f"{fallbacks} decision{'s' if fallbacks != 1 else ''} in {games} games {'were' if fallbacks != 1 else 'was'} "
        "not the agent's own (it failed, overran or chose an illegal move, and the fallback move was played): "
        "the games measure a weaker player than the one named; the log says why"
    )


def sample_warnings(summary: Mapping[str, Any]) -> list[str]:
    """What makes a summary's games a poorer sample than they look: identical games, and
    decisions the agents did not make. ``summary`` is a variant's summary as JSON (it has
    ``games``, and ``repeated_games`` and ``fallback_moves`` when there were any)."""
    games = summary["games"]
    found = (
        repeated_games_warning(summary.get("repeated_games", 0), games),
        fallback_moves_warning(summary.get("fallback_moves", 0), games),
    )
    return [text for text in found if text]


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """A 95% (by default) Wilson score interval for a proportion; (0, 1) with no trials.
    ``successes`` may be a sum of shares (a draw's half): a figure in [0, 1] with mean p varies
    at most as a coin of p does, so the interval is then as wide as that coin's or wider."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # the interval holds p; rounding alone put 0 of 225 at a low of 1.7e-18 and 225 of 225
    # at a high just under 1, which a report's error bars then drew as negative lengths
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def chi_square_survival(statistic: float, degrees: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``degrees`` (>= 1) degrees of freedom.

    Exact for integer degrees: the closed forms for 1 and 2 degrees, then the
    recurrence Q(x; k + 2) = Q(x; k) + (x/2)^(k/2) e^(-x/2) / Gamma(k/2 + 1). O(degrees).
    """
    if degrees < 1:
        raise ValueError("a chi-square test needs at least one degree of freedom")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if degrees % 2:
        survival, k = math.erfc(math.sqrt(half)), 1
    else:
        survival, k = math.exp(-half), 2
    while k < degrees:
        survival += math.exp((k / 2) * math.log(half) - half - math.lgamma(k / 2 + 1))
        k += 2
    return min(1.0, survival)


def seat_balance(seat_wins: Sequence[int]) -> tuple[float, float]:
    """Chi-square goodness of fit of the sole wins against equal shares per seat.

    Returns (statistic, p-value); a small p-value says the seats do not win
    equally often. Meaningful when every agent plays every seat equally often
    (``--rotate``) or all seats hold the same agent. (nan, nan) without wins.
    """
    total = sum(seat_wins)
    if total == 0 or len(seat_wins) < 2:
        return (math.nan, math.nan)
    expected = total / len(seat_wins)
    statistic = sum((wins - expected) ** 2 / expected for wins in seat_wins)
    return (statistic, chi_square_survival(statistic, len(seat_wins) - 1))


def summarize(
    outcomes: Sequence[GameOutcome], agents: Sequence[str], seat_names: Sequence[str]
) -> Summary:
    """Aggregate finished games. ``agents`` are the specs in simulation order."""
    seats = len(seat_names)
    seat_wins = [0] * seats
    agent_wins = [0] * len(agents)
    agent_score = [0.0] * len(agents)
    agent_games = [0] * len(agents)
    seat_score = [[0.0] * seats for _ in agents]
    seat_games = [[0] * seats for _ in agents]
    endings: dict[str, int] = {}
    draws = 0
    for outcome in outcomes:
        endings[outcome.code] = endings.get(outcome.code, 0) + 1
        for seat, agent in enumerate(outcome.seat_agents):
            agent_score[agent] += outcome.returns[seat]
            seat_score[agent][seat] += outcome.returns[seat]
            seat_games[agent][seat] += 1
        for agent in set(outcome.seat_agents):
            agent_games[agent] += 1
        if outcome.is_draw:
            draws += 1
            continue
        winner = outcome.winners[0]
        seat_wins[winner] += 1
        agent_wins[outcome.seat_agents[winner]] += 1
    games = len(outcomes)
    total_seconds = sum(o.seconds for o in outcomes)
    return Summary(
        games=games,
        agents=tuple(agents),
        seat_names=tuple(seat_names),
        seat_wins=tuple(seat_wins),
        seat_win_interval=tuple(wilson_interval(w, games) for w in seat_wins),
        agent_wins=tuple(agent_wins),
        agent_score=tuple(agent_score),
        agent_games=tuple(agent_games),
        draws=draws,
        moves=LengthStats.of([o.moves for o in outcomes]),
        decisions=LengthStats.of([o.decisions for o in outcomes]),
        seconds_per_game=total_seconds / games if games else math.nan,
        seat_balance_chi2=seat_balance(seat_wins)[0],
        seat_balance_p=seat_balance(seat_wins)[1],
        agent_seat_score=tuple(tuple(row) for row in seat_score),
        agent_seat_games=tuple(tuple(row) for row in seat_games),
        endings=dict(sorted(endings.items(), key=lambda item: -item[1])),
        repeated_games=repeated_games(outcomes),
        fallback_moves=sum(outcome.fallback_moves for outcome in outcomes),
    )


def _finite(value: Any) -> Any:
    """JSON has no NaN: replace non-finite floats by None, recursively."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value
