"""Hidden information (R11): what each viewer sees, how each move reads to them, and resampling.

Public: grid, buildings, supplies, points, bank, pile size, discard pile, the
cards put under the pile, dice, every action. Private: the identities of each
hand's territory cards (the count is public), except cards that entered a hand
face up (Swap, the known bottom of the pile, traded cards). Nobody knows the
unseen pile cards (:attr:`TerritoriesState.pool`). The only move that names a
hidden card is a draw from the unseen pile: it reads "White drew a card" to
everybody but the drawer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core import CHANCE, TERMINAL, Move, Player

from .abilities import pending_text
from .cards import ABILITY_NAMES, CARD_CODE, KIND_CHARS, KIND_NAMES, SEAT_NAMES, SUITS, resources_text
from .moves import (
    Accept,
    Announce,
    BankTrade,
    Build,
    ConvertTo,
    Deal,
    Destroy,
    Die,
    Discard,
    Draw,
    Duel,
    EndTurn,
    FirstPlayer,
    Offer,
    Pay,
    PlaceCard,
    Proposal,
    ProposeCounter,
    ProposeTrade,
    Reject,
    Roll,
    SwapCard,
    Wild,
)
from .phases import COUNTER_PROPOSE, COUNTER_RESPOND, DEAL, FIRST, MAIN, PHASE_NAMES, PROPOSE, RESPOND, ROLL, SETUP

if TYPE_CHECKING:
    from .state import TerritoriesState

def _resources(amounts: list[int]) -> dict[str, int]:
    return {SUITS[s]: amounts[s] for s in range(4)}


def decision_text(state: TerritoriesState) -> str:
    """Whose decision it is and what it is, in words (the same for every viewer)."""
    player = state.current_player()
    if player == TERMINAL:
        assert state.outcome is not None
        return f"game over: {state.outcome.reason}"
    name = SEAT_NAMES
    if state.phase == DEAL:
        return f"chance: dealing grid card {len(state.grid) + 1} of 20"
    if state.phase == FIRST:
        return "chance: who plays first"
    if state.phase == SETUP and state.wild_owed:
        seat, owed = state.wild_owed[0]
        return f"{name[seat]} (P2) takes {owed} starting resource{'' if owed == 1 else 's'} of its choice from the bank"
    if state.phase == SETUP:
        collects = "; it collects 1 resource per touching card" if state.setup_step >= 2 else ""
        return f"{name[player]} places a free Town (setup step {state.setup_step + 1} of 4{collects})"
    if state.phase == ROLL:
        return f"chance: {name[state.active]} rolls 2d6"
    if state.phase >= MAIN and state.discards_owed:
        seat, owed = state.discards_owed[0]
        return f"{name[seat]} discards {owed} card{'' if owed == 1 else 's'} (a 7 was rolled)"
    if state.phase >= MAIN and state.wild_owed:
        seat, owed = state.wild_owed[0]
        count = min(owed, sum(state.bank))
        return f"{name[seat]} chooses {count} Temple wildcard resource{'' if count == 1 else 's'}"
    if player == CHANCE and state.draws_owed:
        return f"chance: {name[state.draws_owed[0]]} draws a territory card"
    if state.phase == RESPOND:
        counter = ", or counter it" if state.rules.counter_offers else ""
        return f"{name[player]} answers the trade proposal: accept it, reject it{counter}"
    if state.phase == COUNTER_RESPOND:
        return f"{name[player]} answers the counter-proposal: accept it or reject it"
    if state.phase == PROPOSE:
        return f"{name[player]} names the trade proposal: offer(GIVE:GET)"
    if state.phase == COUNTER_PROPOSE:
        return f"{name[player]} names the counter-proposal: counter(GIVE:GET)"
    if state.phase == MAIN:
        return f"{name[player]} acts: build, trade, use an ability, or end"
    ability = ABILITY_NAMES[state.ability] if state.ability >= 0 else "ability"
    if player == CHANCE:
        return f"chance: {ability} dice"
    return f"{name[player]} resolves {ability}: {pending_text(state)}"


def _offer_view(state: TerritoriesState) -> dict[str, Any] | None:
    if state.offer is None:
        return None
    giver, give, give_cards, taker, get, get_cards = state.offer
    return {
        "from": giver,
        "to": taker,
        "gives": resources_text(give),
        "gives_cards": [CARD_CODE[c] for c in give_cards],
        "wants": resources_text(get),
        "wants_cards": [CARD_CODE[c] for c in get_cards],
    }


def state_view(state: TerritoriesState, viewer: Player | None) -> dict[str, Any]:
    """The board part of the view envelope for ``viewer`` (None = spectators), documented in
    docs/rules/territories.md (R11). Cost: O(cards + buildings)."""
    rules = state.rules
    seats = []
    for seat in (0, 1):
        hand = state.hands[seat]
        own = viewer == seat
        known = state.known[seat]
        visible = hand if own else [card for card in hand if card in known]
        seats.append({
            "label": f"P{state.label(seat)}" if state.first >= 0 else "",
            "points": state.points(seat),
            "resource_count": sum(state.res[seat]),
            "resources": _resources(state.res[seat]) if (own or rules.resources_public) else None,
            "territory_count": len(hand),
            "hand_size": state.hand_size(seat),
            "territories": [CARD_CODE[c] for c in visible],
            "known_to_opponent": [CARD_CODE[c] for c in hand if c in known],
            "supply": {KIND_CHARS[k]: state.supply[seat][k] for k in range(6)},
            "no_building_turns": state.no_build[seat],
        })
    return {
        "turn": state.turn,
        "max_turns": rules.max_turns,
        "target_points": rules.target_points,
        "hand_limit": rules.hand_limit,
        "phase": _phase_name(state),
        "active": state.active,
        "first": state.first,
        "decision": decision_text(state),
        "grid": [[c, r, CARD_CODE[card]] for (c, r), card in sorted(state.grid.items(), key=_reading_order)],
        "buildings": [
            [x, y, owner, KIND_CHARS[kind]]
            for (x, y), (owner, kind) in sorted(state.buildings.items(), key=_reading_order)
        ],
        "bank": _resources(state.bank),
        "pile_size": state.pile_size(),
        "pile_bottom": [CARD_CODE[c] for c in state.bottom],
        "discard": [CARD_CODE[c] for c in state.discard],
        "seats": seats,
        "last_roll": list(state.last_roll) if state.last_roll else None,
        "offer": _offer_view(state),
        "ability": ABILITY_NAMES[state.ability] if state.ability >= 0 else None,
        "die": state.die if state.ability >= 0 else None,
        "abilities_used": {ABILITY_NAMES[a]: state.used[a] for a in range(4)},
        "proposals": state.proposals,
        "discards_owed": [[seat, owed] for seat, owed in state.discards_owed],
        "wildcards_owed": [[seat, owed] for seat, owed in state.wild_owed],
        "draws_owed": list(state.draws_owed),
    }


def _reading_order(item: tuple[tuple[int, int], Any]) -> tuple[int, int]:
    (x, y), _ = item
    return (y, x)


def _phase_name(state: TerritoriesState) -> str:
    if state.outcome is not None:
        return "over"
    if state.phase >= MAIN and state.discards_owed:
        return "discard"
    if state.phase >= SETUP and state.wild_owed:  # Temple wildcards, or P2's starting resources (R3.4)
        return "wildcard"
    if state.phase >= MAIN and state.draws_owed:
        return "draw"
    return PHASE_NAMES[state.phase]


#: a resource's symbol in words for people (the notation's letters H, S, C, D)
SUIT_SYMBOLS = {"H": "♥", "S": "♠", "C": "♣", "D": "♦"}
#: what announcing an ability reads as (R7)
ABILITY_WORDS = {"swap": "a Swap", "raid": "a Raid", "conv": "a Convert", "expand": "an Expand"}
#: the resources' symbols in the order of their counts (H, S, C, D)
SUITS_WORDS = tuple(SUIT_SYMBOLS[letter] for letter in SUITS)


def card_code_words(code: str) -> str:
    """A territory card's code as people read it: ``10♣`` for ``TC`` (the pages, the pictures)."""
    return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]


def card_words(card: int) -> str:
    """A territory card as people read it: ``10♣``."""
    return card_code_words(CARD_CODE[card])


def goods_words(amounts: Sequence[int], cards: Sequence[int] = ()) -> str:
    """Resources and cards as people read them: ``♣×4``, ``♥ ♠ and 10♣``; "nothing"."""
    parts = [SUITS_WORDS[s] + (f"×{amounts[s]}" if amounts[s] > 1 else "") for s in range(4) if amounts[s]]
    parts += [card_words(card) for card in cards]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else f"{' '.join(parts[:-1])} and {parts[-1]}"



def _player_move_words(move: Move) -> str | None:
    """A player's move in words, or None for one that reads as its notation."""
    if isinstance(move, Build):
        return f"builds a {KIND_NAMES[move.kind]} at {move.point[0]},{move.point[1]}"
    if isinstance(move, BankTrade):
        target = "a territory card" if move.target == "T" else SUIT_SYMBOLS[move.target]
        return f"trades {goods_words(move.give)} to the bank for {target}"
    if isinstance(move, ProposeTrade):
        return "proposes a trade"
    if isinstance(move, ProposeCounter):
        return "makes a counter-proposal"
    if isinstance(move, Proposal):
        verb = "offers" if isinstance(move, Offer) else "counters with"
        return f"{verb} {goods_words(move.give, move.give_cards)} for {goods_words(move.get, move.get_cards)}"
    if isinstance(move, Accept):
        return "accepts the trade"
    if isinstance(move, Reject):
        return "rejects the trade"
    if isinstance(move, Announce):
        return f"announces {ABILITY_WORDS[ABILITY_NAMES[move.ability]]}"
    if isinstance(move, Pay):
        return f"pays {goods_words(move.amounts)}"
    if isinstance(move, SwapCard):
        return f"swaps the grid card at [{move.cell[0]},{move.cell[1]}] for {card_words(move.card)}"
    if isinstance(move, PlaceCard):
        return f"places {card_words(move.card)} at [{move.cell[0]},{move.cell[1]}]"
    if isinstance(move, Destroy):
        return f"destroys the Town at {move.point[0]},{move.point[1]}"
    if isinstance(move, ConvertTo):
        return f"turns the building at {move.point[0]},{move.point[1]} into a {KIND_NAMES[move.kind]} of theirs"
    if isinstance(move, Discard):
        return f"discards {goods_words(move.amounts, move.cards)}"
    if isinstance(move, Wild):
        return f"takes {goods_words(move.amounts)} as wildcards"
    if isinstance(move, EndTurn):
        return "ends the turn"
    return None


def move_text(state: TerritoriesState, move: Move, viewer: Player | None) -> str:
    """How ``move`` (about to be applied) reads to ``viewer`` (R11.1): in words, cards and
    resources as symbols ("builds a Town at 2,2", "trades ♣×4 to the bank for ♠", "rolled 3+5
    = 8", "10♣ dealt to the grid"), where the notation (``P@2,2``, ``CCCC>S``, ``r3+5``,
    ``deal(TC)``) is what a player types and records keep; a draw from the unseen pile, which
    only the drawer sees, as "Black drew a card" to the others."""
    if isinstance(move, Draw) and state.draws_owed:
        drawer = state.draws_owed[0]
        if viewer != drawer and move.card in state.pool:
            return f"{SEAT_NAMES[drawer]} drew a card"
        return f"{SEAT_NAMES[drawer]} drew {card_words(move.card)}"
    if isinstance(move, Deal):
        return f"{card_words(move.card)} dealt to the grid"
    if isinstance(move, FirstPlayer):
        return f"{SEAT_NAMES[move.seat]} plays first"
    if isinstance(move, Roll):
        return f"rolled {move.first}+{move.second} = {move.first + move.second}"
    if isinstance(move, Die):
        return f"the die shows {move.value}"
    if isinstance(move, Duel):
        return f"the dice: attacker {move.attack}, defender {move.defence}"
    words = _player_move_words(move)
    return str(move) if words is None else words


def unseen_by(state: TerritoriesState, viewer: Player | None) -> list[int]:
    """Cards whose whereabouts ``viewer`` does not know: the pool and others' unknown hand cards."""
    cards = set(state.pool)
    for seat in (0, 1):
        if seat != viewer:
            cards.update(c for c in state.hands[seat] if c not in state.known[seat])
    return sorted(cards)


def state_secrets(state: TerritoriesState, viewer: Player | None) -> set[str]:
    """Card codes ``viewer`` may not see: exactly what :func:`state_view` must never show."""
    return {CARD_CODE[c] for c in unseen_by(state, viewer)}


def resample_state(state: TerritoriesState, player: Player, rng: random.Random) -> TerritoriesState:
    """A state consistent with everything ``player`` may know, hidden parts re-drawn; a new seed,
    and no history (``rebase``), so neither the past moves nor undo can show the real cards.

    The opponent's unknown hand cards are re-dealt uniformly from every card
    ``player`` cannot locate (those cards and the unseen pile); the rest form the
    pile. Exact under the chance model (R1.4): given the view, the pile is a
    uniformly random set. After a reshuffle of the discards (R1.5) the pile is the
    public set ``reshuffled`` and held nothing else, so the opponent's unknown cards
    from before it are exactly the cards found nowhere else: only the cards drawn
    from the reshuffled pile are re-dealt, among that pile's cards.
    Cost: one copy, O(cards).
    """
    clone = state.copy()
    clone.seed = rng.getrandbits(64)
    other = 1 - player
    known = clone.known[other]
    hidden = [card for card in clone.hands[other] if card not in known]
    candidates = unseen_by(clone, player)
    if clone.reshuffled:
        hidden = [card for card in hidden if card in clone.reshuffled]
        candidates = [card for card in candidates if card in clone.reshuffled]
    if hidden:
        chosen = rng.sample(candidates, len(hidden))
        kept = [card for card in clone.hands[other] if card not in hidden]
        clone.hands = [sorted(kept + chosen) if seat == other else clone.hands[seat] for seat in (0, 1)]
        clone.pool = frozenset(candidates) - frozenset(chosen)
    clone.rebase()
    return clone
