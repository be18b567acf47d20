"""The game protocol, errors, options, records and the registry (standard library only)."""

from .errors import (
    BoardlabError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGameError,
)
from .game import CHANCE, TERMINAL, Game, Move, Player, Result, State, check_position_fields
from .options import Option
from .registry import catalog, game_class, game_ids, load, register

__all__ = [
    "BoardlabError",
    "CHANCE",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Option",
    "OptionError",
    "Player",
    "PositionError",
    "RecordError",
    "Result",
    "State",
    "TERMINAL",
    "UnknownGameError",
    "catalog",
    "check_position_fields",
    "game_class",
    "game_ids",
    "load",
    "register",
]
