"""The database's tables, as SQLAlchemy Core declares them, and how an older database is brought up to them.

The rooms' own tables, read and written by :mod:`.storage`:

* ``rooms``: a room's settings (game, options, seed, start, undo policy, clock), its
  status, a ``revision`` bumped by every change, the match's ending and what is pending
  (a draw offer, a queued resignation), the playtest session it was made in, and who made
  it (a keyed digest of the client address, for the lobby's fair share; never the address);
* ``seats``: per seat, who sits there (``here``, ``invite`` or ``computer``), the agent spec,
  and the SHA-256 hashes of its token and of its unused invite code (never the secrets);
* ``moves``: the record's moves, one row per move with ``(room_id, number)`` as the
  primary key, so two writers can never both add move ``n``;
* ``computer_leases`` (several processes on PostgreSQL): which process thinks a room's
  computer decision, until when.

The designers (:mod:`.designers`), the players who come back (:mod:`.players`, with
``room_players``) and the playtests (:mod:`.playtests`: sessions and the form's answers) have
tables of their own, which those modules query themselves. The declarations live apart from
:mod:`.storage` for that reason: every module that writes a statement reads its tables here,
and ``metadata.create_all`` makes them all at once.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    inspect,
    text,
)
from sqlalchemy.engine import Connection

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    # seeds that fit a signed 64-bit integer (every room before 256-bit seeds); a larger one
    # is 0 here and whole in seed_text, which a database made before it gains on opening
    Column("seed", BigInteger, nullable=False),
    Column("seed_text", Text, nullable=True),
    Column("start", Text, nullable=True),
    Column("undo", String(16), nullable=False),
    Column("move_seconds", Float, nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("revision", Integer, nullable=False),
    Column("ending", JSON, nullable=True),
    Column("pending", JSON, nullable=False),
    Column("result", JSON, nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False, index=True),
    # the playtest session the room was made in (playtest_sessions.id; :mod:`.playtests`)
    Column("session", String(32), nullable=True, index=True),
    # who made the room, as the lobby tells creators apart (rooms.creator_of: a keyed digest of
    # the client address, never the address); None: made before it was kept, or outside a request
    Column("creator", String(32), nullable=True),
    # the lobby's read (storage.latest_fairly): each status's latest rooms, straight off this index
    Index("ix_rooms_status_updated", "status", "updated"),
    # a creator's rooms of the last day (storage.nth_latest_room_since: the rooms a day's allowance)
    Index("ix_rooms_creator_created", "creator", "created"),
)

seats = Table(
    "seats",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("spec", String(200), nullable=False),
    Column("level", String(16), nullable=True),
    Column("name", String(80), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("invite_hash", String(64), nullable=True),
)

moves = Table(
    "moves",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("text", Text, nullable=False),
    Column("by", Integer, nullable=False),
    Column("t", Float, nullable=False),
    Column("note", String(32), nullable=False, default=""),
)

#: who thinks a room's pending computer decision (the room at ``revision``), until ``until``
#: (wall-clock seconds): a process that dies leaves a lease that runs out, and another takes it
computer_leases = Table(
    "computer_leases",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("revision", Integer, nullable=False),
    Column("holder", String(32), nullable=False),
    Column("until", Float, nullable=False),
)

#: the server's designers (the Lab's, the playtests'): the SHA-256 of each key, never the key
#: (:mod:`.designers`); in the database so that every process on it knows the same keys
designers = Table(
    "designers",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("admin", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("created_by", String(32), nullable=True),
    Column("revoked", Float, nullable=True),
)

#: players who come back (:mod:`.players`): a display name and the SHA-256 of the random key
#: their browser keeps (never the key); nothing else is asked of them
players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
)

#: which remembered player sat in which seat of a room (linked with the seat's token)
room_players = Table(
    "room_players",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(32), ForeignKey("players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("linked", Float, nullable=False),
)

#: a designer's playtest session (:mod:`.playtests`): a game with a rule variant; the rooms
#: made from its invite link carry its id (``rooms.session``)
playtest_sessions = Table(
    "playtest_sessions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("name", String(80), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("designer", String(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("closed", Float, nullable=True),
    UniqueConstraint("game", "name", name="playtest_session_names"),
)

#: the playtest form, one row per seat of a finished room that answered it (:mod:`.playtests`)
playtest_answers = Table(
    "playtest_answers",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(32), ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True),
    Column("fun", Integer, nullable=True),
    Column("fairness", String(16), nullable=True),
    Column("favoured", Integer, nullable=True),
    Column("length", String(16), nullable=True),
    Column("note", Text, nullable=False),
    Column("answered", Float, nullable=False),
)


def add_missing_columns(conn: Connection) -> None:
    """Bring a database made by an older version up to the tables above (create_all makes
    missing tables only): columns added since are nullable, so old rows stay as they are."""
    present = {info["name"] for info in inspect(conn).get_columns("rooms")}
    for column, kind in (("seed_text", "TEXT"), ("session", "VARCHAR(32)"), ("creator", "VARCHAR(32)")):
        if column not in present:
            conn.execute(text(f"ALTER TABLE rooms ADD COLUMN {column} {kind}"))
            if column == "session":  # the index create_all gives a new table's column
                conn.execute(text("CREATE INDEX IF NOT EXISTS ix_rooms_session ON rooms (session)"))
    # the indexes create_all gives a new table, for a table made before them
    conn.execute(text("CREATE INDEX IF NOT EXISTS ix_rooms_status_updated ON rooms (status, updated)"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS ix_rooms_creator_created ON rooms (creator, created)"))


__all__ = [
    "add_missing_columns",
    "computer_leases",
    "designers",
    "metadata",
    "moves",
    "players",
    "playtest_answers",
    "playtest_sessions",
    "room_players",
    "rooms",
    "seats",
]
