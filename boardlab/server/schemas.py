"""The request bodies (validated before anything runs; unknown fields are refused) and the
shapes of the answers, for the OpenAPI page."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from ..core.errors import OptionError
from ..core.registry import game_class
from ..core.state import MAX_MOVE_TEXT

#: what no storage can keep: PostgreSQL's text refuses U+0000, and a lone surrogate has no
#: UTF-8 form (both databases' drivers fail on it); refused in every text a request carries
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
#: the error type (and error code) of such text
BAD_TEXT = "bad_text"


def unstorable(text: str) -> str | None:
    """What in ``text`` cannot be stored (e.g. ``U+0000``), or None when all of it can."""
    found = UNSTORABLE.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def _storable(text: str) -> str:
    found = unstorable(text)
    if found is not None:
        raise PydanticCustomError(BAD_TEXT, "the text holds {char}, which cannot be stored", {"char": found})
    return text


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a true-or-false value"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "text" if isinstance(value, str) else type(value).__name__


def check_option_types(game_id: str, options: Mapping[str, Any], where: str = "option") -> None:
    """Refuse (OptionError) a game option whose JSON value is not of the option's type: a whole
    number for an ``int`` option (not ``"0"``, not ``true``), a number for a ``float`` one, true or
    false for a ``bool`` one (not ``1``), text for a text one. The command line passes text, which
    the game converts; a client of the API that sends the wrong type has a bug that conversion
    would hide. UnknownGameError for an unknown game; an unknown option is the game's to name."""
    declared = {option.name: option for option in game_class(game_id).options_spec}
    for name, value in options.items():
        option = declared.get(name)
        if option is None or (value is None and option.default is None):
            continue  # null is the default of an option that has none (the catalog lists it so)
        if value is None:
            raise OptionError(f"{where} {name}: null is not one of its values; {name} takes {option.allowed()} "
                              "(leave it out for its default)")
        kind = option.kind
        fits = (
            isinstance(value, bool)
            if kind is bool
            else isinstance(value, int) and not isinstance(value, bool)
            if kind is int
            else isinstance(value, (int, float)) and not isinstance(value, bool)
            if kind is float
            else isinstance(value, str)
        )
        if not fits:
            raise OptionError(f"{where} {name}: {json.dumps(value)} is {_json_type(value)}, but {name} takes {option.allowed()}")


#: text from a request: refused with bad_text when it holds what storage cannot keep
Text = Annotated[str, AfterValidator(_storable)]
#: what a request may send as an option's value: :func:`check_option_types` then names a value of
#: the wrong kind (null is an option's own default where it has none; a list or an object is
#: never one, and is refused by that check, which says what the option takes)
OptionValue = bool | int | float | Text | None | list[Any] | dict[str, Any]
#: the longest name a person may give (a seat, a remembered player)
NAME_LENGTH = 40
#: marks that reorder or hide the text around them (bidirectional controls): a name shown beside
#: others' names and moves must read as typed
_REORDERING = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _person_name(text: str) -> str:
    """A name as people will see it: without surrounding spaces; refused (bad_request) when it
    is too long, holds a control or a reordering mark, or shows nothing (spaces, invisible marks)."""
    name = text.strip()
    if len(name) > NAME_LENGTH:
        raise PydanticCustomError("bad_name", "a name is at most {most} characters; this one has {length}",
                                  {"most": NAME_LENGTH, "length": len(name)})
    hidden = next((char for char in name if unicodedata.category(char) == "Cc" or char in _REORDERING), None)
    if hidden is not None:
        what = "a mark that changes the direction of the text" if hidden in _REORDERING else "a control character"
        code = f"{ord(hidden):04X}"
        raise PydanticCustomError("bad_name", "a name may not hold {what} (U+{code})", {"what": what, "code": code})
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):
        raise PydanticCustomError("bad_name", "a name needs a letter, a digit or a sign, not only spaces or invisible marks")
    return name


#: a person's name in a request: stripped of surrounding spaces, checked by :func:`_person_name`
SeatName = Annotated[Text, AfterValidator(_person_name)]
#: a seat number in a request: the games seat at most a handful of players
SeatNumber = Field(default=None, ge=0, le=15, description="the seat to act for; default: the token's seat that decides now")


class Strict(BaseModel):
    # strict: "0" is not a ply and true is not a player count; a client that sends them has a
    # bug that coercion would hide (a whole number still passes where a float is asked for)
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateRoomRequest(Strict):
    game: Text = Field(max_length=64, description="a game id from GET /api/games")
    players: int | None = Field(default=None, ge=1, le=16, description="the number of seats (default: the game's)")
    options: dict[Text, OptionValue] = Field(default_factory=dict, description="the game's options by name")
    seats: list[Text] | None = Field(
        default=None,
        max_length=16,
        description="one per seat: here (a person at this screen, played with the room's token), "
        "invite (a person joining with an invite code) or computer:LEVEL (beginner, easy, normal, hard; "
        "expert in a game that has it); "
        "default: here, then computer:normal",
    )
    names: list[SeatName | None] | None = Field(
        default=None, max_length=16, description="a display name per seat; null: the seat's own (White, Computer (hard))")
    undo: Literal["never", "own", "same_screen"] | None = Field(
        default=None,
        description="take-backs; default: same_screen for people at one screen, never with an invited "
        "person, own for one person against the computer",
    )
    move_seconds: float | None = Field(
        default=None, gt=0, le=86400, allow_inf_nan=False,
        description="a time limit per decision of a person (the game's ruling decides a timeout)",
    )


class JoinRequest(Strict):
    code: Text = Field(min_length=1, max_length=100, description="the invite code from the invite link")
    name: SeatName | None = Field(default=None, description="the name to show")


class MoveRequest(Strict):
    move: Text = Field(
        min_length=1, max_length=MAX_MOVE_TEXT, description="the move in the game's notation (a legal move's 'notation')"
    )
    ply: int = Field(ge=0, description="the ply of the state the move was chosen in (the message's 'ply')")
    revision: int | None = Field(default=None, ge=0, description="optionally, the message's 'revision': stricter than ply")
    seat: int | None = SeatNumber


class SeatRequest(Strict):
    seat: int | None = SeatNumber


class UndoRequest(Strict):
    revision: int = Field(
        ge=0, description="the 'revision' of the state the take-back was asked in: a retried or late one gets stale_move"
    )
    seat: int | None = SeatNumber


class DrawRequest(Strict):
    action: Literal["offer", "accept", "decline"]
    seat: int | None = SeatNumber


class ErrorDetail(BaseModel):
    code: str = Field(description="stable, machine-readable: see docs/server.md")
    message: str = Field(description="what was wrong, for people")


class ErrorResponse(BaseModel):
    error: ErrorDetail


class StateMessage(BaseModel):
    """What a client is sent, over HTTP and the WebSocket alike."""

    type: Literal["state"]
    room: str
    game: str
    status: Literal["waiting", "playing", "finished"]
    revision: int = Field(description="bumped by every change of the room")
    ply: int = Field(description="send it back with a move")
    seat: int | None = Field(description="whose view this is (null: spectators)")
    your_seats: list[int]
    seats: list[dict[str, Any]]
    to_move: int | None
    thinking: bool = Field(description="a computer seat is deciding")
    view: dict[str, Any] = Field(description="match.view(seat): the game's view envelope and the match around it")
    log_start: int = Field(
        description="0 over HTTP; on the WebSocket, how many log entries of the previous message stay "
        "(the rest is replaced by 'log')"
    )
    log: list[dict[str, Any]] = Field(
        description="the played turns as this seat may know them, from entry log_start on: number, by, type, "
        "text, t, note (timeout, fallback) and move (its structure, as in legal_moves; null where it is hidden)"
    )
    legal_moves: list[dict[str, Any]] = Field(description="move.to_json() of each legal move, only to the seat that decides")
    rematch: dict[str, Any] | None = Field(
        default=None, description="the rematch offered at the end: status (open, declined, starting, started), by, "
        "accepted, declined, room (the new room, once started); null: none offered"
    )
    rematch_of: str | None = Field(default=None, description="the room this one is the rematch of")


class CreatedRoom(BaseModel):
    room: str
    token: str | None = Field(description="the seat token of the 'here' seats (keep it secret; shown once)")
    invites: list[dict[str, Any]] = Field(description="per invited seat: seat, code, link")
    state: StateMessage


class JoinedRoom(BaseModel):
    room: str
    seat: int
    token: str = Field(description="this seat's token (keep it secret; shown once)")
    state: StateMessage


class RoomSummary(BaseModel):
    room: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    seats: list[dict[str, Any]]
    moves: int
    undo: str
    move_seconds: float | None
    created: float
    updated: float
    result: dict[str, Any] | None


__all__ = [
    "BAD_TEXT",
    "CreateRoomRequest",
    "CreatedRoom",
    "DrawRequest",
    "ErrorResponse",
    "JoinRequest",
    "JoinedRoom",
    "MoveRequest",
    "RoomSummary",
    "SeatRequest",
    "StateMessage",
    "Text",
    "UndoRequest",
    "check_option_types",
    "unstorable",
]
