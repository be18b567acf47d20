"""Rooms nobody uses leave memory; storage keeps them, and the first use loads them again.

A room in memory is a whole :class:`boardlab.Match` (every state, every log entry), and a
server that keeps every room it ever served grows without end. A room is idle when nobody
has asked for it for ``idle_room_seconds``, nobody watches it, nothing holds its lock, no
computer thinks for it and no clock runs in it (a clock must fire on time, and a room
loaded again starts its decision's period afresh, as after a restart). Such a room is only
dropped: everything it holds is already in storage, since every change is committed
before it is acknowledged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, MutableMapping

from .rooms import Room

log = logging.getLogger("boardlab.server")
#: how often the rooms are looked over, at most (an idle time under a minute looks more often)
SWEEP_SECONDS = 60.0


def idle(room: Room, watched: bool, now: float, seconds: float) -> bool:
    thinking = room.computer_task is not None and not room.computer_task.done()
    return (
        now - room.used >= seconds
        and not watched
        and not thinking
        and room.clock_timer is None
        and not room.lock.locked()
    )


def evict_idle(
    rooms: MutableMapping[str, Room], watched: Collection[str], now: float, seconds: float
) -> list[str]:
    """Drop the idle rooms from ``rooms``; the ids dropped."""
    gone = [room_id for room_id, room in rooms.items() if idle(room, room_id in watched, now, seconds)]
    for room_id in gone:
        # whoever still holds the object reloads it from storage before acting on it
        rooms.pop(room_id).stale = True
    return gone


async def sweep_forever(
    rooms: MutableMapping[str, Room], watched: Collection[str], clock: Callable[[], float], seconds: float
) -> None:
    """Evict idle rooms every ``seconds / 4`` (at most every minute) until cancelled."""
    pause = min(SWEEP_SECONDS, max(0.05, seconds / 4))
    while True:
        await asyncio.sleep(pause)
        gone = evict_idle(rooms, watched, clock(), seconds)
        if gone:
            log.info("%d idle room(s) left memory; %d remain", len(gone), len(rooms))


__all__ = ["evict_idle", "idle", "sweep_forever"]
