"""The fixed numbers and choices of one Overseer game, from its options (rules 11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: plies without a capture that draw the game by default (rules 7.4)
NO_CAPTURE_LIMIT = 100
#: what the no-capture limit gives (rules 7.4): a draw (the ruled game), or a win for the side
#: ahead in material
NO_CAPTURE_ENDINGS: tuple[str, ...] = ("draw", "material")
#: the ending codes of the game's results: the enemy Overseer captured (rules 7.1), too little
#: material (7.2), threefold repetition (7.3), the no-capture limit drawn (7.4) or won on
#: material (7.4 with the option no_capture_ending=material), no legal move (7.5)
RESULT_CODES: tuple[str, ...] = (
    "overseer_captured", "insufficient_material", "repetition", "no_capture_limit", "no_capture_material",
    "no_moves",
)


@dataclass(frozen=True, slots=True)
class OverseerRules:
    """What the states of one game share. States read ``self.rules``."""

    #: the starting set-up (rules 5): concentric, chess_sized or diametric
    setup: str
    #: plies without a capture that draw (rules 7.4)
    no_capture_limit: int
    #: at the no-capture limit the side ahead in material wins; equal material draws (rules 7.4)
    no_capture_material: bool
    #: a player with no legal move loses instead of drawing (rules 7.5)
    no_moves_loses: bool
    #: also draw Overseer + one Soldier, Captain, General or Pilot against a bare Overseer (rules 7.2)
    extended_material_draw: bool
    #: read ``-`` and ``x`` alike and work out the capture from the board (rules 9.2)
    loose_capture_marks: bool

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> OverseerRules:
        return cls(
            setup=options["setup"],
            no_capture_limit=options["no_capture_limit"],
            no_capture_material=options["no_capture_ending"] == "material",
            no_moves_loses=options["no_moves"] == "loss",
            extended_material_draw=options["extended_material_draw"],
            loose_capture_marks=options["loose_capture_marks"],
        )
