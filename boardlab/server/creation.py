"""What a new room is made of: the request checked against its game, then its seats, tokens,
match and first stored rows.

Nothing here touches storage or the rooms in memory: :meth:`.service.RoomService.create`
checks the server's limits on the plan (:mod:`.fairness`), writes the room and only then
holds it. A request that cannot make a room is refused by :func:`plan_room` before any
secret is drawn.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..agents import game_levels
from ..core.errors import OptionError, RefusedError
from ..core.game import Game
from ..core.match import UNDO_POLICIES, Match
from ..core.registry import load
from ..core.values import Player
from .levels import DEFAULT_LEVEL
from .rooms import (
    HUMAN,
    PLAYING,
    WAITING,
    Room,
    SeatChoice,
    computer_spec,
    default_name,
    default_undo,
    hash_secret,
    new_room_id,
    new_secret,
    seat_agent,
    seats_taken,
    think_seconds,
    turn_rows,
)
from .rows import RoomRow, SeatRow, StoredRoom
from .schemas import check_option_types


@dataclass(frozen=True)
class NewRoom:
    """A room to create (validated by the schema; checked against the game here)."""

    game: str
    players: int | None
    options: dict[str, Any]
    seats: list[str] | None
    names: Sequence[str | None] | None
    undo: str | None
    move_seconds: float | None
    #: seats whose token hash is given (a rematch: the same people keep their tokens)
    token_hashes: dict[Player, str] | None = None
    #: the stored pending fields it starts with (a rematch's link to its old room)
    pending: dict[str, Any] | None = None
    #: the playtest session it is made in (:mod:`.playtests`; None: none)
    session: str | None = None


@dataclass(frozen=True)
class RoomPlan:
    """A request checked against its game: the game with its options, who sits in each seat,
    and the take-back policy."""

    game: Game
    choices: list[SeatChoice]
    undo: str


@dataclass
class Created:
    room: Room
    token: str | None
    invites: dict[Player, str]


@dataclass
class NewRoomRows:
    """A room made and not yet stored: the room to hold once ``stored`` is written, the
    creator's token (None when no seat is played here) and each invited seat's code."""

    room: Room
    stored: StoredRoom
    token: str | None
    invites: dict[Player, str]


def plan_room(request: NewRoom) -> RoomPlan:
    """``request`` checked against its game: an unknown game, option, seat or undo policy, or
    lists of the wrong length, are refused here, naming what is wrong. Without seats, the
    creator plays the first seat against the default computer in the others."""
    check_option_types(request.game, request.options)
    game = load(request.game, players=request.players, **request.options)
    n = game.num_players
    if request.seats is None:
        choices = [SeatChoice("here")] + [SeatChoice("computer", DEFAULT_LEVEL)] * (n - 1)
    else:
        # a seat as the API numbers it (from 0), with its name
        levels = game_levels(game)
        choices = [SeatChoice.parse(text, _seat_words(game, seat), levels) for seat, text in enumerate(request.seats)]
    if len(choices) != n:
        raise RefusedError(f"{game.id} with {n} players needs {n} seats, got {len(choices)}", code="bad_seats")
    for seat, choice in enumerate(choices):
        if choice.kind == "computer":
            try:  # a level this game lacks (expert) is refused here, never mid-game
                computer_spec(game, choice)
            except OptionError as exc:
                raise OptionError(f"{_seat_words(game, seat)}: {exc}") from None
    if request.names is not None and len(request.names) != n:
        raise RefusedError(f"{len(request.names)} names for {n} seats", code="bad_seats")
    undo = request.undo or default_undo(choices)
    if undo not in UNDO_POLICIES:
        raise OptionError(f"undo policy {undo!r}: expected one of {', '.join(UNDO_POLICIES)}")
    return RoomPlan(game, choices, undo)



def _seat_words(game: Game, seat: int) -> str:
    """"seat 1 (Black)": a seat numbered as the API numbers seats, with its name; past the
    game's seats (a list too long, refused after), the number alone."""
    return f"seat {seat} ({game.player_name(seat)})" if seat < game.num_players else f"seat {seat}"

def make_room(
    request: NewRoom, plan: RoomPlan, seed: int, clock: Callable[[], float], creator: str | None = None
) -> NewRoomRows:
    """The room ``plan`` describes, with its new secrets: one token for every seat played
    here (a rematch keeps the seats' old token hashes), an invite code per invited seat;
    storage keeps only their hashes. Its opening chance is already played and in the rows.
    ``creator``: who made it, as the lobby tells creators apart (:func:`.rooms.creator_of`)."""
    game, choices = plan.game, plan.choices
    kept = request.token_hashes or {}
    here = [choice.kind == "here" and seat not in kept for seat, choice in enumerate(choices)]
    token = new_secret() if any(here) else None
    invites: dict[Player, str] = {}
    seats: list[SeatRow] = []
    for seat, choice in enumerate(choices):
        given = request.names[seat] if request.names else None
        name = given if given else default_name(game.player_name(seat), choice)
        spec = computer_spec(game, choice) if choice.kind == "computer" else HUMAN
        seat_row = SeatRow(seat, choice.kind, spec, name, level=choice.level)
        if seat in kept:
            seat_row.token_hash = kept[seat]
        elif choice.kind == "here":
            assert token is not None
            seat_row.token_hash = hash_secret(token)
        elif choice.kind == "invite":
            invites[seat] = new_secret()
            seat_row.invite_hash = hash_secret(invites[seat])
        seats.append(seat_row)
    match = Match(
        game,
        [seat_agent(game, seat_row) for seat_row in seats],
        seed=seed,
        names=[seat_row.name for seat_row in seats],
        undo=plan.undo,
        move_seconds=request.move_seconds,
        think_seconds=think_seconds(seats),
        clock=clock,
    )
    now = time.time()
    row = RoomRow(
        new_room_id(), game.id, game.num_players, dict(game.options), seed, None, plan.undo, request.move_seconds,
        WAITING if invites else PLAYING, created=now, updated=now, pending=dict(request.pending or {}),
        session=request.session, creator=creator,
    )
    rows = turn_rows(match)
    match.mark_stored()
    # the room keeps its own list of the stored rows (its commits change it in place)
    room = Room(row, game, match, seats, list(rows), seats_final=seats_taken(seats))
    return NewRoomRows(room, StoredRoom(row, seats, rows), token, invites)


__all__ = ["Created", "NewRoom", "NewRoomRows", "RoomPlan", "make_room", "plan_room"]
