"""The fixed numbers of one Towers game, derived from the player count and the options."""

from __future__ import annotations

from dataclasses import dataclass

from .board import CASTLES_TO_WIN, COLOUR_LETTERS, COLOUR_NAMES, CROWNS_TO_WIN, NO_PROGRESS_DEFAULT, SUPPLY


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
    def from_options(cls, players: int, no_progress_limit: int, ply_cap: int) -> "TowersRules":
        """``no_progress_limit`` 0 means the rule's default for the player count."""
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
