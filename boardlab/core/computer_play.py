"""Playing a match's computer seats with a thinker: one decision, until a person decides, or to the end.

:class:`~.match.Match` says what a computer seat is to decide (:meth:`~.match.Match.pending`) and
plays the answer, or its fallback move (:meth:`~.match.Match.decide`). The loops here join the
two for a driver that thinks with a :class:`~.decisions.Thinker` (or an
:class:`~.decisions.AsyncThinker` on an event loop): :meth:`ComputerPlay.play_computer` for one
decision, :meth:`~ComputerPlay.run_computers` until a person decides, and
:meth:`~ComputerPlay.play_out` for a game of computers only (the lab's). An agent's exception or
a thinker's :class:`~.decisions.ThinkingFailed` costs the seat its decision, never the match.

Apart from :mod:`.match` because they are drivers' conveniences built on the match's own
decision steps, and use nothing else of it but what :class:`_Match` names; ``Match`` takes them
in as a base class, so ``match.run_computers(...)`` is called as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .decisions import INLINE, AsyncThinker, Decision, Thinker, ThinkingFailed
from .errors import RefusedError
from .game import Game
from .state import State
from .turns import Turn
from .values import Move, Player, Result


class _Match(Protocol):
    """What the loops use of the match they are part of, and their own steps, which call one another."""

    game: Game
    _state: State
    _log: list[Turn]

    @property
    def humans(self) -> list[Player]: ...
    def is_over(self) -> bool: ...
    def result(self) -> Result | None: ...
    def computer_to_move(self) -> bool: ...
    def pending(self) -> Decision | None: ...
    def decide(self, decision: Decision, move: Move | str | None, *, failure: str = "") -> Move: ...
    def _decision_now(self) -> Decision: ...
    def play_computer(self, thinker: Thinker) -> Move: ...
    async def play_computer_async(self, thinker: AsyncThinker) -> Move: ...
    def _report(self, since: int, on_move: Callable[[Turn], None] | None) -> None: ...


def _failure(exc: Exception) -> str:
    """Why a thinker gave no move, for the log: its own words, or the agent's exception."""
    return str(exc) if isinstance(exc, ThinkingFailed) else f"it failed: {exc!r}"


class ComputerPlay:
    """The computer loops of a :class:`~.match.Match`: think each pending decision with a thinker and play it."""

    def _decision_now(self: _Match) -> Decision:
        decision = self.pending()
        if decision is None:
            raise RefusedError("no computer player decides now", code="not_computer_turn")
        return decision

    def play_computer(self: _Match, thinker: Thinker = INLINE) -> Move:
        """Let ``thinker`` think the decision of the computer to move (inline by default) and play
        its move, or the fallback move when it fails; returns the move played."""
        decision = self._decision_now()
        try:
            move: Move | None = thinker.think(decision)
            failure = ""
        except Exception as exc:  # an agent's bug costs it the decision, never the match
            move, failure = None, _failure(exc)
        return self.decide(decision, move, failure=failure)

    async def play_computer_async(self: _Match, thinker: AsyncThinker) -> Move:
        """:meth:`play_computer` with a thinker on an event loop."""
        decision = self._decision_now()
        try:
            move: Move | None = await thinker.think(decision)
            failure = ""
        except Exception as exc:  # an agent's bug costs it the decision, never the match
            move, failure = None, _failure(exc)
        return self.decide(decision, move, failure=failure)

    def run_computers(self: _Match, thinker: Thinker = INLINE, on_move: Callable[[Turn], None] | None = None) -> int:
        """Play computer decisions with ``thinker`` until a person decides or the match is over;
        returns how many were played. ``on_move`` sees each new log entry (chance outcomes included)."""
        played = 0
        while self.computer_to_move():
            before = len(self._log)
            self.play_computer(thinker)
            played += 1
            self._report(before, on_move)
        return played

    async def run_computers_async(
        self: _Match, thinker: AsyncThinker, on_move: Callable[[Turn], None] | None = None
    ) -> int:
        """:meth:`run_computers` with a thinker on an event loop."""
        played = 0
        while self.computer_to_move():
            before = len(self._log)
            await self.play_computer_async(thinker)
            played += 1
            self._report(before, on_move)
        return played

    def _report(self: _Match, since: int, on_move: Callable[[Turn], None] | None) -> None:
        if on_move is not None:
            for entry in self._log[since:]:
                on_move(entry)

    def play_out(self: _Match, before_decision: Callable[[State], None] | None = None, thinker: Thinker = INLINE) -> Result:
        """Play a match of computers only to its end with ``thinker`` (inline by default); returns the result.

        ``before_decision(state)`` is an analyst's hook (the lab's metrics): it is handed the
        real state, hidden parts included, before every decision, and must not change it.
        A game that passes its own ``max_moves`` bound is a rules bug: RuntimeError."""
        if self.humans:
            raise RefusedError("play_out needs a computer player in every seat", code="bad_seats")
        limit = self.game.max_moves
        while not self.is_over():
            if self._state.ply >= limit:
                raise RuntimeError(f"{self.game.id}: game exceeded its bound of {limit} moves")
            if before_decision is not None:
                before_decision(self._state)
            self.play_computer(thinker)
        result = self.result()
        assert result is not None
        return result


__all__ = ["ComputerPlay"]
