"""The hot paths of Territories as flat, typed functions: compiled with mypyc where the build can,
run as they are otherwise, with the same results bit for bit (rules: docs/rules/territories.md).

Random play and search spend their time listing the MAIN decision (Town sites, upgrades, bank
trades, abilities), in production, and in the evaluation at the search's leaves. Those live here
over the state's own containers, passed in: the grid ``{cell: card}``, the buildings
``{point: (owner, kind)}``, resources and supplies as lists of ints. The rule modules
(:mod:`.actions`, :mod:`.abilities`, :mod:`.trades`, :mod:`.production`, :mod:`.evaluation`)
call them and keep the reasons a move is refused.

Moves come from tables made once (a point's six builds, the bank trades by what they give), so
listing a decision builds no move objects. Floats are summed in the order the rules' prose
gives, and sets are iterated as Python sets: compiled and pure evaluations agree exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations
from typing import Final

from boardlab.core import Move

from .cards import (
    ABILITY_KIND,
    CARD_NUMBER,
    CARD_SUIT,
    KIND_POINTS,
    KIND_TIER,
    START_SUPPLY,
    UPGRADE_COST,
)
from .moves import (
    BUY_TERRITORY,
    END_TURN,
    PROPOSE_TRADE,
    Announce,
    BankTrade,
    Build,
    Discard,
    Pay,
    PlaceCard,
    SwapCard,
)

#: a cell (column, row) or an intersection (x, y), as :mod:`.geometry` names them
Coord = tuple[int, int]
Grid = dict[Coord, int]
#: point -> (owner seat, building kind)
Buildings = dict[Coord, tuple[int, int]]
#: intersection -> the cards touching it (:func:`touching_table`)
Touching = dict[Coord, list[int]]
#: four resource counts in H, S, C, D order
Amounts = tuple[int, int, int, int]

# Building kinds and abilities as :mod:`.cards` numbers them, written out so that the compiler
# inlines them (a test checks that they agree).
TOWN: Final = 0
FORT: Final = 1
TEMPLE: Final = 3
PALACE: Final = 4
CAPITAL: Final = 5
SWAP: Final = 0
RAID: Final = 1
EXPAND: Final = 3
_BUY_TERRITORY: Final = BUY_TERRITORY
_PROPOSE_TRADE: Final = PROPOSE_TRADE
_END_TURN: Final = END_TURN
#: the four cells sharing a side with a cell, as column and row steps
_SIDE_COLUMN: Final[tuple[int, ...]] = (1, -1, 0, 0)
_SIDE_ROW: Final[tuple[int, ...]] = (0, 0, 1, -1)
#: the option ability_limit as an int, for :func:`may_announce` (its index in ABILITY_LIMITS)
PER_ABILITY: Final = 0
PER_BUILDING: Final = 1
UNLIMITED: Final = 2
ABILITY_LIMITS: Final[tuple[str, ...]] = ("per_ability_per_turn", "per_building_per_turn", "unlimited")

_CARD_SUIT: Final[tuple[int, ...]] = CARD_SUIT
_CARD_NUMBER: Final[tuple[int, ...]] = CARD_NUMBER
_KIND_POINTS: Final[tuple[int, ...]] = KIND_POINTS
_START_SUPPLY: Final[tuple[int, ...]] = START_SUPPLY
#: by kind: the suit of which four upgrade a Town to it (R6.2); -1 for Town and Capital
_UPGRADE_SUIT: Final[tuple[int, ...]] = tuple(
    UPGRADE_COST[kind].index(4) if kind in UPGRADE_COST else -1 for kind in range(6)
)
_ABILITY_KIND: Final[tuple[int, ...]] = ABILITY_KIND
_KIND_TIER: Final[tuple[int, ...]] = KIND_TIER
#: chance that two dice roll each card number (index 0..12; 7 and below 2 never name a card)
NUMBER_CHANCE: Final[tuple[float, ...]] = tuple(
    (6 - abs(n - 7)) / 36 if 2 <= n <= 12 and n != 7 else 0.0 for n in range(13)
)

# The evaluation's weights (what it counts: :mod:`.evaluation`).
#: rolls of income counted as already earned (about the time a build takes to save for)
INCOME_ROLLS: Final = 12.0
#: point value of one resource: a Town costs 4 for 1 point, an upgrade 4 for +1
RESOURCE_VALUE: Final = 0.25
#: a resource beyond the 4 of a kind any single build needs is worth less
SURPLUS_VALUE: Final = 0.1
TERRITORY_VALUE: Final = 0.35
READINESS_VALUE: Final = 0.75
SEVEN_CHANCE: Final = 1 / 6


# --- move tables ------------------------------------------------------------------------------
_ANNOUNCES: Final[tuple[Move, ...]] = tuple(Announce(ability) for ability in range(4))
#: each point's builds by kind, made on first use (points are few, even as Expand grows the grid)
_BUILDS: Final[dict[Coord, tuple[Move, ...]]] = {}
#: bank trades by (the given amounts in base 5) * 5 + what is bought, made on first use
_BANK_TRADES: Final[dict[int, Move]] = {}
#: Swap's and Expand's placements by cell, then by card, made on first use
_SWAPS: Final[dict[Coord, list[Move | None]]] = {}
_PLACES: Final[dict[Coord, list[Move | None]]] = {}
#: the payments after an ability's d6 (at most 6 of a suit) by the amounts in base 7, made on first use
_PAYS: Final[dict[int, Move]] = {}
#: discards by (label, amounts, cards), made on first use; started again when this many are kept
_DISCARDS: Final[dict[tuple[int, Amounts, tuple[int, ...]], Move]] = {}
DISCARDS_KEPT: Final = 100_000


def touching_cards(x: int, y: int, grid: Grid) -> list[int]:
    """The cards of the grid cells having (x, y) as a corner, in (y, x) order of the cells (R2.2)."""
    cards: list[int] = []
    card = grid.get((x - 1, y - 1), -1)
    if card >= 0:
        cards.append(card)
    card = grid.get((x, y - 1), -1)
    if card >= 0:
        cards.append(card)
    card = grid.get((x - 1, y), -1)
    if card >= 0:
        cards.append(card)
    card = grid.get((x, y), -1)
    if card >= 0:
        cards.append(card)
    return cards


def touching_table(grid: Grid, intersections: list[Coord]) -> Touching:
    """Each intersection's :func:`touching_cards`."""
    return {point: touching_cards(point[0], point[1], grid) for point in intersections}


def builds_at(point: Coord) -> tuple[Move, ...]:
    """The six builds (Town .. Capital, by kind) at ``point``, one object each per process."""
    made = _BUILDS.get(point)
    if made is None:
        made = _BUILDS[point] = tuple(Build(kind, point) for kind in range(6))
    return made


def bank_trade(give: Amounts, target: int) -> Move:
    """The bank trade giving ``give`` (each count at most 4) for ``target`` (a suit or BUY_TERRITORY)."""
    key = (((give[0] * 5 + give[1]) * 5 + give[2]) * 5 + give[3]) * 5 + target
    move = _BANK_TRADES.get(key)
    if move is None:
        move = _BANK_TRADES[key] = BankTrade(give, target)
    return move


def cell_card_moves(cells: list[Coord], hand: list[int], swap: bool) -> list[Move]:
    """Each of ``cells`` with each ``hand`` card: Swap's exchanges (R7.2) when ``swap``, else
    Expand's placements (R7.5)."""
    table = _SWAPS if swap else _PLACES
    moves: list[Move] = []
    for cell in cells:
        made = table.get(cell)
        if made is None:
            made = table[cell] = [None] * len(_CARD_SUIT)
        for card in hand:
            move = made[card]
            if move is None:
                move = made[card] = SwapCard(cell, card) if swap else PlaceCard(cell, card)
            moves.append(move)
    return moves


def payments(die: int, hold: list[int]) -> list[Move]:
    """Every payment of ``die`` resources from ``hold`` after a Swap's or an Expand's d6 (R7.2, R7.5)."""
    moves: list[Move] = []
    for amounts in multisets(die, hold[0], hold[1], hold[2], hold[3]):
        key = ((amounts[0] * 7 + amounts[1]) * 7 + amounts[2]) * 7 + amounts[3]
        move = _PAYS.get(key)
        if move is None:
            move = _PAYS[key] = Pay(amounts)
        moves.append(move)
    return moves


def discard(label: int, amounts: Amounts, cards: tuple[int, ...]) -> Move:
    """The discard of ``amounts`` and ``cards`` by the player labelled ``label`` (R5.2)."""
    key = (label, amounts, cards)
    move = _DISCARDS.get(key)
    if move is None:
        if len(_DISCARDS) >= DISCARDS_KEPT:
            _DISCARDS.clear()
        move = _DISCARDS[key] = Discard(label, amounts, cards)
    return move


# --- counting ---------------------------------------------------------------------------------
def covers(hold: list[int], h: int, s: int, c: int, d: int) -> bool:
    """Whether ``hold`` has at least h, s, c, d of the four suits."""
    return hold[0] >= h and hold[1] >= s and hold[2] >= c and hold[3] >= d


def points(supply: list[int]) -> int:
    """A seat's points: what its buildings on the board are worth (R9.1)."""
    total = 0
    for kind in range(6):
        total += (_START_SUPPLY[kind] - supply[kind]) * _KIND_POINTS[kind]
    return total


def target_reached(supply: list[list[int]], active: int, target: int) -> int:
    """The seat with ``target`` points or more, the actor checked first (R9.1); -1 for none."""
    if points(supply[active]) >= target:
        return active
    if points(supply[1 - active]) >= target:
        return 1 - active
    return -1


def multisets(size: int, l0: int, l1: int, l2: int, l3: int) -> list[Amounts]:
    """Every 4-tuple of counts summing to ``size`` with counts at most l0..l3, more H first, then
    more S, then more C. Cost: at most C(size + 3, 3) tuples (165 for size 8)."""
    found: list[Amounts] = []
    if size < 0 or size > l0 + l1 + l2 + l3:
        return found
    for h in range(min(l0, size), -1, -1):
        rest_h = size - h
        for s in range(min(l1, rest_h), -1, -1):
            rest_s = rest_h - s
            for c in range(min(l2, rest_s), -1, -1):
                d = rest_s - c
                if d <= l3:
                    found.append((h, s, c, d))
    return found


# --- geometry (R2) ----------------------------------------------------------------------------
def is_town_site(x: int, y: int, grid: Grid, buildings: Buildings, distance_rule: bool) -> bool:
    """Whether a Town may go on (x, y) (R6.1), cost and supply aside: an empty intersection and,
    with the distance rule, no building at the other end of a card side from it."""
    up_left = (x - 1, y - 1) in grid
    up_right = (x, y - 1) in grid
    down_left = (x - 1, y) in grid
    down_right = (x, y) in grid
    if not (up_left or up_right or down_left or down_right) or (x, y) in buildings:
        return False
    if distance_rule:
        if (up_right or down_right) and (x + 1, y) in buildings:
            return False
        if (up_left or down_left) and (x - 1, y) in buildings:
            return False
        if (down_left or down_right) and (x, y + 1) in buildings:
            return False
        if (up_left or up_right) and (x, y - 1) in buildings:
            return False
    return True


def town_builds(intersections: list[Coord], grid: Grid, buildings: Buildings, distance_rule: bool) -> list[Move]:
    """A Town on every site among ``intersections`` (every corner of a grid card), in their order (R6.1)."""
    moves: list[Move] = []
    for point in intersections:
        if point in buildings:
            continue
        if distance_rule and not is_town_site(point[0], point[1], grid, buildings, True):
            continue
        moves.append(builds_at(point)[TOWN])
    return moves


def shares_card(ax: int, ay: int, bx: int, by: int, grid: Grid) -> bool:
    """Whether some grid card has both (ax, ay) and (bx, by) as corners (R2.3)."""
    dx = bx - ax
    dy = by - ay
    if (dx == 0 and dy == 0) or dx > 1 or dx < -1 or dy > 1 or dy < -1:
        return False
    x = min(ax, bx)
    y = min(ay, by)
    if dx and dy:
        return (x, y) in grid
    if dy == 0:
        return (x, ay - 1) in grid or (x, ay) in grid
    return (ax - 1, y) in grid or (ax, y) in grid


def _row_major(cell: Coord) -> Coord:
    return (cell[1], cell[0])


def grid_cells(grid: Grid) -> list[Coord]:
    """The grid's cells by row, then column."""
    return sorted(grid, key=_row_major)


def _expansions(grid: Grid, max_extent: Coord | None, first_only: bool) -> set[Coord]:
    """The empty cells sharing a side with a grid card that keep the grid's bounding box within
    ``max_extent`` (any size when None); only the first found when ``first_only``."""
    lo_c = hi_c = lo_r = hi_r = 0
    if max_extent is not None and grid:
        lo_c = min(c for c, _ in grid)
        hi_c = max(c for c, _ in grid)
        lo_r = min(r for _, r in grid)
        hi_r = max(r for _, r in grid)
    found: set[Coord] = set()
    for c, r in grid:
        for side in range(4):
            cell = (c + _SIDE_COLUMN[side], r + _SIDE_ROW[side])
            if cell in grid or (max_extent is not None and (
                max(hi_c, cell[0]) - min(lo_c, cell[0]) + 1 > max_extent[0]
                or max(hi_r, cell[1]) - min(lo_r, cell[1]) + 1 > max_extent[1]
            )):
                continue
            found.add(cell)
            if first_only:
                return found
    return found


def expansion_cells(grid: Grid, max_extent: Coord | None) -> list[Coord]:
    """Empty cells sharing a side with a grid card (R7.5), sorted by (r, c); with
    ``max_extent = (width, height)`` only those that keep the grid's bounding box within it."""
    return sorted(_expansions(grid, max_extent, False), key=_row_major)


def can_expand(grid: Grid, max_extent: Coord | None) -> bool:
    """Whether :func:`expansion_cells` holds any cell, without listing them."""
    return bool(_expansions(grid, max_extent, True))


# --- the MAIN decision (R6, R7, R8.1) ---------------------------------------------------------
def build_moves(
    seat: int, hold: list[int], supply: list[int], buildings: Buildings, grid: Grid,
    intersections: list[Coord], distance_rule: bool,
) -> list[Move]:
    """Towns on every site, then upgrades and Capitals on the seat's buildings by point (R6)."""
    moves: list[Move] = []
    if supply[TOWN] and covers(hold, 1, 1, 1, 1):
        moves = town_builds(intersections, grid, buildings, distance_rule)
    upgrades: list[int] = []
    for kind in range(FORT, PALACE + 1):
        if supply[kind] and hold[_UPGRADE_SUIT[kind]] >= 4:
            upgrades.append(kind)
    capital_ok = supply[CAPITAL] > 0 and covers(hold, 2, 2, 2, 2)
    if upgrades or capital_ok:
        for point in sorted(buildings):
            owner, kind = buildings[point]
            if owner != seat:
                continue
            if kind == TOWN:
                made = builds_at(point)
                for upgrade in upgrades:
                    moves.append(made[upgrade])
            elif kind != CAPITAL and capital_ok:
                moves.append(builds_at(point)[CAPITAL])
    return moves


def bank_trade_moves(hold: list[int], bank: list[int], mixed: bool, pile: bool) -> list[Move]:
    """The 4:1 trades (R8.1): by what is given, then a resource the bank holds, then a card
    from the pile when ``pile`` (a draw is possible)."""
    moves: list[Move] = []
    if hold[0] + hold[1] + hold[2] + hold[3] < 4:
        return moves
    gives: list[Amounts]
    if mixed:
        gives = multisets(4, hold[0], hold[1], hold[2], hold[3])
    else:
        gives = []
        for suit in range(4):
            if hold[suit] >= 4:
                gives.append((4 if suit == 0 else 0, 4 if suit == 1 else 0, 4 if suit == 2 else 0, 4 if suit == 3 else 0))
    for give in gives:
        for target in range(4):
            if not give[target] and bank[target]:
                moves.append(bank_trade(give, target))
        if pile:
            moves.append(bank_trade(give, _BUY_TERRITORY))
    return moves


def can_propose(mine: list[int], theirs: list[int]) -> bool:
    """Whether resources alone make a proposal: each side something its giver holds, and not
    only the one same kind on both (R8.2)."""
    given = 0
    wanted = 0
    given_count = 0
    for suit in range(4):
        if mine[suit]:
            given |= 1 << suit
            given_count += 1
        if theirs[suit]:
            wanted |= 1 << suit
    return bool(given and wanted) and not (given_count == 1 and given == wanted)


def eligible_buildings(seat: int, ability: int, buildings: Buildings) -> int:
    """How many of ``seat``'s buildings grant ``ability`` (its tier-2 kind or the Capital)."""
    kind = _ABILITY_KIND[ability]
    count = 0
    for owner, k in buildings.values():
        if owner == seat and (k == kind or k == CAPITAL):
            count += 1
    return count


def convert_targets(seat: int, buildings: Buildings, grid: Grid, supply: list[int]) -> list[tuple[Coord, int]]:
    """(point, replacement kind) pairs a won Convert may choose (R7.4), sorted: an opponent
    building sharing a card with the seat's Temple or Capital, and a piece of the seat's supply of
    the same kind or a lower tier."""
    sources: list[Coord] = []
    for point, (owner, kind) in buildings.items():
        if owner == seat and (kind == TEMPLE or kind == CAPITAL):
            sources.append(point)
    found: list[tuple[Coord, int]] = []
    for point, (owner, kind) in buildings.items():
        if owner == seat:
            continue
        near = False
        for source in sources:
            if shares_card(point[0], point[1], source[0], source[1], grid):
                near = True
                break
        if not near:
            continue
        for replacement in range(6):
            if supply[replacement] and (replacement == kind or _KIND_TIER[replacement] < _KIND_TIER[kind]):
                found.append((point, replacement))
    found.sort()
    return found


def may_announce(
    ability: int, seat: int, hold: list[int], hand_size: int, used: int, limit: int,
    buildings: Buildings, grid: Grid, supply: list[int], max_extent: Coord | None,
) -> bool:
    """Whether the active ``seat`` may announce ``ability`` now (R7.1 - R7.5); the reasons are
    :func:`.abilities.announce_reason`'s."""
    owned = eligible_buildings(seat, ability, buildings)
    if owned == 0:
        return False
    if (limit == PER_ABILITY and used >= 1) or (limit == PER_BUILDING and used >= owned):
        return False
    if ability == SWAP or ability == EXPAND:
        if hand_size == 0:
            return False
        if limit == UNLIMITED and hold[0] + hold[1] + hold[2] + hold[3] == 0:
            return False
        return ability == SWAP or can_expand(grid, max_extent)
    if not covers(hold, 1, 1, 1, 1):
        return False
    if ability == RAID:
        for owner, kind in buildings.values():
            if owner != seat and kind == TOWN:
                return True
        return False
    return len(convert_targets(seat, buildings, grid, supply)) > 0


def main_moves(
    seat: int, res: list[list[int]], supply: list[int], bank: list[int], buildings: Buildings, grid: Grid,
    intersections: list[Coord], hand_size: int, used: tuple[int, ...], may_propose: bool, pile: bool,
    distance_rule: bool, mixed_bank_trade: bool, limit: int, max_extent: Coord | None,
) -> list[Move]:
    """The active player's MAIN decision (R4.1): builds, bank trades, the announcement of a
    proposal when ``may_propose``, the abilities, and the end of the turn, in that order."""
    hold = res[seat]
    moves = build_moves(seat, hold, supply, buildings, grid, intersections, distance_rule)
    moves.extend(bank_trade_moves(hold, bank, mixed_bank_trade, pile))
    if may_propose:
        moves.append(_PROPOSE_TRADE)
    for ability in range(4):
        if may_announce(ability, seat, hold, hand_size, used[ability], limit, buildings, grid, supply, max_extent):
            moves.append(_ANNOUNCES[ability])
    moves.append(_END_TURN)
    return moves


def discard_moves(label: int, owed: int, hand: list[int], hold: list[int]) -> list[Move]:
    """Every distinct discard of ``owed`` cards (R5.2): ``hand`` cards (empty when only resources
    count) with a resource multiset, fewer hand cards first. Cost: can be large for big hands."""
    moves: list[Move] = []
    for count in range(min(owed, len(hand)) + 1):
        resource_part = multisets(owed - count, hold[0], hold[1], hold[2], hold[3])
        if not resource_part:
            continue
        for cards in combinations(hand, count):
            for amounts in resource_part:
                moves.append(discard(label, amounts, cards))
    return moves


# --- player proposals (R8.2 - R8.4) ---------------------------------------------------------
#: one side of a proposal: (mask of the resource kinds on it, resources, territory cards, a key
#: unique among sides: the resources in base 14, then the card + 1 or 0 in base 41)
Side = tuple[int, Amounts, tuple[int, ...], int]
#: the sides of holdings met so far; started again when this many are kept
_SIDES: Final[dict[tuple[Amounts, tuple[int, ...]], list[Side]]] = {}
SIDES_KEPT: Final = 4096


def proposal_sides(holding: Amounts, cards: tuple[int, ...]) -> list[Side]:
    """Every non-empty side drawn from ``holding`` and at most one of ``cards``: fewer resources
    first (of one size, more H first, then more S, then more C), each resource part alone
    and then with each card. Each side comes with its resource mask and its key."""
    key = (holding, cards)
    sides = _SIDES.get(key)
    if sides is not None:
        return sides
    card_parts: list[tuple[int, ...]] = [()]
    for card in cards:
        card_parts.append((card,))
    sides = []
    h0, h1, h2, h3 = holding
    for size in range(h0 + h1 + h2 + h3 + 1):
        for amounts in multisets(size, h0, h1, h2, h3):
            h, s, c, d = amounts
            mask = (h > 0) | (s > 0) << 1 | (c > 0) << 2 | (d > 0) << 3
            resource_key = (((h * 14 + s) * 14 + c) * 14 + d) * 41
            for part in card_parts:
                if mask or part:
                    sides.append((mask, amounts, part, resource_key + (part[0] + 1 if part else 0)))
    if len(_SIDES) >= SIDES_KEPT:
        _SIDES.clear()
    _SIDES[key] = sides
    return sides


def proposals(
    by_give: dict[int, dict[int, Move]], make: Callable[[Amounts, tuple[int, ...], Amounts, tuple[int, ...]], Move],
    mine: Amounts, theirs: Amounts, own_cards: tuple[int, ...], their_cards: tuple[int, ...],
) -> tuple[list[Move], int]:
    """Every proposal giving from ``mine`` (+ one of ``own_cards``) for ``theirs`` (+ one of
    ``their_cards``), both sides non-empty and no resource kind on both (R8.2, R8.4), by the
    given side, then the wanted side; and how many were new. Proposals already in ``by_give``
    (by the keys of their given and wanted sides) are reused, new ones made by ``make`` and kept."""
    wanted_by_mask: dict[int, list[Side]] = {}
    found: list[Move] = []
    new = 0
    for mask, give, give_cards, give_key in proposal_sides(mine, own_cards):
        wanted = wanted_by_mask.get(mask)
        if wanted is None:
            askable = (
                0 if mask & 1 else theirs[0], 0 if mask & 2 else theirs[1],
                0 if mask & 4 else theirs[2], 0 if mask & 8 else theirs[3],
            )
            wanted = wanted_by_mask[mask] = proposal_sides(askable, their_cards)
        made = by_give.get(give_key)
        if made is None:
            made = by_give[give_key] = {}
        for _, get, get_cards, get_key in wanted:
            proposal = made.get(get_key)
            if proposal is None:
                proposal = made[get_key] = make(give, give_cards, get, get_cards)
                new += 1
            found.append(proposal)
    return found, new


# --- production (R4) --------------------------------------------------------------------------
def production_claims(
    touching_by_point: Touching, buildings: Buildings, active: int, total: int,
    production_all: bool, capital_per_match: bool, capital_per_suit: bool,
) -> tuple[list[list[int]], list[int], list[int]]:
    """What each seat is owed for a roll of ``total`` before the bank is consulted: fixed claims
    per seat per suit, wildcards per seat, territory cards per seat. ``touching_by_point`` is
    :func:`touching_table` of the grid. Cost: O(buildings)."""
    claims = [[0, 0, 0, 0], [0, 0, 0, 0]]
    wild = [0, 0]
    cards = [0, 0]
    for point, (owner, kind) in buildings.items():
        if not production_all and owner != active:
            continue
        touching = touching_by_point[point]
        matches = 0
        for card in touching:
            if _CARD_NUMBER[card] == total:
                matches += 1
        if not matches:
            continue
        claim = claims[owner]
        if kind == CAPITAL:
            triggers = matches if capital_per_match else 1
            if capital_per_suit:
                suits: set[int] = set()
                for card in touching:
                    suits.add(_CARD_SUIT[card])
                for suit in suits:
                    claim[suit] += triggers
            else:
                for card in touching:
                    claim[_CARD_SUIT[card]] += triggers
            cards[owner] += triggers
        elif kind == TEMPLE:
            wild[owner] += matches
        else:
            amount = 2 if kind == PALACE else 1
            for card in touching:
                if _CARD_NUMBER[card] == total:
                    claim[_CARD_SUIT[card]] += amount
    return claims, wild, cards


def pay_production(
    claims: list[list[int]], res: list[list[int]], bank: list[int], roller: int, roller_first: bool
) -> None:
    """Pay the fixed claims from the bank under the shortage rule (R4.5)."""
    other = 1 - roller
    for suit in range(4):
        mine = claims[roller][suit]
        theirs = claims[other][suit]
        if mine + theirs == 0:
            continue
        left = bank[suit]
        if mine + theirs <= left:
            paid_mine, paid_theirs = mine, theirs
        elif roller_first:
            paid_mine = min(mine, left)
            paid_theirs = min(theirs, left - paid_mine)
        elif mine == 0 or theirs == 0:
            # only one claimant: they get what is left (R4.5)
            paid_mine, paid_theirs = min(mine, left), min(theirs, left)
        else:
            paid_mine = paid_theirs = 0  # both claim a short suit: nobody gets it (R4.5)
        res[roller][suit] += paid_mine
        res[other][suit] += paid_theirs
        bank[suit] = left - paid_mine - paid_theirs


# --- evaluation ---------------------------------------------------------------------------------
def expected_incomes(buildings: Buildings, touching_by_point: Touching, capital_per_suit: bool) -> list[list[float]]:
    """Expected resources per roll by suit for each seat (wildcards spread evenly), ignoring
    shortage. Cost: O(buildings)."""
    incomes = [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    for point, (owner, kind) in buildings.items():
        income = incomes[owner]
        touching = touching_by_point[point]
        if kind == CAPITAL:
            numbers: set[int] = set()
            for card in touching:
                numbers.add(_CARD_NUMBER[card])
            chance = 0.0
            for number in numbers:  # a set's order, as the prose's sum over the set
                chance += NUMBER_CHANCE[number]
            if capital_per_suit:
                suits: set[int] = set()
                for card in touching:
                    suits.add(_CARD_SUIT[card])
                for suit in suits:
                    income[suit] += chance
            else:
                for card in set(touching):
                    income[_CARD_SUIT[card]] += chance
            continue
        for card in touching:
            chance = NUMBER_CHANCE[_CARD_NUMBER[card]]
            if kind == TEMPLE:
                for suit in range(4):
                    income[suit] += chance / 4
            else:
                income[_CARD_SUIT[card]] += chance * (2 if kind == PALACE else 1)
    return incomes


def owned_kinds(buildings: Buildings) -> list[int]:
    """Which kinds of building each seat holds that :func:`readiness` asks about: bit 0 a
    Town, bit 1 a building of the second tier (neither a Town nor a Capital)."""
    held = [0, 0]
    for owner, kind in buildings.values():
        if kind == TOWN:
            held[owner] |= 1
        elif kind != CAPITAL:
            held[owner] |= 2
    return held


def readiness(hold: list[int], supply: list[int], held: int) -> float:
    """How much of the cheapest-to-finish build ``hold`` already covers, 0..1 (``held``: the
    seat's :func:`owned_kinds`)."""
    best = 0.0
    if supply[TOWN]:
        best = ((hold[0] > 0) + (hold[1] > 0) + (hold[2] > 0) + (hold[3] > 0)) / 4
    has_town = bool(held & 1)
    has_tier_two = bool(held & 2)
    if has_town:
        for kind in range(FORT, PALACE + 1):
            if supply[kind]:
                best = max(best, min(hold[_UPGRADE_SUIT[kind]], 4) / 4)
    if supply[CAPITAL] and has_tier_two:
        best = max(best, (min(hold[0], 2) + min(hold[1], 2) + min(hold[2], 2) + min(hold[3], 2)) / 8)
    return best


class BuildingSummary:
    """What the buildings give each seat, for the evaluation: the sum of its expected income
    per roll (:func:`expected_incomes`) and :func:`owned_kinds`. Worked out once per buildings
    and touching tables: a move that builds replaces the first, a Swap or an Expand the second,
    and neither is changed in place (the state's promise, :mod:`.state`), so a search's leaves,
    most of which differ from their parent in hands and turn only, share it."""

    __slots__ = ("buildings", "capital_per_suit", "held", "income", "touching")

    def __init__(self, buildings: Buildings, touching_by_point: Touching, capital_per_suit: bool) -> None:
        self.buildings = buildings
        self.touching = touching_by_point
        self.capital_per_suit = capital_per_suit
        self.income: list[float] = []
        for by_suit in expected_incomes(buildings, touching_by_point, capital_per_suit):
            income = 0.0
            for value in by_suit:
                income += value
            self.income.append(income)
        self.held = owned_kinds(buildings)


#: summaries by the identities of their buildings and touching tables (a Swap replaces the
#: second alone); each holds its tables, so an identity is never reused while its entry lives.
#: Emptied when full: a search makes a few new tables a decision, and a table of an earlier
#: decision is rarely met again.
_SUMMARIES: Final[dict[int, BuildingSummary]] = {}
SUMMARIES_KEPT: Final = 512


def building_summary(buildings: Buildings, touching_by_point: Touching, capital_per_suit: bool) -> BuildingSummary:
    """The :class:`BuildingSummary` of these tables (kept, or worked out and kept)."""
    key = id(buildings) ^ (id(touching_by_point) << 1)
    found = _SUMMARIES.get(key)
    if (
        found is not None
        and found.buildings is buildings
        and found.touching is touching_by_point
        and found.capital_per_suit == capital_per_suit
    ):
        return found
    if len(_SUMMARIES) >= SUMMARIES_KEPT:
        _SUMMARIES.clear()
    summary = BuildingSummary(buildings, touching_by_point, capital_per_suit)
    _SUMMARIES[key] = summary
    return summary


def strength(
    seat: int, hold: list[int], territories: int, supply: list[int], summary: BuildingSummary,
    limit_counts_territories: bool, hand_limit: int,
) -> float:
    """Points-equivalent strength of ``seat`` holding ``hold`` and ``territories`` cards."""
    in_hand = 0.0
    for count in hold:
        in_hand += min(count, 4) * RESOURCE_VALUE + max(0, count - 4) * SURPLUS_VALUE
    income = summary.income[seat] * INCOME_ROLLS * RESOURCE_VALUE
    hand_size = hold[0] + hold[1] + hold[2] + hold[3] + (territories if limit_counts_territories else 0)
    over = max(0, hand_size - hand_limit)
    seven_risk = SEVEN_CHANCE * (over / 2 + 1) * RESOURCE_VALUE if over else 0.0
    return (
        points(supply)
        + income
        + in_hand
        + TERRITORY_VALUE * territories
        + READINESS_VALUE * readiness(hold, supply, summary.held[seat])
        - seven_risk
    )


def estimate(
    holds: list[list[int]], territories: list[int], supply: list[list[int]], buildings: Buildings, touching_by_point: Touching,
    limit_counts_territories: bool, hand_limit: int, capital_per_suit: bool, target: int,
) -> list[float]:
    """Estimated returns of the two seats with these holdings: a logistic of their strengths'
    difference, sharper as the leader nears the target."""
    summary = building_summary(buildings, touching_by_point, capital_per_suit)
    mine = strength(0, holds[0], territories[0], supply[0], summary, limit_counts_territories, hand_limit)
    theirs = strength(1, holds[1], territories[1], supply[1], summary, limit_counts_territories, hand_limit)
    sharpness = 0.5 + max(points(supply[0]), points(supply[1])) / target
    x = (mine - theirs) * sharpness / 3.0
    if x > 30:
        return [1.0, 0.0]
    if x < -30:
        return [0.0, 1.0]
    p = 1.0 / (1.0 + math.exp(-x))
    return [p, 1.0 - p]


# --- the fitted evaluation's terms (evaluation.py names them) ---------------------------------
#: terms per seat, in the order of :func:`terms`
TERMS_PER_SEAT: Final = 11


def _seat_terms(
    values: list[float], seat: int, hold: list[int], territories: int, supply: list[int], summary: BuildingSummary,
    limit_counts_territories: bool, hand_limit: int, progress: float, active: int,
) -> None:
    in_hand = 0
    surplus = 0
    for count in hold:
        in_hand += min(count, 4)
        surplus += max(0, count - 4)
    income = summary.income[seat]
    hand_size = hold[0] + hold[1] + hold[2] + hold[3] + (territories if limit_counts_territories else 0)
    on_board = float(points(supply))
    values.append(on_board)
    values.append(on_board * progress)
    values.append(income)
    values.append(income * progress)
    values.append(float(in_hand))
    values.append(in_hand * progress)
    values.append(float(surplus))
    values.append(float(territories))
    values.append(readiness(hold, supply, summary.held[seat]))
    values.append(float(max(0, hand_size - hand_limit)))
    values.append(1.0 if seat == active else 0.0)


def terms(
    holds: list[list[int]], territories: list[int], supply: list[list[int]], buildings: Buildings,
    touching_by_point: Touching, limit_counts_territories: bool, hand_limit: int, capital_per_suit: bool,
    target: int, active: int,
) -> list[float]:
    """Both seats' terms (TERMS_PER_SEAT each, the first seat's first) with these holdings;
    ``active``: the seat whose turn it is."""
    progress = max(points(supply[0]), points(supply[1])) / target
    summary = building_summary(buildings, touching_by_point, capital_per_suit)
    values: list[float] = []
    for seat in range(2):
        _seat_terms(
            values, seat, holds[seat], territories[seat], supply[seat], summary, limit_counts_territories, hand_limit,
            progress, active,
        )
    return values


def fitted_estimate(
    holds: list[list[int]], territories: list[int], supply: list[list[int]], buildings: Buildings,
    touching_by_point: Touching, limit_counts_territories: bool, hand_limit: int, capital_per_suit: bool,
    target: int, active: int, weights: tuple[float, ...], bias: tuple[float, ...], linear: float, square: float,
) -> list[float]:
    """As :func:`estimate`, by fitted ``weights`` (one per term), ``bias`` (one per seat) and
    curve: the logistic curve of the difference z of the two seats' weighted terms, bent to
    linear * z + square * z * |z| / 2 (boardlab.core.fitted)."""
    values = terms(
        holds, territories, supply, buildings, touching_by_point, limit_counts_territories, hand_limit,
        capital_per_suit, target, active,
    )
    lead = bias[0] - bias[1]
    for index in range(TERMS_PER_SEAT):
        lead += weights[index] * (values[index] - values[TERMS_PER_SEAT + index])
    lead = linear * lead + square * lead * abs(lead) / 2.0
    if lead > 30.0:
        return [1.0, 0.0]
    if lead < -30.0:
        return [0.0, 1.0]
    p = 1.0 / (1.0 + math.exp(-lead))
    return [p, 1.0 - p]
