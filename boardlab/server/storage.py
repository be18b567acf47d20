"""Storage: rooms, seats and moves in SQLite (a file in the data folder) or PostgreSQL.

The same SQLAlchemy 2 Core code serves both. A room is three tables (declared in
:mod:`.tables` with every other table): ``rooms`` (its settings, status, ``revision``, ending
and what is pending), ``seats`` and ``moves`` (one row per move with ``(room_id, number)`` as
the primary key, so two writers can never both add move ``n``).

Every change is one transaction that first moves the room's revision on *only if it is
still the revision the change was made against* (``UPDATE ... WHERE revision = :seen``),
then rewrites the moves after the last one kept. So a change is committed before it is
acknowledged, and of two racing changes exactly one lands; the other gets
:class:`StorageConflict`. The calls are synchronous; the room service runs them off the
event loop.

On PostgreSQL several server processes may share the database (:mod:`.notify`): every
change also sends ``NOTIFY boardlab_rooms`` in its own transaction (delivered at commit,
never for a change that rolled back), and a fourth table, ``computer_leases``, says which
process thinks a room's computer decision, until when.

The designers (:mod:`.designers`), the players who come back (:mod:`.players`) and the
playtests (:mod:`.playtests`: sessions and the form's answers) have tables of their own, which
those modules query themselves; a room keeps the playtest session it was made in
(``rooms.session``).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Text, and_, bindparam, case, create_engine, delete, event, func, insert, select, union_all, update
from sqlalchemy.engine import Connection, Engine, RowMapping, make_url
from sqlalchemy.exc import IntegrityError

from .rows import Change, MoveRow, RoomRow, SeatClaim, SeatRow, StoredRoom, Write
from .settings import DEFAULT_DURABILITY, DURABILITIES
from .sqlitefile import StorageDamaged, check_sqlite_file, is_malformed, sqlite_pragmas, sqlite_pragmas_unflushed
from .tables import add_missing_columns, computer_leases, metadata, moves, room_players, rooms, seats

#: the channel every change of a room is announced on (PostgreSQL only)
CHANNEL = "boardlab_rooms"
#: the advisory lock that makes the servers starting on one PostgreSQL create its tables in turn
MIGRATION_LOCK = 0x626F61726401


class StorageConflict(Exception):
    """The room changed since the change was made (another writer came first)."""


P = ParamSpec("P")
R = TypeVar("R")


def _notes_damage(method: Callable[Concatenate[Storage, P], R]) -> Callable[Concatenate[Storage, P], R]:
    """A read of storage that finds the SQLite file malformed marks it damaged, as a write would:
    nothing more is written into it (a write that happens to miss the damaged pages would still
    be acknowledged into a file that the next start refuses)."""

    def reading(self: Storage, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            self._note_damage(exc)
            raise

    reading.__doc__, reading.__name__ = method.__doc__, method.__name__
    return reading


class Storage:
    """The database behind the rooms. ``url`` is a SQLAlchemy URL (see Settings.storage_url);
    ``durability`` one of :data:`DURABILITIES` (docs/server.md, Storage)."""

    def __init__(self, url: str, durability: str = DEFAULT_DURABILITY) -> None:
        if durability not in DURABILITIES:
            raise ValueError(f"durability {durability!r}: one of {', '.join(DURABILITIES)}")
        self.durability = durability
        parsed = make_url(url)
        self.dialect = parsed.get_backend_name()
        #: whether other server processes may share the database (PostgreSQL; SQLite serves one)
        self.shared = self.dialect == "postgresql"
        #: this process's name in NOTIFY payloads and leases (its own notices are skipped)
        self.origin = secrets.token_hex(8)
        #: set when SQLite reported its file malformed: every later write is refused unwritten
        self.damaged: StorageDamaged | None = None
        if self.dialect == "sqlite":
            if parsed.database:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
                check_sqlite_file(parsed.database)
            self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
            event.listen(self.engine, "connect", sqlite_pragmas if durability == "machine" else sqlite_pragmas_unflushed)
        else:
            # synchronous_commit=off: a commit returns before its WAL record is flushed; a crash
            # of PostgreSQL's host can lose the last fraction of a second, never corrupt it
            options = {} if durability == "machine" else {"options": "-c synchronous_commit=off"}
            self.engine = create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True, connect_args=options)
        with self.engine.begin() as conn:
            if self.shared:
                # servers started at once on an empty database would each create the tables, and
                # all but one fail in PostgreSQL's catalogue: one at a time, the others then find them
                conn.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            metadata.create_all(conn)
            add_missing_columns(conn)

    def describe(self) -> str:
        """Where the data is, without a password, and what an acknowledged change survives."""
        where = self.engine.url.render_as_string(hide_password=True)
        return f"{where} (an acknowledged change survives a crash of the {self.durability})"

    def close(self) -> None:
        self.engine.dispose()

    # --- writing -------------------------------------------------------------------
    def create_room(self, stored: StoredRoom) -> None:
        """Store a new room, its seats and its opening moves (raises on failure)."""
        _raise(self.write_many([stored])[0])

    def commit(self, change: Change) -> None:
        """Apply ``change`` in one transaction, or raise StorageConflict and change nothing."""
        _raise(self.write_many([change])[0])

    def write_many(self, writes: Sequence[Write]) -> list[BaseException | None]:
        """Group commit: every write in one transaction (one flush to disk for all of them), each
        one's outcome in order (None: stored). If one write fails, each is retried in a
        transaction of its own, so a conflict refuses only its own write."""
        if self.damaged is not None:
            return [self.damaged] * len(writes)
        try:
            with self.engine.begin() as conn:
                for write in writes:
                    self._write(conn, write)
            return [None] * len(writes)
        except Exception as exc:
            self._note_damage(exc)
            if len(writes) == 1 or self.damaged is not None:
                return [self.damaged or _as_conflict(exc, writes[0])] * len(writes)
        return [self._write_alone(write) for write in writes]

    def _write_alone(self, write: Write) -> BaseException | None:
        if self.damaged is not None:
            return self.damaged
        try:
            with self.engine.begin() as conn:
                self._write(conn, write)
        except Exception as exc:
            self._note_damage(exc)
            return self.damaged or _as_conflict(exc, write)
        return None

    def _note_damage(self, error: BaseException) -> None:
        if self.dialect == "sqlite" and is_malformed(error):
            self.damaged = StorageDamaged(str(self.engine.url.database), str(getattr(error, "orig", error)))

    def _write(self, conn: Connection, write: Write) -> None:
        if isinstance(write, StoredRoom):
            room = write.room
            conn.execute(insert(rooms).values(**_room_values(room)))
            conn.execute(insert(seats), [{"room_id": room.id, **vars(seat)} for seat in write.seats])
            if write.moves:
                conn.execute(insert(moves), [{"room_id": room.id, **vars(move)} for move in write.moves])
            return
        change = write
        fields = dict(change.room_fields, revision=change.revision + 1, updated=time.time())
        # the notice rides on the update of the revision it announces: PostgreSQL sends it at
        # commit, to every listener, never for a change that rolled back (a conflict below
        # included), and it costs no statement of its own
        notice = f"{self.origin} {change.room_id} {change.revision + 1}"
        if set(fields) == set(MOVING_ON_FIELDS):  # every change the service makes: a statement built once
            parameters = {"b_room": change.room_id, "b_seen": change.revision}
            parameters.update((f"v_{name}", fields[name]) for name in MOVING_ON_FIELDS)
            if self.shared:
                result = conn.execute(_MOVING_ON_NOTIFIED, {**parameters, "b_notice": notice})
            else:
                result = conn.execute(_MOVING_ON, parameters)
        else:
            moving_on = update(rooms).where(and_(rooms.c.id == change.room_id, rooms.c.revision == change.revision))
            moving_on = moving_on.values(**fields)
            result = conn.execute(moving_on.returning(func.pg_notify(CHANNEL, notice)) if self.shared else moving_on)
        moved_on = len(result.all()) if self.shared else result.rowcount
        if moved_on != 1:
            raise StorageConflict(f"room {change.room_id} is no longer at revision {change.revision}")
        if change.claim is not None:
            claim = change.claim
            values: dict[str, Any] = {"token_hash": claim.token_hash}
            if claim.name is not None:
                values["name"] = claim.name
            claimed = conn.execute(
                update(seats)
                .where(
                    and_(
                        seats.c.room_id == change.room_id,
                        seats.c.seat == claim.seat,
                        seats.c.invite_hash == claim.invite_hash,
                        seats.c.token_hash.is_(None),
                    )
                )
                .values(**values)
            ).rowcount
            if claimed != 1:
                raise StorageConflict(f"seat {claim.seat} of room {change.room_id} is taken")
            if claim.player is not None:
                link = {"room_id": change.room_id, "seat": claim.seat, "player": claim.player, "linked": time.time()}
                conn.execute(insert(room_players).values(**link))
        if change.takes_back:
            conn.execute(delete(moves).where(and_(moves.c.room_id == change.room_id, moves.c.number > change.keep)))
        if change.new_moves:
            conn.execute(insert(moves), [{"room_id": change.room_id, **vars(move)} for move in change.new_moves])

    # --- the computer's lease (several processes) ------------------------------------
    @_notes_damage
    def claim_lease(self, room_id: str, revision: int, seconds: float) -> float | None:
        """Take (or renew) the right to think the room's decision at ``revision`` for
        ``seconds``: None when taken, else the wall-clock time another holder's lease ends.
        A lease of an older revision, or one that ran out, is free."""
        now = time.time()
        fields = {"revision": revision, "holder": self.origin, "until": now + seconds}
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(computer_leases)
                .where(
                    and_(
                        computer_leases.c.room_id == room_id,
                        (computer_leases.c.holder == self.origin)
                        | (computer_leases.c.revision != revision)
                        | (computer_leases.c.until < now),
                    )
                )
                .values(**fields)
            ).rowcount
            if taken == 1:
                return None
            held = conn.execute(
                select(computer_leases.c.until).where(computer_leases.c.room_id == room_id)
            ).scalar_one_or_none()
            if held is not None:
                return float(held)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(computer_leases).values(room_id=room_id, **fields))
        except IntegrityError:  # another process inserted it first
            return now + seconds
        return None

    # --- reading -------------------------------------------------------------------
    @_notes_damage
    def load_room(
        self, room_id: str, from_move: int = 0, known_seats: list[SeatRow] | None = None
    ) -> StoredRoom | None:
        """The room, its seats and its moves numbered ``from_move`` or later (0: every move).

        A process catching up a room it holds (:mod:`.catchup`) reads only the last move it
        holds and those after it, in the same statement as the room's row, and passes
        ``known_seats`` when every invited seat was taken: seats then never change again, and
        are not read. On PostgreSQL the reads see one snapshot, so the moves are those of the
        room's revision read even while other processes commit."""
        with self.engine.connect() as conn:
            if self.shared:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            if from_move > 0:
                # a row per move read (a few), each with the room's columns; at least one row
                joined = conn.execute(_CATCHING_UP, {"b_room": room_id, "b_from": from_move}).mappings().all()
                if not joined:
                    return None
                row = _room_row({name: joined[0][name] for name in rooms.c.keys()})  # noqa: SIM118  (names, not columns)
                move_list = [
                    MoveRow(found["number"], found["text"], found["by"], found["t"], found["note"])
                    for found in joined
                    if found["number"] is not None
                ]
            else:
                found_room = conn.execute(select(rooms).where(rooms.c.id == room_id)).mappings().first()
                if found_room is None:
                    return None
                row = _room_row(found_room)
                move_rows = conn.execute(select(moves).where(moves.c.room_id == room_id).order_by(moves.c.number))
                move_list = [MoveRow(**{k: v for k, v in move.items() if k != "room_id"}) for move in move_rows.mappings()]
            if known_seats is not None:
                return StoredRoom(row, known_seats, move_list)
            seat_rows = conn.execute(select(seats).where(seats.c.room_id == room_id).order_by(seats.c.seat)).mappings()
            seat_list = [SeatRow(**{k: v for k, v in seat.items() if k != "room_id"}) for seat in seat_rows]
            return StoredRoom(row, seat_list, move_list)

    @_notes_damage
    def list_rooms(
        self, statuses: Sequence[str], game: str | None, limit: int, per_creator: int = 0
    ) -> list[tuple[RoomRow, list[SeatRow], int]]:
        """The lobby's rooms: at most ``limit`` in ``statuses`` (of ``game`` if given), in the
        order of ``statuses`` and each status's most recently changed first, at most
        ``per_creator`` of each creator (0: no cap; :func:`latest_fairly`), each with its
        seats and number of moves."""
        with self.engine.connect() as conn:
            return _as_listed(conn, latest_fairly(conn, statuses, game, limit, per_creator))

    @_notes_damage
    def rooms_of(
        self, room_ids: Sequence[str], statuses: Sequence[str], game: str | None
    ) -> list[tuple[RoomRow, list[SeatRow], int]]:
        """The rooms of ``room_ids`` that are in ``statuses`` (of ``game`` if given), as
        :meth:`list_rooms` gives them (a visitor's own rooms, listed whatever the lobby's share)."""
        if not room_ids:
            return []
        query = select(rooms).where(and_(rooms.c.id.in_(list(room_ids)), rooms.c.status.in_(list(statuses))))
        if game is not None:
            query = query.where(rooms.c.game == game)
        with self.engine.connect() as conn:
            return _as_listed(conn, latest_rooms(conn, query, len(room_ids)))

    @_notes_damage
    def finished_rooms(self, game: str, limit: int, session: str | None = None) -> list[StoredRoom]:
        """The latest finished rooms of ``game`` (of one playtest ``session`` if given), most
        recently finished first, whole: seats and every move. Three statements for them all."""
        query = select(rooms).where(and_(rooms.c.game == game, rooms.c.status == "finished"))
        if session is not None:
            query = query.where(rooms.c.session == session)
        with self.engine.connect() as conn:
            room_rows = latest_rooms(conn, query, limit)
            ids = [room.id for room in room_rows]
            if not ids:
                return []
            seat_map = seats_of_rooms(conn, ids)
            found = {room.id: StoredRoom(room, seat_map[room.id], []) for room in room_rows}
            played = select(moves).where(moves.c.room_id.in_(ids)).order_by(moves.c.room_id, moves.c.number)
            for move in conn.execute(played).mappings():
                found[move["room_id"]].moves.append(MoveRow(**{k: v for k, v in move.items() if k != "room_id"}))
        return list(found.values())

    @_notes_damage
    def nth_latest_room_since(self, creator: str, since: float, n: int) -> float | None:
        """When ``creator``'s ``n``-th latest room made at ``since`` (wall-clock seconds) or later
        was made; None: fewer were. What a day's allowance of rooms is counted by, the same for
        every process on this database and after a restart (:mod:`.ratelimits`)."""
        query = (select(rooms.c.created).where(and_(rooms.c.creator == creator, rooms.c.created >= since))
                 .order_by(rooms.c.created.desc()).offset(n - 1).limit(1))
        with self.engine.connect() as conn:
            return conn.execute(query).scalar_one_or_none()

    @_notes_damage
    def unfinished_room_ids(self, since: float | None = None) -> list[str]:
        """The rooms not finished (changed at ``since`` or later, a wall-clock time, if given)."""
        query = select(rooms.c.id).where(rooms.c.status != "finished")
        if since is not None:
            query = query.where(rooms.c.updated >= since)
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    @_notes_damage
    def revision(self, room_id: str) -> int | None:
        """The room's stored revision (None: no such room)."""
        with self.engine.connect() as conn:
            return conn.execute(select(rooms.c.revision).where(rooms.c.id == room_id)).scalar_one_or_none()

    def listen_url(self) -> str:
        """The database as a libpq URL (with its password), for the listener's own connection."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def _as_listed(conn: Any, room_rows: list[RoomRow]) -> list[tuple[RoomRow, list[SeatRow], int]]:
    """Each room with its seats and its number of players' moves, two statements for all."""
    ids = [room.id for room in room_rows]
    if not ids:
        return []
    seat_map = seats_of_rooms(conn, ids)
    counts = players_moves_of_rooms(conn, ids)
    return [(room, seat_map[room.id], counts[room.id]) for room in room_rows]


def latest_rooms(conn: Any, query: Any, limit: int) -> list[RoomRow]:
    """The rooms ``query`` selects, the most recently changed first, at most ``limit``."""
    return [_room_row(row) for row in conn.execute(query.order_by(rooms.c.updated.desc()).limit(limit)).mappings()]


#: how many of each status's latest rooms the lobby's listing picks from, per room listed:
#: its read is bounded (an index range per status: 1,000 rooms each for 100 listed, about 10 ms
#: on SQLite), and one address making rooms as fast as its limits allow (300 a day) pushes
#: another's room out of it only after days
FAIR_SCAN = 10


def latest_fairly(
    conn: Any, statuses: Sequence[str], game: str | None, limit: int, per_creator: int, scan: int | None = None
) -> list[RoomRow]:
    """The lobby's fair share, in one statement: of each status's ``scan`` most recently
    changed rooms (``limit`` * :data:`FAIR_SCAN`; of ``game`` if given; each status read off
    the index on ``(status, updated)``), at most ``per_creator`` of each creator (0: any
    number), a creator's first in the order of ``statuses`` and then the newest; of those,
    at most ``limit``, in the order of ``statuses`` and newest first. A room whose creator is
    unknown (made before ``rooms.creator`` was kept, or outside a request) is a creator of its
    own. So one address that makes room after room shows as ``per_creator`` of them, and
    everyone else's rooms stay listed."""
    scan = scan or limit * FAIR_SCAN
    windows = []
    for status in dict.fromkeys(statuses):
        window = select(rooms.c.id, rooms.c.status, rooms.c.updated, rooms.c.creator).where(rooms.c.status == status)
        if game is not None:
            window = window.where(rooms.c.game == game)
        windows.append(window.order_by(rooms.c.updated.desc()).limit(scan).subquery())
    if not windows:
        return []
    picked = [select(window) for window in windows]
    candidates = (picked[0] if len(picked) == 1 else union_all(*picked)).subquery("candidates")
    rank = {status: place for place, status in enumerate(dict.fromkeys(statuses))}
    place = case(rank, value=candidates.c.status, else_=len(rank)).label("place")
    if per_creator > 0:
        nth = func.row_number().over(
            partition_by=func.coalesce(candidates.c.creator, candidates.c.id), order_by=(place, candidates.c.updated.desc())
        )
        ranked = select(candidates.c.id, candidates.c.updated, place, nth.label("nth")).subquery("ranked")
        chosen = select(ranked.c.id, ranked.c.updated, ranked.c.place).where(ranked.c.nth <= per_creator)
        order = (ranked.c.place, ranked.c.updated.desc(), ranked.c.id)
    else:
        chosen = select(candidates.c.id, candidates.c.updated, place)
        order = (place, candidates.c.updated.desc(), candidates.c.id)
    # ordered and cut to ``limit`` on the narrow columns: only the rooms listed are read whole
    fair = chosen.order_by(*order).limit(limit).subquery("fair")
    query = (
        select(rooms)
        .join(fair, fair.c.id == rooms.c.id)
        .order_by(fair.c.place, fair.c.updated.desc(), fair.c.id)
    )
    return [_room_row(row) for row in conn.execute(query).mappings()]


def seats_of_rooms(conn: Any, room_ids: Sequence[str]) -> dict[str, list[SeatRow]]:
    """The seats of each of ``room_ids`` (in seat order), read in one statement."""
    found: dict[str, list[SeatRow]] = {room_id: [] for room_id in room_ids}
    for seat in conn.execute(select(seats).where(seats.c.room_id.in_(list(room_ids))).order_by(seats.c.seat)).mappings():
        found[seat["room_id"]].append(SeatRow(**{k: v for k, v in seat.items() if k != "room_id"}))
    return found


def players_moves_of_rooms(conn: Any, room_ids: Sequence[str]) -> dict[str, int]:
    """How many moves the players made in each of ``room_ids`` (a roll or a deal is no move:
    the numbering players see, :attr:`boardlab.core.turns.Turn.move_number`), in one statement."""
    counted = (
        select(moves.c.room_id, func.count())
        .where(and_(moves.c.room_id.in_(list(room_ids)), moves.c.by >= 0))
        .group_by(moves.c.room_id)
    )
    found = dict.fromkeys(room_ids, 0)
    found.update((room_id, int(count)) for room_id, count in conn.execute(counted))
    return found


#: the fields every change of a room sets (the service's commits), and the statements that set
#: them, built once: a statement built for each change cost more CPU than its execution
MOVING_ON_FIELDS = ("status", "ending", "pending", "result", "revision", "updated")
_MOVING_ON = (
    update(rooms)
    .where(and_(rooms.c.id == bindparam("b_room"), rooms.c.revision == bindparam("b_seen")))
    .values({name: bindparam(f"v_{name}", type_=rooms.c[name].type) for name in MOVING_ON_FIELDS})
)
_MOVING_ON_NOTIFIED = _MOVING_ON.returning(func.pg_notify(CHANNEL, bindparam("b_notice", type_=Text)))
#: a room's row and its moves from one number on, in one statement (catching a room up)
_CATCHING_UP = (
    select(rooms, moves.c.number, moves.c.text, moves.c.by, moves.c.t, moves.c.note)
    .select_from(rooms.outerjoin(moves, and_(moves.c.room_id == rooms.c.id, moves.c.number >= bindparam("b_from"))))
    .where(rooms.c.id == bindparam("b_room"))
    .order_by(moves.c.number)
)


#: the largest seed the ``seed`` column holds (PostgreSQL's BIGINT is signed)
BIGINT_MAX = 2**63 - 1


def _room_values(room: RoomRow) -> dict[str, Any]:
    """A room as its row: the seed whole in ``seed_text``, and in ``seed`` when it fits."""
    values = vars(room).copy()
    values["seed"] = room.seed if -BIGINT_MAX - 1 <= room.seed <= BIGINT_MAX else 0
    values["seed_text"] = str(room.seed)
    return values


def _room_row(row: RowMapping | dict[str, Any]) -> RoomRow:
    values = dict(row)
    seed_text = values.pop("seed_text", None)
    if seed_text is not None:
        values["seed"] = int(seed_text)
    return RoomRow(**values)


def _as_conflict(error: BaseException, write: Write) -> BaseException:
    """A broken unique key means another writer stored that move first: a conflict, like a
    revision that moved on. Other errors (the database is gone) stay as they are."""
    if isinstance(error, IntegrityError) and isinstance(write, Change):
        return StorageConflict(f"room {write.room_id}: {error.orig}")
    return error


def _raise(outcome: BaseException | None) -> None:
    if outcome is not None:
        raise outcome


__all__ = [
    "CHANNEL",
    "Change",
    "MoveRow",
    "RoomRow",
    "SeatClaim",
    "SeatRow",
    "Storage",
    "StorageConflict",
    "StorageDamaged",
    "StoredRoom",
    "Write",
    "check_sqlite_file",
]
