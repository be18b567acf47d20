"""A finished room's analysis (the replay's graph of chances and its worst moves) and a seat's
hint during play, both worked out off the event loop (docs/analysis.md).

* **Analyses** run :func:`boardlab.agents.analysis.analyse` on the room's record in one
  thread of the server, one room at a time: a Towers game takes seconds, the work is pure
  Python (it needs no process of its own to stay out of the event loop's way for that long)
  and a thread can be told to stop at the next position when the server shuts down. Each
  result is kept for the last :data:`KEPT` rooms analysed; two visitors of one room share one
  analysis, since a finished game never changes. At most :data:`WAITING_ROOMS` rooms wait for
  the thread at once; one more is refused with ``429`` and ``Retry-After`` rather than queued
  behind minutes of others' work (and each address may ask only so often: ratelimits.py).
* **Hints** go to the computer's pool like a computer seat's move: the agent is handed
  ``match.agent_input(seat)``, the seat's own view with everything hidden from it
  re-drawn, never the real state. They are offered only in rooms where no seat is an
  invited person's (a person against the computer, or people at one screen): a hint is
  unfair to nobody there. One hint at a time per room.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..agents import make_agent
from ..agents.analysis import analyse, hint_spec
from ..core.decisions import Decision
from ..core.errors import GameOverError, NotYourTurnError, RefusedError
from ..core.records import Record
from ..core.seeds import derive_seed
from ..core.values import Player
from .errors import BusyError, WaitingForPlayersError
from .rooms import FINISHED, WAITING
from .service import RoomService

#: how many rooms' analyses are kept in memory
KEPT = 32
#: how many rooms' analyses may be under way or waiting for the thread at once
WAITING_ROOMS = 8
#: what a refused visitor is told to wait: about one Towers analysis
BUSY_RETRY_SECONDS = 10.0
#: the longest a hint may take before it is given up (the hint agents stop well before)
HINT_DEADLINE_SECONDS = 25.0
#: hint seeds are drawn apart from the computer seats' (which use the ply itself)
HINT_SEED_OFFSET = 1 << 20


def analyse_record(record: Record, stop: threading.Event) -> dict[str, Any]:
    """Run in the analysis thread: the record's analysis as JSON, at the game's default budget
    and seed, so that ``boardlab analyse`` on the downloaded record prints the same numbers."""
    return analyse(record, stop=stop.is_set).to_json()


class Analyses:
    """Finished rooms' analyses: worked out once each, in one thread, kept for the last rooms."""

    def __init__(self, kept: int = KEPT, waiting_rooms: int = WAITING_ROOMS) -> None:
        self.kept = kept
        self.waiting_rooms = waiting_rooms
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._running: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._stop = threading.Event()
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="boardlab-analyse")

    async def get(self, room_id: str, record: Record) -> dict[str, Any]:
        """``{"room", ...the analysis}``; the first visitor's request starts it, later ones
        wait for the same result."""
        done = self._done.get(room_id)
        if done is not None:
            self._done.move_to_end(room_id)
            return done
        running = self._running.get(room_id)
        if running is None:
            if len(self._running) >= self.waiting_rooms:
                raise BusyError(
                    f"room {room_id}: {len(self._running)} games' analyses are being worked out already; "
                    f"try again in {BUSY_RETRY_SECONDS:.0f} s",
                    retry_after=BUSY_RETRY_SECONDS,
                )
            loop = asyncio.get_running_loop()
            running = loop.run_in_executor(self._executor, analyse_record, record, self._stop)
            self._running[room_id] = running
            running.add_done_callback(lambda _future: self._running.pop(room_id, None))
        # shielded: a visitor who leaves does not cancel the analysis the others wait for
        analysis = await asyncio.shield(running)
        result = {"room": room_id, **analysis}
        self._done[room_id] = result
        while len(self._done) > self.kept:
            self._done.popitem(last=False)
        return result

    def close(self) -> None:
        """Stop the analysis under way at its next position and drop those waiting."""
        self._stop.set()
        self._executor.shutdown(wait=False, cancel_futures=True)


class Hints:
    """The engine's suggestion for a seat that decides now; one at a time per room."""

    def __init__(self) -> None:
        self._busy: set[str] = set()

    async def suggest(self, service: RoomService, room_id: str, token: str | None, seat: Player | None) -> dict[str, Any]:
        """``{"room", "seat", "ply", "revision", "move", "agent"}``: ``move`` is the notation
        of the suggested move for the position at ``revision``."""
        room = await service.room(room_id)
        async with room.lock:
            if room_id in self._busy:
                raise RefusedError(f"room {room_id}: a hint is being worked out already; it comes in a moment")
            if room.status == FINISHED:
                raise GameOverError(f"room {room_id}: the game is over; its replay shows the engine's analysis")
            acting = room.acting_seat(token, seat)
            if room.status == WAITING:
                raise WaitingForPlayersError(f"room {room_id}: waiting for the invited players")
            if any(other.kind == "invite" for other in room.seats):
                raise RefusedError(
                    f"room {room_id}: no hints in a game with an invited player (they would be unfair to them)"
                )
            if room.match.to_move() != acting:
                raise NotYourTurnError(f"room {room_id}: a hint is for the seat that decides now, not seat {acting}")
            ply, revision = room.match.ply, room.revision
            spec = hint_spec(room.game)
            seed = derive_seed(room.row.seed, HINT_SEED_OFFSET + ply)
            view = room.match.agent_input(acting)  # the seat's own knowledge: hidden parts re-drawn
            decision = Decision(acting, make_agent(spec, game=room.game), seed, view, ply, HINT_DEADLINE_SECONDS)
            self._busy.add(room_id)
        try:
            text = (await service.computer.choose(decision, HINT_DEADLINE_SECONDS)).move
        finally:
            self._busy.discard(room_id)
        if text is None:
            raise RefusedError(f"room {room_id}: the engine could not work out a hint in time; try again")
        return {"room": room_id, "seat": acting, "ply": ply, "revision": revision, "move": text, "agent": spec}


__all__ = ["Analyses", "Hints", "analyse_record"]
