"""The roll (R4, R5): production for a sum other than 7, discards and a draw on a 7.

Production order (R4.5): fixed yields are paid suit by suit under the shortage
rule, then Temple wildcards are owed (each owner picks a multiset later, roller
first), then the Capitals' territory cards are owed (roller first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel

if TYPE_CHECKING:
    from .state import TerritoriesState


def production_claims(
    state: TerritoriesState, total: int
) -> tuple[list[list[int]], list[int], list[int]]:
    """What each seat is owed for a roll of ``total`` before the bank is consulted.

    Returns (fixed claims per seat per suit, wildcards per seat, territory cards
    per seat). Cost: O(buildings x 4).
    """
    rules = state.rules
    return kernel.production_claims(
        state.touching_cards(), state.buildings, state.active, total,
        rules.production_all, rules.capital_per_match, rules.capital_per_suit,
    )


def resolve_production(state: TerritoriesState, total: int) -> None:
    """R4: pay fixed yields under the shortage rule, then owe wildcards and cards."""
    claims, wild, cards = production_claims(state, total)
    roller = state.active
    other = 1 - roller
    res = [state.res[0].copy(), state.res[1].copy()]
    bank = state.bank.copy()
    kernel.pay_production(claims, res, bank, roller, state.rules.shortage_roller_first)
    state.res = res
    state.bank = bank
    state.wild_owed = tuple((seat, wild[seat]) for seat in (roller, other) if wild[seat])
    state.draws_owed = (roller,) * cards[roller] + (other,) * cards[other]


def resolve_seven(state: TerritoriesState) -> None:
    """R5: everyone over the hand limit owes discards (roller first), then the roller draws."""
    limit = state.rules.hand_limit
    roller = state.active
    state.discards_owed = tuple(
        (seat, state.hand_size(seat) - limit)
        for seat in (roller, 1 - roller)
        if state.hand_size(seat) > limit
    )
    state.draws_owed = (roller,)

