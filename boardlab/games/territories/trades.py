"""Trading (R8): the 4:1 bank trade and player proposals, their answers and counter-proposals.

A proposal is announced (``propose``; ``counter`` for a counter-proposal), which
counts it toward the turn's limit, and then named (``offer(G:R)``,
``counter(G:R)``) among the complete list of proposals (R8.2, R10.3): every
proposal ``play()`` accepts is in ``legal_moves()``, and a decision among the
builds and the rest of a turn holds one announcement rather than hundreds of
proposals. A proposal gives G and asks for R, where G and R are non-empty
(R8.2), no resource kind is on both sides, the proposer holds G and the opponent
holds R; with the option ``trade_territories`` a side may also hold one territory
card (R8.4). For holdings ``m`` (the proposer's) and ``t`` (the opponent's) there are

    prod(1 + m_s + t_s) - prod(1 + m_s) - prod(1 + t_s) + 1

resource-only proposals (each kind is left out, given 1..m_s times, or asked
1..t_s times; minus the choices with an empty side): 50 for one of each against
one of each, 464 for two of each against two of each.

Cost: listing them is the hot path of random play and search, so the proposals
of given holdings are cached (:func:`proposals_for`) and every proposal object
is made once and shared; a listing is then a copy of a tuple of immutable moves
whose hash is computed once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, cast

from boardlab.core import Move

from . import kernel
from .cards import CARD_CODE, SUITS, Card, Resources, covers, shortfall_text
from .moves import ACCEPT, BUY_TERRITORY, PROPOSE_COUNTER, REJECT, BankTrade, Counter, Offer, Proposal
from .phases import COUNTER_PROPOSE, COUNTER_RESPOND, MAIN, PROPOSE, RESPOND
from .transfers import add_known_territory, pay_to_bank, remove_territory, replaced, take_from_bank

if TYPE_CHECKING:
    from .state import TerritoriesState

#: how many holdings' proposal lists are kept; a search revisits few holdings many times
PROPOSAL_CACHE_SIZE = 1024
#: proposal objects kept for reuse (about 150 bytes each)
PROPOSALS_KEPT = 200_000
#: R8.4 (interpretation): at most this many territory cards on each side of a proposal
CARDS_PER_SIDE = 1


# --- bank trade (R8.1) -----------------------------------------------------------
def bank_trade_reason(state: TerritoriesState, move: BankTrade) -> str | None:
    seat = state.active
    give = move.give
    if sum(give) != 4:
        return "a bank trade gives exactly 4 resources (R8.1)"
    kinds = [s for s in range(4) if give[s]]
    if not state.rules.bank_trade_mixed and len(kinds) != 1:
        return "the bank takes 4 of one kind (R8.1; option bank_trade=mixed4 allows any 4)"
    if not covers(state.res[seat], give):
        return shortfall_text(state.res[seat], give)
    if move.get == BUY_TERRITORY:
        if not state.can_draw():
            return "the territory pile is empty (R1.5)"
        return None
    if give[move.get]:
        return f"you must receive a kind you do not give, not {SUITS[move.get]} (R8.1)"
    if state.bank[move.get] == 0:
        return f"the bank has no {SUITS[move.get]} left (R8.1)"
    return None


def bank_trade_moves(state: TerritoriesState, seat: int) -> list[Move]:
    """The bank trades :func:`bank_trade_reason` accepts, by what is given, then what is bought."""
    return kernel.bank_trade_moves(state.res[seat], state.bank, state.rules.bank_trade_mixed, state.can_draw())


def apply_bank_trade(state: TerritoriesState, move: BankTrade) -> None:
    seat = state.active
    pay_to_bank(state, seat, move.give)
    if move.get == BUY_TERRITORY:
        state.draws_owed = (*state.draws_owed, seat)
    else:
        take_from_bank(state, seat, [1 if suit == move.get else 0 for suit in range(4)])


# --- player proposals (R8.2 - R8.4) ---------------------------------------------------
def proposal_reason(state: TerritoriesState, giver: int, move: Proposal) -> str | None:
    """Why ``giver`` may not name the proposal ``move`` (an offer or a counter-offer) announced."""
    taker = 1 - giver
    rules = state.rules
    give, give_cards, get, get_cards = move.give, move.give_cards, move.get, move.get_cards
    if (give_cards or get_cards) and not rules.trade_territories:
        return "territory cards cannot be traded (R8.4; option trade_territories)"
    if len(give_cards) > CARDS_PER_SIDE or len(get_cards) > CARDS_PER_SIDE:
        return f"at most {CARDS_PER_SIDE} territory card on each side of a proposal (R8.4)"
    if not (any(give) or give_cards) or not (any(get) or get_cards):
        return "both sides of a trade must be non-empty (R8.2)"
    for suit in range(4):
        if give[suit] and get[suit]:
            return f"{SUITS[suit]} appears on both sides (R8.2)"
    if not covers(state.res[giver], give):
        return shortfall_text(state.res[giver], give)
    hold = state.res[taker]
    for suit in range(4):
        if hold[suit] < get[suit]:
            return f"your opponent holds only {hold[suit]} {SUITS[suit]} (R8.2)"
    for card in give_cards:
        if card not in state.hands[giver]:
            return f"you do not hold {CARD_CODE[card]}"
    for card in get_cards:
        if card not in state.hands[taker] or card not in state.known[taker]:
            return f"you can ask only for cards you know your opponent holds, not {CARD_CODE[card]} (R8.4)"
    return None


def announce_reason(state: TerritoriesState, giver: int) -> str | None:
    """Why ``giver`` may not announce a proposal (or a counter-proposal) now (R8.2, R8.3)."""
    rules = state.rules
    if state.proposals >= rules.max_trade_proposals:
        return f"already {state.proposals} trade proposals this turn (R8.2, max {rules.max_trade_proposals})"
    if not can_propose(state, giver):
        return "no trade is possible: each side needs something its giver holds, no kind on both sides (R8.2)"
    return None


def may_propose(state: TerritoriesState, giver: int) -> bool:
    """Whether :func:`announce_reason` accepts ``giver``'s announcement (the hot path asks this)."""
    return state.proposals < state.rules.max_trade_proposals and can_propose(state, giver)


def can_propose(state: TerritoriesState, giver: int) -> bool:
    """Whether ``giver`` has any proposal to make (R8.2, R8.4), without listing them. Cost: O(1)."""
    mine, theirs = state.res[giver], state.res[1 - giver]
    if state.rules.trade_territories:
        own_cards, their_cards = _tradable_cards(state, giver)
        if own_cards and (any(theirs) or their_cards):
            return True  # a card alone on the given side
        if their_cards and (any(mine) or own_cards):
            return True  # a card alone on the wanted side
    return kernel.can_propose(mine, theirs)


def proposal_moves(state: TerritoriesState, giver: int, kind: type[Proposal]) -> tuple[Proposal, ...]:
    """Every proposal of class ``kind`` (Offer or Counter) that ``giver`` may name (R8.2-R8.4).

    Complete, deduplicated and in a stable order: by the given side (fewer resources
    first), then by the wanted side. Cost: a cache lookup; a miss lists them, reusing
    the proposal objects made before.
    """
    mine, theirs = state.res[giver], state.res[1 - giver]
    own_cards, their_cards = _tradable_cards(state, giver) if state.rules.trade_territories else ((), ())
    # a class is hashable (by identity); mypy reads Proposal's own __hash__, an instance method, as the class's
    return proposals_for(kind, (mine[0], mine[1], mine[2], mine[3]),  # type: ignore[arg-type]
                         (theirs[0], theirs[1], theirs[2], theirs[3]), own_cards, their_cards)


def _tradable_cards(state: TerritoriesState, giver: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The giver's territory cards, and the opponent's cards the giver knows of (R8.4)."""
    known = state.known[1 - giver]
    return tuple(state.hands[giver]), tuple(card for card in state.hands[1 - giver] if card in known)


@lru_cache(maxsize=PROPOSAL_CACHE_SIZE)
def proposals_for(
    kind: type[Proposal], mine: Resources, theirs: Resources,
    own_cards: tuple[Card, ...] = (), their_cards: tuple[Card, ...] = (),
) -> tuple[Proposal, ...]:
    """Every proposal giving from ``mine`` (+ one of ``own_cards``) for ``theirs`` (+ one of
    ``their_cards``): both sides non-empty, no resource kind on both (R8.2, R8.4).

    Cost: O(proposals) dictionary lookups (:func:`.kernel.proposals`); each proposal object
    is made once per process, as a search meets the same ones in many holdings. Equal
    proposals compare equal whichever object they are, so the objects kept may start again
    at any time: they do once :data:`PROPOSALS_KEPT` of a kind are kept.
    """
    kept = _KEPT[kind]
    if kept.count >= PROPOSALS_KEPT:
        kept.by_give.clear()
        kept.count = 0
    found, new = kernel.proposals(kept.by_give, kind, mine, theirs, own_cards, their_cards)
    kept.count += new
    return cast("tuple[Proposal, ...]", tuple(found))


class _Kept:
    """The proposal objects of one kind made so far, by the keys of their given and wanted sides."""

    __slots__ = ("by_give", "count")

    def __init__(self) -> None:
        self.by_give: dict[int, dict[int, Move]] = {}
        self.count = 0


_KEPT: dict[type[Proposal], _Kept] = {kind: _Kept() for kind in (Offer, Counter)}


def proposal_count(mine: Resources, theirs: Resources) -> int:
    """The number of resource-only proposals for these holdings (the formula in the module doc)."""
    both = only_mine = only_theirs = 1
    for suit in range(4):
        both *= 1 + mine[suit] + theirs[suit]
        only_mine *= 1 + mine[suit]
        only_theirs *= 1 + theirs[suit]
    return both - only_mine - only_theirs + 1


def apply_propose(state: TerritoriesState, move: Move) -> None:
    state.proposals += 1  # an announced proposal counts toward the limit (R8.2)
    state.phase = PROPOSE


def apply_propose_counter(state: TerritoriesState, move: Move) -> None:
    state.proposals += 1  # the counter-proposal counts toward the limit (R8.3)
    state.offer = None  # countering declines the open proposal
    state.phase = COUNTER_PROPOSE


def apply_offer(state: TerritoriesState, move: Offer) -> None:
    state.offer = (state.active, move.give, move.give_cards, 1 - state.active, move.get, move.get_cards)
    _make_known(state, state.active, move.give_cards)
    state.phase = RESPOND


def apply_counter(state: TerritoriesState, move: Counter) -> None:
    responder = 1 - state.active
    state.offer = (responder, move.give, move.give_cards, state.active, move.get, move.get_cards)
    _make_known(state, responder, move.give_cards)
    state.phase = COUNTER_RESPOND


def _make_known(state: TerritoriesState, seat: int, cards: tuple[Card, ...]) -> None:
    """The cards ``seat`` named in a proposal are known from now on (R8.4)."""
    if cards:
        state.known = replaced(state.known, seat, state.known[seat] | set(cards))


def apply_accept(state: TerritoriesState, move: Move) -> None:
    assert state.offer is not None
    giver, give, give_cards, taker, get, get_cards = state.offer
    holds = [state.res[0].copy(), state.res[1].copy()]
    for suit in range(4):
        holds[giver][suit] += get[suit] - give[suit]
        holds[taker][suit] += give[suit] - get[suit]
    state.res = holds
    for card in give_cards:  # traded cards are seen by both (R8.4)
        remove_territory(state, giver, card)
        add_known_territory(state, taker, card)
    for card in get_cards:
        remove_territory(state, taker, card)
        add_known_territory(state, giver, card)
    state.offer = None
    state.phase = MAIN


def apply_reject(state: TerritoriesState, move: Move) -> None:
    state.offer = None
    state.phase = MAIN


def response_moves(state: TerritoriesState) -> list[Move]:
    """Accept, reject, and with the option the announcement of a counter-proposal (R8.3)."""
    if state.phase == RESPOND and state.rules.counter_offers and announce_reason(state, 1 - state.active) is None:
        return [ACCEPT, REJECT, PROPOSE_COUNTER]
    return [ACCEPT, REJECT]
