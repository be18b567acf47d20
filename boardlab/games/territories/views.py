"""Hidden information (R11): what each player sees, what they must not, and resampling.

Public: grid, buildings, supplies, points, bank, pile size, discard pile, the
cards put under the pile, dice, every action. Private: the identities of each
hand's territory cards (the count is public), except cards that entered a hand
face up (Swap, the known bottom of the pile, traded cards). Nobody knows the
unseen pile cards (:attr:`TerritoriesState.pool`).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from boardlab.core import CHANCE, TERMINAL, Player

from .abilities import pending_text
from .cards import ABILITY_NAMES, CARD_CODE, KIND_CHARS, SUITS, resources_text
from .moves import Counter, Deal, Discard, Draw, Offer, PlaceCard, SwapCard

if TYPE_CHECKING:
    from .state import TerritoriesState

SEAT_COLOURS = ("White", "Black")


def _resources(amounts: list[int]) -> dict[str, int]:
    return {SUITS[s]: amounts[s] for s in range(4)}


def decision_text(state: "TerritoriesState") -> str:
    """Whose decision it is and what it is, in words (for every viewer)."""
    from .state import COUNTER_RESPOND, DEAL, FIRST, MAIN, RESPOND, ROLL, SETUP

    player = state.current_player()
    if player == TERMINAL:
        assert state.outcome is not None
        return f"game over: {state.outcome.reason}"
    name = state.game.player_name
    if state.phase == DEAL:
        return f"chance: dealing grid card {len(state.grid) + 1} of 20"
    if state.phase == FIRST:
        return "chance: who plays first"
    if state.phase == SETUP:
        collects = "; it collects 1 resource per touching card" if state.setup_step >= 2 else ""
        return f"{name(player)} places a free Town (setup step {state.setup_step + 1} of 4{collects})"
    if state.phase == ROLL:
        return f"chance: {name(state.active)} rolls 2d6"
    if state.phase >= MAIN and state.discards_owed:
        seat, owed = state.discards_owed[0]
        return f"{name(seat)} discards {owed} cards (a 7 was rolled)"
    if state.phase >= MAIN and state.wild_owed:
        seat, owed = state.wild_owed[0]
        return f"{name(seat)} chooses {min(owed, sum(state.bank))} Temple wildcard resources"
    if player == CHANCE and state.draws_owed:
        return f"chance: {name(state.draws_owed[0])} draws a territory card"
    if state.phase == RESPOND:
        return f"{name(player)} answers the trade proposal (acc / rej)"
    if state.phase == COUNTER_RESPOND:
        return f"{name(player)} answers the counter-proposal (acc / rej)"
    if state.phase == MAIN:
        return f"{name(player)} acts: build, trade, use an ability, or end"
    ability = ABILITY_NAMES[state.ability] if state.ability >= 0 else "ability"
    if player == CHANCE:
        return f"chance: {ability} dice"
    return f"{name(player)} resolves {ability}: {pending_text(state)}"


def _offer_view(state: "TerritoriesState") -> dict[str, Any] | None:
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


def build_view(state: "TerritoriesState", viewer: Player | None) -> dict[str, Any]:
    """JSON-safe view for ``viewer`` (None = spectators). Cost: O(cards + buildings)."""
    rules = state.rules
    players = []
    for seat in (0, 1):
        hand = state.hands[seat]
        own = viewer == seat
        visible = hand if own else [card for card in hand if card in state.known[seat]]
        entry: dict[str, Any] = {
            "seat": seat,
            "colour": SEAT_COLOURS[seat],
            "label": f"P{state.label(seat)}" if state.first >= 0 else "",
            "points": state.points(seat),
            "resource_count": sum(state.res[seat]),
            "resources": _resources(state.res[seat]) if (own or rules.resources_public) else None,
            "territory_count": len(hand),
            "hand_size": state.hand_size(seat),
            "territories": [CARD_CODE[c] for c in visible],
            "known_to_opponent": [CARD_CODE[c] for c in hand if c in state.known[seat]],
            "supply": {KIND_CHARS[k]: state.supply[seat][k] for k in range(6)},
            "no_building_turns": state.no_build[seat],
        }
        players.append(entry)
    player = state.current_player()
    result = state.outcome
    return {
        "game": "territories",
        "viewer": viewer,
        "turn": state.turn,
        "max_turns": rules.max_turns,
        "target_points": rules.target_points,
        "hand_limit": rules.hand_limit,
        "phase": _phase_name(state),
        "to_move": player if player >= 0 else ("chance" if player == CHANCE else "over"),
        "active": state.active,
        "first": state.first,
        "decision": decision_text(state),
        "grid": [[c, r, CARD_CODE[card]] for (c, r), card in sorted(state.grid.items(), key=_cell_order)],
        "buildings": [
            [x, y, owner, KIND_CHARS[kind]]
            for (x, y), (owner, kind) in sorted(state.buildings.items(), key=_cell_order)
        ],
        "bank": _resources(state.bank),
        "pile_size": state.pile_size(),
        "pile_bottom": [CARD_CODE[c] for c in state.bottom],
        "discard": [CARD_CODE[c] for c in state.discard],
        "players": players,
        "last_roll": list(state.last_roll) if state.last_roll else None,
        "offer": _offer_view(state),
        "ability": ABILITY_NAMES[state.ability] if state.ability >= 0 else None,
        "die": state.die if state.ability >= 0 else None,
        "abilities_used": {ABILITY_NAMES[a]: state.used[a] for a in range(4)},
        "proposals": state.proposals,
        "discards_owed": [[seat, owed] for seat, owed in state.discards_owed],
        "wildcards_owed": [[seat, owed] for seat, owed in state.wild_owed],
        "draws_owed": list(state.draws_owed),
        "result": result.to_json() if result is not None else None,
    }


def _cell_order(item: tuple[tuple[int, int], Any]) -> tuple[int, int]:
    (x, y), _ = item
    return (y, x)


def _phase_name(state: "TerritoriesState") -> str:
    from .state import MAIN, PHASE_NAMES

    if state.outcome is not None:
        return "over"
    if state.phase >= MAIN and state.discards_owed:
        return "discard"
    if state.phase >= MAIN and state.wild_owed:
        return "wildcard"
    if state.phase >= MAIN and state.draws_owed:
        return "draw"
    return PHASE_NAMES[state.phase]


def unseen_by(state: "TerritoriesState", viewer: Player | None) -> list[int]:
    """Cards whose whereabouts ``viewer`` does not know: the pool and others' unknown hand cards."""
    cards = set(state.pool)
    for seat in (0, 1):
        if seat != viewer:
            cards.update(c for c in state.hands[seat] if c not in state.known[seat])
    return sorted(cards)


def hidden_codes(state: "TerritoriesState", viewer: Player | None) -> set[str]:
    """Card codes ``viewer`` may not see: exactly what :func:`build_view` must never show."""
    return {CARD_CODE[c] for c in unseen_by(state, viewer)}


def resample_state(state: "TerritoriesState", viewer: Player, rng: random.Random) -> "TerritoriesState":
    """A state consistent with ``view(viewer)``, hidden parts re-drawn; a new seed.

    The opponent's unknown hand cards are re-dealt uniformly from every card
    ``viewer`` cannot locate (those cards and the unseen pile); the rest form the
    pile. Exact under the chance model (R1.4): given the view, the pile is a
    uniformly random set. The re-deal is a permutation of the cards ``viewer``
    cannot locate, applied to the present and, lazily on undo, to the past, and
    to the history, so the history shows no real hidden draw and undo stays
    consistent. After a reshuffle of the discards (R1.5) only cards of the
    reshuffled pile are re-dealt, and only the past since the reshuffle is
    relabelled: before it those cards were public. Cost: O(history).
    """
    clone = state.copy()
    clone.seed = rng.getrandbits(64)
    other = 1 - viewer
    hidden = sorted(c for c in clone.hands[other] if c not in clone.known[other])
    candidates = unseen_by(clone, viewer)
    if clone.reshuffled:
        # After a reshuffle the pile is the public set ``reshuffled``: the opponent's cards
        # drawn before it are exactly the other unlocated cards, so they stay (R1.5, R11).
        hidden = [c for c in hidden if c in clone.reshuffled]
        candidates = [c for c in candidates if c in clone.reshuffled]
    if not hidden:
        return clone
    chosen = rng.sample(candidates, len(hidden))
    permutation = dict(zip(hidden, chosen))
    sources = sorted(set(candidates) - set(hidden))
    targets = sorted(set(candidates) - set(chosen))
    permutation.update(zip(sources, targets))
    clone._set_fields(permute_snapshot(clone._snapshot(), permutation))
    # Before the last reshuffle the permuted cards were public (R1.5): that past stays as it was.
    floor = clone.reshuffle_ply
    relabelled = [permute_move(move, permutation) for move in clone._history[floor:]]
    clone._history = clone._history[:floor] + relabelled
    clone._relabels = clone._relabels + ((len(clone._snapshots), permutation, floor),)
    return clone


def _cards(cards: Any, permutation: dict[int, int]) -> Any:
    return type(cards)(permutation.get(c, c) for c in cards)


def permute_snapshot(snapshot: tuple[Any, ...], permutation: dict[int, int]) -> tuple[Any, ...]:
    """A state snapshot (see ``TerritoriesState._snapshot``) with cards renamed by ``permutation``."""
    fields = list(snapshot)
    get = permutation.get
    fields[0] = {cell: get(card, card) for cell, card in snapshot[0].items()}
    fields[2] = [sorted(get(c, c) for c in hand) for hand in snapshot[2]]
    fields[3] = [{get(c, c) for c in known} for known in snapshot[3]]
    fields[7] = _cards(snapshot[7], permutation)
    fields[8] = _cards(snapshot[8], permutation)
    fields[9] = _cards(snapshot[9], permutation)
    fields[27] = frozenset(_cards(snapshot[27], permutation))
    offer = snapshot[18]
    if offer is not None:
        giver, give, give_cards, taker, get_, get_cards = offer
        fields[18] = (
            giver, give, tuple(sorted(_cards(give_cards, permutation))),
            taker, get_, tuple(sorted(_cards(get_cards, permutation))),
        )
    return tuple(fields)


def permute_move(move: Any, permutation: dict[int, int]) -> Any:
    """``move`` with its territory cards renamed (moves without cards are returned as they are)."""
    if isinstance(move, (Deal, Draw, SwapCard, PlaceCard)):
        card = permutation.get(move.card, move.card)
        return move if card == move.card else replace(move, card=card)
    if isinstance(move, Discard) and move.cards:
        return replace(move, cards=tuple(sorted(_cards(move.cards, permutation))))
    if isinstance(move, (Offer, Counter)) and (move.give_cards or move.get_cards):
        return replace(
            move,
            give_cards=tuple(sorted(_cards(move.give_cards, permutation))),
            get_cards=tuple(sorted(_cards(move.get_cards, permutation))),
        )
    return move
