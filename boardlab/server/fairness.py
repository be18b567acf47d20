"""What a new room may ask of the computer, so that one visitor cannot crowd out the others.

A room of computers only needs nobody and thinks without end; a clock of a millisecond
turns a room into a stream of timeouts. Both are cheap to ask for and dear to serve, so they
are checked when the room is created: the clock against a floor, a computers-only room
against how many already play, in all and for the address asking, and how long the
computer's queue is. Rooms with a person are never refused for the computer's load: their
searches go first (:mod:`.computer`).

Nobody holds a token to such a room, so nobody can stop it: its place among them
(:class:`ComputerRoomSlots`) is on the share of the address that made it, until it ends or,
unwatched, leaves memory (:mod:`.idle`). A visitor's request that loads it again resumes it on
that visitor's share, when there is a place; else it waits for its next use.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from ..core.errors import OptionError
from .computer import COMPUTERS, PERSON, ComputerPlayers
from .errors import BusyError
from .rooms import PLAYING, Room, SeatChoice
from .rows import SeatRow

#: when a refused computers-only room may be asked for again (a game of them takes minutes)
COMPUTER_ROOM_RETRY_SECONDS = 60


def computers_only(seats: Sequence[SeatRow] | Sequence[SeatChoice]) -> bool:
    return all(seat.kind == "computer" for seat in seats)


def priority(room: Room) -> int:
    """A decision a person waits for goes first."""
    return COMPUTERS if computers_only(room.seats) else PERSON


class ComputerRoomSlots:
    """The rooms of computers only whose computer may think now, each on the share of one client
    address: the one that made it, or whose request loaded it again ("" for a room resumed at
    start-up, which counts against the cap only). At most ``most`` in all and ``most_per_address``
    for one address (0: no share). A room gives its place back when it ends or leaves ``rooms``
    (the rooms in memory)."""

    def __init__(self, rooms: Mapping[str, Room], most: int, most_per_address: int) -> None:
        self._rooms = rooms
        self.most = most
        self.most_per_address = most_per_address
        self._held: dict[str, tuple[Room, str]] = {}
        #: rooms still being written, by the address making them: twenty requests at once must
        #: not all pass before the first is in memory
        self._creating: Counter[str] = Counter()

    def holds(self, room: Room) -> bool:
        held = self._held.get(room.id)
        return held is not None and held[0] is room

    def playing(self, address: str = "") -> tuple[int, int]:
        """The places taken, in all and by ``address``, rooms being written included."""
        for room_id, (room, _address) in list(self._held.items()):
            if self._rooms.get(room_id) is not room or room.status != PLAYING:
                del self._held[room_id]
        everybody = len(self._held) + sum(self._creating.values())
        mine = sum(1 for _room, owner in self._held.values() if owner == address) + self._creating[address]
        return everybody, mine

    def refusal(self, address: str) -> BusyError | None:
        """Why one more room of computers only for ``address`` may not play now (None: it may)."""
        everybody, mine = self.playing(address)
        if address and self.most_per_address and mine >= self.most_per_address:
            return BusyError(
                f"{address} has {mine} room(s) of computers only playing, the most one address may "
                f"(--max-computer-only-rooms-per-address {self.most_per_address}); one leaves its place when it ends "
                "or nobody has watched it for a while; rooms with a person are not limited",
                COMPUTER_ROOM_RETRY_SECONDS,
                code="too_many_computer_rooms",
            )
        if everybody >= self.most:
            return BusyError(
                f"{everybody} rooms of computers only are playing, this server's most (--max-computer-only-rooms "
                f"{self.most}); rooms with a person are not limited",
                COMPUTER_ROOM_RETRY_SECONDS,
                code="too_many_computer_rooms",
            )
        return None

    def hold(self, room: Room, address: str) -> None:
        """``room`` takes a place on ``address``'s share (checked already)."""
        self._held[room.id] = (room, address)

    def admit(self, room: Room, address: str) -> bool:
        """Whether ``room``, about to think, may: a room that holds a place keeps it, another
        takes one on ``address``'s share when there is one."""
        if self.holds(room):
            return True
        if self.refusal(address) is not None:
            return False
        self.hold(room, address)
        return True

    @contextmanager
    def creating(self, address: str) -> Iterator[None]:
        """Count a room of computers only being written against ``address``'s share."""
        self._creating[address] += 1
        try:
            yield
        finally:
            self._creating[address] -= 1
            if not self._creating[address]:
                del self._creating[address]


def check_new_room(
    choices: Sequence[SeatChoice],
    move_seconds: float | None,
    slots: ComputerRoomSlots,
    address: str,
    computer: ComputerPlayers,
    *,
    max_queued_searches: int,
    min_move_seconds: float,
) -> None:
    """Refuse a room the server should not take on now: OptionError for a clock under the
    floor, BusyError (429) for one computers-only room too many, in all or for ``address``."""
    if move_seconds is not None and move_seconds < min_move_seconds:
        raise OptionError(
            f"move_seconds {move_seconds:g}: this server's floor is {min_move_seconds:g} s per decision "
            "(--min-move-seconds)"
        )
    if not computers_only(choices):
        return
    refusal = slots.refusal(address)
    if refusal is not None:
        raise refusal
    if computer.queued >= max_queued_searches:
        raise BusyError(
            f"{computer.queued} searches wait for the computer, this server's most (--max-queued-searches "
            f"{max_queued_searches}); rooms with a person are not limited",
            COMPUTER_ROOM_RETRY_SECONDS,
            code="computer_busy",
        )


__all__ = ["ComputerRoomSlots", "check_new_room", "computers_only", "priority"]
