"""The error hierarchy.

Every error boardlab raises for bad input derives from :class:`BoardlabError`,
itself a :class:`ValueError`, so callers can catch one type. Messages name the
input, the position and the rule that was broken.
"""

from __future__ import annotations


class BoardlabError(ValueError):
    """Root of every error raised for bad input (moves, positions, options, records)."""


class UnknownGameError(BoardlabError):
    """A game id that is not registered; the message lists the valid ids."""


class OptionError(BoardlabError):
    """An unknown option, a value outside the allowed ones, or a bad player count."""


class IllegalMoveError(BoardlabError):
    """A move that is not legal in the current state; the message says why."""


class NotationError(IllegalMoveError):
    """Move text that does not follow the game's notation at all (a special illegal move)."""


class GameOverError(IllegalMoveError):
    """A move was offered to a state whose game has ended."""


class PositionError(BoardlabError):
    """A malformed or impossible position string or state JSON."""


class RecordError(BoardlabError):
    """A broken game record. ``move_number`` is the 1-based number of the first bad move, if any."""

    def __init__(self, message: str, move_number: int | None = None) -> None:
        super().__init__(message)
        self.move_number = move_number
