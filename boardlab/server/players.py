"""Players who come back: a display name and a random key that the browser keeps.

Nothing is required to play: a visitor plays with seat tokens alone, as ever. A visitor who
gives a name becomes a **remembered player**: ``POST /api/players`` answers with a key (192
random bits, shown once; storage keeps its SHA-256) that the browser keeps and sends as
``X-Player-Key``. No password, no address, nothing else is asked.

A player's seats are linked with the seat's token (:meth:`PlayerBook.link`): whoever holds a
seat's token may say "this seat is mine". So the lobby lists the player's games and a player
page shows their results; the playtests (:mod:`.playtests`) know which answers are whose.

**Privacy.** A player's name is shown only to the other players of the same game (a holder
of one of its seats' tokens: :meth:`PlayerBook.names`) and to the server's designers; a
room's public seats keep the seat's own name ("White"). A player can rename themselves,
delete their answers, and forget themselves (their links go, their answers with them).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends
from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection
from starlette.requests import HTTPConnection

from ..core.values import Player
from .errors import BadPlayerKeyError, BadTokenError, PlayerKeyMissingError, UnknownRoomError
from .rooms import hash_secret, new_secret, public_seats
from .schemas import unstorable
from .service import ROOM_ID
from .storage import Storage, players_moves_of_rooms, seats_of_rooms
from .tables import players, playtest_answers, room_players, rooms, seats

#: the header a remembered player's key travels in
PLAYER_KEY_HEADER = "x-player-key"
#: the most games a player's list holds (the most recently changed first)
GAMES_LISTED = 100


@dataclass(frozen=True)
class RememberedPlayer:
    """A player who comes back: ``id`` names them in storage (never shown to others), ``name``
    is what the other players of their games see."""

    id: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


class PlayerBook:
    """The remembered players in storage. Every call is synchronous: routes run them in a thread."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def create(self, name: str) -> tuple[RememberedPlayer, str]:
        """A new player and their key (shown once: storage keeps its hash)."""
        key = new_secret()
        player = RememberedPlayer(f"p-{new_secret()[:12]}", name)
        now = time.time()
        with self.storage.engine.begin() as conn:
            conn.execute(insert(players).values(id=player.id, name=name, key_hash=hash_secret(key), created=now, seen=now))
        return player, key

    def find(self, key: str) -> RememberedPlayer | None:
        """The player whose key this is (None: nobody's)."""
        with self.storage.engine.connect() as conn:
            row = conn.execute(select(players.c.id, players.c.name).where(players.c.key_hash == hash_secret(key))).first()
        return None if row is None else RememberedPlayer(row.id, row.name)

    def rename(self, player: RememberedPlayer, name: str) -> RememberedPlayer:
        with self.storage.engine.begin() as conn:
            conn.execute(update(players).where(players.c.id == player.id).values(name=name, seen=time.time()))
        return RememberedPlayer(player.id, name)

    def forget(self, player: RememberedPlayer) -> int:
        """Delete the player, their links to seats and their playtest answers; how many answers went."""
        with self.storage.engine.begin() as conn:
            answers = conn.execute(delete(playtest_answers).where(playtest_answers.c.player == player.id)).rowcount
            conn.execute(delete(room_players).where(room_players.c.player == player.id))
            conn.execute(delete(players).where(players.c.id == player.id))
        return int(answers)

    def link(self, player: RememberedPlayer, room_id: str, token: str) -> list[Player]:
        """Link the seats ``token`` holds in the room to ``player`` (a seat linked before to
        someone else is theirs now: the token is the proof); the seats linked."""
        with self.storage.engine.begin() as conn:
            held = seats_held(conn, room_id, token)
            now = time.time()
            conn.execute(delete(room_players).where(and_(room_players.c.room_id == room_id, room_players.c.seat.in_(held))))
            rows = [{"room_id": room_id, "seat": seat, "player": player.id, "linked": now} for seat in held]
            conn.execute(insert(room_players), rows)
            conn.execute(update(players).where(players.c.id == player.id).values(seen=now))
        return held

    def carry_links(self, old_room: str, new_room: str, new_seat: Callable[[Player], Player]) -> None:
        """The remembered players of ``old_room``'s seats hold ``new_seat(seat)`` of ``new_room``
        (a rematch: the same people, the seats rotated), so its players see each other's names."""
        now = time.time()
        with self.storage.engine.begin() as conn:
            linked = select(room_players.c.seat, room_players.c.player).where(room_players.c.room_id == old_room)
            rows = [
                {"room_id": new_room, "seat": new_seat(row.seat), "player": row.player, "linked": now}
                for row in conn.execute(linked)
            ]
            if rows:
                conn.execute(insert(room_players), rows)

    def names(self, room_id: str) -> dict[Player, str]:
        """The remembered players' names in the room's seats (for its players and designers only)."""
        return self.names_in([room_id]).get(room_id, {})

    def names_in(self, room_ids: Sequence[str]) -> dict[str, dict[Player, str]]:
        """Per room, the remembered players' names in its seats (rooms without any left out)."""
        if not room_ids:
            return {}
        query = (
            select(room_players.c.room_id, room_players.c.seat, players.c.name)
            .join(players, players.c.id == room_players.c.player)
            .where(room_players.c.room_id.in_(list(room_ids)))
        )
        found: dict[str, dict[Player, str]] = {}
        with self.storage.engine.connect() as conn:
            for row in conn.execute(query):
                found.setdefault(row.room_id, {})[row.seat] = row.name
        return found

    def games(self, player: RememberedPlayer, limit: int = GAMES_LISTED) -> list[dict[str, Any]]:
        """The player's games, the most recently changed first: each room as listings show it,
        with ``your_seats``, the other players' names (``players``: seat -> name) and the seats
        of theirs that answered the playtest form (``answered``)."""
        with self.storage.engine.connect() as conn:
            mine = select(room_players.c.room_id).where(room_players.c.player == player.id).subquery()
            room_rows = conn.execute(
                select(rooms).where(rooms.c.id.in_(select(mine.c.room_id))).order_by(rooms.c.updated.desc()).limit(limit)
            ).mappings().all()
            ids = [row["id"] for row in room_rows]
            if not ids:
                return []
            seat_map = seats_of_rooms(conn, ids)
            links: dict[str, dict[Player, tuple[str, str]]] = {room_id: {} for room_id in ids}
            named = (
                select(room_players.c.room_id, room_players.c.seat, room_players.c.player, players.c.name)
                .join(players, players.c.id == room_players.c.player)
                .where(room_players.c.room_id.in_(ids))
            )
            for link in conn.execute(named):
                links[link.room_id][link.seat] = (link.player, link.name)
            answered: dict[str, list[Player]] = {room_id: [] for room_id in ids}
            for given in conn.execute(
                select(playtest_answers.c.room_id, playtest_answers.c.seat).where(playtest_answers.c.room_id.in_(ids))
            ):
                answered[given.room_id].append(given.seat)
            counts = players_moves_of_rooms(conn, ids)
        listed = []
        for row in room_rows:
            room_id = row["id"]
            own = sorted(seat for seat, (owner, _) in links[room_id].items() if owner == player.id)
            listed.append({
                "room": room_id,
                "game": row["game"],
                "players": row["players"],
                "options": row["options"],
                "status": row["status"],
                "seats": public_seats(seat_map[room_id]),
                "player_names": {str(seat): name for seat, (_, name) in links[room_id].items()},
                "your_seats": own,
                "answered": sorted(seat for seat in answered[room_id] if seat in own),
                "moves": counts[room_id],
                "result": row["result"],
                "created": row["created"],
                "updated": row["updated"],
            })
        return listed


def seats_held(conn: Connection, room_id: str, token: str) -> list[Player]:
    """The seats ``token`` holds in the room as storage has them: UnknownRoomError for no such
    room, BadTokenError for a token that holds none. Storage is the authority (a seat claimed is
    committed before its token is handed out), so no room needs to be in memory for this."""
    found = None
    if ROOM_ID.fullmatch(room_id):  # anything else is no room's id (and may hold what no database keeps)
        found = conn.execute(select(rooms.c.id).where(rooms.c.id == room_id)).scalar_one_or_none()
    if found is None:
        raise UnknownRoomError(f"there is no room {room_id[:40]!r}")
    held = list(
        conn.execute(
            select(seats.c.seat).where(and_(seats.c.room_id == room_id, seats.c.token_hash == hash_secret(token)))
        ).scalars()
    )
    if not held:
        raise BadTokenError(f"this token holds no seat in room {room_id}")
    return held


def presented_player_key(connection: HTTPConnection) -> str | None:
    key = connection.headers.get(PLAYER_KEY_HEADER)
    return key.strip() if key and key.strip() else None


async def current_player(connection: HTTPConnection) -> RememberedPlayer | None:
    """The request's remembered player, or None (no key: a visitor); BadPlayerKeyError for a key
    that is nobody's (the player was forgotten, or the server's database is another)."""
    key = presented_player_key(connection)
    if key is None:
        return None
    book: PlayerBook = connection.app.state.players
    player = await asyncio.to_thread(book.find, key) if unstorable(key) is None and len(key) <= 100 else None
    if player is None:
        raise BadPlayerKeyError("this player key is not known on this server (forgotten, or another server's)")
    return player


async def require_player(player: Annotated[RememberedPlayer | None, Depends(current_player)]) -> RememberedPlayer:
    if player is None:
        raise PlayerKeyMissingError("this needs a remembered player's key (X-Player-Key): POST /api/players makes one")
    return player


#: a route's remembered player, required
PlayerOnly = Annotated[RememberedPlayer, Depends(require_player)]
#: a route's remembered player, or None for a visitor who gave no name
MaybePlayer = Annotated[RememberedPlayer | None, Depends(current_player)]


__all__ = [
    "PLAYER_KEY_HEADER",
    "MaybePlayer",
    "PlayerBook",
    "PlayerOnly",
    "RememberedPlayer",
    "current_player",
    "require_player",
    "seats_held",
]
