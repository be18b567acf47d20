"""Rematch: at the end of a game, the same people and computers again, the seats rotated.

A seat holder of a finished room offers; every other person answers (accept or decline) and
the room's watchers see the offer move along in its state message (``rematch``). Computer
seats accept at once, and so do the seats the offering token holds itself, so a room of
people at one screen (or one person against the computer) starts the rematch at once.

When everybody has accepted, the new room is made with the old room's game, options,
undo policy and clock, and every computer at its level; whoever sat in seat ``s`` sits in
seat ``(s + 1) % n`` (two players swap; with three or four everybody moves one seat on and
the last seat's player takes the first). The people keep their tokens: storage keeps only
a token's hash, and the new seat gets the same hash as the old one, so the tokens of the new
room reach exactly the people who held the old seats, and nothing secret travels again.

What the offer is, and the links between the rooms, live in the rooms' stored ``pending``
field: the old room's ``rematch`` (``status`` open, declined, starting or started, ``by``,
``accepted``, ``declined``, ``room``: the new room's id once started) and the new room's
``rematch_of``. Every answer is a change of the old room, committed (and its revision
checked) like a move, so of two racing offers exactly one is stored.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..core.errors import RefusedError
from ..core.values import Player
from .players import PlayerBook
from .rooms import FINISHED, Room
from .service import NewRoom, RoomService
from .watchers import Message

OPEN, DECLINED, STARTING, STARTED = "open", "declined", "starting", "started"
#: a rematch still "starting" after this long was left so by a server that stopped while making
#: the new room: a new offer may be made
STARTING_SECONDS = 60.0


def rotated(seat: Player, players: int) -> Player:
    """The seat that the player of ``seat`` takes in the rematch."""
    return (seat + 1) % players


def rematch_of(room: Room) -> dict[str, Any] | None:
    """The room's rematch offer as stored (None: nobody has offered one)."""
    offer = room.row.pending.get("rematch")
    return dict(offer) if isinstance(offer, dict) else None


def _answering_seat(room: Room, token: str | None, seat: Player | None) -> Player:
    """The seat a token answers for: ``seat`` if named (and held), else its first seat (after
    the end no seat decides, and a token of several seats answers for all of them)."""
    if seat is not None or token is None:
        return room.acting_seat(token, seat)  # refuses a missing token, or a seat not held
    return room.held_by(token)[0]


def _store(room: Room, offer: dict[str, Any]) -> None:
    # committed by the service's change with the room's other pending fields (Room.pending)
    room.row.pending = {**room.row.pending, "rematch": offer}


class Rematches:
    """Offers, answers and the start of rematches, over the room service's committed changes."""

    def __init__(self, service: RoomService, players: PlayerBook | None = None) -> None:
        self.service = service
        #: the remembered players, whose links to the old room's seats the rematch carries over
        self.players = players

    async def offer(self, room_id: str, token: str | None, seat: Player | None) -> Message:
        """Offer a rematch as the token's seat; the room's state as that seat sees it."""
        starting = False

        def make_offer(room: Room) -> None:
            nonlocal starting
            acting = _answering_seat(room, token, seat)
            if room.status != FINISHED:
                raise RefusedError(f"room {room.id}: the game is not over; a rematch is offered at its end", code="game_not_over")
            current = rematch_of(room)
            if current is not None and current["status"] == STARTING and time.time() - current["at"] > STARTING_SECONDS:
                current = None
            if current is not None and current["status"] in (OPEN, STARTING):
                raise RefusedError(
                    f"room {room.id}: {self._name(room, current['by'])} has offered a rematch already; accept or decline it",
                    code="rematch_open",
                )
            if current is not None and current["status"] == STARTED:
                raise RefusedError(f"room {room.id}: the rematch has started in room {current['room']}", code="rematch_started")
            absent = [row.seat for row in room.seats if row.kind != "computer" and row.token_hash is None]
            if absent:
                raise RefusedError(f"room {room.id}: seat(s) {absent} never joined; start a new room instead", code="refused")
            accepted = set(room.held_by(token)) | {row.seat for row in room.seats if row.kind == "computer"}
            offer = {"status": OPEN, "by": acting, "accepted": sorted(accepted), "declined": [], "room": None, "at": time.time()}
            if len(accepted) == len(room.seats):
                offer["status"] = STARTING
                starting = True
            _store(room, offer)

        room, message = await self.service._change(room_id, make_offer, lambda room: (room.held_by(token), seat))
        if starting:
            return await self._start(room, token, seat)
        return message

    async def answer(self, room_id: str, token: str | None, seat: Player | None, accept: bool) -> Message:
        """Accept or decline the open offer for every seat the token holds."""
        starting = False

        def reply(room: Room) -> None:
            nonlocal starting
            _answering_seat(room, token, seat)  # a token is needed, and it must hold the seat it names
            current = rematch_of(room)
            if current is None or current["status"] != OPEN:
                state = "no rematch was offered" if current is None else f"the rematch offer is {current['status']}"
                raise RefusedError(f"room {room.id}: {state}; there is nothing to answer", code="no_rematch_offer")
            held = set(room.held_by(token))
            if accept:
                accepted = held | set(current["accepted"])
                current["accepted"] = sorted(accepted)
                if len(accepted) == len(room.seats):
                    current.update(status=STARTING, at=time.time())
                    starting = True
            else:
                current["declined"] = sorted(held | set(current["declined"]))
                current["status"] = DECLINED
            _store(room, current)

        room, message = await self.service._change(room_id, reply, lambda room: (room.held_by(token), seat))
        if starting:
            return await self._start(room, token, seat)
        return message

    async def _start(self, old: Room, token: str | None, seat: Player | None) -> Message:
        """Make the new room, then mark the offer started (with the new room's id): the old
        room's watchers, spectators included, are sent there by its state message."""
        try:
            created = await self.service.create(self._new_room(old))
        except BaseException:
            def reopen(room: Room) -> None:
                current = rematch_of(room)
                if current is not None and current["status"] == STARTING:
                    current["status"] = OPEN
                    _store(room, current)

            await self.service._change(old.id, reopen, lambda room: (room.held_by(token), seat))
            raise
        if self.players is not None:
            players = len(old.seats)
            await asyncio.to_thread(self.players.carry_links, old.id, created.room.id, lambda s: rotated(s, players))

        def started(room: Room) -> None:
            current = rematch_of(room) or {}
            current.update(status=STARTED, room=created.room.id)
            _store(room, current)

        return (await self.service._change(old.id, started, lambda room: (room.held_by(token), seat)))[1]

    @staticmethod
    def _new_room(old: Room) -> NewRoom:
        """The rematch of ``old``: its game, options, undo policy, clock and playtest session, the
        seats rotated."""
        row, game = old.row, old.game
        n = len(old.seats)
        kinds: list[str] = [""] * n
        names: list[str] = [""] * n
        token_hashes: dict[Player, str] = {}
        for seat_row in old.seats:
            new_seat = rotated(seat_row.seat, n)
            kinds[new_seat] = f"computer:{seat_row.level}" if seat_row.kind == "computer" else seat_row.kind
            default = game.player_name(seat_row.seat)
            # a seat's own name ("White") follows the seat, a person's chosen name follows them
            if seat_row.kind == "computer" or seat_row.name == default:
                names[new_seat] = seat_row.name if seat_row.kind == "computer" else game.player_name(new_seat)
            else:
                names[new_seat] = seat_row.name
            if seat_row.token_hash is not None:
                token_hashes[new_seat] = seat_row.token_hash
        return NewRoom(
            row.game, row.players, dict(row.options), kinds, names, row.undo, row.move_seconds,
            token_hashes=token_hashes, pending={"rematch_of": old.id}, session=row.session,
        )

    @staticmethod
    def _name(room: Room, seat: Player) -> str:
        return room.seats[seat].name


__all__ = ["DECLINED", "OPEN", "STARTED", "STARTING", "Rematches", "rematch_of", "rotated"]
