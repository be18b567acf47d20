"""The room service: every room's match, its storage, its computer seats, its clock, its watchers.

The one authority over rooms. Each room holds one :class:`boardlab.Match` in memory
(rebuilt from storage on first access; at start-up only the recently active ones; an idle
room leaves memory again, :mod:`.idle`; a new room is made in :mod:`.creation`) and changes only under its own
lock, in three steps: the match acts (a refusal raises and changes nothing), the change
is committed to storage, then it is acknowledged and sent to every watcher (:mod:`.watching`). If the
commit fails the room is reloaded from storage, so memory never runs ahead of what a
restart would find.

After every change the service looks at what comes next (:mod:`.scheduling`): a computer
seat to move gets a search in the pool (:mod:`.computer`), a person with a time limit gets a
timer. A search whose room moved on meanwhile (an undo, a resignation) is thrown away: it is
played only if the room's revision is the one it started from.

Several processes may serve one PostgreSQL (docs/server.md, "Several processes"): the
revision check makes storage the judge of every action, a change stored by another process
reaches this one's watchers through LISTEN/NOTIFY (:mod:`.notify`: the room is caught up
from storage, reading only the moves it lacks where it can, :mod:`.catchup`, then pushed),
and a computer decision is thought by the one process holding its lease in storage, renewed
while it thinks; when that process dies, the lease runs out and a process holding the room
takes the decision over.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..core.errors import BoardlabError, StaleMoveError
from ..core.records import Record
from ..core.values import Player
from .catchup import extend_in_place, extended, moves_in_common
from .computer import ComputerPlayers
from .creation import Created, NewRoom, RoomPlan, make_room, plan_room
from .errors import (
    BadInviteError,
    BusyError,
    GameNotOverError,
    SeatTakenError,
    StorageUnavailableError,
    UnknownRoomError,
    WaitingForPlayersError,
)
from .fairness import ComputerRoomSlots, check_new_room, computers_only
from .finished import FinishedRooms
from .idle import sweep_forever
from .leases import ComputerLeases
from .listing import Listings
from .notify import ChangeListener, Notice
from .ratelimits import CLIENT, DAY_SECONDS, refuse_past_rooms_a_day
from .rooms import (
    PLAYING,
    WAITING,
    Room,
    build_match,
    creator_key,
    creator_of,
    hash_secret,
    new_secret,
    seats_taken,
    state_message,
)
from .rows import Change, MoveRow, SeatClaim, SeatRow, StoredRoom
from .scheduling import RoomScheduling
from .settings import Settings
from .storage import Storage, StorageConflict
from .watchers import Message, Watcher
from .watching import RoomWatching
from .writer import GroupCommitter

log = logging.getLogger("boardlab.server")
T = TypeVar("T")
#: when an address refused for its queued searches may try again (a search takes seconds)
QUEUE_RETRY_SECONDS = 5
#: the threads that read storage: one process's own (SQLite), or with others on PostgreSQL
READERS, SHARED_READERS = 2, 6
#: what a room id may look like (anything else is unknown without asking storage)
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class RoomService(RoomScheduling, RoomWatching):
    """Rooms in memory over storage: create, join, act, watch; the computer and the clock."""

    def __init__(
        self, settings: Settings, storage: Storage, computer: ComputerPlayers, *, server_secret: str | None = None
    ) -> None:
        """``server_secret``: the admin key, from which the key that tells the lobby's creators
        apart is derived (:func:`.rooms.creator_key`: one creator in every process that holds it)."""
        self.settings = settings
        self.storage = storage
        self.computer = computer
        self._rooms: dict[str, Room] = {}
        #: finished rooms that left ``_rooms``, kept for their next reads (:mod:`.finished`)
        self._finished = FinishedRooms()
        self._load_lock = asyncio.Lock()
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)
        # storage calls block: reads run in these threads, writes in the group committer's. On a
        # shared PostgreSQL every move made elsewhere is read here to catch its room up, and a
        # read waits mostly for the database, not the CPU: more of them may wait at once
        readers = SHARED_READERS if storage.shared else READERS
        self._readers = ThreadPoolExecutor(readers, thread_name_prefix="boardlab-read")
        self._committer = GroupCommitter(storage)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        #: the rooms of computers only that may think, each on an address's share (fairness.py)
        self.computer_rooms = ComputerRoomSlots(
            self._rooms, settings.max_computer_only_rooms, settings.max_computer_only_rooms_per_address
        )
        self.listings = Listings(storage, self._db, settings.rooms_listed)
        #: other processes' changes, on a shared database (None on SQLite: one process)
        self.listener: ChangeListener | None = None
        self.leases = ComputerLeases(storage, self._db)
        self._creator_key = creator_key(server_secret)

    # --- life -------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the computer's pool and resume every unfinished room (pending computer moves
        and clocks included) in the background."""
        self.computer.start()
        # the first person's reply must not wait for the workers' start and imports
        await self.computer.warmed_up()
        self._committer.start()
        if self.storage.shared:
            self.listener = ChangeListener(
                self.storage.listen_url(), self.storage.origin, self.changed_elsewhere, self._catch_up_all
            )
            self._spawn(self.listener.run())
        self._spawn(self._resume_all())
        idle, unwatched = self.settings.idle_room_seconds, self.settings.unwatched_computer_room_seconds
        if idle > 0 or unwatched > 0:
            self._spawn(sweep_forever(self._rooms, self._watchers, self.settings.clock, idle, unwatched))

    async def close(self) -> None:
        self._closing = True
        for room in self._rooms.values():
            if room.clock_timer is not None:
                room.clock_timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.computer.close()
        await self._committer.close()
        self._readers.shutdown(wait=True)

    async def _resume_all(self) -> None:
        # a room left longer than the idle time waits for a person: it loads when first asked for
        idle = self.settings.idle_room_seconds
        since = time.time() - idle if idle > 0 else None
        for room_id in await self._db(self.storage.unfinished_room_ids, since):
            try:
                await self.room(room_id)
            except Exception:  # one broken room must not keep the others from resuming
                log.exception("room %s could not be resumed", room_id)

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _db(self, call: Callable[..., T], *args: Any) -> T:
        """A read from storage, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._readers, call, *args)

    # --- finding rooms ------------------------------------------------------------------
    async def room(self, room_id: str) -> Room:
        """The room, from memory or rebuilt from storage; UnknownRoomError if there is none."""
        room = self._rooms.get(room_id)
        if room is not None:
            room.used = self.settings.clock()
            if room.stale:  # behind storage (another process's change, a failed write): catch up first
                async with room.lock:
                    if room.stale:
                        # storage is away: the action's own check tries again and says so
                        with contextlib.suppress(BoardlabError):
                            await self._refresh(room)
                self._schedule(room)
            elif room.computer_task is None and room.status == PLAYING and room.match.computer_to_move():
                self._schedule(room)  # a room of computers only waiting for a place (fairness.py): this use may give it one
            return room
        if not ROOM_ID.fullmatch(room_id):
            raise UnknownRoomError(f"there is no room {room_id[:40]!r}")
        async with self._load_lock:
            room = self._rooms.get(room_id)
            if room is None:
                room = await self._kept_or_loaded(room_id)
                self._rooms[room_id] = room
        room.used = self.settings.clock()
        self._schedule(room)
        return room

    async def _kept_or_loaded(self, room_id: str) -> Room:
        """A finished room kept since it left memory (:mod:`.finished`), when storage still
        holds it at the revision kept, which one small read tells; else the room rebuilt from
        storage."""
        if self._finished.revision(room_id) is not None:
            try:
                stored_revision = await self._db(self.storage.revision, room_id)
            except Exception:  # storage away: the load below says so
                stored_revision = None
            kept = self._finished.take(room_id, stored_revision)
            if kept is not None:
                return kept
        stored = await self._load(room_id)
        game, match = build_match(stored, self.settings.clock)
        return Room(stored.room, game, match, stored.seats, stored.moves, seats_final=seats_taken(stored.seats))

    def loaded(self, room_id: str) -> Room | None:
        """The room if it is in memory (for checks and diagnostics; routes use :meth:`room`)."""
        return self._rooms.get(room_id)

    async def _load(self, room_id: str, from_move: int = 0, known_seats: list[SeatRow] | None = None) -> StoredRoom:
        try:
            stored = await self._db(self.storage.load_room, room_id, from_move, known_seats)
        except Exception as exc:
            log.exception("loading room %s failed", room_id)
            raise StorageUnavailableError(f"room {room_id}: storage is not available ({type(exc).__name__})") from None
        if stored is None:
            raise UnknownRoomError(f"there is no room {room_id!r}")
        return stored

    async def _refresh(self, room: Room) -> None:
        """Rebuild ``room`` in place as storage holds it (its lock and watchers stay), reading
        only the moves from the last one it holds on when they extend its own (:mod:`.catchup`),
        and push it to its watchers, who are sent only the log entries of the moves that changed."""
        stored = None
        known_seats = room.seats if room.seats_final else None
        if room.stored:
            stored = extended(room.stored, room.revision, await self._load(room.id, room.stored[-1].number, known_seats))
        if stored is None:
            stored = await self._load(room.id, 0, known_seats)
        kept = moves_in_common(room.stored, stored.moves)
        if not extend_in_place(room, stored, kept):
            room.game, room.match = build_match(stored, self.settings.clock)
        room.row, room.seats, room.stored = stored.room, stored.seats, stored.moves
        room.seats_final = seats_taken(stored.seats)
        room.stale = False
        room.forget_log_after(kept)
        self._broadcast(room)

    # --- other processes on the same database ---------------------------------------------
    def changed_elsewhere(self, notice: Notice) -> None:
        """Another process stored ``notice.revision`` of a room this one holds older: reload
        it now if someone here watches it, or this process's computer or clock waits in it;
        else only mark it, and its next use reloads it (a room not in memory is read from
        storage when asked for)."""
        room = self._rooms.get(notice.room)
        if room is None or room.revision >= notice.revision or self._closing:
            return
        waiting = room.computer_task is not None and not room.computer_task.done()
        if self._watchers.get(room.id) or waiting or room.clock_timer is not None:
            self._spawn(self._catch_up(room, notice.revision))
        else:
            room.stale = True

    async def _catch_up(self, room: Room, revision: int | None) -> None:
        """Reload ``room`` unless it reached ``revision`` meanwhile (None: reload anyway),
        push it to its watchers, and go on with what comes next."""
        async with room.lock:
            if revision is not None and room.revision >= revision and not room.stale:
                return
            try:
                await self._refresh(room)
            except BoardlabError:
                room.stale = True  # storage is away: the next action tries again
                return
        self._schedule(room)

    async def _catch_up_all(self) -> None:
        """After missed notices: reload every watched room now, the others on their next use."""
        for room in list(self._rooms.values()):
            if self._watchers.get(room.id):
                self._spawn(self._catch_up(room, None))
            else:
                room.stale = True

    async def list_rooms(self, listing: str, game: str | None, mine: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The lobby's rooms (:meth:`.listing.Listings.rooms`)."""
        return await self.listings.rooms(listing, game, mine)

    # --- creating and joining -------------------------------------------------------------
    async def create(self, request: NewRoom) -> Created:
        plan = plan_room(request)
        address = CLIENT.get()
        check_new_room(
            plan.choices,
            request.move_seconds,
            self.computer_rooms,
            address,
            self.computer,
            max_queued_searches=self.settings.max_queued_searches,
            min_move_seconds=self.settings.min_move_seconds,
        )
        if any(choice.kind == "computer" for choice in plan.choices):
            self.check_queue_share()
        if not computers_only(plan.choices):
            return await self._create(request, plan)
        with self.computer_rooms.creating(address):
            return await self._create(request, plan)

    async def _create(self, request: NewRoom, plan: RoomPlan) -> Created:
        creator = creator_of(CLIENT.get(), self._creator_key)
        allowance = self.settings.rooms_per_day
        if creator is not None and allowance > 0:
            now = time.time()  # rooms.created's clock
            try:
                nth_latest = await self._db(self.storage.nth_latest_room_since, creator, now - DAY_SECONDS, allowance)
            except Exception as exc:
                log.exception("counting a creator's rooms failed")
                raise StorageUnavailableError(f"storage could not be read ({type(exc).__name__}); nothing was created") from None
            refuse_past_rooms_a_day(CLIENT.get(), allowance, nth_latest, now)
        made = make_room(request, plan, self.settings.seed_source(), self.settings.clock, creator)
        try:
            await self._committer.write(made.stored)
        except Exception as exc:
            log.exception("creating a room failed")
            raise StorageUnavailableError(f"the room could not be saved ({type(exc).__name__}); nothing was created") from None
        self.listings.forget()
        async with self._load_lock:
            # the start-up resume (or a visitor with the new id) may have loaded the stored room
            # meanwhile: one room in memory, else two copies would each think its computer's move
            room = self._rooms.setdefault(made.room.id, made.room)
        room.used = self.settings.clock()
        room.charged_to = CLIENT.get()
        if computers_only(room.seats):
            self.computer_rooms.hold(room, room.charged_to)  # its place was checked, and counted while it was written
        self._schedule(room)
        return Created(room, made.token, made.invites)

    async def join(self, room_id: str, code: str, name: str | None, player: str | None = None) -> tuple[str, Player, Message]:
        """Take the invited seat whose code is ``code``: returns the seat's new token, the seat,
        and its state. The code works once: BadInviteError for a wrong one, SeatTakenError after.
        ``player``: the remembered player (:mod:`.players`) who takes it, linked in the same commit."""
        token = new_secret()
        claimed: list[Player] = []

        def claim(room: Room) -> SeatClaim:
            digest = hash_secret(code)
            for seat in room.seats:
                if seat.invite_hash is not None and hmac.compare_digest(seat.invite_hash, digest):
                    if seat.token_hash is not None:
                        raise SeatTakenError(f"room {room.id}: seat {seat.seat} has been taken with this invite")
                    seat.token_hash = hash_secret(token)
                    if name is not None:
                        seat.name = name
                        room.match.rename(seat.seat, name)
                    claimed.append(seat.seat)
                    room.match.restart_clock()  # the time before the guest came is not theirs
                    return SeatClaim(seat.seat, seat.invite_hash, seat.token_hash, name, player)
            raise BadInviteError(f"room {room_id}: this invite code is not valid here")

        _room, message = await self._change(room_id, claim, lambda room: (claimed, None), conflict=SeatTakenError)
        return token, claimed[0], message

    # --- acting ---------------------------------------------------------------------------
    async def state(self, room_id: str, token: str | None, seat: Player | None) -> Message:
        room = await self.room(room_id)
        async with room.lock:
            if room.stale:
                await self._refresh(room)
            held = room.held_by(token)
            return state_message(room, room.viewer(held, seat), held)

    def check_queue_share(self, room: Room | None = None) -> None:
        """Refuse (429) an action of a client address whose searches already wait for the
        computer ``max_queued_per_address`` deep, when it would queue another (a room with a
        computer seat; a hint, given no room): its own next search would wait behind them anyway."""
        if room is not None and all(seat.kind != "computer" for seat in room.seats):
            return
        bound = self.settings.max_queued_per_address
        address = CLIENT.get()
        waiting = self.computer.queued_for(address) if address else 0
        if bound and waiting >= bound:
            raise BusyError(
                f"{waiting} of this address's decisions wait for the computer already, the most one address may "
                f"queue (--max-queued-per-address {bound}); try again when they are answered",
                QUEUE_RETRY_SECONDS,
                code="computer_busy",
            )

    async def play(
        self, room_id: str, token: str | None, text: str, ply: int, revision: int | None, seat: Player | None
    ) -> Message:
        def move(room: Room) -> None:
            self.check_queue_share(room)
            acting = room.acting_seat(token, seat)
            self._check_playing(room)
            if revision is not None and revision != room.revision:
                raise StaleMoveError(
                    f"{text}: made at revision {revision}, but room {room.id} is at revision {room.revision} "
                    "(something happened first)"
                )
            room.match.play(acting, text, ply=ply)

        return (await self._change(room_id, move, self._holder(token, seat)))[1]

    async def undo(self, room_id: str, token: str | None, revision: int, seat: Player | None) -> Message:
        def take_back(room: Room) -> None:
            self.check_queue_share(room)
            acting = room.acting_seat(token, seat)
            self._check_playing(room)
            if revision != room.revision:
                raise StaleMoveError(
                    f"undo: asked at revision {revision}, but room {room.id} is at revision {room.revision} "
                    "(something happened first; nothing was taken back)"
                )
            room.match.undo(acting)

        return (await self._change(room_id, take_back, self._holder(token, seat)))[1]

    async def resign(self, room_id: str, token: str | None, seat: Player | None) -> Message:
        def give_up(room: Room) -> None:
            room.match.resign(room.acting_seat(token, seat))

        return (await self._change(room_id, give_up, self._holder(token, seat)))[1]

    async def draw(self, room_id: str, token: str | None, action: str, seat: Player | None) -> Message:
        def answer(room: Room) -> None:
            acting = room.acting_seat(token, seat)
            self._check_playing(room)
            if action == "offer":
                room.match.offer_draw(acting)
            elif action == "accept":
                room.match.accept_draw(acting)
            else:
                room.match.decline_draw(acting)

        return (await self._change(room_id, answer, self._holder(token, seat)))[1]

    async def record(self, room_id: str) -> Record:
        """The finished game's record (the file ``boardlab replay`` reads); GameNotOverError
        before the end, since a record holds every secret."""
        room = await self.room(room_id)
        async with room.lock:
            if not room.match.is_over():
                raise GameNotOverError(f"room {room_id}: the game is not over; its record holds hidden information")
            return room.match.record(room=room.id, saved_by="boardlab serve")

    @staticmethod
    def _check_playing(room: Room) -> None:
        if room.status == WAITING:
            waiting = [seat.seat for seat in room.seats if seat.kind == "invite" and seat.token_hash is None]
            raise WaitingForPlayersError(f"room {room.id}: waiting for the invited player(s) in seat(s) {waiting}")

    @staticmethod
    def _holder(token: str | None, seat: Player | None) -> Callable[[Room], tuple[list[Player], Player | None]]:
        """Whose state answers an action: the acting token's, from the seat it acted for."""

        def holder(room: Room) -> tuple[list[Player], Player | None]:
            held = room.held_by(token)
            return held, seat

        return holder

    async def _change(
        self,
        room_id: str,
        action: Callable[[Room], Any],
        answer_for: Callable[[Room], tuple[list[Player], Player | None]],
        conflict: type[BoardlabError] = StaleMoveError,
    ) -> tuple[Room, Message]:
        """Run ``action`` on the room under its lock, commit it, tell the watchers, and
        answer with the state ``answer_for`` names. A refusal changes nothing."""
        room = await self.room(room_id)
        async with room.lock:
            if room.stale:
                await self._refresh(room)
            outcome = action(room)
            room.charged_to = CLIENT.get() or room.charged_to
            try:
                await self._commit(room, outcome if isinstance(outcome, SeatClaim) else None, conflict)
            except conflict:
                if not self.storage.shared:
                    raise
                # another process stored a change this one had not heard of yet: judge the
                # action again on what storage holds (a move made for an old ply is refused)
                await self._refresh(room)
                outcome = action(room)
                await self._commit(room, outcome if isinstance(outcome, SeatClaim) else None, conflict)
            made = self._broadcast(room)
            held, seat = answer_for(room)
            viewer = room.viewer(held, seat)
            message = made.get((viewer, tuple(held))) or state_message(room, viewer, held)
        self._schedule(room)
        return room, message

    async def _commit(
        self,
        room: Room,
        claim: SeatClaim | None = None,
        conflict: type[BoardlabError] = StaleMoveError,
    ) -> None:
        """Write what changed (the moves after the last one storage shares, the room's fields) in
        one transaction, against the revision the change was made on. On any failure the action
        is refused and the room reloaded from storage (at once in the background, so that its
        computer and clock go on)."""
        keep, turns = room.match.unstored()
        rows = [MoveRow.from_turn(turn) for turn in turns]
        result = room.match.result()
        status = room.status
        ending = None if room.match.ending is None else room.match.ending.to_json()
        pending = room.pending()
        result_json = None if result is None else result.to_json()
        fields = {"status": status, "ending": ending, "pending": pending, "result": result_json}
        change = Change(room.id, room.revision, keep, rows, fields, claim, takes_back=keep < room.stored_moves)
        try:
            await self._committer.write(change)
        except asyncio.CancelledError:
            room.stale = True  # whether it landed is unknown: the next action reloads the room
            raise
        except StorageConflict as exc:
            self._recover(room)
            raise conflict(f"room {room.id}: another action came first ({exc}); nothing was changed") from None
        except Exception as exc:
            self._recover(room)
            log.exception("room %s: saving a change failed", room.id)
            raise StorageUnavailableError(
                f"room {room.id}: the change could not be saved ({type(exc).__name__}); nothing was changed"
            ) from None
        if status != room.row.status:
            self.listings.forget()  # a listing shows the room under its new status at once
        room.match.mark_stored()
        del room.stored[keep:]
        room.stored.extend(rows)
        room.forget_log_after(keep)
        room.row.revision += 1
        room.row.updated = time.time()
        room.row.status = status
        room.row.ending, room.row.pending, room.row.result = ending, pending, result_json
        if self.computer.queued:
            self.computer.drop_unwanted()  # a search this room was waiting for may be moot now

    def _recover(self, room: Room) -> None:
        """Memory ran ahead of storage: mark the room and reload it as soon as its lock is free."""
        room.stale = True

        async def reload() -> None:
            async with room.lock:
                if not room.stale:
                    return
                try:
                    await self._refresh(room)
                except BoardlabError:
                    return  # storage is still away: the next action tries again
            self._schedule(room)

        if not self._closing:
            self._spawn(reload())


__all__ = ["Created", "NewRoom", "RoomService", "Watcher"]
