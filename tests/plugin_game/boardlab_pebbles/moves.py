"""The move of Pebbles and its notation (rules.md, "Notation"): a pile letter, then a count."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from boardlab.core import Move, NotationError

#: the pile letters, one per pile (at most six piles, rule P1)
PILE_LETTERS = "abcdef"
_NOTATION = re.compile(r"([a-f])([1-9])\Z")


@dataclass(frozen=True, slots=True)
class Take(Move):
    """Take ``count`` pebbles from pile number ``pile`` (0 is pile ``a``)."""

    pile: int
    count: int

    def __str__(self) -> str:
        return f"{PILE_LETTERS[self.pile]}{self.count}"

    def json_fields(self) -> dict[str, Any]:
        return {"pile": PILE_LETTERS[self.pile], "count": self.count}


def parse_take(text: str) -> Take:
    """``b2`` -> ``Take(1, 2)``; NotationError naming the text otherwise (legality is the state's)."""
    found = _NOTATION.match(text)
    if found is None:
        raise NotationError(f"{text[:40]!r} is not Pebbles notation: a pile letter a-f and a count 1-9, e.g. b2")
    return Take(PILE_LETTERS.index(found.group(1)), int(found.group(2)))
