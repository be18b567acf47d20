"""The roll (R4, R5): production for a sum other than 7, discards and a draw on a 7.

Production order (R4.5): fixed yields are paid suit by suit under the shortage
rule, then Temple wildcards are owed (each owner picks a multiset later, roller
first), then the Capitals' territory cards are owed (roller first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CAPITAL, CARD_NUMBER, CARD_SUIT, PALACE, TEMPLE
from .geometry import cells_around

if TYPE_CHECKING:
    from .state import TerritoriesState


def production_claims(
    state: "TerritoriesState", total: int
) -> tuple[list[list[int]], list[int], list[int]]:
    """What each seat is owed for a roll of ``total`` before the bank is consulted.

    Returns (fixed claims per seat per suit, wildcards per seat, territory cards
    per seat). Cost: O(buildings x 4).
    """
    rules = state.rules
    grid = state.grid
    claims = [[0, 0, 0, 0], [0, 0, 0, 0]]
    wild = [0, 0]
    cards = [0, 0]
    producers = (0, 1) if rules.production_all else (state.active,)
    for point, (owner, kind) in state.buildings.items():
        if owner not in producers:
            continue
        touching = [grid[cell] for cell in cells_around(point) if cell in grid]
        matches = [card for card in touching if CARD_NUMBER[card] == total]
        if not matches:
            continue
        if kind == CAPITAL:
            triggers = len(matches) if rules.capital_per_match else 1
            if rules.capital_per_suit:
                suits = {CARD_SUIT[card] for card in touching}
            else:
                suits = None
            for _ in range(triggers):
                if suits is None:
                    for card in touching:
                        claims[owner][CARD_SUIT[card]] += 1
                else:
                    for suit in suits:
                        claims[owner][suit] += 1
            cards[owner] += triggers
        elif kind == TEMPLE:
            wild[owner] += len(matches)
        else:
            amount = 2 if kind == PALACE else 1
            for card in matches:
                claims[owner][CARD_SUIT[card]] += amount
    return claims, wild, cards


def resolve_production(state: "TerritoriesState", total: int) -> None:
    """R4: pay fixed yields under the shortage rule, then owe wildcards and cards."""
    claims, wild, cards = production_claims(state, total)
    bank = state.bank
    roller = state.active
    other = 1 - roller
    for suit in range(4):
        mine, theirs = claims[roller][suit], claims[other][suit]
        if mine + theirs == 0:
            continue
        if mine + theirs <= bank[suit]:
            paid = (mine, theirs)
        elif state.rules.shortage_roller_first:
            first = min(mine, bank[suit])
            paid = (first, min(theirs, bank[suit] - first))
        elif mine == 0 or theirs == 0:
            # only one claimant: they get what is left (R4.5)
            paid = (min(mine, bank[suit]), min(theirs, bank[suit]))
        else:
            paid = (0, 0)  # both claim a short suit: nobody gets it (R4.5)
        state.res[roller][suit] += paid[0]
        state.res[other][suit] += paid[1]
        bank[suit] -= paid[0] + paid[1]
    state.wild_owed = [(seat, wild[seat]) for seat in (roller, other) if wild[seat]]
    state.draws_owed = [roller] * cards[roller] + [other] * cards[other]


def resolve_seven(state: "TerritoriesState") -> None:
    """R5: everyone over the hand limit owes discards (roller first), then the roller draws."""
    limit = state.rules.hand_limit
    roller = state.active
    state.discards_owed = [
        (seat, state.hand_size(seat) - limit)
        for seat in (roller, 1 - roller)
        if state.hand_size(seat) > limit
    ]
    state.draws_owed = [roller]


def expected_income(state: "TerritoriesState", seat: int) -> list[float]:
    """Expected resources per roll by suit for ``seat`` (wildcards spread evenly), ignoring shortage.

    Each number other than 7 comes up with probability (6 - |n - 7|) / 36.
    Used by the evaluation; cost O(buildings x 4).
    """
    grid = state.grid
    income = [0.0, 0.0, 0.0, 0.0]
    rules = state.rules
    for point, (owner, kind) in state.buildings.items():
        if owner != seat:
            continue
        touching = [grid[cell] for cell in cells_around(point) if cell in grid]
        if kind == CAPITAL:
            numbers = {CARD_NUMBER[card] for card in touching}
            chance = sum(NUMBER_CHANCE[n] for n in numbers)
            suits = (
                [CARD_SUIT[c] for c in set(touching)]
                if not rules.capital_per_suit
                else list({CARD_SUIT[c] for c in touching})
            )
            for suit in suits:
                income[suit] += chance
            continue
        for card in touching:
            chance = NUMBER_CHANCE[CARD_NUMBER[card]]
            if kind == TEMPLE:
                for suit in range(4):
                    income[suit] += chance / 4
            else:
                income[CARD_SUIT[card]] += chance * (2 if kind == PALACE else 1)
    return income


NUMBER_CHANCE: dict[int, float] = {n: (6 - abs(n - 7)) / 36 for n in range(2, 13) if n != 7}
