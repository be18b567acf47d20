"""The fixed rules of one Sovereign game, read from its options once (docs/rules/sovereign.md, 8)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import kernel

#: the build kinds of option ``build`` (rules 8): one level, a whole new tower, several levels
BUILD_ONE_LEVEL = 0
BUILD_WHOLE_TOWER = 1
BUILD_MULTI_LEVEL = 2
BUILD_MODES = ("one_level", "whole_tower", "multi_level")
#: the ending codes of the game's results (rules 5.4.6): the objective reached (1.10), a
#: stalemated Sovereign (1.11.1), no legal move (1.11.2), threefold repetition (1.11.3), the
#: ply limit (1.11.4). A position string shows every one but repetition.
RESULT_CODES: tuple[str, ...] = ("objective", "sovereign_stalemate", "no_moves", "repetition", "move_limit")
#: the ending codes' former names (a saved position or record still reads): named as Overseer and
#: Towers name the same ending
RENAMED_RESULT_CODES: dict[str, str] = {"no_legal_move": "no_moves"}


@dataclass(frozen=True, slots=True)
class SovereignRules:
    """What the states of one game share. Field by field, the options of rules 8."""

    #: ground moves reset the climb to the ground (False: ``height_model=relative``, rules 8.1)
    castle_heights: bool = True
    #: a tower ends a sliding move (rules 1.5; False: towers are transparent)
    towers_block_slides: bool = True
    #: a walk through a castle must go straight (``transit_shape=straight``)
    straight_transit: bool = False
    #: a Contractor may walk on through the castle it stepped onto
    contractor_transit: bool = False
    build_mode: int = BUILD_ONE_LEVEL
    diplomat_self_protect: bool = False
    #: the pin forbids every Diplomat move (False: ``keep-protection``, only moves that expose the Sovereign)
    strict_pin: bool = True
    #: a threatened player may make any move that ends the threat (``any_resolving_move``)
    any_resolving_move: bool = False
    winning_move_ignores_threat: bool = True
    path_ban_applies_to_diplomat: bool = False
    #: a Sovereign without a legal move draws even when not threatened (``sovereign_stalemate=any_time``)
    stalemate_any_time: bool = False
    #: a player without a legal move loses instead of drawing (``no_moves=loss``)
    no_moves_loses: bool = False
    #: the occurrence of a position that draws (0 = off)
    repetition_count: int = 3
    #: plies of play after which the game is drawn
    ply_limit: int = 200
    supply_lower: int = 35
    supply_top: int = 14

    def kernel_flags(self) -> int:
        """These rules as the one int of bit flags that the kernel's functions take (kernel.py)."""
        return (
            kernel.RULE_CASTLE_HEIGHTS * self.castle_heights
            | kernel.RULE_TOWERS_BLOCK_SLIDES * self.towers_block_slides
            | kernel.RULE_STRAIGHT_TRANSIT * self.straight_transit
            | kernel.RULE_CONTRACTOR_TRANSIT * self.contractor_transit
            | kernel.RULE_DIPLOMAT_SELF_PROTECT * self.diplomat_self_protect
            | kernel.RULE_STRICT_PIN * self.strict_pin
            | kernel.RULE_ANY_RESOLVING_MOVE * self.any_resolving_move
            | kernel.RULE_WIN_IGNORES_THREAT * self.winning_move_ignores_threat
            | kernel.RULE_PATH_BAN_DIPLOMAT * self.path_ban_applies_to_diplomat
            | kernel.RULE_BUILD_WHOLE_TOWER * (self.build_mode == BUILD_WHOLE_TOWER)
            | kernel.RULE_BUILD_MULTI_LEVEL * (self.build_mode == BUILD_MULTI_LEVEL)
        )

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> SovereignRules:
        return cls(
            castle_heights=options["height_model"] == "castle",
            towers_block_slides=options["towers_block_slides"],
            straight_transit=options["transit_shape"] == "straight",
            contractor_transit=options["contractor_transit"],
            build_mode=BUILD_MODES.index(options["build"]),
            diplomat_self_protect=options["diplomat_self_protect"],
            strict_pin=options["diplomat_pin"] == "strict",
            any_resolving_move=options["threat_response"] == "any_resolving_move",
            winning_move_ignores_threat=options["winning_move_ignores_threat"],
            path_ban_applies_to_diplomat=options["path_ban_applies_to_diplomat"],
            stalemate_any_time=options["sovereign_stalemate"] == "any_time",
            no_moves_loses=options["no_moves"] == "loss",
            repetition_count=options["repetition_count"],
            ply_limit=options["ply_limit"],
            supply_lower=options["supply_lower"],
            supply_top=options["supply_top"],
        )
