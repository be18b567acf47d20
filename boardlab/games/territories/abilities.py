"""The four building abilities (R7): Swap, Raid, Convert, Expand.

Sequence: announce (``swap``/``raid``/``conv``/``expand``) in MAIN; Raid and
Convert pay one of each resource at once and roll a duel (chance ``AvD``);
Swap and Expand roll a d6 (chance ``dN``), then the owner pays N resources
(``pay(...)``) and places the card, or loses everything (R7.6) when they hold
fewer than N resources.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core import Move

from . import kernel
from .cards import (
    ABILITY_KIND,
    CARD_CODE,
    CONVERT,
    EXPAND,
    KIND_CHARS,
    KIND_NAMES,
    ONE_OF_EACH,
    RAID,
    SWAP,
    TOWN,
    covers,
    shortfall_text,
)
from .moves import Announce, ConvertTo, Destroy, Die, Duel, Pay, PlaceCard, SwapCard
from .phases import (
    ABILITY_DIE,
    ABILITY_PAY,
    ABILITY_PLACE,
    CONVERT_TARGET,
    DUEL,
    MAIN,
    RAID_TARGET,
)
from .transfers import add_known_territory, change_supply, lose_all, pay_to_bank, remove_territory

if TYPE_CHECKING:
    from .state import TerritoriesState


def eligible_buildings(state: TerritoriesState, seat: int, ability: int) -> int:
    """How many of ``seat``'s buildings grant ``ability`` (its tier-2 kind or the Capital)."""
    return kernel.eligible_buildings(seat, ability, state.buildings)


def convert_targets(state: TerritoriesState, seat: int) -> list[tuple[tuple[int, int], int]]:
    """(point, replacement kind) pairs a won Convert may choose (R7.4), sorted."""
    return kernel.convert_targets(seat, state.buildings, state.grid, state.supply[seat])


def expansion_cells(state: TerritoriesState) -> list[tuple[int, int]]:
    """Empty cells an Expand may fill (R7.5), sorted by (r, c)."""
    return kernel.expansion_cells(state.grid, state.rules.expand_max_extent)


def announce_reason(state: TerritoriesState, ability: int) -> str | None:
    """Why the active player may not announce ``ability`` now (R7.1 - R7.5).

    The reason does not repeat the ability: the error names the move already.
    """
    seat = state.active
    owned = eligible_buildings(state, seat, ability)
    if owned == 0:
        return f"needs a Capital or {KIND_NAMES[ABILITY_KIND[ability]]} on the board (R7)"
    limit = state.rules.ability_limit
    used = state.used[ability]
    if limit == "per_ability_per_turn" and used >= 1:
        return "already used this turn (R7.1)"
    if limit == "per_building_per_turn" and used >= owned:
        return f"used {used} times this turn, once per eligible building (R7.1)"
    hold = state.res[seat]
    if ability in (SWAP, EXPAND):
        if not state.hands[seat]:
            return "needs a territory card in hand (R7.2, R7.5)"
        if limit == "unlimited" and sum(hold) == 0:
            return "with unlimited abilities, announcing needs at least 1 resource (R7.1)"
        if ability == EXPAND and not kernel.can_expand(state.grid, state.rules.expand_max_extent):
            return "no empty cell beside the grid within the allowed extent (R7.5)"
        return None
    if not covers(hold, ONE_OF_EACH):
        return f"costs HSCD, {shortfall_text(hold, ONE_OF_EACH)} (R7.3, R7.4)"
    if ability == RAID:
        if not any(owner != seat and kind == TOWN for owner, kind in state.buildings.values()):
            return "your opponent has no Town (R7.3)"
        return None
    if not convert_targets(state, seat):
        return "no opponent building shares a card with your Temple or Capital, with a piece to replace it (R7.4)"
    return None


def apply_announce(state: TerritoriesState, move: Announce) -> None:
    state.used = tuple(count + (ability == move.ability) for ability, count in enumerate(state.used))
    state.ability = move.ability
    if move.ability in (RAID, CONVERT):
        pay_to_bank(state, state.active, ONE_OF_EACH)  # paid before the duel, never refunded (R7.3)
        state.phase = DUEL
    else:
        state.phase = ABILITY_DIE


def apply_die(state: TerritoriesState, move: Die) -> None:
    state.die = move.value
    if sum(state.res[state.active]) >= move.value:
        state.phase = ABILITY_PAY
    else:
        lose_all(state, state.active)
        state.phase = MAIN
        state.ability = -1


def apply_duel(state: TerritoriesState, move: Duel) -> None:
    if move.attack > move.defence:  # ties fail (R7.3)
        state.phase = RAID_TARGET if state.ability == RAID else CONVERT_TARGET
    else:
        state.phase = MAIN
        state.ability = -1


def apply_pay(state: TerritoriesState, move: Pay) -> None:
    pay_to_bank(state, state.active, move.amounts)
    state.phase = ABILITY_PLACE


def apply_swap_card(state: TerritoriesState, move: SwapCard) -> None:
    seat = state.active
    removed = state.grid[move.cell]
    remove_territory(state, seat, move.card)
    state.grid = {**state.grid, move.cell: move.card}
    state.grid_changed(move.cell)
    destination = state.rules.swap_removed_card_to
    if destination == "hand":  # R7.2: the exchanged card enters the hand face up
        add_known_territory(state, seat, removed)
    elif destination == "pile_bottom":
        state.bottom = (*state.bottom, removed)
    else:
        state.discard = (*state.discard, removed)
    state.phase = MAIN
    state.ability = -1


def apply_place_card(state: TerritoriesState, move: PlaceCard) -> None:
    remove_territory(state, state.active, move.card)
    state.grid = {**state.grid, move.cell: move.card}
    state.grid_changed(move.cell)
    state.phase = MAIN
    state.ability = -1


def apply_destroy(state: TerritoriesState, move: Destroy) -> None:
    buildings = state.buildings.copy()
    owner, _kind = buildings.pop(move.point)
    state.buildings = buildings
    change_supply(state, owner, TOWN, 1)
    state.phase = MAIN
    state.ability = -1


def apply_convert(state: TerritoriesState, move: ConvertTo) -> None:
    seat = state.active
    owner, kind = state.buildings[move.point]
    change_supply(state, owner, kind, 1)
    change_supply(state, seat, move.kind, -1)
    state.buildings = {**state.buildings, move.point: (seat, move.kind)}
    state.phase = MAIN
    state.ability = -1


def resolution_moves(state: TerritoriesState) -> list[Move]:
    """The active player's choices while an ability resolves."""
    seat = state.active
    phase = state.phase
    if phase == ABILITY_PAY:
        return kernel.payments(state.die, state.res[seat])
    if phase == ABILITY_PLACE:
        if state.ability == SWAP:
            return kernel.cell_card_moves(kernel.grid_cells(state.grid), state.hands[seat], True)
        return kernel.cell_card_moves(expansion_cells(state), state.hands[seat], False)
    if phase == RAID_TARGET:
        return [
            Destroy(point) for point, (owner, kind) in sorted(state.buildings.items())
            if owner != seat and kind == TOWN
        ]
    if phase == CONVERT_TARGET:
        return [ConvertTo(point, kind) for point, kind in convert_targets(state, seat)]
    raise AssertionError(f"no decision in phase {phase}")


def pending_text(state: TerritoriesState) -> str:
    """What the ability in progress waits for, in words."""
    phase = state.phase
    if phase == ABILITY_PAY:
        return f"pay {state.die} resource{'' if state.die == 1 else 's'}: pay(...)"
    if phase == ABILITY_PLACE:
        if state.ability == SWAP:
            return "choose a grid cell and a hand card: [c,r]<>CARD"
        return "choose an empty cell beside the grid and a hand card: [c,r]+CARD"
    if phase == RAID_TARGET:
        return "choose the opponent's Town to destroy: xX,Y"
    if phase == CONVERT_TARGET:
        return "choose the building to convert and your piece: X,Y=KIND"
    return "the dice are rolled"


def resolution_reason(state: TerritoriesState, move: Move) -> str | None:
    """Why ``move`` does not resolve the ability in progress."""
    seat = state.active
    phase = state.phase
    if phase == ABILITY_PAY:
        if not isinstance(move, Pay):
            return pending_text(state)
        if sum(move.amounts) != state.die:
            return f"the d6 showed {state.die}: pay exactly {state.die} resources, not {sum(move.amounts)} (R7.2)"
        if not covers(state.res[seat], move.amounts):
            return shortfall_text(state.res[seat], move.amounts)
        return None
    if phase == ABILITY_PLACE:
        if state.ability == SWAP and not isinstance(move, SwapCard):
            return pending_text(state)
        if state.ability == EXPAND and not isinstance(move, PlaceCard):
            return pending_text(state)
        assert isinstance(move, (SwapCard, PlaceCard))
        if move.card not in state.hands[seat]:
            return f"you do not hold {CARD_CODE[move.card]}"
        cell = f"[{move.cell[0]},{move.cell[1]}]"
        if isinstance(move, SwapCard):
            return None if move.cell in state.grid else f"{cell} holds no card (R7.2)"
        if move.cell in state.grid:
            return f"{cell} already holds a card (R7.5)"
        if move.cell not in expansion_cells(state):
            return f"{cell} does not share a side with the grid, or leaves the allowed extent (R7.5)"
        return None
    if phase == RAID_TARGET:
        if not isinstance(move, Destroy):
            return pending_text(state)
        here = state.buildings.get(move.point)
        if here is None or here[0] == seat or here[1] != TOWN:
            return f"{move.point[0]},{move.point[1]} holds no opponent Town (R7.3)"
        return None
    if phase == CONVERT_TARGET:
        if not isinstance(move, ConvertTo):
            return pending_text(state)
        if (move.point, move.kind) in convert_targets(state, seat):
            return None
        here = state.buildings.get(move.point)
        where = f"{move.point[0]},{move.point[1]}"
        if here is None or here[0] == seat:
            return f"{where} holds no opponent building (R7.4)"
        if not any(p == move.point for p, _ in convert_targets(state, seat)):
            return f"{where} shares no card with your Temple or Capital (R7.4)"
        return (
            f"{KIND_CHARS[move.kind]}: a {KIND_NAMES[here[1]]} becomes the same kind or a lower tier "
            f"from your supply (R7.4)"
        )
    return pending_text(state)

