"""The error hierarchy.

Every error boardlab raises for bad input derives from :class:`BoardlabError`,
itself a :class:`ValueError`, so callers can catch one type. Messages name the
input, the position and the rule that was broken.

Every class has a stable machine-readable ``code`` (the web server sends it
beside the message; scripts may branch on it). An instance may carry a more
specific code than its class, e.g. ``RefusedError("...", code="no_draw_offer")``.
Codes are lower snake case and never change once published.
"""

from __future__ import annotations

from typing import ClassVar


class BoardlabError(ValueError):
    """Root of every error raised for bad input (moves, positions, options, records)."""

    code: ClassVar[str] = "bad_input"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            # an instance attribute shadows the class default for this error only
            self.code = code  # type: ignore[misc]


class UnknownGameError(BoardlabError):
    """A game id that is not registered; the message lists the valid ids."""

    code = "unknown_game"


class GamePluginError(UnknownGameError):
    """A game id whose plugin (an installed package's entry point) failed to load; the
    message names the plugin, its distribution and the cause."""


class OptionError(BoardlabError):
    """An unknown option, a value outside the allowed ones, or a bad player count."""

    code = "bad_option"


class UnsupportedAgentError(OptionError):
    """An agent asked to play a game it does not declare (a game-specific agent elsewhere)."""

    code = "agent_not_for_game"


class IllegalMoveError(BoardlabError):
    """A move that is not legal in the current state; the message says why."""

    code = "illegal_move"


class NotationError(IllegalMoveError):
    """Move text that does not follow the game's notation at all (a special illegal move)."""

    code = "bad_notation"


class GameOverError(IllegalMoveError):
    """A move was offered to a state whose game has ended."""

    code = "game_over"


class NotYourTurnError(IllegalMoveError):
    """A seat tried to move while another seat (or chance) decides."""

    code = "not_your_turn"


class StaleMoveError(IllegalMoveError):
    """A move made for a position that is no longer current (another move came first)."""

    code = "stale_move"


class RefusedError(BoardlabError):
    """A match action the rules or the match's settings do not allow now
    (an undo against a person, a draw in a game without draws, ...)."""

    code = "refused"


class PositionError(BoardlabError):
    """A malformed or impossible position string."""

    code = "bad_position"


class RecordError(BoardlabError):
    """A broken game record. ``move_number`` is the 1-based number of the first bad move, if any."""

    code = "bad_record"

    def __init__(self, message: str, move_number: int | None = None, code: str | None = None) -> None:
        super().__init__(message, code)
        self.move_number = move_number


#: every error class, for documentation and for the server's error table
ERROR_CLASSES: tuple[type[BoardlabError], ...] = (
    BoardlabError,
    UnknownGameError,
    GamePluginError,
    OptionError,
    UnsupportedAgentError,
    IllegalMoveError,
    NotationError,
    GameOverError,
    NotYourTurnError,
    StaleMoveError,
    RefusedError,
    PositionError,
    RecordError,
)
