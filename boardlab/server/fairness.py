"""What a new room may ask of the computer, so that one visitor cannot crowd out the others.

A room of computers only needs nobody and thinks without end; a clock of a millisecond
turns a room into a stream of timeouts. Both are cheap to ask for and dear to serve, so they
are checked when the room is created: the clock against a floor, a computers-only room
against how many already play and how long the computer's queue is. Rooms with a person are
never refused for the computer's load: their searches go first (:mod:`.computer`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.errors import OptionError
from .computer import COMPUTERS, PERSON, ComputerPlayers
from .errors import BusyError
from .rooms import PLAYING, Room, SeatChoice
from .storage import SeatRow

#: when a refused computers-only room may be asked for again (a game of them takes minutes)
COMPUTER_ROOM_RETRY_SECONDS = 60


def computers_only(seats: Sequence[SeatRow] | Sequence[SeatChoice]) -> bool:
    return all(seat.kind == "computer" for seat in seats)


def priority(room: Room) -> int:
    """A decision a person waits for goes first."""
    return COMPUTERS if computers_only(room.seats) else PERSON


def check_new_room(
    choices: Sequence[SeatChoice],
    move_seconds: float | None,
    rooms: Iterable[Room],
    computer: ComputerPlayers,
    *,
    max_computer_only_rooms: int,
    max_queued_searches: int,
    min_move_seconds: float,
    creating: int = 0,
) -> None:
    """Refuse a room the server should not take on now: OptionError for a clock under the
    floor, BusyError (429) for one computers-only room too many."""
    if move_seconds is not None and move_seconds < min_move_seconds:
        raise OptionError(
            f"move_seconds {move_seconds:g}: this server's floor is {min_move_seconds:g} s per decision "
            "(--min-move-seconds)"
        )
    if not computers_only(choices):
        return
    # rooms still being written count too: twenty requests at once must not all pass
    playing = creating + sum(1 for room in rooms if room.status == PLAYING and computers_only(room.seats))
    if playing >= max_computer_only_rooms:
        raise BusyError(
            f"{playing} rooms of computers only are playing, this server's most (--max-computer-only-rooms "
            f"{max_computer_only_rooms}); rooms with a person are not limited",
            COMPUTER_ROOM_RETRY_SECONDS,
            code="too_many_computer_rooms",
        )
    if computer.queued >= max_queued_searches:
        raise BusyError(
            f"{computer.queued} searches wait for the computer, this server's most (--max-queued-searches "
            f"{max_queued_searches}); rooms with a person are not limited",
            COMPUTER_ROOM_RETRY_SECONDS,
            code="computer_busy",
        )


__all__ = ["check_new_room", "computers_only", "priority"]
