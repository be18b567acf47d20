"""Resources and territory cards changing hands: the small mutations every rule module shares.

They keep the conservation laws of R1.4 (bank + holdings = 13 per suit) and of
the 40 territory cards, and the public knowledge of R11 (which hand cards the
opponent knows).

Every field a move changes is shared with the state's undo snapshots and copies, so it
is replaced by a new value (:func:`replaced`, :func:`without`), never changed in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .state import TerritoriesState

T = TypeVar("T")


def replaced(per_seat: list[T], seat: int, value: T) -> list[T]:
    """A new list of ``per_seat`` (one item per seat) holding ``value`` for ``seat``."""
    new = per_seat.copy()
    new[seat] = value
    return new


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` less the first ``card``."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def change_supply(state: TerritoriesState, seat: int, kind: int, change: int) -> None:
    """``seat``'s supply of ``kind`` changes by ``change`` (a piece built, or back from the board)."""
    supply = state.supply[seat].copy()
    supply[kind] += change
    state.supply = replaced(state.supply, seat, supply)


def pay_to_bank(state: TerritoriesState, seat: int, amounts: Sequence[int]) -> None:
    """``seat`` pays ``amounts`` (H, S, C, D) to the bank (R1.4: everything paid returns to it)."""
    hold = state.res[seat].copy()
    bank = state.bank.copy()
    for suit in range(4):
        hold[suit] -= amounts[suit]
        bank[suit] += amounts[suit]
    state.res = replaced(state.res, seat, hold)
    state.bank = bank


def take_from_bank(state: TerritoriesState, seat: int, amounts: Sequence[int]) -> None:
    """``seat`` receives ``amounts`` from the bank (the caller checked the bank holds them)."""
    hold = state.res[seat].copy()
    bank = state.bank.copy()
    for suit in range(4):
        hold[suit] += amounts[suit]
        bank[suit] -= amounts[suit]
    state.res = replaced(state.res, seat, hold)
    state.bank = bank


def remove_territory(state: TerritoriesState, seat: int, card: int) -> None:
    """Take ``card`` out of ``seat``'s hand; it is no longer a hand card anyone knows of."""
    hand = state.hands[seat].copy()
    hand.remove(card)
    state.hands = replaced(state.hands, seat, hand)
    if card in state.known[seat]:
        state.known = replaced(state.known, seat, state.known[seat] - {card})


def add_known_territory(state: TerritoriesState, seat: int, card: int) -> None:
    """``card`` enters ``seat``'s hand face up, so the opponent knows it (R7.2, R8.4, R11)."""
    state.hands = replaced(state.hands, seat, sorted((*state.hands[seat], card)))
    state.known = replaced(state.known, seat, state.known[seat] | {card})


def discard_territory(state: TerritoriesState, card: int) -> None:
    """A discarded territory card goes face up out of play, or under the pile (R5.3, R12)."""
    if state.rules.discard_to_pile_bottom:
        state.bottom = (*state.bottom, card)
    else:
        state.discard = (*state.discard, card)


def lose_all(state: TerritoriesState, seat: int) -> None:
    """R7.6: every resource goes to the bank (and the territory cards too, per option lose_all)."""
    pay_to_bank(state, seat, tuple(state.res[seat]))  # a copy: the holding itself drops to zero
    if state.rules.lose_territories:
        for card in state.hands[seat]:
            discard_territory(state, card)
        state.hands = replaced(state.hands, seat, [])
        state.known = replaced(state.known, seat, frozenset())
