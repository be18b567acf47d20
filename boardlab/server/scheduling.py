"""What comes next in a room after each change: the computer seats' decisions and the clock.

After every change the room service looks at what comes next (:meth:`RoomScheduling._schedule`):
a computer seat to move gets a search in the pool (:mod:`.computer`), a person with a time limit
gets a timer. A search whose room moved on meanwhile (an undo, a resignation) is thrown away: it
is played only if the room's revision is the one it started from. On a shared database a
decision is thought by the one process holding its lease (:mod:`.leases`).

Apart from :mod:`.service` because this is the part that acts by itself, in the background,
rather than for a request; it reaches the rest of the service only through the few methods
:class:`_Host` names. :class:`~.service.RoomService` takes it in as a base class.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from ..core.decisions import ThinkingFailed
from ..core.errors import BoardlabError, StaleMoveError
from ..core.values import Move, Player
from .computer import ComputerPlayers, PoolThinker, SearchDropped
from .fairness import ComputerRoomSlots, computers_only, priority
from .leases import ComputerLeases
from .ratelimits import CLIENT
from .rooms import PLAYING, Room
from .settings import Settings
from .watchers import Message

log = logging.getLogger("boardlab.server")


class _Host(Protocol):
    """What the scheduling uses of the room service it is part of, and its own steps, which
    call one another."""

    settings: Settings
    computer: ComputerPlayers
    computer_rooms: ComputerRoomSlots
    leases: ComputerLeases
    _closing: bool

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...
    def _forget_if_done(self, room: Room) -> None: ...
    async def _catch_up(self, room: Room, revision: int | None) -> None: ...
    async def _commit(self, room: Room) -> None: ...
    def _broadcast(self, room: Room) -> dict[tuple[Player | None, tuple[Player, ...]], Message]: ...
    def _schedule(self, room: Room) -> None: ...
    def _may_think(self, room: Room) -> bool: ...
    async def _computer_turns(self, room: Room) -> None: ...
    def _arm_clock(self, room: Room) -> None: ...
    async def _expire(self, room: Room, revision: int) -> None: ...


class RoomScheduling:
    """The computer's turns and the clock of the rooms of a :class:`~.service.RoomService`."""

    def _schedule(self: _Host, room: Room) -> None:
        """Go on with what comes next in ``room``: it leaves memory if it is done, its clock is
        armed, and its computer's turns start when a computer seat is to move."""
        if self._closing:
            return
        self._forget_if_done(room)
        self._arm_clock(room)
        if (
            room.status == PLAYING
            and room.match.computer_to_move()
            and (room.computer_task is None or room.computer_task.done())
            and self._may_think(room)
        ):
            room.computer_task = self._spawn(self._computer_turns(room))

    def _may_think(self: _Host, room: Room) -> bool:
        """Whether the room's computer may think now. A room of computers only thinks only on a
        place among them (fairness.py): one loaded again (after it left memory unwatched, or at
        start-up) takes one on the share of the address whose request loaded it, and when there
        is none it waits, as it is, for its next use."""
        if not computers_only(room.seats) or self.computer_rooms.holds(room):
            return True
        address = CLIENT.get()
        if not self.computer_rooms.admit(room, address):
            return False
        room.charged_to = address  # its searches go on that address's share of the pool too
        return True

    async def _computer_turns(self: _Host, room: Room) -> None:
        """Play the computer seats' decisions until a person decides (or the room moves on)."""
        waited_for: int | None = None  # the revision whose lease another process held
        while not self._closing:
            async with room.lock:
                if room.stale or room.status != PLAYING or not room.match.computer_to_move():
                    return
                decision = room.match.pending()
                assert decision is not None
                revision = room.revision
            held_until = await self.leases.claim(room, revision)
            if held_until is not None:  # another process thinks it (leases.py)
                await self.leases.wait_out(room, revision, held_until, lambda: self._closing)
                waited_for = revision
                continue
            # a lease taken over from a holder that may have moved: only then can a late
            # notice hide the move, so only then is storage asked
            if waited_for == revision and await self.leases.moved_on(room, revision):
                await self._catch_up(room, None)
                continue

            def wanted(revision: int = revision) -> bool:
                return not room.stale and room.revision == revision and room.status == PLAYING

            # the search is told the seat's deadline and answers with its best move by then; the
            # grace covers the hand-over between processes
            thinker = PoolThinker(
                self.computer,
                self.settings.think_grace_seconds,
                priority(room),
                # a room nobody has acted in since this process holds it (resumed at start) is its
                # own owner: such rooms take turns like addresses do
                room.charged_to or f"room {room.id}",
                wanted,
            )
            failure = ""
            async with self.leases.held(room, revision):
                try:
                    move: Move | None = await thinker.think(decision)
                except SearchDropped:
                    continue  # the room moved on while the search waited its turn
                except ThinkingFailed as exc:
                    move, failure = None, str(exc)
            async with room.lock:
                if room.stale or room.revision != revision:
                    continue  # an undo, a resignation, a draw came first: think again if still needed
                if move is None:
                    log.error("room %s: computer %s: %s; playing the fallback move", room.id, decision.spec, failure)
                try:
                    room.match.decide(decision, move, failure=failure)
                except StaleMoveError:
                    continue  # the room was rebuilt from storage meanwhile, with agents of its own
                try:
                    await self._commit(room)
                except BoardlabError:
                    log.error("room %s: the computer's move could not be saved; the room was reloaded", room.id)
                    return
                self._broadcast(room)
                self._arm_clock(room)

    def _arm_clock(self: _Host, room: Room) -> None:
        if room.clock_timer is not None:
            room.clock_timer.cancel()
            room.clock_timer = None
        if room.row.move_seconds is None or room.status != PLAYING:
            return
        left = room.match.seconds_left()
        if left is None:
            return
        revision = room.revision
        room.clock_timer = asyncio.get_running_loop().call_later(
            left + 0.02, lambda: self._spawn(self._expire(room, revision))
        )

    async def _expire(self: _Host, room: Room, revision: int) -> None:
        async with room.lock:
            if room.stale or room.revision != revision or room.status != PLAYING:
                return
            if not room.match.expire():
                self._arm_clock(room)  # the timer fired a little early
                return
            try:
                await self._commit(room)
            except StaleMoveError:
                return  # another process stored the timeout (or a move) first; the room was reloaded
            except BoardlabError:
                log.error("room %s: a timeout could not be saved; the room was reloaded", room.id)
                return
            self._broadcast(room)
        self._schedule(room)


__all__ = ["RoomScheduling"]
