"""Shared helpers for the Towers tests: positions written as a few named squares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import boardlab
from boardlab.games.towers import TowersState

FILES = "abcdefg"
DEFAULT_CASTLES = ("b4", "d2", "d4", "d6", "f4")


def position_text(
    squares: Mapping[str, str],
    to_move: str = "W",
    counter: int | None = None,
    castles: tuple[str, ...] = DEFAULT_CASTLES,
) -> str:
    """A position string: the five castles bare unless ``squares`` says otherwise.

    ``squares`` maps a square to its stack bottom-to-top (``"CWW"``, ``"BBW"``).
    """
    cells = dict.fromkeys(castles, "C")
    cells.update(squares)
    ranks = []
    for rank in range(7, 0, -1):
        ranks.append(",".join(cells.get(f"{f}{rank}", "") or "-" for f in FILES))
    text = "/".join(ranks) + " " + to_move
    if counter is not None:
        text += f" {counter}"
    return text


def load(
    squares: Mapping[str, str], to_move: str = "W", players: int = 2, counter: int | None = None,
    **options: Any,
) -> TowersState:
    """A Towers state from a few squares (see :func:`position_text`)."""
    game = boardlab.load("towers", players=players, **options)
    state = game.state_from_position(position_text(squares, to_move, counter), seed=0)
    assert isinstance(state, TowersState)
    return state


def cells(state: TowersState) -> dict[str, str]:
    """The non-empty squares of a state as {square: stack letters}."""
    view = state.view()["board"]
    out = {}
    for row, line in enumerate(view["stacks"]):
        for file, cell in enumerate(line):
            if cell:
                out[f"{FILES[file]}{7 - row}"] = cell
    return out


def changed(before: Mapping[str, str], after: Mapping[str, str]) -> dict[str, str]:
    """Squares whose stack differs, mapped to the new stack ('' when emptied)."""
    names = set(before) | set(after)
    return {n: after.get(n, "") for n in sorted(names) if before.get(n, "") != after.get(n, "")}
