"""The game protocol, the match driver, records, errors, options and the registry (standard library only)."""

from .agent import Agent, register_agent
from .encoding import ActionEncoding, ActionError, ObservationEncoding
from .errors import (
    ERROR_CLASSES,
    BoardlabError,
    GameOverError,
    GamePluginError,
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PositionError,
    RecordError,
    RefusedError,
    StaleMoveError,
    UnknownGameError,
    UnsupportedAgentError,
)
from .game import Game, check_position_fields
from .match import UNDO_POLICIES, Match
from .options import Option
from .progress import ProgressTracker
from .records import Ending, Record, Seat
from .registry import catalog, game_class, game_ids, load, plugin_failures, refresh_plugins, register, rules_document
from .state import VIEW_FORMAT, State
from .turns import Turn
from .values import CHANCE, MATCH_ENDING_CODES, TERMINAL, Move, Player, Result

__all__ = [
    "CHANCE",
    "ERROR_CLASSES",
    "MATCH_ENDING_CODES",
    "TERMINAL",
    "UNDO_POLICIES",
    "VIEW_FORMAT",
    "ActionEncoding",
    "ActionError",
    "Agent",
    "BoardlabError",
    "Ending",
    "Game",
    "GameOverError",
    "GamePluginError",
    "IllegalMoveError",
    "Match",
    "Move",
    "NotYourTurnError",
    "NotationError",
    "ObservationEncoding",
    "Option",
    "OptionError",
    "Player",
    "PositionError",
    "ProgressTracker",
    "Record",
    "RecordError",
    "RefusedError",
    "Result",
    "Seat",
    "StaleMoveError",
    "State",
    "Turn",
    "UnknownGameError",
    "UnsupportedAgentError",
    "catalog",
    "check_position_fields",
    "game_class",
    "game_ids",
    "load",
    "plugin_failures",
    "refresh_plugins",
    "register",
    "register_agent",
    "rules_document",
]
