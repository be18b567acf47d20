"""What the lab watches while a game is played, and the per-game metrics made from it.

The lab plays every game through :class:`~boardlab.core.match.Match`. A
:class:`GameTracer` follows the match's log with a *shadow state*: the same game
and seed, each logged move applied by its notation (as a record replays). Before
every decision it samples, through the public protocol only:

* the branching factor: ``len(state.legal_moves())`` of the player to move;
* the evaluation: ``state.evaluate()`` (estimated returns per seat), if the game has one;
* a repetition key: the position string without its trailing move counters.

The shadow state sees the whole position, hidden parts included (like a record):
it is an analyst's view, never shown to a player, and it does not touch the
match's own random generators, so tracing never changes a game.

:func:`lead_changes` and :func:`decisiveness` turn an evaluation series into the
per-game figures the study metrics average (docs/lab.md defines them).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence

from ..core.game import Game
from ..core.match import LogEntry, Match
from ..core.values import Player

#: ``on_ply(ply)``: a progress tick, at most every :data:`TICK_SECONDS`
PlyTick = Callable[[int], None]
TICK_SECONDS = 0.5

Evaluation = tuple[float, ...]


def repetition_key(position: str) -> str:
    """The position string without trailing whole-number fields.

    Position strings end with counters that change every move (a no-progress
    count, a move number), which would make every position look new; what is
    left is the board and the side to move. A heuristic on the documented
    string, see docs/lab.md ("Repetition").
    """
    fields = position.split(" ")
    while len(fields) > 1 and fields[-1].isdigit():
        fields.pop()
    return " ".join(fields)


@dataclass(frozen=True)
class GameTrace:
    """What was sampled before each decision of one game.

    ``movers[i]`` decided decision ``i`` facing ``branching[i]`` legal moves;
    ``evaluations[i]`` is the evaluation then (``evaluations`` is None for a game
    without ``evaluate()``); ``repeated`` counts decisions taken at a position
    (:func:`repetition_key`) already seen earlier in the game.
    """

    movers: tuple[Player, ...]
    branching: tuple[int, ...]
    evaluations: tuple[Evaluation, ...] | None
    repeated: int

    @property
    def first_mover(self) -> Player | None:
        return self.movers[0] if self.movers else None


class GameTracer:
    """Follows one match's log with a shadow state and samples each decision.

    Pass :meth:`follow` as ``on_move`` to ``Match.play_computers``. Cost per
    move: one ``parse_move`` and ``apply`` on the shadow state; per decision one
    ``legal_moves()``, one ``evaluate()`` and one ``position()``.
    """

    def __init__(self, match: Match, on_ply: PlyTick | None = None) -> None:
        self._game: Game = match.game
        self._shadow = match.game.new_state(match.seed)
        self._on_ply = on_ply
        self._last_tick = time.monotonic()
        self._movers: list[Player] = []
        self._branching: list[int] = []
        self._evaluations: list[Evaluation] | None = []
        self._seen: set[str] = set()
        self._repeated = 0
        for entry in match.log():  # the opening chance the match resolved before play
            self._advance(entry)
        self._sample()

    def follow(self, entry: LogEntry) -> None:
        """Apply the match's new move to the shadow state; sample if a seat decides next."""
        self._advance(entry)
        self._sample()
        if self._on_ply is not None:
            now = time.monotonic()
            if now - self._last_tick >= TICK_SECONDS:
                self._last_tick = now
                self._on_ply(self._shadow.ply)

    def trace(self) -> GameTrace:
        evaluations = None if self._evaluations is None else tuple(self._evaluations)
        final = self._shadow.returns() if self._shadow.is_over() else None
        if evaluations is not None and final is not None:
            evaluations += (tuple(float(value) for value in final),)
        return GameTrace(tuple(self._movers), tuple(self._branching), evaluations, self._repeated)

    def _advance(self, entry: LogEntry) -> None:
        shadow = self._shadow
        if shadow.ply >= self._game.max_moves:
            # Match.play_out's guard, kept for the lab's loop (play_computers has none)
            raise RuntimeError(f"{self._game.id}: game exceeded its bound of {self._game.max_moves} moves")
        shadow.apply(shadow.parse_move(entry.notation))

    def _sample(self) -> None:
        shadow = self._shadow
        mover = shadow.current_player()
        if mover < 0:
            return
        self._movers.append(mover)
        self._branching.append(len(shadow.legal_moves()))
        key = repetition_key(shadow.position())
        if key in self._seen:
            self._repeated += 1
        else:
            self._seen.add(key)
        if self._evaluations is not None:
            estimate = shadow.evaluate()
            if estimate is None:
                self._evaluations = None
            else:
                self._evaluations.append(tuple(float(value) for value in estimate))


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
