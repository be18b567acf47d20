"""Territories as integer actions and a numeric observation, for the OpenSpiel and PettingZoo
adapters (docs/rules/territories.md, R14).

Cards are 0..39 (:mod:`.cards`); a resource tuple (each count 0..13, the bank's 13 of a suit
bounding every holding) is the base-14 number ``H + 14 S + 196 C + 2744 D``. Points and cells
lie in a window of 48 x 48 coordinates from -21: the grid starts at 5 x 4 and grows by at most
20 cards, each sharing a side with it (R7.5), so no coordinate leaves -20..25. A point or cell
is ``(x + 21) * 48 + (y + 21)``. Player actions, in blocks (see :data:`BLOCKS`):

| moves | index within the block |
| --- | --- |
| ``end``, ``propose``, ``counter``, ``acc``, ``rej`` | 0..4 |
| ``swap``, ``raid``, ``conv``, ``expand`` | the ability 0..3 |
| build ``K@x,y`` | kind * 2304 + point |
| bank trade ``4X>Y`` | the 4 given (one of the 35 multisets of size 4) * 5 + what is bought (H, S, C, D, T) |
| ``pay(...)`` | resources |
| swap ``[c,r]<>card``, expand ``[c,r]+card`` | cell * 40 + card |
| raid ``xX,Y`` | point |
| convert ``X,Y=K`` | point * 6 + kind |
| ``wild(Pn:...)`` | (n - 1) * 14^4 + resources |
| ``disc(Pn:...)`` | the discard's place among the legal discards, in the listed order (at most 65536) |
| ``offer(...)``, ``counter(...)`` | per suit ``13 + given - asked`` in base 27; with ``trade_territories`` |
|                                   | then ``* 1681 + (given card + 1) * 41 + (asked card + 1)`` |

A discard chooses a set of territory cards and a multiset of resources, which no fixed
numbering of a practical size covers: its index is its place in the list, which is fixed by
the position, so index and discard still map one to one in every state; a position with more
than 65536 legal discards raises :class:`ActionError`.

Chance outcomes (160): ``deal(card)`` 0..39, the first player 40..41, the roll 42 + 6 (a - 1)
+ (b - 1), ``draw(card)`` 78..117, an ability's d6 118..123, a duel 124 + 6 (a - 1) + (d - 1).

Observation, from the seat's view (never the other seat's hidden cards): the envelope's 4
features; a 25 x 25 window of cells from the grid's lowest corner (suit one-hot, number / 12);
a 26 x 26 window of points (12 planes: the viewer's six kinds, then the opponent's); per seat
(the viewer first) points / target, resources by suit / 13 (zeros when hidden), resource count,
territory count, hand size, supply by kind, turns without building, the territory cards the
viewer may see (40); the bank; the phase; the turn / max turns; the pile size; the last roll;
the die; proposals made; an open offer; abilities used; owed discards, wildcards and draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardlab.core import ActionEncoding, ActionError, Move, ObservationEncoding
from boardlab.core.encoding import ENVELOPE_FEATURES, envelope_features, one_hot, scaled, seats_from

from .cards import CARD_NUMBER, CODE_TO_CARD, DECK_SIZE, KIND_CHARS, PER_SUIT, START_SUPPLY, SUITS, Resources
from .moves import (
    Accept,
    Announce,
    BankTrade,
    Build,
    ConvertTo,
    Counter,
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
    ProposeCounter,
    ProposeTrade,
    Reject,
    Roll,
    SwapCard,
    Wild,
)
from .phases import PHASE_NAMES

if TYPE_CHECKING:
    from boardlab.core import Game, State

OFFSET = 21
SPAN = 48
POINTS = SPAN * SPAN
KINDS = len(KIND_CHARS)
RESOURCE_BASE = PER_SUIT + 1
RESOURCE_TUPLES = RESOURCE_BASE**4
SIGNED_BASE = 2 * PER_SUIT + 1
CARD_CHOICES = DECK_SIZE + 1
DISCARD_SLOTS = 1 << 16
#: the 35 ways to give the bank 4 resources, in a fixed order
BANK_GIVES: tuple[Resources, ...] = tuple(
    (h, s, c, 4 - h - s - c) for h in range(5) for s in range(5 - h) for c in range(5 - h - s)
)
_BANK_GIVE_NUMBER = {give: number for number, give in enumerate(BANK_GIVES)}
_SIMPLE = {EndTurn: 0, ProposeTrade: 1, ProposeCounter: 2, Accept: 3, Reject: 4}

CHANCE_DEAL, CHANCE_FIRST, CHANCE_ROLL, CHANCE_DRAW, CHANCE_DIE, CHANCE_DUEL = 0, 40, 42, 78, 118, 124
NUM_CHANCE = 160


def resource_number(amounts: Resources) -> int:
    h, s, c, d = amounts
    if not (0 <= h < RESOURCE_BASE and 0 <= s < RESOURCE_BASE and 0 <= c < RESOURCE_BASE and 0 <= d < RESOURCE_BASE):
        raise ActionError(f"territories: resources {amounts} exceed {PER_SUIT} of a suit")
    return h + RESOURCE_BASE * (s + RESOURCE_BASE * (c + RESOURCE_BASE * d))


def place_number(point: tuple[int, int]) -> int:
    x, y = point[0] + OFFSET, point[1] + OFFSET
    if not (0 <= x < SPAN and 0 <= y < SPAN):
        raise ActionError(f"territories: {point} lies outside the encoded window (-21..26)")
    return x * SPAN + y


class TerritoriesActions(ActionEncoding):
    num_chance_outcomes = NUM_CHANCE

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.card_trades = bool(game.options["trade_territories"])
        self.proposals = SIGNED_BASE**4 * (CARD_CHOICES * CARD_CHOICES if self.card_trades else 1)
        sizes = (
            ("simple", 5), ("announce", 4), ("build", KINDS * POINTS), ("bank", len(BANK_GIVES) * 5),
            ("pay", RESOURCE_TUPLES), ("swap", POINTS * DECK_SIZE), ("place", POINTS * DECK_SIZE),
            ("destroy", POINTS), ("convert", POINTS * KINDS), ("wild", 2 * RESOURCE_TUPLES),
            ("discard", DISCARD_SLOTS), ("offer", self.proposals), ("counter", self.proposals),
        )
        self.blocks: dict[str, int] = {}
        start = 0
        for name, size in sizes:
            self.blocks[name] = start
            start += size
        self.num_actions = start

    def action_index(self, state: State, move: Move) -> int:
        blocks = self.blocks
        simple = _SIMPLE.get(type(move))
        if simple is not None:
            return simple
        if isinstance(move, Build):
            return blocks["build"] + move.kind * POINTS + place_number(move.point)
        if isinstance(move, Offer):
            return blocks["offer"] + self._proposal_number(move)
        if isinstance(move, Counter):
            return blocks["counter"] + self._proposal_number(move)
        if isinstance(move, Announce):
            return blocks["announce"] + move.ability
        if isinstance(move, BankTrade):
            give = _BANK_GIVE_NUMBER.get(tuple(move.give))  # type: ignore[arg-type]
            if give is None:
                raise ActionError(f"territories: {move} does not give the bank exactly 4 resources")
            return blocks["bank"] + give * 5 + move.get
        if isinstance(move, Pay):
            return blocks["pay"] + resource_number(move.amounts)
        if isinstance(move, SwapCard):
            return blocks["swap"] + place_number(move.cell) * DECK_SIZE + move.card
        if isinstance(move, PlaceCard):
            return blocks["place"] + place_number(move.cell) * DECK_SIZE + move.card
        if isinstance(move, Destroy):
            return blocks["destroy"] + place_number(move.point)
        if isinstance(move, ConvertTo):
            return blocks["convert"] + place_number(move.point) * KINDS + move.kind
        if isinstance(move, Wild):
            return blocks["wild"] + (move.label - 1) * RESOURCE_TUPLES + resource_number(move.amounts)
        if isinstance(move, Discard):
            for rank, listed in enumerate(m for m in state.legal_moves() if isinstance(m, Discard)):
                if listed == move:
                    return self._discard_number(rank)
            raise ActionError(f"territories: {move} is not a legal discard here, so it has no index")
        raise ActionError(f"territories: {move!r} is not a decision of Territories")

    def action_map(self, state: State) -> dict[int, Move]:
        # Discards are numbered by their place in the list: one pass instead of a scan per discard.
        if state.is_chance() or not any(isinstance(m, Discard) for m in state.legal_moves()[:1]):
            return super().action_map(state)
        found: dict[int, Move] = {}
        rank = 0
        for move in state.legal_moves():
            if isinstance(move, Discard):
                number = self._discard_number(rank)
                rank += 1
            else:
                number = self.action_index(state, move)
            if number in found:
                raise ActionError(f"territories: {found[number]} and {move} share action {number}")
            found[number] = move
        return found

    def _discard_number(self, rank: int) -> int:
        if rank >= DISCARD_SLOTS:
            raise ActionError(f"territories: more than {DISCARD_SLOTS} legal discards here; the encoding has no room")
        return self.blocks["discard"] + rank

    def _proposal_number(self, move: Offer | Counter) -> int:
        number = 0
        for suit in range(3, -1, -1):
            number = number * SIGNED_BASE + PER_SUIT + move.give[suit] - move.get[suit]
        if not self.card_trades:
            return number
        give_card = move.give_cards[0] + 1 if move.give_cards else 0
        get_card = move.get_cards[0] + 1 if move.get_cards else 0
        return (number * CARD_CHOICES + give_card) * CARD_CHOICES + get_card

    def chance_index(self, state: State, outcome: Move) -> int:
        if isinstance(outcome, Deal):
            return CHANCE_DEAL + outcome.card
        if isinstance(outcome, FirstPlayer):
            return CHANCE_FIRST + outcome.seat
        if isinstance(outcome, Roll):
            return CHANCE_ROLL + (outcome.first - 1) * 6 + outcome.second - 1
        if isinstance(outcome, Draw):
            return CHANCE_DRAW + outcome.card
        if isinstance(outcome, Die):
            return CHANCE_DIE + outcome.value - 1
        if isinstance(outcome, Duel):
            return CHANCE_DUEL + (outcome.attack - 1) * 6 + outcome.defence - 1
        raise ActionError(f"territories: {outcome!r} is not a chance outcome of Territories")


CELL_WINDOW = 25
POINT_WINDOW = CELL_WINDOW + 1
SEAT_FEATURES = 1 + 4 + 3 + KINDS + 1 + DECK_SIZE
ABILITIES = ("swap", "raid", "conv", "expand")
#: the view's phase names: the rules' phases, then the queues that take precedence, then the end
VIEW_PHASES = (*PHASE_NAMES, "discard", "wildcard", "draw", "over")


class TerritoriesObservation(ObservationEncoding):
    size = (ENVELOPE_FEATURES + CELL_WINDOW * CELL_WINDOW * 5 + POINT_WINDOW * POINT_WINDOW * 2 * KINDS
            + 2 * SEAT_FEATURES + 4 + len(VIEW_PHASES) + 1 + 1 + 2 + 1 + 1 + 1 + 4 + 3)

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        board = view["board"]
        order = seats_from(view["viewer"], 2)
        out = envelope_features(view)
        grid = board["grid"]
        low_c = min((c for c, _, _ in grid), default=0)
        low_r = min((r for _, r, _ in grid), default=0)
        cells = [0.0] * (CELL_WINDOW * CELL_WINDOW * 5)
        for c, r, code in grid:
            card = CODE_TO_CARD[code]
            at = ((c - low_c) * CELL_WINDOW + (r - low_r)) * 5
            cells[at + card // 10] = 1.0
            cells[at + 4] = scaled(CARD_NUMBER[card], 12)
        out.extend(cells)
        points = [0.0] * (POINT_WINDOW * POINT_WINDOW * 2 * KINDS)
        for x, y, seat, kind in board["buildings"]:
            at = ((x - low_c) * POINT_WINDOW + (y - low_r)) * 2 * KINDS
            points[at + order.index(seat) * KINDS + KIND_CHARS.index(kind)] = 1.0
        out.extend(points)
        for seat in order:
            info = board["seats"][seat]
            out.append(scaled(info["points"], board["target_points"]))
            resources = info.get("resources") or {}
            out.extend(scaled(resources.get(suit, 0), PER_SUIT) for suit in SUITS)
            out.append(scaled(info["resource_count"], 4 * PER_SUIT))
            out.append(scaled(info["territory_count"], DECK_SIZE))
            out.append(scaled(info["hand_size"], 4 * PER_SUIT + DECK_SIZE))
            out.extend(scaled(info["supply"][kind], START_SUPPLY[k]) for k, kind in enumerate(KIND_CHARS))
            out.append(scaled(info["no_building_turns"], 10))
            hand = [0.0] * DECK_SIZE
            for code in info["territories"]:
                hand[CODE_TO_CARD[code]] = 1.0
            out.extend(hand)
        out.extend(scaled(board["bank"][suit], PER_SUIT) for suit in SUITS)
        out.extend(one_hot(VIEW_PHASES.index(board["phase"]), len(VIEW_PHASES)))
        out.append(scaled(board["turn"], board["max_turns"]))
        out.append(scaled(board["pile_size"], DECK_SIZE))
        roll = board["last_roll"] or (0, 0)
        out.extend((scaled(roll[0], 6), scaled(roll[1], 6)))
        out.append(scaled(board["die"] or 0, 6))
        out.append(scaled(board["proposals"], 10))
        out.append(0.0 if board["offer"] is None else 1.0)
        out.extend(scaled(board["abilities_used"][name], 4) for name in ABILITIES)
        out.extend(1.0 if board[key] else 0.0 for key in ("discards_owed", "wildcards_owed", "draws_owed"))
        return out


__all__ = ["TerritoriesActions", "TerritoriesObservation"]
