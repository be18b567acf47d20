"""A running study's progress: games done, moves in the games under way, time used and left.

Pure bookkeeping (no printing): the command line draws it. The clock runs from
the start of the run, not from the first finished game, and games under way
count by how far they have got, so a study of a few long games shows movement.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .stats import GameOutcome

#: a game under way counts at most this much of a game done (its length is a guess)
_MOST_OF_A_GAME = 0.9


@dataclass(frozen=True)
class ProgressSnapshot:
    """``done``/``total`` games (``resumed`` of them from an earlier run), ``running``
    games under way with ``running_moves`` moves played so far, ``elapsed`` seconds
    of this run and ``remaining`` (None until a game has finished in this run)."""

    done: int
    total: int
    resumed: int
    running: int
    running_moves: int
    elapsed: float
    remaining: float | None

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0


class StudyProgress:
    """Counts the events of a run; ``listener`` is called after each one."""

    def __init__(
        self,
        total: int,
        resumed: int = 0,
        listener: Callable[[StudyProgress], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.resumed = resumed
        self.done = resumed
        self._listener = listener
        self._clock = clock
        self._began = clock()
        self._running: dict[tuple[str, int], int] = {}
        #: a worker's last tick may arrive after its game's result: it must not revive the game
        self._finished_keys: set[tuple[str, int]] = set()
        self._moves_done = 0
        self._finished_here = 0

    def moved(self, key: tuple[str, int], ply: int) -> None:
        """Game ``key`` (variant, index) has reached move ``ply``."""
        if key in self._finished_keys:
            return
        self._running[key] = ply
        self._notify()

    def finished(self, outcome: GameOutcome) -> None:
        self._running.pop(outcome.key, None)
        self._finished_keys.add(outcome.key)
        self.done += 1
        self._finished_here += 1
        self._moves_done += outcome.moves
        self._notify()

    def tick(self) -> None:
        """Nothing happened, but time passed (the clock moves)."""
        self._notify()

    def snapshot(self) -> ProgressSnapshot:
        elapsed = self._clock() - self._began
        remaining: float | None = None
        if self._finished_here:
            mean_moves = self._moves_done / self._finished_here
            under_way = sum(min(ply / mean_moves, _MOST_OF_A_GAME) for ply in self._running.values()) if mean_moves else 0.0
            worked = self._finished_here + under_way
            left = max(0.0, self.total - self.done - under_way)
            remaining = elapsed / worked * left
        return ProgressSnapshot(
            done=self.done,
            total=self.total,
            resumed=self.resumed,
            running=len(self._running),
            running_moves=sum(self._running.values()),
            elapsed=elapsed,
            remaining=remaining,
        )

    def _notify(self) -> None:
        if self._listener is not None:
            self._listener(self)
