"""Shared helpers for the Sovereign tests: positions written as a few named squares.

``"d1:3S e1:2D g7:0s"`` lists squares with their height and piece (uppercase P1, lowercase
P2), as the ruling's test positions do; every other square is empty open ground and the
supply is what the towers on the board leave (rule 5.4).
"""

from __future__ import annotations

from typing import Any

import boardlab
from boardlab.games.sovereign import SovereignState

FILES = "abcdefg"


def spn(squares: str, to_move: int = 1, ply: int = 0, lower: int = 35, top: int = 14) -> str:
    """The SPN of a play position given as ``"d1:3S e1:2D ..."`` (supply from ``lower``/``top`` in all)."""
    cells = {f"{f}{r}": (0, "") for f in FILES for r in range(1, 8)}
    for item in squares.split():
        name, token = item.split(":")
        cells[name] = (int(token[0]), token[1:])
    ranks = []
    for rank in range(7, 0, -1):
        ranks.append("".join(f"{cells[f'{f}{rank}'][0]}{cells[f'{f}{rank}'][1]}" for f in FILES))
    heights = [h for h, _ in cells.values()]
    pool_lower = lower - sum(min(h, 2) for h in heights)
    pool_top = top - sum(1 for h in heights if h == 3)
    return f"{'/'.join(ranks)} {to_move} p {pool_lower}/{pool_top} {ply}"


def load(squares: str, to_move: int = 1, ply: int = 0, **options: Any) -> SovereignState:
    """A state from a sparse position (see :func:`spn`); the supply options are honoured."""
    game = boardlab.load("sovereign", **options)
    state = game.state_from_position(
        spn(squares, to_move, ply, game.options["supply_lower"], game.options["supply_top"]), seed=0
    )
    assert isinstance(state, SovereignState)
    return state


def moves(state: SovereignState, prefix: str = "") -> set[str]:
    """The legal moves' notation, only those starting with ``prefix``."""
    return {str(m) for m in state.legal_moves() if str(m).startswith(prefix)}


def targets(state: SovereignState, origin: str) -> set[str]:
    """Where the piece on ``origin`` may go (the squares after the '-' or 'x')."""
    out = set()
    for text in moves(state):
        if text[1:3] == origin and text[3] in "-x":
            out.add(text[4:6])
    return out


def refusal(state: SovereignState, text: str) -> str:
    """The message of the IllegalMoveError that ``text`` raises here (fails if it is legal)."""
    try:
        state.play(text)
    except boardlab.IllegalMoveError as exc:
        return str(exc)
    raise AssertionError(f"{text} was accepted")


def height_at(state: SovereignState, name: str) -> int:
    return state.heights[SQUARE_INDEX[name]]


def piece_at(state: SovereignState, name: str) -> str:
    code = state.pieces[SQUARE_INDEX[name]]
    return ".SDCBsdcb"[code] if code else ""


SQUARE_INDEX = {f"{f}{r}": (r - 1) * 7 + i for i, f in enumerate(FILES) for r in range(1, 8)}
