"""The server's errors and the one table that maps every error code to an HTTP status.

Every refusal is a :class:`~boardlab.core.errors.BoardlabError` (the core's for game and
match errors, the classes below for the server's own), so one exception handler turns
them all into ``{"error": {"code": ..., "message": ...}}``. Codes are stable: clients
branch on them, docs/server.md lists them (a test keeps the two in step).
"""

from __future__ import annotations

import math

from ..core.errors import (
    BoardlabError,
    IllegalMoveError,
    OptionError,
    RecordError,
    RefusedError,
)


class ServerError(BoardlabError):
    """A request the server refuses for a reason outside the game's rules."""

    code = "bad_request"


class BadJsonError(ServerError):
    code = "bad_json"


class BodyTooLargeError(ServerError):
    code = "body_too_large"


class UnknownRoomError(ServerError):
    code = "unknown_room"


class MissingTokenError(ServerError):
    code = "missing_token"


class BadTokenError(ServerError):
    code = "bad_token"


class NotYourSeatError(ServerError):
    code = "not_your_seat"


class BadInviteError(ServerError):
    code = "bad_invite"


class SeatTakenError(ServerError):
    code = "seat_taken"


class WaitingForPlayersError(ServerError):
    code = "waiting_for_players"


class GameNotOverError(ServerError):
    code = "game_not_over"


class StorageUnavailableError(ServerError):
    code = "storage_unavailable"


class BadTextError(ServerError):
    code = "bad_text"


class DesignerKeyMissingError(ServerError):
    code = "designer_key_missing"


class BadDesignerKeyError(ServerError):
    code = "bad_designer_key"


class AdminOnlyError(ServerError):
    code = "admin_only"


class NotOwnerError(ServerError):
    code = "not_owner"


class PlayerKeyMissingError(ServerError):
    code = "player_key_missing"


class BadPlayerKeyError(ServerError):
    code = "bad_player_key"


class BusyError(ServerError):
    """Refused for now (429): ``retry_after`` seconds is when asking again may succeed."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: float = 1.0, code: str | None = None) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


#: every code the server sends, with its HTTP status (docs/server.md has the same table)
ERROR_STATUS: dict[str, int] = {
    # the server's own
    "bad_request": 422,
    "bad_text": 422,
    "bad_json": 400,
    "body_too_large": 413,
    "body_timeout": 408,
    "header_timeout": 408,
    "head_too_large": 431,
    "server_busy": 503,
    "not_found": 404,
    "method_not_allowed": 405,
    "unknown_room": 404,
    "missing_token": 401,
    "bad_token": 403,
    "not_your_seat": 403,
    "bad_invite": 403,
    "seat_taken": 409,
    "waiting_for_players": 409,
    "game_not_over": 409,
    "storage_unavailable": 503,
    "designer_key_missing": 401,
    "bad_designer_key": 403,
    "admin_only": 403,
    "not_owner": 403,
    "player_key_missing": 401,
    "bad_player_key": 403,
    "lab_quota": 409,
    "lab_full": 409,
    "rate_limited": 429,
    "too_many_computer_rooms": 429,
    "computer_busy": 429,
    "too_many_spectators": 429,
    "internal_error": 500,
    # the core's (boardlab.core.errors), and the match's specific refusals
    "bad_input": 400,
    "unknown_game": 404,
    "bad_option": 422,
    "agent_not_for_game": 422,
    "illegal_move": 422,
    "bad_notation": 422,
    "game_over": 409,
    "not_your_turn": 409,
    "stale_move": 409,
    "refused": 409,
    "rematch_open": 409,
    "rematch_started": 409,
    "no_rematch_offer": 409,
    "undo_refused": 409,
    "no_draws": 409,
    "no_draw_offer": 409,
    "bad_seats": 422,
    "not_computer_turn": 409,
    "bad_position": 422,
    "bad_record": 422,
}


def status_for(error: BoardlabError) -> int:
    """The HTTP status of ``error``: its code's entry, else its class's family (a code a
    game or the match adds later still gets a sensible status)."""
    status = ERROR_STATUS.get(error.code)
    if status is not None:
        return status
    if isinstance(error, (IllegalMoveError, OptionError, RecordError)):
        return 422
    if isinstance(error, RefusedError):
        return 409
    return 400


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    """The JSON body of every refusal."""
    return {"error": {"code": code, "message": message}}


__all__ = [
    "ERROR_STATUS",
    "AdminOnlyError",
    "BadDesignerKeyError",
    "BadInviteError",
    "BadJsonError",
    "BadPlayerKeyError",
    "BadTextError",
    "BadTokenError",
    "BodyTooLargeError",
    "BusyError",
    "DesignerKeyMissingError",
    "GameNotOverError",
    "MissingTokenError",
    "NotOwnerError",
    "NotYourSeatError",
    "PlayerKeyMissingError",
    "SeatTakenError",
    "ServerError",
    "StorageUnavailableError",
    "UnknownRoomError",
    "WaitingForPlayersError",
    "error_body",
    "status_for",
]
