"""What the lab watches while a game is played, and the per-game metrics made from it.

The lab plays every game through :class:`~boardlab.core.match.Match`; its
``play_out`` hands a :class:`GameTracer` the real state before every decision,
and the tracer samples, through the public protocol only:

* the branching factor: ``len(state.legal_moves())`` of the player to move;
* the evaluation: ``state.evaluate()`` (estimated returns per seat), if the game has one;
* the position's repetition key: ``state.position_key()`` (the position without counters).

The tracer only reads the state (an analyst's view, hidden parts included, never
shown to a player), so tracing never changes a game.

:func:`lead_changes` and :func:`decisiveness` turn an evaluation series into the
per-game figures the study metrics average (docs/lab.md defines them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ..core.state import State
from ..core.values import Player

#: ``on_ply(ply)``: a progress tick, at most every :data:`TICK_SECONDS`
PlyTick = Callable[[int], None]
TICK_SECONDS = 0.5

Evaluation = tuple[float, ...]


@dataclass(frozen=True)
class GameTrace:
    """What was sampled before each decision of one game.

    ``movers[i]`` decided decision ``i`` facing ``branching[i]`` legal moves;
    ``evaluations[i]`` is the evaluation then (``evaluations`` is None for a game
    without ``evaluate()``); ``repeated`` counts decisions taken at a position
    (``State.position_key``) already seen earlier in the game.
    """

    movers: tuple[Player, ...]
    branching: tuple[int, ...]
    evaluations: tuple[Evaluation, ...] | None
    repeated: int

    @property
    def first_mover(self) -> Player | None:
        return self.movers[0] if self.movers else None


class GameTracer:
    """Samples each decision of one match: pass :meth:`observe` as ``before_decision`` to
    ``Match.play_out``. Cost per decision: one ``legal_moves()``, one ``evaluate()`` and
    one ``position_key()``."""

    def __init__(self, on_ply: PlyTick | None = None) -> None:
        self._on_ply = on_ply
        self._last_tick = time.monotonic()
        self._movers: list[Player] = []
        self._branching: list[int] = []
        self._evaluations: list[Evaluation] | None = []
        self._seen: set[Hashable] = set()
        self._repeated = 0

    def observe(self, state: State) -> None:
        """Sample the decision about to be made in ``state`` (read only)."""
        self._movers.append(state.current_player())
        self._branching.append(len(state.legal_moves()))
        key = state.position_key()
        if key in self._seen:
            self._repeated += 1
        else:
            self._seen.add(key)
        if self._evaluations is not None:
            estimate = state.evaluate()
            if estimate is None:
                self._evaluations = None
            else:
                self._evaluations.append(tuple(float(value) for value in estimate))
        if self._on_ply is not None:
            now = time.monotonic()
            if now - self._last_tick >= TICK_SECONDS:
                self._last_tick = now
                self._on_ply(state.ply)

    def trace(self, final_returns: Sequence[float] | None) -> GameTrace:
        """The samples, with the game's final returns appended to the evaluations."""
        evaluations = None if self._evaluations is None else tuple(self._evaluations)
        if evaluations is not None and final_returns is not None:
            evaluations += (tuple(float(value) for value in final_returns),)
        return GameTrace(tuple(self._movers), tuple(self._branching), evaluations, self._repeated)


def leaders(evaluations: Sequence[Evaluation]) -> list[Player | None]:
    """The seat with the strictly highest evaluation at each point; None on a tie."""
    result: list[Player | None] = []
    for estimate in evaluations:
        best = max(estimate)
        top = [seat for seat, value in enumerate(estimate) if value == best]
        result.append(top[0] if len(top) == 1 else None)
    return result


def lead_changes(evaluations: Sequence[Evaluation]) -> int:
    """How often the leader changes between consecutive points that have a leader."""
    changes = 0
    previous: Player | None = None
    for leader in leaders(evaluations):
        if leader is None:
            continue
        if previous is not None and leader != previous:
            changes += 1
        previous = leader
    return changes


def decisiveness(evaluations: Sequence[Evaluation], winner: Player) -> tuple[float, float]:
    """(threshold, decided_at) of a game won by ``winner``.

    The threshold is the highest evaluation any other seat ever reached. The
    game was decided at the first point where the winner's evaluation rose above
    it (from then on the winner rated better than any loser ever did);
    ``decided_at`` is that point's index as a fraction of the game (the last
    point, the final result, is 1.0).
    """
    threshold = max(
        (value for estimate in evaluations for seat, value in enumerate(estimate) if seat != winner), default=0.0
    )
    last = len(evaluations) - 1
    if last < 1:
        return threshold, 1.0
    for index, estimate in enumerate(evaluations):
        if estimate[winner] > threshold:
            return threshold, index / last
    return threshold, 1.0
