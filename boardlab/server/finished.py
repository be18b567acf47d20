"""Finished rooms kept in memory after they leave the service's rooms.

A finished room nobody watches leaves the rooms in memory (:meth:`.service.RoomService.room`
loads a room on its first use and lets a finished one go at once). Rebuilt from storage, its
every read replayed the whole game (about 10 ms for a Towers game of 250 plies), so a page
that polls a finished game, or its analysis and replay requests, cost that each time. The
last :data:`FINISHED_KEPT` such rooms are kept here instead, each with the revision it had:
a finished room still changes (a rematch offered and answered, a change by another process
on the same database), so one is used again only when storage still holds it at that
revision, which one small read tells.
"""

from __future__ import annotations

from collections import OrderedDict

from .rooms import Room

#: how many finished rooms stay in memory, the most recently used kept
FINISHED_KEPT = 64


class FinishedRooms:
    """The most recently used finished rooms, at most ``kept`` of them."""

    def __init__(self, kept: int = FINISHED_KEPT) -> None:
        self.kept = kept
        self._rooms: OrderedDict[str, Room] = OrderedDict()

    def keep(self, room: Room) -> None:
        """Keep ``room``, which has left the rooms in memory; the least recently used goes when
        more than ``kept`` are kept."""
        self._rooms[room.id] = room
        self._rooms.move_to_end(room.id)
        while len(self._rooms) > self.kept:
            self._rooms.popitem(last=False)

    def revision(self, room_id: str) -> int | None:
        """The revision of the room kept as ``room_id`` (None: none is kept)."""
        room = self._rooms.get(room_id)
        return None if room is None else room.revision

    def take(self, room_id: str, stored_revision: int | None) -> Room | None:
        """The room kept as ``room_id`` if storage holds it at the same revision (it leaves
        this keep: the service holds it again); else None, and a kept room behind storage is
        dropped."""
        room = self._rooms.pop(room_id, None)
        if room is None or stored_revision != room.revision:
            return None
        return room

    def __len__(self) -> int:
        return len(self._rooms)


__all__ = ["FINISHED_KEPT", "FinishedRooms"]
