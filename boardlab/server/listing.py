"""The lobby's listings of rooms: read from storage at most once a second for everybody, at
most a few rooms of one creator, and a visitor's own rooms besides.

Apart from :mod:`.service` because a listing reads storage and a cache of its own, never a
room in memory: the service tells it when a room is made or changes status
(:meth:`Listings.forget`), so that the lobby shows it at once.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .rooms import FINISHED, PLAYING, WAITING, room_summary
from .storage import Storage

#: what ``GET /api/rooms?status=`` accepts, and the stored statuses each one lists, in the
#: order listed (rooms waiting for a player first)
LISTINGS = {
    "open": (WAITING,),
    "playing": (PLAYING,),
    "finished": (FINISHED,),
    "all": (WAITING, PLAYING, FINISHED),
}
#: how long a listing read from storage is answered from memory, and how many are kept
LISTING_SECONDS = 1.0
LISTINGS_KEPT = 64
#: the most rooms of one creator (one client address, :func:`.rooms.creator_of`) a listing
#: holds, its first in the order of :data:`LISTINGS` (waiting for a player first), then the
#: newest: the lobby is shared, and an address making twenty rooms a minute shows as three
ROOMS_LISTED_PER_CREATOR = 3
#: the most rooms a visitor names as their own to be listed besides the shared listing
MINE_LISTED = 8

Summary = dict[str, Any]


class Listings:
    """The lobby's listings over ``storage``; ``db`` runs a blocking storage call off the event
    loop; ``rooms_listed``: the most rooms a listing holds."""

    def __init__(self, storage: Storage, db: Callable[..., Awaitable[Any]], rooms_listed: int) -> None:
        self.storage = storage
        self._db = db
        self.rooms_listed = rooms_listed
        #: the listings read lately, by (listing, game): when each goes stale, and the rooms
        self._kept: dict[tuple[str, str | None], tuple[float, list[Summary]]] = {}

    def forget(self) -> None:
        """A room was made or changed status: the next listing reads storage again."""
        self._kept.clear()

    async def rooms(self, listing: str, game: str | None, mine: Sequence[str] = ()) -> list[Summary]:
        """:meth:`_shared`, and the rooms of ``mine`` (a visitor's own, at most
        :data:`MINE_LISTED`) that it leaves out, in the listing's order: the lobby's share of
        one creator never hides a visitor's own games from them."""
        shared = await self._shared(listing, game)
        listed = {summary["room"] for summary in shared}
        missing = [room_id for room_id in dict.fromkeys(mine) if room_id not in listed]
        if not missing:
            return shared
        rows = await self._db(self.storage.rooms_of, missing, LISTINGS[listing], game)
        place = {status: order for order, status in enumerate(LISTINGS[listing])}
        merged = shared + [room_summary(row, seats, count) for row, seats, count in rows]
        return sorted(merged, key=lambda summary: (place.get(summary["status"], len(place)), -summary["updated"]))

    async def _shared(self, listing: str, game: str | None) -> list[Summary]:
        """The latest rooms, read from storage at most once per :data:`LISTING_SECONDS` for
        everybody (a lobby polled fifty times a second costs one read a second); a room made
        or changing status here is listed at once, a move counted within that time. Rooms
        waiting for a player come first, then those being played, then the finished ones,
        each newest first, and at most :data:`ROOMS_LISTED_PER_CREATOR` of one creator (the
        lobby's fair share: :func:`.storage.latest_fairly`)."""
        key = (listing, game)
        kept = self._kept.get(key)
        if kept is not None and kept[0] > time.monotonic():
            return kept[1]
        rows = await self._db(self.storage.list_rooms, LISTINGS[listing], game, self.rooms_listed, ROOMS_LISTED_PER_CREATOR)
        summaries = [room_summary(row, seats, count) for row, seats, count in rows]
        if len(self._kept) > LISTINGS_KEPT:
            self._kept.clear()
        self._kept[key] = (time.monotonic() + LISTING_SECONDS, summaries)
        return summaries


__all__ = ["LISTINGS", "MINE_LISTED", "ROOMS_LISTED_PER_CREATOR", "Listings"]
