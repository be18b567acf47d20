"""The fixed numbers of one Honor game, derived once from the player count and the options.

States read ``state.rules`` (a frozen :class:`HonorRules`): the table layout, the settle
rule, the ruleset id that positions must match, and the option switches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .catalogue import CATALOGUE_SHA256
from .physics import PYMUNK_VERSION, QUICK_SETTLE, RULED_SETTLE, SettleRule, TableLayout
from .tremor import SIGMA_THETA_DEG, SIGMA_X_CM

#: the version of Honor's rules (``HonorGame.rules_version``), part of the ruleset id (rule 11.1)
RULES_VERSION = "1"
#: tokens each player starts with (rule 1.2); pools never grow
START_POOL = 10
#: a later piece's release x must lie within the tower's extent widened by this (rule 4.3)
REACH_CM = 3.0
#: candidate x positions per orientation in legal_moves() (rule 10.4)
CANDIDATE_COLUMNS = 5
#: the bits of a default (and of a resampled) seed (B-14 item 12, rule 11.5)
SEED_BITS = 256
#: what each phase of a turn (rule 7; the position's ``phase``) is called where people read it
PHASE_WORDS = {"CHOOSE": "choosing a piece", "AUCTION": "the auction", "PUSH": "a pushed piece",
               "PLACE": "placing the piece", "TREMOR": "the hand's tremor", "OVER": "the game is over"}
#: the seat names, seat 0 first (rule 1.1)
SEAT_NAMES = ("Red", "Blue", "Green", "Gold")
#: the ending codes of rule 8, by how many players still stand at the end
LAST_STANDING = "last_standing"  # 8.1: exactly one
LAST_TO_FALL = "last_to_fall"  # 8.2: none; those who fell last share
ALL_PLACED = "all_placed"  # 8.3: two or more, the supply empty
RESULT_CODES: tuple[str, ...] = (LAST_STANDING, LAST_TO_FALL, ALL_PLACED)
#: the values of the option ``auction_order`` (rule 7.3): the ruled order first
CLOCKWISE = "clockwise"
LOWEST_POOL_FIRST = "lowest_pool_first"
AUCTION_ORDERS: tuple[str, ...] = (CLOCKWISE, LOWEST_POOL_FIRST)


@dataclass(frozen=True, slots=True)
class HonorRules:
    """What the states of one game share: the table, the settle rule, the ruleset id and
    the switches of the options ``tremor`` (rule 4.5) and ``resign`` (rule 7.13)."""

    players: int
    layout: TableLayout
    #: the settle criterion of every resolution segment (rule 5.3, option ``settle``)
    settle: SettleRule
    tremor: bool
    resign: bool
    #: the ruleset id (rule 11.1): engine, catalogue, table and tremor; positions are valid only against it
    ruleset: str
    names: tuple[str, ...]
    #: what a release's preview shows (option ``preview``): ``drop`` or ``outcome``
    preview: str = "drop"
    #: the least opening bid of a Build (rule 7.2, option ``minimum_opening_bid``; 0 as ruled)
    minimum_opening_bid: int = 0
    #: who an auction asks first (rule 7.3, option ``auction_order``; ``clockwise`` as ruled)
    auction_order: str = CLOCKWISE

    def bidding_order(self, turn_player: int, pools: Sequence[int], standing: Sequence[bool]) -> tuple[int, ...]:
        """The standing players in the order the turn player's auction asks them, round and
        round (rule 7.3): clockwise from the player after the turn player, the turn player
        last; under ``lowest_pool_first`` the smallest pool first, equal pools in that
        clockwise order. Pools do not change while an auction runs (only its winner pays,
        at its end), so neither does the order."""
        n = len(pools)
        clockwise = [(turn_player + k) % n for k in range(1, n + 1) if standing[(turn_player + k) % n]]
        if self.auction_order == LOWEST_POOL_FIRST:
            clockwise.sort(key=lambda seat: pools[seat])  # a stable sort: ties stay clockwise
        return tuple(clockwise)

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> HonorRules:
        tremor = bool(options["tremor"])
        gap = int(options["zone_gap"])
        settle = str(options["settle"])
        minimum_bid = int(options.get("minimum_opening_bid", 0))
        auction_order = str(options.get("auction_order", CLOCKWISE))
        tremor_text = f"{SIGMA_X_CM:.2f}/{SIGMA_THETA_DEG:.1f}" if tremor else "off"
        ruleset = (f"honor-2d/{RULES_VERSION};pymunk={PYMUNK_VERSION};cat={CATALOGUE_SHA256[:16]};"
                   f"zone=60;gap={gap};tremor={tremor_text}"
                   + ("" if settle == "ruled" else f";settle={settle}")
                   + ("" if minimum_bid == 0 else f";minbid={minimum_bid}")
                   + ("" if auction_order == CLOCKWISE else f";order={auction_order}"))
        return cls(
            players=players,
            layout=TableLayout(players, gap),
            settle=QUICK_SETTLE if settle == "quick" else RULED_SETTLE,
            tremor=tremor,
            resign=bool(options["resign"]),
            ruleset=ruleset,
            names=SEAT_NAMES[:players],
            preview=str(options.get("preview", "drop")),
            minimum_opening_bid=minimum_bid,
            auction_order=auction_order,
        )


__all__ = [
    "AUCTION_ORDERS",
    "CANDIDATE_COLUMNS",
    "CLOCKWISE",
    "LOWEST_POOL_FIRST",
    "REACH_CM",
    "SEAT_NAMES",
    "SEED_BITS",
    "START_POOL",
    "HonorRules",
]
