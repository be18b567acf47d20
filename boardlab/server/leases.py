"""The computer's lease: among server processes sharing one PostgreSQL, one thinks a decision.

A room's pending computer decision may be in the memory of several processes (each holds
the room for its own watchers). Before searching, a process takes the room's lease in
storage (:meth:`.storage.Storage.claim_lease`, a row of ``computer_leases`` naming the
process, the room's revision and an end time) and renews it while the search runs; the
others wait. The lease ends when the room moves on (a lease of an older revision is free)
or when its time runs out without renewal: a process that died mid-thought leaves the room
for another process holding it to take over within :data:`LEASE_SECONDS`.

The lease saves doubled work; it is not what keeps the move single: whichever process
stores a move first moves the revision on, and any other's move is refused by storage.
On SQLite (one process) there is no lease: :attr:`.storage.Storage.shared` is false.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from .rooms import Room
from .storage import Storage

log = logging.getLogger("boardlab.server")
T = TypeVar("T")
#: how long a lease lasts without renewal (a dead thinker's room waits this long at most),
#: and how often its holder renews it
LEASE_SECONDS = 6.0
LEASE_RENEW_SECONDS = 2.0
#: how often a process waiting for another's lease looks whether the room moved on
LEASE_POLL_SECONDS = 0.25


class ComputerLeases:
    """Leases of one process; ``db`` runs a blocking storage call off the event loop."""

    def __init__(self, storage: Storage, db: Callable[..., Awaitable[Any]]) -> None:
        self.storage = storage
        self._db = db

    async def claim(self, room: Room, revision: int) -> float | None:
        """Take the lease on the room's decision at ``revision``: None when this process
        thinks it (always, on a database of one process), else when the other holder's
        lease ends (wall-clock time)."""
        if not self.storage.shared:
            return None
        try:
            held_until: float | None = await self._db(self.storage.claim_lease, room.id, revision, LEASE_SECONDS)
        except Exception as exc:  # storage is away: look again shortly, as if someone held it
            log.warning("room %s: the computer's lease could not be taken (%s)", room.id, type(exc).__name__)
            return time.time() + LEASE_RENEW_SECONDS
        return held_until

    async def moved_on(self, room: Room, revision: int) -> bool:
        """Whether storage holds a later revision of the room than ``revision``: another
        process moved it on and its notice has not arrived (a lease taken over after the other
        holder's ran out, say). Thinking the old decision then would be work thrown away."""
        if not self.storage.shared:
            return False
        try:
            stored: int | None = await self._db(self.storage.revision, room.id)
        except Exception:  # storage is away: the move, when made, is refused if it is stale
            return False
        return stored is not None and stored > revision

    @asynccontextmanager
    async def held(self, room: Room, revision: int) -> AsyncIterator[None]:
        """Renew the lease while the block (the search) runs. Losing it meanwhile (this
        process stalled past its end) changes nothing here: storage lets one move land."""
        if not self.storage.shared:
            yield
            return

        async def renew() -> None:
            while True:
                await asyncio.sleep(LEASE_RENEW_SECONDS)
                await self.claim(room, revision)

        renewing = asyncio.get_running_loop().create_task(renew())
        try:
            yield
        finally:
            renewing.cancel()
            await asyncio.gather(renewing, return_exceptions=True)

    async def wait_out(self, room: Room, revision: int, held_until: float, closing: Callable[[], bool]) -> None:
        """Another process thinks the decision: wait until the room moves on (its move
        arrives by NOTIFY) or its lease runs out (it died: the caller takes it over)."""
        while not closing() and time.time() < held_until + LEASE_POLL_SECONDS:
            if room.stale or room.revision != revision:
                return
            await asyncio.sleep(LEASE_POLL_SECONDS)


__all__ = ["LEASE_POLL_SECONDS", "LEASE_RENEW_SECONDS", "LEASE_SECONDS", "ComputerLeases"]
