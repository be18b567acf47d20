"""Who watches each room, and what each watcher is sent after every change.

A watcher (:class:`~.watchers.Watcher`) is one open page: a player's, holding their seats,
or a spectator's, capped per room. After a change every watcher gets the room's state as
its viewer sees it, one message (and one encoding) for all who see it alike. A finished room
that nobody watches any more leaves memory for the keep of finished rooms.

Apart from :mod:`.service`, as :mod:`.scheduling` is, because it is the part that talks to
the pages rather than to storage; :class:`~.service.RoomService` takes it in as a base class.
"""

from __future__ import annotations

from typing import Protocol

from ..core.values import Player
from .errors import BusyError
from .finished import FinishedRooms
from .rooms import FINISHED, Room, state_message
from .settings import Settings
from .watchers import Message, Update, Watcher

#: when a spectator refused from a full room may try again
SPECTATOR_RETRY_SECONDS = 30


class _Host(Protocol):
    """What the watching uses of the room service it is part of."""

    settings: Settings
    _rooms: dict[str, Room]
    _finished: FinishedRooms
    _watchers: dict[str, set[Watcher]]

    async def room(self, room_id: str) -> Room: ...
    def _forget_if_done(self, room: Room) -> None: ...


class RoomWatching:
    """The watchers of the rooms of a :class:`~.service.RoomService`."""

    async def watch(self: _Host, room_id: str, token: str | None, seat: Player | None, current: Watcher | None = None) -> Watcher:
        """A new watcher of the room, holding the current state at once; or ``current`` itself,
        its latest state queued again, when the token holds the seats it holds and names the
        same seat (a repeated ``auth`` builds no state: the page resets its log on one, so the
        state goes again, already encoded)."""
        room = await self.room(room_id)
        async with room.lock:
            held = room.held_by(token)
            room.viewer(held, seat)  # refuses a seat the token does not hold
            watching = self._watchers.get(room_id, ())
            if current is not None and current in watching and current.held == held and current.seat == seat:
                current.resend()
                return current
            cap = self.settings.max_spectators_per_room
            if not held and cap and sum(1 for other in watching if other.spectator) >= cap:
                raise BusyError(
                    f"room {room_id} has {cap} spectators, the most one room may (--max-spectators-per-room); "
                    "its players are always let in",
                    SPECTATOR_RETRY_SECONDS,
                    code="too_many_spectators",
                )
            watcher = Watcher(held, seat)
            watcher.push(Update(state_message(room, room.viewer(held, seat), held)), 0)
            self._watchers[room_id].add(watcher)
        return watcher

    def unwatch(self: _Host, room_id: str, watcher: Watcher) -> None:
        watchers = self._watchers.get(room_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[room_id]
        room = self._rooms.get(room_id)
        if room is not None:
            room.used = self.settings.clock()  # its idle time (idle.py) counts from its last watcher's leaving
            self._forget_if_done(room)

    def _forget_if_done(self: _Host, room: Room) -> None:
        """A finished room nobody watches leaves the rooms in memory (nothing is scheduled in
        it; storage has it for listings, records and a late visitor), for the keep of finished
        rooms, whose next read checks it against storage."""
        if room.status == FINISHED and not self._watchers.get(room.id) and self._rooms.get(room.id) is room:
            del self._rooms[room.id]
            self._finished.keep(room)  # its next read costs a look at its revision, not a rebuild

    def _broadcast(self: _Host, room: Room) -> dict[tuple[Player | None, tuple[Player, ...]], Message]:
        """Send the room's state to its watchers, one message (and one encoding) for all who see
        it alike; returns the messages made, by (viewer, held seats)."""
        made: dict[tuple[Player | None, tuple[Player, ...]], Update] = {}
        for watcher in self._watchers.get(room.id, ()):
            viewer = room.viewer(watcher.held, watcher.seat)
            key = (viewer, tuple(watcher.held))
            if key not in made:
                made[key] = Update(state_message(room, viewer, watcher.held))
            watcher.push(made[key], room.unchanged_log)
        return {key: update.message for key, update in made.items()}


__all__ = ["SPECTATOR_RETRY_SECONDS", "RoomWatching"]
