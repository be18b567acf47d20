"""The rows storage reads and writes: a room, its seats, its moves, and one change of a room.

Plain data, apart from :mod:`.storage`, which turns them into SQL, because the room service,
the catch-up of other processes' changes and the room's rebuilding (:mod:`.rooms`) hold
them without touching the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from ..core.turns import Turn


@dataclass
class SeatRow:
    seat: int
    kind: str
    spec: str
    name: str
    token_hash: str | None = None
    invite_hash: str | None = None
    level: str | None = None


@dataclass(frozen=True)
class MoveRow:
    """What storage keeps of a played turn (:class:`~boardlab.core.turns.Turn`): enough to
    replay it (its notation and who decided it), its time and its note. The per-viewer texts
    and the move's structure are worked out again by the replay."""

    number: int
    text: str
    by: int
    t: float
    note: str = ""

    @classmethod
    def from_turn(cls, turn: Turn) -> MoveRow:
        return cls(turn.number, turn.notation, turn.by, turn.t, turn.note)

    def turn(self) -> Turn:
        """The turn as a record holds it (its texts for each viewer come from a replay)."""
        return Turn(self.number, self.by, self.t, None, self.text, self.note)


@dataclass
class RoomRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    start: str | None
    undo: str
    move_seconds: float | None
    status: str
    revision: int = 0
    ending: dict[str, Any] | None = None
    pending: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    created: float = 0.0
    updated: float = 0.0
    #: the playtest session the room was made in (None: none)
    session: str | None = None
    #: who made it, as the lobby tells creators apart (:func:`.rooms.creator_of`: a keyed
    #: digest, never the address; None: unknown, a room made before it was kept)
    creator: str | None = None


@dataclass
class StoredRoom:
    room: RoomRow
    seats: list[SeatRow]
    moves: list[MoveRow]


@dataclass(frozen=True)
class SeatClaim:
    """Give ``seat`` its token, only if its invite code is ``invite_hash`` and nobody has used it."""

    seat: int
    invite_hash: str
    token_hash: str
    name: str | None
    #: the remembered player who takes the seat (linked in the same transaction; None: nobody)
    player: str | None = None


@dataclass(frozen=True)
class Change:
    """One committed change of a room: moves after ``keep`` replaced by ``new_moves``, the
    room's fields in ``room_fields``, optionally a seat claimed; made against ``revision``."""

    room_id: str
    revision: int
    keep: int
    new_moves: Sequence[MoveRow] = ()
    room_fields: dict[str, Any] = field(default_factory=dict)
    claim: SeatClaim | None = None
    #: whether storage holds moves after ``keep`` to delete (False saves a statement per move)
    takes_back: bool = True


#: one unit of a group commit: a new room, or a change of one
Write = Union["StoredRoom", "Change"]


__all__ = ["Change", "MoveRow", "RoomRow", "SeatClaim", "SeatRow", "StoredRoom", "Write"]
