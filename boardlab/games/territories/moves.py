"""Moves of Territories and their notation (rule R10): one token per move.

Every move is a frozen slotted dataclass whose ``str()`` is its token;
:func:`parse_move_text` is the exact inverse (legality is checked elsewhere).
``P1``/``P2`` in tokens are the first and second player in turn order, not seats.
Resources are ints in H, S, C, D order; cards are ints (see :mod:`.cards`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from boardlab.core import Move, NotationError

from .cards import (
    ABILITY_NAMES,
    CARD_CODE,
    KIND_CHARS,
    KIND_NAMES,
    SUITS,
    Card,
    Resources,
    is_card_code,
    parse_card,
    parse_resources,
    resources_text,
)
from .geometry import Cell, Point

#: what a bank trade may buy besides a resource: a territory card
BUY_TERRITORY = 4


def goods_text(amounts: Resources, cards: tuple[Card, ...]) -> str:
    """``HHS,QS`` : long-form resources then card codes, comma-separated."""
    parts = [resources_text(amounts)] if any(amounts) else []
    parts.extend(CARD_CODE[card] for card in cards)
    return ",".join(parts)


@dataclass(frozen=True, slots=True)
class Deal(Move):
    """Chance: the next grid card of the deal, row by row from [0,0] (R3.1)."""

    card: Card

    def __str__(self) -> str:
        return f"deal({CARD_CODE[self.card]})"

    def json_fields(self) -> dict[str, Any]:
        return {"card": CARD_CODE[self.card]}


@dataclass(frozen=True, slots=True)
class FirstPlayer(Move):
    """Chance: which seat plays first (P1) (R3.2)."""

    seat: int

    def __str__(self) -> str:
        return f"P1=seat{self.seat}"


@dataclass(frozen=True, slots=True)
class Roll(Move):
    """Chance: the two dice of the turn's roll (R4.1)."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"r{self.first}+{self.second}"

    def json_fields(self) -> dict[str, Any]:
        return {"dice": [self.first, self.second], "sum": self.first + self.second}


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Chance: the territory card drawn from the face-down pile (R1.2)."""

    card: Card

    def __str__(self) -> str:
        return f"draw({CARD_CODE[self.card]})"

    def json_fields(self) -> dict[str, Any]:
        return {"card": CARD_CODE[self.card]}


@dataclass(frozen=True, slots=True)
class Die(Move):
    """Chance: the d6 of a Swap or an Expand (R7.2, R7.5)."""

    value: int

    def __str__(self) -> str:
        return f"d{self.value}"


@dataclass(frozen=True, slots=True)
class Duel(Move):
    """Chance: attacker's d6 against defender's d6 for Raid and Convert (R7.3, R7.4)."""

    attack: int
    defence: int

    def __str__(self) -> str:
        return f"{self.attack}v{self.defence}"


@dataclass(frozen=True, slots=True)
class Build(Move):
    """A Town on an empty intersection, an upgrade, or a Capital (R3.3, R6)."""

    kind: int
    point: Point

    def __str__(self) -> str:
        return f"{KIND_CHARS[self.kind]}@{self.point[0]},{self.point[1]}"

    def json_fields(self) -> dict[str, Any]:
        return {"kind": KIND_CHARS[self.kind], "building": KIND_NAMES[self.kind], "point": list(self.point)}


@dataclass(frozen=True, slots=True)
class BankTrade(Move):
    """Four resources to the bank for one resource or a territory card (R8.1)."""

    give: Resources
    get: int  # 0..3 a suit, BUY_TERRITORY a territory card

    @property
    def target(self) -> str:
        """What the bank gives: a resource letter, or ``T`` for a territory card."""
        return "T" if self.get == BUY_TERRITORY else SUITS[self.get]

    def __str__(self) -> str:
        suits = [s for s in range(4) if self.give[s]]
        if len(suits) == 1 and self.give[suits[0]] < 10:
            return f"{self.give[suits[0]]}{SUITS[suits[0]]}>{self.target}"
        return self.long_form()

    def long_form(self) -> str:
        """``DDDD>H``: the resources letter by letter (R10.2); it also parses back to this move."""
        return f"{resources_text(self.give)}>{self.target}"

    def json_fields(self) -> dict[str, Any]:
        return {"give": resources_text(self.give), "get": self.target}


@dataclass(frozen=True, slots=True)
class ProposeTrade(Move):
    """The active player announces a trade proposal, named by the next move (R8.2)."""

    def __str__(self) -> str:
        return "propose"


@dataclass(frozen=True, slots=True)
class ProposeCounter(Move):
    """The responder announces a counter-proposal, named by the next move (option counter_offers, R8.3)."""

    def __str__(self) -> str:
        return "counter"


@dataclass(frozen=True, slots=True)
class Proposal(Move):
    """A player trade proposal: what the proposer gives : what they want (R8.2, R8.4)."""

    give: Resources
    give_cards: tuple[Card, ...]
    get: Resources
    get_cards: tuple[Card, ...]
    #: the hash, computed once: search hashes every listed proposal at every visit of a node
    _hash: int = field(init=False, repr=False, compare=False)

    #: the notation's word: ``offer`` or ``counter``
    word = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.word, self.give, self.give_cards, self.get, self.get_cards)))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return f"{self.word}({goods_text(self.give, self.give_cards)}:{goods_text(self.get, self.get_cards)})"

    def json_fields(self) -> dict[str, Any]:
        return {
            "give": resources_text(self.give),
            "give_cards": [CARD_CODE[card] for card in self.give_cards],
            "get": resources_text(self.get),
            "get_cards": [CARD_CODE[card] for card in self.get_cards],
        }


class Offer(Proposal):
    """The active player's trade proposal (R8.2). Fields, equality and hash are Proposal's."""

    __slots__ = ()
    word = "offer"


class Counter(Proposal):
    """The responder's single counter-proposal (option counter_offers, R8.3)."""

    __slots__ = ()
    word = "counter"


@dataclass(frozen=True, slots=True)
class Accept(Move):
    """The answer to a proposal: the trade happens at once (R8.2)."""

    def __str__(self) -> str:
        return "acc"


@dataclass(frozen=True, slots=True)
class Reject(Move):
    """The answer to a proposal: nothing changes hands (R8.2)."""

    def __str__(self) -> str:
        return "rej"


@dataclass(frozen=True, slots=True)
class Announce(Move):
    """Activate an ability: ``swap``, ``raid``, ``conv`` or ``expand`` (R7)."""

    ability: int

    def __str__(self) -> str:
        return ABILITY_NAMES[self.ability]

    def json_fields(self) -> dict[str, Any]:
        return {"ability": ABILITY_NAMES[self.ability]}


@dataclass(frozen=True, slots=True)
class Pay(Move):
    """The n resources paid after a Swap's or Expand's d6 (R7.2, R7.5)."""

    amounts: Resources

    def __str__(self) -> str:
        return f"pay({resources_text(self.amounts)})"

    def json_fields(self) -> dict[str, Any]:
        return {"resources": resources_text(self.amounts)}


@dataclass(frozen=True, slots=True)
class SwapCard(Move):
    """Swap: a grid cell and the hand card that replaces its card (R7.2)."""

    cell: Cell
    card: Card

    def __str__(self) -> str:
        return f"[{self.cell[0]},{self.cell[1]}]<>{CARD_CODE[self.card]}"

    def json_fields(self) -> dict[str, Any]:
        return {"cell": list(self.cell), "card": CARD_CODE[self.card]}


@dataclass(frozen=True, slots=True)
class PlaceCard(Move):
    """Expand: an empty cell beside the grid and the hand card placed there (R7.5)."""

    cell: Cell
    card: Card

    def __str__(self) -> str:
        return f"[{self.cell[0]},{self.cell[1]}]+{CARD_CODE[self.card]}"

    def json_fields(self) -> dict[str, Any]:
        return {"cell": list(self.cell), "card": CARD_CODE[self.card]}


@dataclass(frozen=True, slots=True)
class Destroy(Move):
    """Raid won: the opponent's Town removed (R7.3)."""

    point: Point

    def __str__(self) -> str:
        return f"x{self.point[0]},{self.point[1]}"

    def json_fields(self) -> dict[str, Any]:
        return {"point": list(self.point)}


@dataclass(frozen=True, slots=True)
class ConvertTo(Move):
    """Convert won: the opponent's building at ``point`` becomes my ``kind`` (R7.4)."""

    point: Point
    kind: int

    def __str__(self) -> str:
        return f"{self.point[0]},{self.point[1]}={KIND_CHARS[self.kind]}"

    def json_fields(self) -> dict[str, Any]:
        return {"point": list(self.point), "kind": KIND_CHARS[self.kind], "building": KIND_NAMES[self.kind]}


@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Discards owed on a 7 by the player labelled ``label`` (1 = P1, 2 = P2) (R5.2)."""

    label: int
    amounts: Resources
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"disc(P{self.label}:{goods_text(self.amounts, self.cards)})"

    def json_fields(self) -> dict[str, Any]:
        return {
            "player": f"P{self.label}",
            "resources": resources_text(self.amounts),
            "cards": [CARD_CODE[card] for card in self.cards],
        }


@dataclass(frozen=True, slots=True)
class Wild(Move):
    """The resource types a Temple owner takes for their wildcards (R4.4)."""

    label: int
    amounts: Resources

    def __str__(self) -> str:
        return f"wild(P{self.label}:{resources_text(self.amounts)})"

    def json_fields(self) -> dict[str, Any]:
        return {"player": f"P{self.label}", "resources": resources_text(self.amounts)}


@dataclass(frozen=True, slots=True)
class EndTurn(Move):
    """End the turn: the no-building clock and the turn cap are checked (R9.2, R9.3)."""

    def __str__(self) -> str:
        return "end"


PROPOSE_TRADE = ProposeTrade()
PROPOSE_COUNTER = ProposeCounter()
ACCEPT = Accept()
REJECT = Reject()
END_TURN = EndTurn()
ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in range(1, 7) for b in range(1, 7))
DICE: tuple[Die, ...] = tuple(Die(v) for v in range(1, 7))
DUELS: tuple[Duel, ...] = tuple(Duel(a, d) for a in range(1, 7) for d in range(1, 7))

_INT = r"-?\d+"
_POINT = rf"({_INT}),({_INT})"
_RE_BUILD = re.compile(rf"([PRNBQK])@{_POINT}$", re.IGNORECASE)
_RE_ROLL = re.compile(r"r([1-6])\+([1-6])$")
_RE_DIE = re.compile(r"d([1-6])$")
_RE_DUEL = re.compile(r"([1-6])v([1-6])$")
_RE_WRAPPED = re.compile(r"(deal|draw|offer|counter|pay|disc|wild)\((.*)\)$", re.IGNORECASE)
_RE_FIRST = re.compile(r"P1=seat([01])$", re.IGNORECASE)
_RE_BANK = re.compile(r"(\d[HSCD]|[HSCD]+)>([HSCDT])$", re.IGNORECASE)
_RE_CELL_CARD = re.compile(rf"\[({_INT}),({_INT})\](<>|\+)(\w\w)$")
_RE_DESTROY = re.compile(rf"x{_POINT}$", re.IGNORECASE)
_RE_CONVERT = re.compile(rf"{_POINT}=([PRNBQK])$", re.IGNORECASE)
_RE_LABELLED = re.compile(r"P([12]):(.*)$", re.IGNORECASE)

#: a player's moves, for the one who mistyped one (chance's notation, deal(9H), P1=seat0, r5+3,
#: draw(QS), d4 and 5v3, is the records' and the rules document's: nobody types it)
NOTATION_HELP = (
    "P@x,y R@x,y N@x,y B@x,y Q@x,y K@x,y, 4D>H, 4S>T, propose, offer(HH:S), counter, counter(S:HD), acc, rej, "
    "swap, raid, conv, expand, pay(HHSD), [c,r]<>9H, [c,r]+QS, xX,Y, X,Y=R, disc(P2:HHS,QS), "
    "wild(P1:C), end"
)


def parse_goods(text: str, what: str) -> tuple[Resources, tuple[Card, ...]]:
    """``HHS,QS`` -> resources and cards. Resources must be long form (``DDDD``)."""
    amounts = [0, 0, 0, 0]
    cards: list[Card] = []
    if text == "":
        return (0, 0, 0, 0), ()
    for part in text.split(","):
        if part == "":
            raise NotationError(f"{what}: empty item between commas")
        if is_card_code(part):
            cards.append(parse_card(part))
        else:
            if part[0].isdigit():
                raise NotationError(
                    f"{what}: {part!r} is neither a card nor resources in long form (write DDDD, not 4D)"
                )
            for suit, count in enumerate(parse_resources(part)):
                amounts[suit] += count
    if len(set(cards)) != len(cards):
        raise NotationError(f"{what}: a card is named twice")
    return tuple(amounts), tuple(sorted(cards))  # type: ignore[return-value]


def _parse_wrapped(word: str, body: str, text: str) -> Move:
    if word == "deal":
        return Deal(parse_card(body))
    if word == "draw":
        return Draw(parse_card(body))
    if word in ("offer", "counter"):
        if body.count(":") != 1:
            raise NotationError(f"{text}: write {word}(GIVE:GET), e.g. {word}(HH:S)")
        give_text, get_text = body.split(":")
        give, give_cards = parse_goods(give_text, text)
        get, get_cards = parse_goods(get_text, text)
        cls = Offer if word == "offer" else Counter
        return cls(give, give_cards, get, get_cards)
    if word == "pay":
        return Pay(parse_resources(body))
    match = _RE_LABELLED.match(body)
    if match is None:
        raise NotationError(f"{text}: write {word}(P1:...) or {word}(P2:...)")
    label = int(match.group(1))
    if word == "disc":
        amounts, cards = parse_goods(match.group(2), text)
        return Discard(label, amounts, cards)
    return Wild(label, parse_resources(match.group(2)))


def parse_move_text(text: str) -> Move:
    """One notation token to a move object; NotationError if it is not notation at all."""
    token = text.strip()
    if not token or any(ch.isspace() for ch in token):
        raise NotationError(f"{text!r}: one move is one token without spaces ({NOTATION_HELP})")
    lower = token.lower()
    if lower == "end":
        return END_TURN
    if lower == "propose":
        return PROPOSE_TRADE
    if lower == "counter":
        return PROPOSE_COUNTER
    if lower == "acc":
        return ACCEPT
    if lower == "rej":
        return REJECT
    if lower in ABILITY_NAMES:
        return Announce(ABILITY_NAMES.index(lower))
    if (m := _RE_BUILD.match(token)) is not None:
        return Build(KIND_CHARS.index(m.group(1).upper()), (int(m.group(2)), int(m.group(3))))
    if (m := _RE_ROLL.match(lower)) is not None:
        return Roll(int(m.group(1)), int(m.group(2)))
    if (m := _RE_DIE.match(lower)) is not None:
        return Die(int(m.group(1)))
    if (m := _RE_DUEL.match(lower)) is not None:
        return Duel(int(m.group(1)), int(m.group(2)))
    if (m := _RE_FIRST.match(token)) is not None:
        return FirstPlayer(int(m.group(1)))
    if (m := _RE_WRAPPED.match(token)) is not None:
        return _parse_wrapped(m.group(1).lower(), m.group(2), token)
    if (m := _RE_BANK.match(token)) is not None:
        give = parse_resources(m.group(1), allow_shorthand=True)
        target = m.group(2).upper()
        return BankTrade(give, BUY_TERRITORY if target == "T" else SUITS.index(target))
    if (m := _RE_CELL_CARD.match(token)) is not None:
        cell = (int(m.group(1)), int(m.group(2)))
        card = parse_card(m.group(4))
        return SwapCard(cell, card) if m.group(3) == "<>" else PlaceCard(cell, card)
    if (m := _RE_DESTROY.match(token)) is not None:
        return Destroy((int(m.group(1)), int(m.group(2))))
    if (m := _RE_CONVERT.match(token)) is not None:
        return ConvertTo((int(m.group(1)), int(m.group(2))), KIND_CHARS.index(m.group(3).upper()))
    raise NotationError(f"{token!r}: not Territories notation; moves look like {NOTATION_HELP}")
