"""Replays of finished games for the browser's replay view: the view after any move.

A finished game's record is public (it is downloadable), so any position of it may be shown.
The views are made by replaying the record once per room and viewer in a worker of the
computer's pool, with the asking address's share (a physics game replays slowly, and the
server's own process must not), and kept for the few rooms looked at most recently.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from ..core.records import Record
from ..core.values import Player
from .computer import PERSON, ComputerPlayers
from .errors import BusyError, ServerError
from .ratelimits import CLIENT

View = dict[str, Any]
#: the longest a replay may take in its worker
REPLAY_SECONDS = 120.0


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
    """The views of the last ``rooms`` replayed (room, viewer) pairs."""

    def __init__(self, computer: ComputerPlayers, rooms: int = 8) -> None:
        self.computer = computer
        self.rooms = rooms
        self._views: OrderedDict[tuple[str, Player | None], list[View]] = OrderedDict()
        self._lock = asyncio.Lock()

    async def view(self, room_id: str, record: Record, viewer: Player | None, number: int) -> dict[str, Any]:
        """``{"move", "moves", "view"}``: the view after move ``number`` (0 = the start)."""
        total = len(record.turns)
        if not 0 <= number <= total:
            raise BadMoveNumberError(f"room {room_id}: move {number} does not exist; the game has moves 0..{total}")
        key = (room_id, viewer)
        async with self._lock:  # one replay at a time: two visitors of one room share it
            views = self._views.get(key)
            if views is None:
                answer = await self.computer.run(_views, (record, viewer), REPLAY_SECONDS, PERSON, CLIENT.get(), spec="replay")
                if answer.value is None:
                    raise BusyError(f"room {room_id}: the replay could not be made ({answer.failure}); try again", 5.0)
                views = answer.value
                self._views[key] = views
                while len(self._views) > self.rooms:
                    self._views.popitem(last=False)
            self._views.move_to_end(key)
        return {"room": room_id, "move": number, "moves": total, "view": views[number]}


__all__ = ["Replays", "replay_views"]
