"""Bringing a room held in memory back to what storage holds, reading as little as it can.

A room in memory is rebuilt from storage when it fell behind: another process on the same
PostgreSQL stored a change (:mod:`.notify`), or a write failed and memory ran ahead. Reading
the whole room costs the game's length at every change, and with several processes every
move is such a change for each other process holding the room. But a room keeps the moves
storage held at its revision (:attr:`.rooms.Room.stored`), and most changes only add moves:
then it is enough to read the room's row and the moves from the last one held on (and the
seats only while an invited seat waits for its guest: once all are taken they never change).

Only a change that took moves back (an undo) rewrites what came before, so the moves read
extend those held only when storage is at most one change ahead and still holds the last
move held exactly as it was; otherwise the whole room is read.

The match, too, is extended in place when it can be (:func:`extend_in_place`): it holds
exactly the stored moves, the seats are unchanged and the new moves only follow; the new
moves are then played on it, checked as a replay checks them (:meth:`Match.extend`). Else
it is rebuilt from the complete list of stored moves, as a fresh load would rebuild it. Both
ways the moves' times and notes are storage's, so a room caught up is the room a restart
would find.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ..core.errors import IllegalMoveError
from .rooms import Room, restore_stored_pending, stored_ending
from .rows import MoveRow, StoredRoom

log = logging.getLogger(__name__)


def extended(held: Sequence[MoveRow], revision: int, read: StoredRoom) -> StoredRoom | None:
    """The room as storage holds it, from ``held`` (the moves stored at ``revision``) and
    ``read`` (the room read from the last move held on, :meth:`.Storage.load_room`), or None
    when ``read`` may not simply extend ``held``: the whole room must then be read."""
    if not held:
        return read  # nothing held: ``read`` holds every move
    if read.room.revision not in (revision, revision + 1):
        return None  # several changes: one may have taken moves back and played others
    if not read.moves or read.moves[0] != held[-1]:
        return None  # the last move held was taken back (or replaced)
    return StoredRoom(read.room, read.seats, [*held, *read.moves[1:]])


def moves_in_common(before: Sequence[MoveRow], after: Sequence[MoveRow]) -> int:
    """How many leading moves two lists of stored moves share: the log entries a rebuilt
    room keeps (watchers are sent only the entries after them)."""
    count = 0
    for old, new in zip(before, after):
        if old != new:
            break
        count += 1
    return count


def extend_in_place(room: Room, stored: StoredRoom, kept: int) -> bool:
    """Play on ``room.match`` the moves ``stored`` holds after the ``kept`` it shares with the
    room's stored moves, with storage's ending and pending offers; False (nothing changed
    that matters: the caller rebuilds the match) when the match is not exactly the stored
    moves, the seats changed, the match is over, or a new move does not replay."""
    match = room.match
    if kept != len(room.stored) or match.unstored() != (kept, []) or match.ending is not None:
        return False
    if stored.seats != room.seats or stored.room.options != room.row.options:
        return False
    try:
        match.extend([move.turn() for move in stored.moves[kept:]], stored_ending(stored.room))
    except IllegalMoveError as exc:
        log.warning("room %s: stored moves do not extend the match in memory (%s); reading it whole", room.id, exc)
        return False
    restore_stored_pending(match, stored.room)
    return True


__all__ = ["extend_in_place", "extended", "moves_in_common"]
