"""Live changes between server processes that share one PostgreSQL: LISTEN/NOTIFY.

Every committed change of a room sends ``NOTIFY boardlab_rooms, 'ORIGIN ROOM REVISION'``
in its own transaction (:meth:`.storage.Storage._write`), so PostgreSQL delivers it at
commit, to every process listening, and never for a change that rolled back. Each process
keeps one connection of its own that listens (:class:`ChangeListener`); a notice from
another process about a room this one holds in memory makes the service reload that room
from storage and push it to its watchers (:meth:`.service.RoomService.changed_elsewhere`).

A notice carries no state, only which room reached which revision: the state is always
read from storage, so a notice lost with a dropped connection costs a reload, never a
wrong state. When the listening connection drops, the listener connects again and tells
the service to reload every room it holds (``on_reconnect``), since notices sent meanwhile
are gone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import psycopg

from .storage import CHANNEL

log = logging.getLogger("boardlab.server")
#: how long to wait before connecting again after the listening connection failed
RECONNECT_SECONDS = 1.0


@dataclass(frozen=True)
class Notice:
    """Room ``room`` reached ``revision`` in the process named ``origin``."""

    origin: str
    room: str
    revision: int

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """The notice in ``payload``, or None for one this version does not understand."""
        parts = payload.split(" ")
        if len(parts) != 3 or not parts[2].isdigit():
            return None
        return cls(parts[0], parts[1], int(parts[2]))


class ChangeListener:
    """One process's listening connection; calls ``on_notice`` for every other process's
    change, ``on_reconnect`` after a dropped connection came back."""

    def __init__(
        self,
        url: str,
        origin: str,
        on_notice: Callable[[Notice], None],
        on_reconnect: Callable[[], Awaitable[None]],
    ) -> None:
        self.url = url
        self.origin = origin
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        #: set once the first LISTEN is in place (tests wait for it)
        self.listening = asyncio.Event()

    async def run(self) -> None:
        """Listen until cancelled, connecting again whenever the connection fails."""
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        log.warning("listening for other servers' changes again; reloading the rooms held")
                        await self.on_reconnect()
                    self.listening.set()
                    async for notify in conn.notifies():
                        notice = Notice.parse(notify.payload)
                        if notice is not None and notice.origin != self.origin:
                            self.on_notice(notice)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: the rooms go on, and we try again
                log.warning("listening for other servers' changes failed (%s); retrying", exc)
            # whatever ended this connection, notices may have been missed from here on
            first = False
            self.listening.clear()
            await asyncio.sleep(RECONNECT_SECONDS)


__all__ = ["RECONNECT_SECONDS", "ChangeListener", "Notice"]
