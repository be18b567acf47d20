"""A room in memory: one :class:`boardlab.Match`, its seats, and what storage holds of it.

Also the pieces every route needs: seat kinds, tokens (kept only as SHA-256 hashes),
building a room's match back from its stored rows, and the one message a client gets
(:func:`state_message`), which carries nothing but the viewer's view, the viewer's log
and, to the seat that decides, its legal moves.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agents import make_agent
from ..core.agent import Agent
from ..core.errors import OptionError
from ..core.game import Game
from ..core.match import Match
from ..core.records import Ending, Record, Seat
from ..core.registry import load
from ..core.values import Player
from .errors import BadTokenError, MissingTokenError, NotYourSeatError
from .levels import DEADLINE_SECONDS, DEFAULT_LEVEL, LEVELS, level_spec
from .rows import MoveRow, RoomRow, SeatRow, StoredRoom

#: who sits in a seat: a person at the creator's screen, an invited person, the computer
SEAT_KINDS = ("here", "invite", "computer")
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
#: the stored pending fields of a rematch (:mod:`.rematch`): the old room's offer, the new room's link
REMATCH_FIELDS = ("rematch", "rematch_of")
HUMAN = "human"


def new_secret() -> str:
    """A token or invite code: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_room_id() -> str:
    return secrets.token_urlsafe(9)


def hash_secret(secret: str) -> str:
    """What storage keeps of a token or invite code."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


#: what :func:`creator_key` mixes into the server's secret, so that the lobby's key is its own
CREATOR_KEY_LABEL = b"boardlab: the lobby's creators"


def creator_key(server_secret: str | None) -> bytes:
    """The key of :func:`creator_of`: derived from ``server_secret`` (the admin key, which every
    process of one server holds: the same data folder or ``BOARDLAB_ADMIN_KEY``), so that all of
    them, and the server after a restart, count an address as one creator; without a secret, a
    key this process draws and keeps nowhere (an address then counts anew in another process)."""
    if server_secret is None:
        return secrets.token_bytes(32)
    return hmac.new(server_secret.encode("utf-8"), CREATOR_KEY_LABEL, hashlib.sha256).digest()


def creator_of(address: str, key: bytes) -> str | None:
    """What storage keeps of who made a room (``rooms.creator``), so that the lobby lists a
    few rooms of each creator (:mod:`.storage`, ``latest_fairly``): the client address as its
    limits count it (:func:`.ratelimits.limited_as`: an IPv6 /64 as one), digested under
    ``key`` (:func:`creator_key`). Storage never holds the address, and what it holds leads back
    to none without the key (an IPv4 address hashed without a secret key would be found by
    trying all 2**32); whoever holds the admin key and the database could try them, as the
    server's operator could read its addresses anyway. None: no address (made outside a request)."""
    if not address:
        return None
    return hmac.new(key, address.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


@dataclass(frozen=True)
class SeatChoice:
    """One parsed entry of a room's ``seats`` list: ``here``, ``invite`` or ``computer:LEVEL``."""

    kind: str
    level: str | None = None

    @classmethod
    def parse(cls, text: str, seat: str, levels: Sequence[str] = LEVELS) -> SeatChoice:
        """``seat``: the seat in words for an error, e.g. "seat 1 (Black)"; ``levels``: the
        game's own levels, which an error lists (a level of another game is refused later, with
        why this game has none such)."""
        kind, _, level = text.strip().partition(":")
        if kind not in SEAT_KINDS:
            raise OptionError(
                f"{seat}: {text!r} is not a seat; use here, invite or computer:LEVEL "
                f"(levels: {', '.join(levels)})"
            )
        if kind != "computer":
            if level:
                raise OptionError(f"{seat}: {kind} takes no level ({text!r})")
            return cls(kind)
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise OptionError(f"{seat}: unknown computer level {level!r}; levels: {', '.join(levels)}")
        return cls(kind, level)


@dataclass(eq=False)
class Room:
    """A room being played. Every change happens under ``lock``, on the event loop."""

    row: RoomRow
    game: Game
    match: Match
    seats: list[SeatRow]
    #: the moves storage holds at the room's revision, as it holds them: a room behind
    #: storage reads only what came after them (:mod:`.catchup`)
    stored: list[MoveRow]
    #: every invited seat was taken in the seats as storage gave them: they can no longer
    #: change (a claim needs a free seat), so catching up does not read them again
    seats_final: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: set when memory may be ahead of storage (a failed write): reload before the next action
    stale: bool = False
    #: log entries the last change left as they were (watchers are sent only the rest)
    unchanged_log: int = 0
    #: each viewer's log as JSON, kept between changes: entries never change once made,
    #: except that an undo takes the last ones back
    logs: dict[Player | None, list[dict[str, Any]]] = field(default_factory=dict)
    computer_task: asyncio.Task[None] | None = None
    clock_timer: asyncio.TimerHandle | None = None
    #: when it was last asked for (the settings' clock): an idle room leaves memory (idle.py)
    used: float = 0.0
    #: the client address of the last person who acted here: the computer's next search is
    #: charged to it (its fair share of the pool, computer.py); "" when nobody has yet
    charged_to: str = ""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def revision(self) -> int:
        return self.row.revision

    @property
    def stored_moves(self) -> int:
        """How many moves storage holds (an undo deletes those after the ones kept)."""
        return len(self.stored)

    @property
    def status(self) -> str:
        if self.match.is_over():
            return FINISHED
        if any(seat.kind == "invite" and seat.token_hash is None for seat in self.seats):
            return WAITING
        return PLAYING

    def held_by(self, token: str | None) -> list[Player]:
        """The seats ``token`` holds ([] for no token: a spectator); BadTokenError if it holds none."""
        if token is None:
            return []
        digest = hash_secret(token)
        held = [seat.seat for seat in self.seats if seat.token_hash and hmac.compare_digest(seat.token_hash, digest)]
        if not held:
            raise BadTokenError(f"this token holds no seat in room {self.id}")
        return held

    def acting_seat(self, token: str | None, seat: Player | None) -> Player:
        """The seat a token acts for: ``seat`` if named (and held), else the held seat that
        decides now, else the only held seat."""
        if token is None:
            raise MissingTokenError(f"room {self.id}: acting needs a seat token (Authorization: Bearer TOKEN)")
        held = self.held_by(token)
        if seat is not None:
            if seat not in held:
                raise NotYourSeatError(f"room {self.id}: this token does not hold seat {seat}")
            return seat
        to_move = self.match.to_move()
        if to_move in held:
            return to_move
        if len(held) == 1:
            return held[0]
        raise NotYourSeatError(f"room {self.id}: this token holds seats {held}; name the seat")

    def viewer(self, held: list[Player], seat: Player | None) -> Player | None:
        """Whose view a holder of ``held`` is shown: ``seat`` if named (and held), the held seat
        deciding now, the first held seat, or None (spectators)."""
        if seat is not None:
            if seat not in held:
                raise NotYourSeatError(
                    f"room {self.id}: this token does not hold seat {seat}; leave the seat out to watch as a spectator"
                )
            return seat
        if not held:
            return None
        to_move = self.match.to_move()
        return to_move if to_move in held else held[0]

    def viewer_log(self, viewer: Player | None) -> list[dict[str, Any]]:
        """``match.log_json(viewer)``, computing only the entries added since the last call."""
        log = self.logs.setdefault(viewer, [])
        log.extend(self.match.log_json(viewer, since=len(log)))
        return log

    def forget_log_after(self, unchanged: int) -> None:
        """A change kept the first ``unchanged`` log entries: forget the cached ones after them."""
        self.unchanged_log = unchanged
        for log in self.logs.values():
            del log[unchanged:]

    def public_seats(self) -> list[dict[str, Any]]:
        return public_seats(self.seats)

    def pending(self) -> dict[str, Any]:
        """The match state that the record does not hold: a draw offer, queued resignations;
        and the room's rematch links (:mod:`.rematch`), kept as they are."""
        return {
            **{key: self.row.pending[key] for key in REMATCH_FIELDS if key in self.row.pending},
            "draw_offer": sorted(self.match.draw_offer),
            "resigning": sorted(self.match.resignations_pending),
        }

    def summary(self) -> dict[str, Any]:
        return room_summary(self.row, self.seats, len(self.match.log()), self.status)


def seats_taken(seats: list[SeatRow]) -> bool:
    """Whether every invited seat of ``seats`` has its guest."""
    return all(seat.kind != "invite" or seat.token_hash is not None for seat in seats)


def public_seats(seats: list[SeatRow]) -> list[dict[str, Any]]:
    """What anyone may know of the seats: never a token, an invite code or a hash."""
    return [
        {
            "seat": seat.seat,
            "kind": seat.kind,
            "name": seat.name,
            "agent": seat.spec if seat.kind == "computer" else HUMAN,
            "joined": seat.kind != "invite" or seat.token_hash is not None,
        }
        for seat in seats
    ]


def room_summary(row: RoomRow, seats: list[SeatRow], moves: int, status: str | None = None) -> dict[str, Any]:
    """A room as listings show it (no seed: it is a secret while the game goes on)."""
    return {
        "room": row.id,
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "status": status or row.status,
        "seats": public_seats(seats),
        "moves": moves,
        "undo": row.undo,
        "move_seconds": row.move_seconds,
        "created": row.created,
        "updated": row.updated,
        "result": row.result,
    }


def state_message(room: Room, viewer: Player | None, held: list[Player]) -> dict[str, Any]:
    """The one message a client gets: the viewer's view and log, and the legal moves of the
    viewer's seat when it decides now (to a holder of that seat only). Nothing else derived
    from the real state: spectators (``viewer`` None) get ``view(None)``."""
    match = room.match
    status = room.status
    to_move = match.to_move()
    deciding = viewer is not None and viewer == to_move and status == PLAYING
    return {
        "type": "state",
        "room": room.id,
        "game": room.game.id,
        "status": status,
        "revision": room.revision,
        "ply": match.ply,
        "seat": viewer,
        "your_seats": held,
        "seats": room.public_seats(),
        "to_move": to_move if to_move >= 0 else None,
        "thinking": status == PLAYING and match.computer_to_move(),
        "view": match.view(viewer),
        "log_start": 0,
        "log": list(room.viewer_log(viewer)),
        "legal_moves": [move.to_json() for move in match.legal_moves(viewer)] if deciding else [],  # type: ignore[arg-type]
        "rematch": room.row.pending.get("rematch"),
        "rematch_of": room.row.pending.get("rematch_of"),
    }


def turn_rows(match: Match) -> list[MoveRow]:
    """Every turn of the match as storage rows (a new room's opening chance, say)."""
    return [MoveRow.from_turn(turn) for turn in match.log()]


def seat_agent(game: Game, seat: SeatRow) -> Agent | None:
    """The agent in a computer seat, built once per room in memory: it thinks every decision of
    the seat (in the pool, which hands it back with what it learned) and answers draw offers.
    Its seed does not matter: the match seeds each decision (:meth:`Match.pending`)."""
    if seat.kind != "computer":
        return None
    return make_agent(seat.spec, game=game)


def think_seconds(seats: list[SeatRow]) -> list[float | None]:
    """Per seat, how long its computer may think a decision: its level's deadline."""
    longest = max(DEADLINE_SECONDS.values())
    return [DEADLINE_SECONDS.get(seat.level or "", longest) if seat.kind == "computer" else None for seat in seats]


def computer_spec(game: Game, choice: SeatChoice) -> str:
    assert choice.level is not None
    return level_spec(game, choice.level)


def build_match(stored: StoredRoom, clock: Callable[[], float]) -> tuple[Game, Match]:
    """The room's match, rebuilt from its rows: every move replayed and checked (who made it
    included), the ending and what was pending (a draw offer, a queued resignation) restored."""
    row = stored.room
    game = load(row.game, players=row.players, **row.options)
    agents = [seat_agent(game, seat) for seat in stored.seats]
    record = stored_record(stored)
    match = Match.from_record(
        record, agents, undo=row.undo, move_seconds=row.move_seconds, think_seconds=think_seconds(stored.seats), clock=clock
    )
    restore_stored_pending(match, row)
    return game, match


def stored_record(stored: StoredRoom) -> Record:
    """A stored room as a record, its moves not replayed (whoever reads it replays and checks them)."""
    row = stored.room
    return Record(
        game_id=row.game,
        players=row.players,
        options=dict(row.options),
        seed=row.seed,
        start=row.start,
        seats=[Seat(seat.name, seat.spec if seat.kind == "computer" else HUMAN) for seat in stored.seats],
        turns=[move.turn() for move in stored.moves],
        ending=stored_ending(row),
        meta={"room": row.id},
    )


def stored_ending(row: RoomRow) -> Ending | None:
    """How the room's match ended (a resignation, an agreement, a timeout), as its row keeps it."""
    return None if row.ending is None else Ending(row.ending["code"], row.ending.get("seat"))


def restore_stored_pending(match: Match, row: RoomRow) -> None:
    """Put back the draw offer and queued resignations the row keeps, and mark the match as
    holding exactly what storage holds."""
    pending = row.pending or {}
    match.restore_pending(pending.get("draw_offer", []), pending.get("resigning", []))
    match.mark_stored()


def default_undo(choices: list[SeatChoice]) -> str:
    """Take-backs: between people at one screen, the last person's move; with an invited person
    none (a take-back needs the other's consent); a person alone against the computer, their own."""
    if any(choice.kind == "invite" for choice in choices):
        return "never"
    people = sum(choice.kind == "here" for choice in choices)
    return "same_screen" if people > 1 else "own"


def default_name(seat_name: str, choice: SeatChoice) -> str:
    if choice.kind == "computer":
        return f"Computer ({choice.level})"
    return seat_name


__all__ = [
    "FINISHED",
    "PLAYING",
    "SEAT_KINDS",
    "WAITING",
    "Room",
    "SeatChoice",
    "build_match",
    "computer_spec",
    "creator_key",
    "creator_of",
    "default_name",
    "default_undo",
    "hash_secret",
    "new_room_id",
    "new_secret",
    "public_seats",
    "restore_stored_pending",
    "room_summary",
    "seat_agent",
    "seats_taken",
    "state_message",
    "stored_ending",
    "stored_record",
    "think_seconds",
    "turn_rows",
]
