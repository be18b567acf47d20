"""Rooms nobody uses leave memory; storage keeps them, and the first use loads them again.

A room in memory is a whole :class:`boardlab.Match` (every state, every log entry), and a
server that keeps every room it ever served grows without end. A room is idle when nobody
has asked for it for ``idle_room_seconds`` (nor watched it since), nobody watches it, nothing
holds its lock, no computer thinks for it and no clock runs in it (a clock must fire on time,
and a room loaded again starts its decision's period afresh, as after a restart). Such a room
is only dropped: everything it holds is already in storage, since every change is committed
before it is acknowledged.

A room of computers only has its own, shorter time, ``unwatched_computer_room_seconds``, and
counts as idle even while its computer thinks: it plays for nobody, and nobody holds a token
that could stop it, while it keeps a place among the few such rooms the server lets play
(:mod:`.fairness`). Its search is cancelled (a worker already on it finishes it and drops the
answer) and it leaves memory like any idle room; its next visitor loads it again and it goes on
from its last stored move, within the same limits as a new one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, MutableMapping

from .fairness import computers_only
from .rooms import Room

log = logging.getLogger("boardlab.server")
#: how often the rooms are looked over, at most (an idle time under a minute looks more often)
SWEEP_SECONDS = 60.0


def idle(room: Room, watched: bool, now: float, seconds: float, computer_seconds: float = 0.0) -> bool:
    """Whether ``room`` may leave memory: unused for ``seconds`` (0: never), or for
    ``computer_seconds`` if it is a room of computers only (0: as any other room)."""
    if watched or room.clock_timer is not None or room.lock.locked():
        return False
    unused = now - room.used
    if computer_seconds > 0 and computers_only(room.seats):
        return unused >= computer_seconds
    thinking = room.computer_task is not None and not room.computer_task.done()
    return seconds > 0 and not thinking and unused >= seconds


def evict_idle(
    rooms: MutableMapping[str, Room], watched: Collection[str], now: float, seconds: float, computer_seconds: float = 0.0
) -> list[str]:
    """Drop the idle rooms from ``rooms`` (stopping the computer of a room of computers only);
    the ids dropped."""
    gone = [room_id for room_id, room in rooms.items() if idle(room, room_id in watched, now, seconds, computer_seconds)]
    for room_id in gone:
        room = rooms.pop(room_id)
        # whoever still holds the object reloads it from storage before acting on it
        room.stale = True
        if room.computer_task is not None:
            room.computer_task.cancel()
    return gone


async def sweep_forever(
    rooms: MutableMapping[str, Room],
    watched: Collection[str],
    clock: Callable[[], float],
    seconds: float,
    computer_seconds: float = 0.0,
) -> None:
    """Evict idle rooms every quarter of the shorter idle time (at most every minute) until cancelled."""
    shortest = min(limit for limit in (seconds, computer_seconds) if limit > 0)
    pause = min(SWEEP_SECONDS, max(0.05, shortest / 4))
    while True:
        await asyncio.sleep(pause)
        gone = evict_idle(rooms, watched, clock(), seconds, computer_seconds)
        if gone:
            log.info("%d idle room(s) left memory; %d remain", len(gone), len(rooms))


__all__ = ["evict_idle", "idle", "sweep_forever"]
