"""The fixed numbers of one Towers game, derived from the player count and the options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import CASTLES_TO_WIN, COLOUR_LETTERS, COLOUR_NAMES, CROWNS_TO_WIN, NO_PROGRESS_DEFAULT, SUPPLY

#: the ending codes of the game's results: the castle win (rules 7.1-7.3), the crowned
#: castles (7.4), the opponents cannot move (7.5, 7.6), threefold repetition (8.1), the
#: no-progress draw (8.2), the optional ply cap (8.3)
RESULT_CODES: tuple[str, ...] = ("castles", "crowns", "no_moves", "repetition", "no_progress", "move_limit")


@dataclass(frozen=True, slots=True)
class TowersRules:
    """What the states of one game share: seats, win thresholds, limits, supply, names."""

    players: int
    castles_to_win: int
    crowns_to_win: int
    #: moves without a build or a dropping push that draw the game (rules 8.2)
    no_progress_limit: int
    #: 0 = no cap (rules 8.3)
    ply_cap: int
    supply: int
    letters: str
    names: tuple[str, ...]

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> TowersRules:
        """The rules of ``players`` seats and validated ``options``; ``no_progress_limit`` 0 means
        the rule's default for the player count."""
        no_progress_limit, ply_cap = options["no_progress_limit"], options["ply_cap"]
        return cls(
            players=players,
            castles_to_win=CASTLES_TO_WIN[players],
            crowns_to_win=CROWNS_TO_WIN[players],
            no_progress_limit=no_progress_limit or NO_PROGRESS_DEFAULT[players],
            ply_cap=ply_cap,
            supply=SUPPLY[players],
            letters=COLOUR_LETTERS[players],
            names=COLOUR_NAMES[players],
        )
