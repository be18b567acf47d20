"""Shared helpers for the Territories tests: positions from a few named fields.

Positions are written through the documented position string (R10.4), so
tests never poke private fields. The bank and the supplies are derived from
the holdings and buildings given, unless a test sets them explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardlab.games.territories import TerritoriesGame, TerritoriesState

# A fixed grid, row by row. Point 1,1 touches 2H 3S 8S 8H (two 8s of different suits).
DEFAULT_GRID = (
    ("2H", "3S", "4C", "5D", "6H"),
    ("8S", "8H", "9C", "TD", "JH"),
    ("QS", "2S", "3C", "4D", "5H"),
    ("6S", "9D", "TH", "JS", "QC"),
)
START_SUPPLY = {"P": 8, "R": 2, "N": 2, "B": 2, "Q": 1, "K": 1}
KINDS = "PRNBQK"


def grid_text(rows: Sequence[Sequence[str]] = DEFAULT_GRID, extra: Mapping[tuple[int, int], str] | None = None) -> str:
    cells = [f"{c},{r}:{code}" for r, row in enumerate(rows) for c, code in enumerate(row)]
    for (c, r), code in (extra or {}).items():
        cells.append(f"{c},{r}:{code}")
    return ";".join(cells)


def position(
    *,
    buildings: Mapping[tuple[int, int], str] | None = None,
    res0: Sequence[int] = (0, 0, 0, 0),
    res1: Sequence[int] = (0, 0, 0, 0),
    hand0: str = "-",
    hand1: str = "-",
    grid: str | None = None,
    **fields: Any,
) -> str:
    """A position string in phase main, White (seat 0) = P1 to act, turn 5, unless overridden.

    ``buildings`` maps a point to seat + chess letter (``"0P"``: White's Town).
    Other keyword arguments replace fields of the position string by name.
    """
    buildings = dict(buildings or {})
    supply = [dict(START_SUPPLY), dict(START_SUPPLY)]
    for owner_kind in buildings.values():
        supply[int(owner_kind[0])][owner_kind[1]] -= 1
    bank = [13 - res0[s] - res1[s] for s in range(4)]
    values: dict[str, Any] = {
        "grid": grid or grid_text(),
        "bld": ";".join(f"{x},{y}:{v}" for (x, y), v in buildings.items()) or "-",
        "hand0": hand0,
        "hand1": hand1,
        "res0": ",".join(map(str, res0)),
        "res1": ",".join(map(str, res1)),
        "bank": ",".join(map(str, bank)),
        "supply0": ",".join(str(supply[0][k]) for k in KINDS),
        "supply1": ",".join(str(supply[1][k]) for k in KINDS),
        "discard": "-",
        "bottom": "-",
        "reshuffled": "-",
        "first": "0",
        "phase": "main",
        "step": "4",
        "active": "0",
        "turn": "5",
        "disc": "-",
        "wild": "-",
        "draws": "-",
        "offer": "-",
        "ability": "-",
        "die": "0",
        "used": "0,0,0,0",
        "proposals": "0",
        "nobuild": "0,0",
        "roll": "-",
        "result": "-",
    }
    for key, value in fields.items():
        if key not in values:
            raise KeyError(f"no position field {key!r}")
        values[key] = value
    return "territories " + " ".join(f"{k}={v}" for k, v in values.items())


def state(game: TerritoriesGame | None = None, **kwargs: Any) -> TerritoriesState:
    """A state from :func:`position` (phase ``roll`` is handy: the next move is the dice)."""
    game = game or TerritoriesGame()
    made = game.state_from_position(position(**kwargs), seed=1)
    assert isinstance(made, TerritoriesState)
    return made


def resources(st: TerritoriesState, seat: int) -> dict[str, int]:
    """A seat's resources as the public view reports them."""
    return dict(st.view(None)["board"]["seats"][seat]["resources"])


def hand(st: TerritoriesState, seat: int) -> list[str]:
    """A seat's territory cards, as that seat sees them."""
    return list(st.view(seat)["board"]["seats"][seat]["territories"])


def play_all(st: TerritoriesState, tokens: str) -> None:
    for token in tokens.split():
        st.play(token)
