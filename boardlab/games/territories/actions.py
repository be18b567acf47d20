"""Decisions other than abilities and trades: setup, building, discards and wildcards.

Each kind of move has a ``*_reason`` function (None when legal, else why not,
naming the rule), which :func:`.legality.illegal_reason` calls for ``check_move``, and
the generators list exactly the moves those functions accept (R10.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core import Move

from . import kernel, trades
from .cards import (
    CAPITAL,
    CAPITAL_COST,
    CARD_CODE,
    CARD_SUIT,
    KIND_NAMES,
    KIND_TIER,
    SEAT_NAMES,
    TOWN,
    TOWN_COST,
    UPGRADE_COST,
    covers,
    resources_text,
    shortfall_text,
)
from .geometry import side_neighbours, touching
from .moves import (
    Build,
    Discard,
    Wild,
)
from .phases import (
    FIRST_COLLECTING_STEP,
    ROLL,
    SETUP,
    SETUP_STEPS,
)
from .transfers import change_supply, discard_territory, pay_to_bank, remove_territory, take_from_bank

if TYPE_CHECKING:
    from .state import TerritoriesState

# --- setup (R3.3) ----------------------------------------------------------------
def town_site_reason(state: TerritoriesState, point: tuple[int, int]) -> str | None:
    """Why a Town may not go on ``point`` (R6.1), ignoring cost and supply."""
    if not touching(point, state.grid):
        return f"no such intersection {point[0]},{point[1]}: no grid card has it as a corner (R2.2)"
    if point in state.buildings:
        return f"{point[0]},{point[1]} is occupied (R6.1)"
    if state.rules.distance_rule:
        for other in side_neighbours(point, state.grid):
            if other in state.buildings:
                return f"distance rule: {other[0]},{other[1]} beside it is built on (R6.1)"
    return None


def setup_moves(state: TerritoriesState) -> list[Move]:
    """A Town on every site (the sites :func:`town_site_reason` accepts)."""
    return kernel.town_builds(state.intersection_points(), state.grid, state.buildings, state.rules.distance_rule)


def apply_setup_town(state: TerritoriesState, point: tuple[int, int]) -> None:
    seat = state.current_player()
    state.buildings = {**state.buildings, point: (seat, TOWN)}
    change_supply(state, seat, TOWN, -1)
    if state.setup_step >= FIRST_COLLECTING_STEP:  # the second Towns collect 1 per touching card (R3.3)
        collected = [0, 0, 0, 0]
        for cell in touching(point, state.grid):
            collected[CARD_SUIT[state.grid[cell]]] += 1
        take_from_bank(state, seat, collected)
    state.setup_step += 1
    if state.setup_step == SETUP_STEPS:
        grant = state.rules.second_player_resources
        if grant:  # R3.4: P2 first takes its compensation, as wildcards of its choice
            state.wild_owed = ((1 - state.first, grant),)
        else:
            start_first_turn(state)


def start_first_turn(state: TerritoriesState) -> None:
    """Setup is over (R3.3, R3.4): P1's first turn begins with the roll (R4.1)."""
    state.phase = ROLL
    state.active = state.first
    state.turn = 1


def setup_grant_owed(state: TerritoriesState) -> bool:
    """Whether P2's starting resources (R3.4) are the decision now: wildcards owed in setup."""
    return state.phase == SETUP and bool(state.wild_owed)


# --- building (R6) ---------------------------------------------------------------
def build_reason(state: TerritoriesState, move: Build) -> str | None:
    seat = state.current_player()
    point, kind = move.point, move.kind
    where = f"{point[0]},{point[1]}"
    if state.phase == SETUP:
        if kind != TOWN:
            return "setup places Towns only (R3.3)"
        return town_site_reason(state, point)
    if state.supply[seat][kind] == 0:
        return f"no {KIND_NAMES[kind]} left in your supply (R1.3)"
    if kind == TOWN:
        reason = town_site_reason(state, point)
        if reason is not None:
            return reason
        cost = TOWN_COST
    else:
        if not touching(point, state.grid):
            return f"no such intersection {where}"
        here = state.buildings.get(point)
        if here is None:
            return f"you have no building at {where} to replace (R6.2)"
        if here[0] != seat:
            return f"the {KIND_NAMES[here[1]]} at {where} is your opponent's: you replace only your own (R6.2)"
        if kind == CAPITAL:
            if KIND_TIER[here[1]] != 2:
                return f"a Capital replaces a Fort, Barracks, Temple or Palace, not a {KIND_NAMES[here[1]]} (R6.3)"
            cost = CAPITAL_COST
        else:
            if here[1] != TOWN:
                return f"a {KIND_NAMES[kind]} replaces a Town, not a {KIND_NAMES[here[1]]} (R6.2)"
            cost = UPGRADE_COST[kind]
    if not covers(state.res[seat], cost):
        return f"costs {resources_text(cost)}: {shortfall_text(state.res[seat], cost)}"
    return None


def build_moves(state: TerritoriesState, seat: int) -> list[Move]:
    """Towns, then upgrades and Capitals: the builds :func:`build_reason` accepts."""
    return kernel.build_moves(
        seat, state.res[seat], state.supply[seat], state.buildings, state.grid, state.intersection_points(),
        state.rules.distance_rule,
    )


def apply_build(state: TerritoriesState, move: Build) -> None:
    if state.phase == SETUP:
        apply_setup_town(state, move.point)
        return
    seat = state.active
    kind = move.kind
    if kind == TOWN:
        cost = TOWN_COST
    else:
        # the replaced piece returns to supply (R6.2)
        change_supply(state, seat, state.buildings[move.point][1], 1)
        cost = CAPITAL_COST if kind == CAPITAL else UPGRADE_COST[kind]
    pay_to_bank(state, seat, cost)
    change_supply(state, seat, kind, -1)
    state.buildings = {**state.buildings, move.point: (seat, kind)}


# --- discards (R5.2) and wildcards (R4.4; P2's starting resources, R3.4) ------------------
def discard_moves(state: TerritoriesState) -> list[Move]:
    """Every distinct discard: a resource multiset plus a set of territory cards. Cost: can be
    large for big hands (sum over j of C(cards, j) x resource multisets)."""
    seat, owed = state.discards_owed[0]
    hand = state.hands[seat] if state.rules.limit_counts_territories else []
    return kernel.discard_moves(state.label(seat), owed, hand, state.res[seat])


def who(state: TerritoriesState, label: int) -> str:
    """A turn-order label as a refusal names it: the seat's name with it, ``White (P1)``
    (rule R3.2: P1 and P2 name turn order, White and Black seats)."""
    if state.first < 0 or label not in (1, 2):
        return f"P{label}"
    seat = state.first if label == 1 else 1 - state.first
    return f"{SEAT_NAMES[seat]} (P{label})"


def discard_reason(state: TerritoriesState, move: Discard) -> str | None:
    if not state.discards_owed:
        return "nobody owes discards now"
    seat, owed = state.discards_owed[0]
    if move.label != state.label(seat):
        return f"{who(state, state.label(seat))} discards now, not {who(state, move.label)}"
    total = sum(move.amounts) + len(move.cards)
    if total != owed:
        return f"{who(state, move.label)} must discard exactly {owed} cards, not {total} (R5.2)"
    if move.cards and not state.rules.limit_counts_territories:
        return "only resources count toward the hand limit (option hand_limit_counts), so discard resources"
    if not covers(state.res[seat], move.amounts):
        return shortfall_text(state.res[seat], move.amounts)
    for card in move.cards:
        if card not in state.hands[seat]:
            return f"{who(state, move.label)} does not hold {CARD_CODE[card]}"
    return None


def apply_discard(state: TerritoriesState, move: Discard) -> None:
    seat, _owed = state.discards_owed[0]
    state.discards_owed = state.discards_owed[1:]
    pay_to_bank(state, seat, move.amounts)
    for card in move.cards:
        remove_territory(state, seat, card)
        discard_territory(state, card)


def wild_count(state: TerritoriesState) -> int:
    return min(state.wild_owed[0][1], sum(state.bank))


def wild_moves(state: TerritoriesState) -> list[Move]:
    seat = state.wild_owed[0][0]
    label = state.label(seat)
    bank = state.bank
    return [Wild(label, amounts) for amounts in kernel.multisets(wild_count(state), bank[0], bank[1], bank[2], bank[3])]


def wild_reason(state: TerritoriesState, move: Wild) -> str | None:
    if not state.wild_owed:
        return "nobody is owed Temple wildcards now"
    seat = state.wild_owed[0][0]
    if move.label != state.label(seat):
        if setup_grant_owed(state):
            return f"{who(state, 2)} alone takes starting resources, not {who(state, move.label)} (R3.4)"
        return f"{who(state, state.label(seat))} chooses wildcards now, not {who(state, move.label)}"
    count = wild_count(state)
    if sum(move.amounts) != count:
        if setup_grant_owed(state):
            return f"{who(state, move.label)} takes exactly {count} starting resources of its choice (R3.4)"
        return f"{who(state, move.label)} takes exactly {count} wildcard resources now (R4.4)"
    if not covers(state.bank, move.amounts):
        return f"the bank {shortfall_text(state.bank, move.amounts).replace('you hold', 'holds')} (R4.5)"
    return None


def apply_wild(state: TerritoriesState, move: Wild) -> None:
    seat = state.wild_owed[0][0]
    state.wild_owed = state.wild_owed[1:]
    take_from_bank(state, seat, move.amounts)
    if state.phase == SETUP:  # P2's starting resources (R3.4) were the last step of setup
        start_first_turn(state)


# --- MAIN and validation ----------------------------------------------------------
def main_moves(state: TerritoriesState) -> list[Move]:
    """Builds, bank trades, a proposal's announcement, abilities, the end of the turn (R4.1)."""
    seat = state.active
    rules = state.rules
    return kernel.main_moves(
        seat, state.res, state.supply[seat], state.bank, state.buildings, state.grid, state.intersection_points(),
        len(state.hands[seat]), state.used, trades.may_propose(state, seat), state.can_draw(), rules.distance_rule,
        rules.bank_trade_mixed, kernel.ABILITY_LIMITS.index(rules.ability_limit), rules.expand_max_extent,
    )
