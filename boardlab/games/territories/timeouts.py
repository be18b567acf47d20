"""Default moves (R13): what the rules play for a player who runs out of time.

The ruling names END_TURN, REJECT, the automatic discard (highest-count
resources first, then territory cards) and the wildcard (the kind the bank has
most of). Every other decision gets the closest workable default of R13, each
a legal move chosen by a published rule, never at random: a timeout must not
depend on a seed, and it should change the game as little as it can.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from boardlab.core import Move

from .abilities import convert_targets, expansion_cells
from .actions import town_site_reason
from .cards import CARD_NUMBER, KIND_POINTS, NUMBER_WAYS, SWAP, TOWN, Resources
from .geometry import Point, cell_corners, cells_around
from .moves import (
    END_TURN,
    REJECT,
    Build,
    ConvertTo,
    Counter,
    Destroy,
    Discard,
    Offer,
    Pay,
    PlaceCard,
    SwapCard,
    Wild,
)
from .phases import (
    ABILITY_PAY,
    ABILITY_PLACE,
    CONVERT_TARGET,
    COUNTER_PROPOSE,
    COUNTER_RESPOND,
    MAIN,
    PROPOSE,
    RAID_TARGET,
    RESPOND,
    SETUP,
)
from .trades import proposal_moves

if TYPE_CHECKING:
    from .state import TerritoriesState


def default_move(state: TerritoriesState) -> Move | None:
    """The move R13 makes for the player to move; None at chance and terminal nodes."""
    if state.current_player() < 0:
        return None
    phase = state.phase
    if phase >= MAIN and state.discards_owed:
        return default_discard(state)
    if phase >= SETUP and state.wild_owed:  # Temple wildcards, or P2's starting resources (R3.4)
        return default_wildcards(state)
    if phase == SETUP:
        return Build(TOWN, most_productive_site(state))
    if phase == MAIN:
        return END_TURN
    if phase in (RESPOND, COUNTER_RESPOND):
        return REJECT
    if phase == PROPOSE:
        return proposal_moves(state, state.active, Offer)[0]
    if phase == COUNTER_PROPOSE:
        return proposal_moves(state, 1 - state.active, Counter)[0]
    if phase == ABILITY_PAY:
        return Pay(largest_first(state.res[state.active], state.die))
    if phase == ABILITY_PLACE:
        return default_placement(state)
    if phase == RAID_TARGET:
        return Destroy(first_in_reading_order(
            point for point, (owner, kind) in state.buildings.items() if owner != state.active and kind == TOWN
        ))
    if phase == CONVERT_TARGET:
        return default_conversion(state)
    raise AssertionError(f"no decision in phase {phase}")


def largest_first(holding: Sequence[int], count: int) -> Resources:
    """``count`` resources taken one at a time from the kind held most, ties in H, S, C, D order
    (R13.3); ``count`` must not exceed the holding."""
    left = list(holding)
    taken = [0, 0, 0, 0]
    for _ in range(count):
        suit = max(range(4), key=lambda s: (left[s], -s))
        left[suit] -= 1
        taken[suit] += 1
    return (taken[0], taken[1], taken[2], taken[3])


def default_discard(state: TerritoriesState) -> Discard:
    """R13.3: resources the player holds most of first, then territory cards in hand order."""
    seat, owed = state.discards_owed[0]
    resources = min(owed, sum(state.res[seat]))
    cards = tuple(state.hands[seat][: owed - resources])
    return Discard(state.label(seat), largest_first(state.res[seat], resources), cards)


def default_wildcards(state: TerritoriesState) -> Wild:
    """R13.4: each wildcard in turn is the kind the bank then holds most of (ties H, S, C, D)."""
    seat, owed = state.wild_owed[0]
    count = min(owed, sum(state.bank))
    return Wild(state.label(seat), largest_first(state.bank, count))


def most_productive_site(state: TerritoriesState) -> Point:
    """R13.5: the free intersection whose touching cards are rolled most often (the sum of their
    chances), ties to the first in reading order."""
    best: Point | None = None
    best_ways = -1
    for point in state.intersection_points():  # in reading order
        if town_site_reason(state, point) is not None:
            continue
        ways = sum(
            NUMBER_WAYS[CARD_NUMBER[state.grid[cell]]]
            for cell in cells_around(point) if cell in state.grid
        )
        if ways > best_ways:
            best, best_ways = point, ways
    assert best is not None, "setup always has a free intersection"
    return best


def default_placement(state: TerritoriesState) -> Move:
    """R13.6: the first card of the hand; a Swap takes the first grid cell (reading order) with no
    building on its corners, else the first cell; an Expand the first allowed empty cell."""
    card = state.hands[state.active][0]
    if state.ability == SWAP:
        cells = sorted(state.grid, key=lambda cell: (cell[1], cell[0]))
        unbuilt = [cell for cell in cells if not any(p in state.buildings for p in cell_corners(cell))]
        return SwapCard((unbuilt or cells)[0], card)
    return PlaceCard(expansion_cells(state)[0], card)


def default_conversion(state: TerritoriesState) -> ConvertTo:
    """R13.7: the first target in reading order, replaced by the piece worth the most points."""
    targets = convert_targets(state, state.active)
    point = first_in_reading_order(p for p, _ in targets)
    kind = max((k for p, k in targets if p == point), key=lambda k: (KIND_POINTS[k], -k))
    return ConvertTo(point, kind)


def first_in_reading_order(points: Iterable[Point]) -> Point:
    """The point of the top row, leftmost first (rows y, then columns x)."""
    return min(points, key=lambda point: (point[1], point[0]))

