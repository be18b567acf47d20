"""Replays of finished games for the browser's replay view: the view after any move.

A finished game's record is public (it is downloadable), so any position of it may be shown.
The views are made by replaying the record once per room and viewer in a worker of the
computer's pool, with the asking address's share (a physics game replays slowly, and the
server's own process must not), and kept for the few rooms looked at most recently. Replays
of different rooms (or viewers) are made side by side, and each address may have only a few
being made at once.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from ..core.records import Record
from ..core.values import Player
from .computer import PERSON, ComputerPlayers
from .errors import BusyError, ServerError
from .ratelimits import CLIENT

View = dict[str, Any]
#: the longest a replay may take in its worker
REPLAY_SECONDS = 120.0
#: replay requests one client address may have in progress at once (a page asks for one position
#: at a time; quick clicks while the first replay is made ask for a few)
REPLAYS_PER_ADDRESS = 3
#: what an address refused for its replays under way is told to wait: about one replay
REPLAY_RETRY_SECONDS = 2.0


class BadMoveNumberError(ServerError):
    code = "bad_request"


def replay_views(record: Record, viewer: Player | None) -> list[View]:
    """``viewer``'s view after each move of ``record``, the start (move 0) first; the last
    one shows the match's own ending (a resignation, an agreed draw) as the live page did."""
    state = record.initial_state()
    views = [state.view(viewer)]
    for _number, _text, state in record.states():
        views.append(state.view(viewer))
    if record.ending is not None:
        result = record.ending.result(state.game)
        views[-1].update(to_move=None, chance=False, over=True, result=result.to_json())
    return views


def _views(asked: tuple[Record, Player | None]) -> list[View]:
    """Run in a worker of the pool: :func:`replay_views` of the record for the viewer."""
    return replay_views(*asked)


class Replays:
    """The views of the last ``rooms`` replayed (room, viewer) pairs.

    Each pair is replayed once at a time: a second visitor of one pair waits for the same
    replay, visitors of other pairs do not wait for it (they wait only for their turn in the
    pool, with their own address's share). An address may have ``per_address`` replay requests
    in progress at once (0: no bound), the replays they started counted until they are made;
    one more is refused with ``429 rate_limited`` and ``Retry-After`` before it reads anything,
    rather than queued behind them, so that no address holds the others' replays up (its own
    would only wait behind each other in its share of the pool)."""

    def __init__(self, computer: ComputerPlayers, rooms: int = 8, per_address: int = REPLAYS_PER_ADDRESS) -> None:
        self.computer = computer
        self.rooms = rooms
        self.per_address = per_address
        self._views: OrderedDict[tuple[str, Player | None], list[View]] = OrderedDict()
        #: the replays being made, by (room, viewer)
        self._making: dict[tuple[str, Player | None], asyncio.Task[list[View]]] = {}
        #: each address's replay requests in progress, and the replays they started until made
        self._asked_by: Counter[str] = Counter()

    async def view(
        self,
        room_id: str,
        number: int,
        viewer_of: Callable[[], Awaitable[Player | None]],
        record: Callable[[], Awaitable[Record]],
    ) -> dict[str, Any]:
        """``{"room", "move", "moves", "view"}``: the view after move ``number`` (0 = the start)
        as ``viewer_of()`` names the viewer. ``record`` gives the finished game's record; it is
        asked for only when the views are not kept already. Both read the room (a finished room
        is rebuilt from storage for each), so the address's share is taken before either."""
        owner = CLIENT.get()
        self._take_share(room_id, owner)
        handed_on = False  # to the replay this request started: it gives the share back when made
        try:
            key = (room_id, await viewer_of())
            views = self._views.get(key)
            if views is not None:
                self._views.move_to_end(key)
            else:
                making = self._making.get(key)
                if making is None:
                    making = self._start(key, owner, record)
                    handed_on = True
                # shielded: a visitor who leaves does not cancel the replay the others wait for
                views = await asyncio.shield(making)
        finally:
            if not handed_on:
                self._give_share_back(owner)
        total = len(views) - 1
        if not 0 <= number <= total:
            raise BadMoveNumberError(f"room {room_id}: move {number} does not exist; the game has moves 0..{total}")
        return {"room": room_id, "move": number, "moves": total, "view": views[number]}

    def _take_share(self, room_id: str, owner: str) -> None:
        if self.per_address and owner and self._asked_by[owner] >= self.per_address:
            raise BusyError(
                f"room {room_id}: {owner} has {self._asked_by[owner]} replays asked for already, the most one address "
                f"may have at once; try again in {REPLAY_RETRY_SECONDS:.0f} s",
                REPLAY_RETRY_SECONDS,
            )
        self._asked_by[owner] += 1

    def _give_share_back(self, owner: str) -> None:
        self._asked_by[owner] -= 1
        if not self._asked_by[owner]:
            del self._asked_by[owner]

    def _start(
        self, key: tuple[str, Player | None], owner: str, record: Callable[[], Awaitable[Record]]
    ) -> asyncio.Task[list[View]]:
        making = asyncio.ensure_future(self._make(key, owner, record))
        self._making[key] = making
        making.add_done_callback(lambda done: self._made(key, owner, done))
        return making

    async def _make(self, key: tuple[str, Player | None], owner: str, record: Callable[[], Awaitable[Record]]) -> list[View]:
        asked = await record()
        answer = await self.computer.run(_views, (asked, key[1]), REPLAY_SECONDS, PERSON, owner, spec="replay")
        if answer.value is None:
            raise BusyError(f"room {key[0]}: the replay could not be made ({answer.failure}); try again", 5.0)
        views: list[View] = answer.value
        self._views[key] = views
        while len(self._views) > self.rooms:
            self._views.popitem(last=False)
        return views

    def _made(self, key: tuple[str, Player | None], owner: str, done: asyncio.Task[list[View]]) -> None:
        self._making.pop(key, None)
        self._give_share_back(owner)
        if not done.cancelled():
            done.exception()  # retrieved here: every visitor who waited for it may have left


__all__ = ["Replays", "replay_views"]
