"""The rules options of Territories (rule R12), named as in the product ruling's A-11, and the
frozen :class:`TerritoriesRules` a game builds from them once."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boardlab.core import Option, OptionError

#: the ending codes of the game's results (R9): a player reached the target points (R9.1); a
#: player had no buildings too long, or both at once, a draw (R9.2); the turn cap (R9.3)
RESULT_CODES: tuple[str, ...] = ("points", "no_buildings", "move_limit")

OPTIONS: tuple[Option, ...] = (
    Option("production", "all", "who collects on a roll: every player, or only the roller (R4.2)",
           choices=("all", "roller")),
    Option("count_per", "card", "production counts per (building, matching card) pair (R4.2)",
           choices=("card",)),
    Option("capital_yield", "per_card", "Capital yields 1 per touching card, or 1 per distinct suit (R4.3)",
           choices=("per_card", "per_suit")),
    Option("capital_trigger", "once", "Capital triggers once per roll, or once per matching card (R4.3)",
           choices=("once", "per_match")),
    Option("bank_shortage", "catan", "short suit: nobody gets it if both claim (catan), or roller first (R4.5)",
           choices=("catan", "roller_first")),
    Option("hand_limit", 7, "cards kept when a 7 is rolled (R5.2)", kind=int, minimum=0, maximum=60),
    Option("hand_limit_counts", "all", "the hand limit counts resources and territory cards, or resources only (R5.1)",
           choices=("all", "resources_only")),
    Option("territory_discard_to", "discard_pile", "where discarded territory cards go (R5.3)",
           choices=("discard_pile", "pile_bottom")),
    Option("reshuffle_discards", False, "when the pile runs out, the discard pile becomes the new pile (R1.5)",
           kind=bool),
    Option("bank_trade", "identical4", "4:1 bank trade takes four of one kind, or any four (R8.1)",
           choices=("identical4", "mixed4")),
    Option("max_trade_proposals", 3, "trade proposals per turn, counter-offers included (R8.2)",
           kind=int, minimum=0, maximum=10),
    Option("counter_offers", False, "the responder may answer one counter-proposal (R8.3)", kind=bool),
    Option("trade_territories", False, "player trades may include territory cards, one per side (R8.4)",
           kind=bool),
    Option("ability_limit", "per_ability_per_turn", "how often an ability may be used in a turn (R7.1)",
           choices=("per_ability_per_turn", "per_building_per_turn", "unlimited")),
    Option("swap_removed_card_to", "hand", "where the grid card taken by a Swap goes (R7.2)",
           choices=("hand", "discard_pile", "pile_bottom")),
    Option("lose_all", "resources", "what a failed Swap/Expand payment loses (R7.6)",
           choices=("resources", "resources_and_territories")),
    Option("distance_rule", False, "no Town beside another building along a card side (R6.1)", kind=bool),
    Option(
        "expand_max_extent", None,
        "largest grid bounding box Expand may create, as WxH (e.g. 9x8 or [9, 8]); none = unbounded (R7.5)",
    ),
    Option("target_points", 15, "points that win at once (R9.1)", kind=int, minimum=3, maximum=25),
    Option("no_building_turns", 2, "consecutive turns without buildings that lose (R9.2)",
           kind=int, minimum=1, maximum=10),
    Option("no_building_clock", "own_turns", "count the player's own turns, or every game turn (R9.2)",
           choices=("own_turns", "game_turns")),
    Option("max_turns", 200, "total turns (both players) before the game ends on points (R9.3)",
           kind=int, minimum=2, maximum=2000),
    Option("resources_public", True, "show each player's resources by type, or only their count (R11)",
           kind=bool),
    Option("second_player_resources", 0,
           "resources of its choice P2 takes from the bank after setup, a compensation for moving second (R3.4)",
           kind=int, minimum=0, maximum=3),
)

#: ``9x8``, or the ruling's ``[9, 8]`` (also ``9,8``)
_EXTENT = re.compile(r"^\[?\s*(\d+)\s*(?:x|,)\s*(\d+)\s*\]?$")


def parse_extent(value: object) -> tuple[int, int] | None:
    """``"9x8"`` or ``"[9, 8]"`` -> ``(9, 8)``; None (or "none") -> None; OptionError otherwise."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in ("", "none", "null"):
        return None
    match = _EXTENT.match(text)
    if match is None:
        raise OptionError(f"option expand_max_extent={value!r}: expected WxH such as 9x8, or none")
    width, height = int(match.group(1)), int(match.group(2))
    if width < 5 or height < 4:
        raise OptionError(
            f"option expand_max_extent={value!r}: must hold the 5x4 starting grid (at least 5x4)"
        )
    return width, height


@dataclass(frozen=True, slots=True)
class TerritoriesRules:
    """The resolved options of one game as plain attributes, read in hot loops (cheaper than
    dict lookups). Built once per game by :meth:`from_options`; states read ``self.rules``."""

    production_all: bool
    capital_per_suit: bool
    capital_per_match: bool
    shortage_roller_first: bool
    hand_limit: int
    limit_counts_territories: bool
    discard_to_pile_bottom: bool
    reshuffle_discards: bool
    bank_trade_mixed: bool
    max_trade_proposals: int
    counter_offers: bool
    trade_territories: bool
    ability_limit: str
    swap_removed_card_to: str
    lose_territories: bool
    distance_rule: bool
    expand_max_extent: tuple[int, int] | None
    target_points: int
    no_building_turns: int
    clock_game_turns: bool
    max_turns: int
    resources_public: bool
    second_player_resources: int

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> TerritoriesRules:
        """The rules of validated ``options`` (see :data:`OPTIONS`); OptionError for a bad extent."""
        return cls(
            production_all=options["production"] == "all",
            capital_per_suit=options["capital_yield"] == "per_suit",
            capital_per_match=options["capital_trigger"] == "per_match",
            shortage_roller_first=options["bank_shortage"] == "roller_first",
            hand_limit=int(options["hand_limit"]),
            limit_counts_territories=options["hand_limit_counts"] == "all",
            discard_to_pile_bottom=options["territory_discard_to"] == "pile_bottom",
            reshuffle_discards=bool(options["reshuffle_discards"]),
            bank_trade_mixed=options["bank_trade"] == "mixed4",
            max_trade_proposals=int(options["max_trade_proposals"]),
            counter_offers=bool(options["counter_offers"]),
            trade_territories=bool(options["trade_territories"]),
            ability_limit=str(options["ability_limit"]),
            swap_removed_card_to=str(options["swap_removed_card_to"]),
            lose_territories=options["lose_all"] == "resources_and_territories",
            distance_rule=bool(options["distance_rule"]),
            expand_max_extent=parse_extent(options["expand_max_extent"]),
            target_points=int(options["target_points"]),
            no_building_turns=int(options["no_building_turns"]),
            clock_game_turns=options["no_building_clock"] == "game_turns",
            max_turns=int(options["max_turns"]),
            resources_public=bool(options["resources_public"]),
            second_player_resources=int(options["second_player_resources"]),
        )
