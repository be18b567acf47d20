"""The rules options of Territories (rule R12), named as in the product ruling's A-11."""

from __future__ import annotations

import re

from boardlab.core import Option, OptionError

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
    Option("trade_territories", False, "player trades may include territory cards (R8.4)", kind=bool),
    Option("ability_limit", "per_ability_per_turn", "how often an ability may be used in a turn (R7.1)",
           choices=("per_ability_per_turn", "per_building_per_turn", "unlimited")),
    Option("swap_removed_card_to", "hand", "where the grid card taken by a Swap goes (R7.2)",
           choices=("hand", "discard_pile", "pile_bottom")),
    Option("lose_all", "resources", "what a failed Swap/Expand payment loses (R7.6)",
           choices=("resources", "resources_and_territories")),
    Option("distance_rule", False, "no Town beside another building along a card side (R6.1)", kind=bool),
    Option("expand_max_extent", None, "largest grid bounding box Expand may create, as WxH (e.g. 9x8 or [9, 8]); none = unbounded (R7.5)"),
    Option("target_points", 15, "points that win at once (R9.1)", kind=int, minimum=3, maximum=25),
    Option("no_building_turns", 2, "consecutive turns without buildings that lose (R9.2)",
           kind=int, minimum=1, maximum=10),
    Option("no_building_clock", "own_turns", "count the player's own turns, or every game turn (R9.2)",
           choices=("own_turns", "game_turns")),
    Option("max_turns", 200, "total turns (both players) before the game ends on points (R9.3)",
           kind=int, minimum=2, maximum=2000),
    Option("resources_public", True, "show each player's resources by type, or only their count (R11)",
           kind=bool),
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


class Rules:
    """The resolved options as plain attributes, read in hot loops (cheaper than dict lookups)."""

    __slots__ = (
        "production_all", "capital_per_suit", "capital_per_match", "shortage_roller_first",
        "hand_limit", "limit_counts_territories", "discard_to_pile_bottom", "reshuffle_discards",
        "bank_trade_mixed", "max_trade_proposals", "counter_offers", "trade_territories",
        "ability_limit", "swap_removed_card_to", "lose_territories", "distance_rule",
        "expand_max_extent", "target_points", "no_building_turns", "clock_game_turns",
        "max_turns", "resources_public",
    )

    def __init__(self, options: dict[str, object]) -> None:
        self.production_all = options["production"] == "all"
        self.capital_per_suit = options["capital_yield"] == "per_suit"
        self.capital_per_match = options["capital_trigger"] == "per_match"
        self.shortage_roller_first = options["bank_shortage"] == "roller_first"
        self.hand_limit = int(options["hand_limit"])  # type: ignore[arg-type]
        self.limit_counts_territories = options["hand_limit_counts"] == "all"
        self.discard_to_pile_bottom = options["territory_discard_to"] == "pile_bottom"
        self.reshuffle_discards = bool(options["reshuffle_discards"])
        self.bank_trade_mixed = options["bank_trade"] == "mixed4"
        self.max_trade_proposals = int(options["max_trade_proposals"])  # type: ignore[arg-type]
        self.counter_offers = bool(options["counter_offers"])
        self.trade_territories = bool(options["trade_territories"])
        self.ability_limit = str(options["ability_limit"])
        self.swap_removed_card_to = str(options["swap_removed_card_to"])
        self.lose_territories = options["lose_all"] == "resources_and_territories"
        self.distance_rule = bool(options["distance_rule"])
        self.expand_max_extent = parse_extent(options["expand_max_extent"])
        self.target_points = int(options["target_points"])  # type: ignore[arg-type]
        self.no_building_turns = int(options["no_building_turns"])  # type: ignore[arg-type]
        self.clock_game_turns = options["no_building_clock"] == "game_turns"
        self.max_turns = int(options["max_turns"])  # type: ignore[arg-type]
        self.resources_public = bool(options["resources_public"])
