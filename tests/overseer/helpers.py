"""Shared helpers for the Overseer tests: positions written as a few named squares."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import boardlab
from boardlab.games.overseer import OverseerState
from tests.overseer import reference


def position_text(pieces: Mapping[str, str], to_move: str = "w", since_capture: int = 0, number: int = 1) -> str:
    """An OFEN (rule 10.1) from ``{"A1": "O", "G8": "o", ...}``: White upper case, Black lower case."""
    board = {reference.to_square(square.upper()): letter for square, letter in pieces.items()}
    return f"{reference.board_text(board)} {to_move} {since_capture} {number}"


def load(pieces: Mapping[str, str], to_move: str = "w", since_capture: int = 0, **options: Any) -> OverseerState:
    """An Overseer state from a few squares (see :func:`position_text`)."""
    game = boardlab.load("overseer", **options)
    state = game.state_from_position(position_text(pieces, to_move, since_capture), seed=0)
    assert isinstance(state, OverseerState)
    return state


def moves_from(state: OverseerState, square: str) -> set[str]:
    """The legal moves of the piece on ``square``, as texts."""
    return {str(m) for m in state.legal_moves() if str(m)[:2] == square or str(m)[:3] == square}


def targets(moves: Iterable[object]) -> set[str]:
    """The arrival squares of move texts such as ``F1-H3``."""
    return {str(m)[3:] for m in moves}


def play_all(state: OverseerState, moves: Iterable[str]) -> None:
    for move in moves:
        state.play(move)
