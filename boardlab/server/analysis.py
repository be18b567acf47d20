"""A finished room's analysis (the replay's graph of chances and its worst moves) and a seat's
hint during play, both worked out in the computer's pool, never in the server's own process
(docs/analysis.md).

* **Analyses** are worked out on the room's record in the pool (a Towers game takes seconds of
  CPU, which the server's event loop must not share), a slice of positions at a time
  (:mod:`.analysis_slices`), each slice with the fair share of the address that asked
  (:mod:`.computer`: owners served in turn, after the decisions people wait for in their
  games), so that one address's long analysis never keeps another's waiting to its end. Each
  result is kept per room and budget (the analysis's iterations) for the last :data:`KEPT`
  rooms; two visitors of one room share one analysis, since a finished game never changes. At most :data:`WAITING_ROOMS` rooms
  wait at once, and at most :data:`ROOMS_PER_ADDRESS` of them for the analyses one address
  asked for (so that one address cannot take every place and turn everybody else away); one
  more is refused with ``429`` and ``Retry-After`` rather than queued behind minutes of others'
  work (and each address may ask only so often: ratelimits.py). Asking for an analysis that
  is under way already costs nothing more and is never refused.
* **Hints** go to the computer's pool like a computer seat's move: the agent is handed
  ``match.agent_input(seat)``, the seat's own view with everything hidden from it
  re-drawn, never the real state. They are offered only in rooms where no seat is an
  invited person's (a person against the computer, or people at one screen): a hint is
  unfair to nobody there. One hint at a time per room.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from typing import Any

from ..agents import make_agent
from ..agents.analysis import default_iterations, hint_spec
from ..core.decisions import Decision, ThinkingFailed
from ..core.errors import GameOverError, NotYourTurnError, RefusedError
from ..core.records import Record
from ..core.seeds import derive_seed
from ..core.values import Player
from .analysis_slices import AnalysisStep, AnalysisWork, analyse_slice
from .computer import COMPUTERS, ComputerPlayers, PoolThinker
from .errors import BusyError, WaitingForPlayersError
from .ratelimits import CLIENT
from .rooms import FINISHED, WAITING
from .service import RoomService

#: how many rooms' analyses are kept in memory
KEPT = 32
#: how many rooms' analyses may be under way or waiting for the pool at once
WAITING_ROOMS = 8
#: how many of those one client address may have asked for
ROOMS_PER_ADDRESS = 2
#: what a refused visitor is told to wait: about one Towers analysis
BUSY_RETRY_SECONDS = 10.0
#: the longest an analysis may take in the pool's workers, its slices together, before it is given up
ANALYSIS_SECONDS = 300.0
#: the longest a hint may take before it is given up (the hint agents stop well before)
HINT_DEADLINE_SECONDS = 25.0
#: hint seeds are drawn apart from the computer seats' (which use the ply itself)
HINT_SEED_OFFSET = 1 << 20


class Analyses:
    """Finished rooms' analyses: worked out once per room and budget in the pool, kept for the
    last rooms."""

    def __init__(
        self,
        computer: ComputerPlayers,
        kept: int = KEPT,
        waiting_rooms: int = WAITING_ROOMS,
        rooms_per_address: int = ROOMS_PER_ADDRESS,
    ) -> None:
        self.computer = computer
        self.kept = kept
        self.waiting_rooms = waiting_rooms
        self.rooms_per_address = rooms_per_address
        self._done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, int], asyncio.Future[dict[str, Any]]] = {}
        #: how many of the analyses under way each address asked for
        self._running_for: Counter[str] = Counter()

    async def get(self, room_id: str, record: Record) -> dict[str, Any]:
        """``{"room", ...the analysis}``; the first visitor's request starts it, later ones
        wait for the same result."""
        key = (room_id, default_iterations(record.game()))
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is None:
            owner = CLIENT.get()
            self._check_room_for(room_id, owner)
            running = asyncio.ensure_future(self._work_out(room_id, record, owner))
            self._running[key] = running
            self._running_for[owner] += 1
            running.add_done_callback(lambda _future: self._finished(key, owner))
        # shielded: a visitor who leaves does not cancel the analysis the others wait for
        result = await asyncio.shield(running)
        self._done[key] = result
        while len(self._done) > self.kept:
            self._done.popitem(last=False)
        return result

    def _check_room_for(self, room_id: str, owner: str) -> None:
        """Refuse (429) a new analysis beyond the address's share, or beyond every address's."""
        mine = self._running_for[owner] if owner else 0
        if self.rooms_per_address and mine >= self.rooms_per_address:
            raise BusyError(
                f"room {room_id}: {mine} games' analyses asked for by {owner} are being worked out already, the most "
                f"one address may have at once; try again in {BUSY_RETRY_SECONDS:.0f} s",
                retry_after=BUSY_RETRY_SECONDS,
            )
        if len(self._running) >= self.waiting_rooms:
            raise BusyError(
                f"room {room_id}: {len(self._running)} games' analyses are being worked out already; "
                f"try again in {BUSY_RETRY_SECONDS:.0f} s",
                retry_after=BUSY_RETRY_SECONDS,
            )

    def _finished(self, key: tuple[str, int], owner: str) -> None:
        self._running.pop(key, None)
        self._running_for[owner] -= 1
        if not self._running_for[owner]:
            del self._running_for[owner]

    async def _work_out(self, room_id: str, record: Record, owner: str) -> dict[str, Any]:
        """The analysis, slice after slice, each queued anew on ``owner``'s share: between two
        slices the pool serves the other owners' turns."""
        work = AnalysisWork(record)
        while True:
            left = ANALYSIS_SECONDS - work.seconds  # the slices' worker time, not their wait in the queue
            answer = None
            if left > 0:
                answer = await self.computer.run(analyse_slice, work, left, COMPUTERS, owner, spec="analysis")
            if answer is None or answer.value is None:
                failure = f"no answer in {ANALYSIS_SECONDS:.0f} s" if answer is None else answer.failure
                raise BusyError(
                    f"room {room_id}: the analysis could not be worked out ({failure}); try again later",
                    retry_after=BUSY_RETRY_SECONDS,
                )
            step: AnalysisStep = answer.value
            if step.finished is not None:
                return {"room": room_id, **step.finished}
            work = step.work


class Hints:
    """The engine's suggestion for a seat that decides now; one at a time per room."""

    def __init__(self) -> None:
        self._busy: set[str] = set()

    async def suggest(self, service: RoomService, room_id: str, token: str | None, seat: Player | None) -> dict[str, Any]:
        """``{"room", "seat", "ply", "revision", "move", "text", "agent"}``: ``move`` is the
        notation of the suggested move for the position at ``revision``, ``text`` the move as
        the seat reads it (``State.move_text``)."""
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
            service.check_queue_share()  # a hint is a search on the address's share, as a computer's move is
            ply, revision = room.match.ply, room.revision
            spec = hint_spec(room.game)
            seed = derive_seed(room.row.seed, HINT_SEED_OFFSET + ply)
            view = room.match.agent_input(acting)  # the seat's own knowledge: hidden parts re-drawn
            decision = Decision(acting, make_agent(spec, game=room.game), seed, view, ply, HINT_DEADLINE_SECONDS)
            self._busy.add(room_id)
        thinker = PoolThinker(service.computer, service.settings.think_grace_seconds, owner=CLIENT.get())
        try:
            move = await thinker.think(decision)
        except ThinkingFailed:
            raise RefusedError(f"room {room_id}: the engine could not work out a hint in time; try again") from None
        finally:
            self._busy.discard(room_id)
        return {
            "room": room_id, "seat": acting, "ply": ply, "revision": revision, "move": str(move),
            "text": view.move_text(move, acting), "agent": spec,
        }


__all__ = ["Analyses", "Hints"]
