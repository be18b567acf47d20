"""Why a Territories move is refused, in a player's words, citing the rule (docs/rules/territories.md).

:func:`illegal_reason` (the state's ``_illegal_reason``) decides by phase which decision is
pending and asks the ``*_reason`` function of that kind of move (:mod:`.actions`,
:mod:`.trades`, :mod:`.abilities`); a move that belongs to another moment gets the reason
it cannot be played now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core import Move

from . import abilities, trades
from .actions import build_reason, discard_reason, setup_grant_owed, who, wild_reason
from .moves import (
    Accept,
    Announce,
    BankTrade,
    Build,
    ConvertTo,
    Counter,
    Destroy,
    Discard,
    EndTurn,
    Offer,
    Pay,
    PlaceCard,
    ProposeCounter,
    ProposeTrade,
    Reject,
    SwapCard,
    Wild,
)
from .phases import COUNTER_PROPOSE, COUNTER_RESPOND, MAIN, PROPOSE, RESPOND, SETUP

if TYPE_CHECKING:
    from .state import TerritoriesState

#: the moves of the active player's own decisions in MAIN (R4.1)
_MAIN_ONLY = (Build, BankTrade, ProposeTrade, Offer, Announce, EndTurn)


#: why a move that belongs to another moment is refused while the active player acts (R4.1)
_WHEN_LEGAL: tuple[tuple[type[Move] | tuple[type[Move], ...], str], ...] = (
    (Discard, "nobody owes discards now: they follow a roll of 7 (R5.2)"),
    (Wild, "nobody is owed Temple wildcards now: they follow production (R4.4)"),
    ((Accept, Reject), "no trade proposal is open (R8.2)"),
    ((ProposeCounter, Counter), "a counter-proposal answers an open proposal (R8.3)"),
    (Pay, "no Swap or Expand waits for payment: announce swap or expand first (R7.2, R7.5)"),
    (SwapCard, "no Swap is being resolved: announce swap first (R7.2)"),
    (PlaceCard, "no Expand is being resolved: announce expand first (R7.5)"),
    (Destroy, "no Raid has been won: announce raid first (R7.3)"),
    (ConvertTo, "no Convert has been won: announce conv first (R7.4)"),
)


def out_of_turn_reason(move: Move) -> str:
    """Why ``move`` cannot be played while the active player acts in MAIN."""
    for kinds, reason in _WHEN_LEGAL:
        if isinstance(move, kinds):
            return reason
    return "that is a chance outcome, and the player to act decides now (R4.1)"


def illegal_reason(state: TerritoriesState, move: Move) -> str | None:
    """Why ``move`` is illegal for the player to move, or None (for ``check_move``)."""
    if state.discards_owed and state.phase >= MAIN:
        if not isinstance(move, Discard):
            seat, owed = state.discards_owed[0]
            return f"{who(state, state.label(seat))} must first discard {owed} cards: disc(P{state.label(seat)}:...) (R5.2)"
        return discard_reason(state, move)
    if state.wild_owed and state.phase >= SETUP:
        if not isinstance(move, Wild):
            label = state.label(state.wild_owed[0][0])
            if setup_grant_owed(state):
                return f"{who(state, label)} must first choose its starting resources: wild(P{label}:...) (R3.4)"
            return f"{who(state, label)} must first choose Temple wildcards: wild(...) (R4.4)"
        return wild_reason(state, move)
    phase = state.phase
    if phase == SETUP:
        if not isinstance(move, Build):
            return "setup: place a Town, e.g. P@2,2 (R3.3)"
        return build_reason(state, move)
    if phase in (RESPOND, COUNTER_RESPOND):
        if isinstance(move, (Accept, Reject)):
            return None
        if isinstance(move, (ProposeCounter, Counter)):
            if phase == COUNTER_RESPOND:
                return "a counter-proposal cannot be countered (R8.3)"
            if not state.rules.counter_offers:
                return "counter-offers are off (R8.3; option counter_offers)"
            if isinstance(move, Counter):
                return "announce the counter-proposal first: counter, then counter(GIVE:GET) (R8.3)"
            return trades.announce_reason(state, 1 - state.active)
        return "answer the trade proposal: acc or rej (R8.2)"
    if phase == PROPOSE:
        if isinstance(move, Offer):
            return trades.proposal_reason(state, state.active, move)
        return "name the trade proposal announced: offer(GIVE:GET) (R8.2)"
    if phase == COUNTER_PROPOSE:
        if isinstance(move, Counter):
            return trades.proposal_reason(state, 1 - state.active, move)
        return "name the counter-proposal announced: counter(GIVE:GET) (R8.3)"
    if phase == MAIN:
        if isinstance(move, Build):
            return build_reason(state, move)
        if isinstance(move, BankTrade):
            return trades.bank_trade_reason(state, move)
        if isinstance(move, ProposeTrade):
            return trades.announce_reason(state, state.active)
        if isinstance(move, Offer):
            return "announce the proposal first: propose, then offer(GIVE:GET) (R8.2)"
        if isinstance(move, Announce):
            return abilities.announce_reason(state, move.ability)
        if isinstance(move, EndTurn):
            return None
        return out_of_turn_reason(move)
    if isinstance(move, _MAIN_ONLY):
        return f"an ability is being resolved: {abilities.pending_text(state)}"
    if isinstance(move, (Pay, SwapCard, PlaceCard, Destroy, ConvertTo)):
        return abilities.resolution_reason(state, move)
    return f"an ability is being resolved: {abilities.pending_text(state)}"


__all__ = ["illegal_reason", "out_of_turn_reason"]
