"""Cards, resources and buildings of Territories: codes, numbers and small tables.

Everything here is an int or a tuple built at import, because move generation
and production run in search loops (rules R1 and R2 of docs/rules/territories.md).

* A territory card is an int ``0..39``: ``suit * 10 + rank_index``. Its code is
  rank character + suit (``9H``, ``TS`` for 10, ``JC`` = 11, ``QD`` = 12).
* Resources are four counters in the order H, S, C, D (:data:`SUITS`), kept as
  4-tuples or 4-lists of ints.
* Building kinds are ints ``0..5`` named by chess letters ``P R N B Q K``.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.core import NotationError

Card = int
Resources = tuple[int, int, int, int]

SUITS = "HSCD"
RANK_CHARS = "2345689TJQ"
RANK_NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
DECK_SIZE = 40
GRID_COLUMNS = 5
GRID_ROWS = 4
GRID_SIZE = GRID_COLUMNS * GRID_ROWS
PER_SUIT = 13

ALL_CARDS: tuple[Card, ...] = tuple(range(DECK_SIZE))
CARD_SUIT: tuple[int, ...] = tuple(card // 10 for card in ALL_CARDS)
CARD_NUMBER: tuple[int, ...] = tuple(RANK_NUMBERS[card % 10] for card in ALL_CARDS)
CARD_CODE: tuple[str, ...] = tuple(RANK_CHARS[card % 10] + SUITS[card // 10] for card in ALL_CARDS)
CODE_TO_CARD: dict[str, Card] = {code: card for card, code in enumerate(CARD_CODE)}

#: the seats' chess colours (R1.3): seat 0 is White, seat 1 Black
SEAT_NAMES = ("White", "Black")

# Building kinds (chess letters) and their tables (rule R1.3).
TOWN, FORT, BARRACKS, TEMPLE, PALACE, CAPITAL = range(6)
KIND_CHARS = "PRNBQK"
KIND_NAMES = ("Town", "Fort", "Barracks", "Temple", "Palace", "Capital")
KIND_POINTS = (1, 2, 2, 2, 2, 3)
KIND_TIER = (1, 2, 2, 2, 2, 3)
START_SUPPLY = (8, 2, 2, 2, 1, 1)
TOWN_COST: Resources = (1, 1, 1, 1)
CAPITAL_COST: Resources = (2, 2, 2, 2)
ONE_OF_EACH: Resources = (1, 1, 1, 1)
#: cost of upgrading a Town to each tier-2 kind: four of one suit
UPGRADE_COST: dict[int, Resources] = {
    FORT: (0, 0, 0, 4),
    BARRACKS: (0, 0, 4, 0),
    TEMPLE: (4, 0, 0, 0),
    PALACE: (0, 4, 0, 0),
}

# Abilities (rule R7) and the tier-2 kind that grants each (the Capital grants all).
SWAP, RAID, CONVERT, EXPAND = range(4)
ABILITY_NAMES = ("swap", "raid", "conv", "expand")
ABILITY_KIND = (FORT, BARRACKS, TEMPLE, PALACE)


#: ways out of 36 that two dice roll each card number (none rolls 7, so no card has it)
NUMBER_WAYS: dict[int, int] = {n: 6 - abs(n - 7) for n in range(2, 13) if n != 7}


def parse_card(text: str) -> Card:
    """A card code to a card; NotationError naming the text otherwise."""
    card = CODE_TO_CARD.get(text.upper())
    if card is None:
        raise NotationError(
            f"{text!r}: not a territory card (rank 2-6, 8, 9, T, J, Q then suit H, S, C or D)"
        )
    return card


def is_card_code(text: str) -> bool:
    return text.upper() in CODE_TO_CARD


def resources_text(amounts: Sequence[int]) -> str:
    """Long form in HSCD order: ``(2, 1, 0, 1)`` -> ``HHSD``; empty string for none."""
    return "".join(SUITS[s] * amounts[s] for s in range(4))


def parse_resources(text: str, allow_shorthand: bool = False) -> Resources:
    """``HHSD`` (any order) -> counts; ``4D`` too when ``allow_shorthand``."""
    if allow_shorthand and len(text) == 2 and text[0].isdigit():
        suit = SUITS.find(text[1].upper())
        if suit < 0:
            raise NotationError(f"{text!r}: unknown resource {text[1]!r} (use H, S, C, D)")
        amounts = [0, 0, 0, 0]
        amounts[suit] = int(text[0])
        return tuple(amounts)  # type: ignore[return-value]
    amounts = [0, 0, 0, 0]
    for letter in text.upper():
        suit = SUITS.find(letter)
        if suit < 0:
            raise NotationError(f"{text!r}: unknown resource {letter!r} (use H, S, C, D)")
        amounts[suit] += 1
    return tuple(amounts)  # type: ignore[return-value]


def covers(holding: Sequence[int], cost: Sequence[int]) -> bool:
    """Whether ``holding`` has at least ``cost`` of every suit."""
    return (
        holding[0] >= cost[0]
        and holding[1] >= cost[1]
        and holding[2] >= cost[2]
        and holding[3] >= cost[3]
    )


def shortfall_text(holding: Sequence[int], cost: Sequence[int]) -> str:
    """Why ``holding`` does not cover ``cost``: ``you hold only 2 D``."""
    for suit in range(4):
        if holding[suit] < cost[suit]:
            return f"you hold only {holding[suit]} {SUITS[suit]}, {cost[suit]} needed"
    return "you hold enough"

