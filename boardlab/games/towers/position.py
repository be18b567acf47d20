"""The Towers position string ("TFEN", rules 10): writing it and reading it back.

``-,WW,-,-,-,BB,-/WW,-,-,C,-,-,BB/.../-,BB,-,-,-,WW,- W [counter]``: ranks 7 to 1
separated by ``/``, files a to g separated by ``,``, each square its stack from
bottom to top (``-`` when empty), then the letter of the seat to move, then the
optional no-progress counter (written only when it is not 0).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardlab.core import PositionError

from .board import CASTLE, CASTLE_SQUARES, MAX_HEIGHT, NUM_SQUARES, SIZE, SQUARE_NAMES, SUPPLY, Stack
from .rules import TowersRules

if TYPE_CHECKING:
    from .state import TowersState

CASTLE_LETTER = "C"
EMPTY = "-"


@dataclass(frozen=True, slots=True)
class TowersPosition:
    """A checked position, before any state exists: 49 stacks (bottom to top), the seat to
    move and the no-progress counter (rules 10)."""

    stacks: tuple[Stack, ...]
    to_move: int
    no_progress: int = 0


def format_position(state: TowersState) -> str:
    """The position string of ``state`` (rules 10.1)."""
    return write_position(state.stacks, state.rules.letters, state.to_move, state.progress.quiet_moves)


def write_position(stacks: Sequence[Stack], letters: str, to_move: int, no_progress: int) -> str:
    """The position string of ``stacks`` with ``letters[seat]`` naming each seat's tokens."""
    return position_from_rows(board_rows(stacks, letters), letters, to_move, no_progress)


def board_rows(stacks: Sequence[Stack], letters: str) -> list[list[str]]:
    """Ranks 7 down to 1, files a to g: each square's :func:`stack_text` (the view's rows, and
    the position string's squares)."""
    return [[stack_text(stacks[rank * SIZE + file], letters) for file in range(SIZE)] for rank in range(SIZE - 1, -1, -1)]


def position_from_rows(rows: list[list[str]], letters: str, to_move: int, no_progress: int) -> str:
    """The position string of the squares' texts ``rows`` (:func:`board_rows`)."""
    text = "/".join(",".join(cell or EMPTY for cell in row) for row in rows) + " " + letters[to_move]
    if no_progress:
        text += f" {no_progress}"
    return text


@functools.lru_cache(maxsize=16384)
def stack_text(stack: Stack, letters: str) -> str:
    """A stack bottom to top, ``C`` for the castle piece and ``letters[seat]`` for a seat's
    token; empty for an empty square. Memoised: a board holds few distinct stacks, and every
    view and position string of a server's rooms writes them all."""
    return "".join(CASTLE_LETTER if token == CASTLE else letters[token] for token in stack)


def parse_position(text: str, rules: TowersRules) -> TowersPosition:
    """Read a position string of a game with ``rules`` (its player count and no-progress limit).

    Checks everything the rules require of a position (rules 10.3): the shape, the
    tokens of this player count, heights of at most 5, a castle piece only at the
    bottom, exactly five castles, no seat over its supply, a valid seat to move and
    a counter between 0 and the limit. Raises :class:`PositionError` naming the fault.
    """
    players, no_progress_limit = rules.players, rules.no_progress_limit
    letters = "WB" if players == 2 else "WURB"
    prefix = f"towers position {text!r}"
    fields = text.split()
    if len(fields) not in (2, 3):
        raise PositionError(
            f"{prefix}: expected the board, the seat to move and an optional counter "
            f"separated by spaces, got {len(fields)} fields (rules 10.1)"
        )
    board_text, mover_text = fields[0], fields[1]
    ranks = board_text.split("/")
    if len(ranks) != SIZE:
        raise PositionError(f"{prefix}: expected {SIZE} ranks separated by '/', got {len(ranks)} (rules 10.1)")
    stacks: list[Stack] = [()] * NUM_SQUARES
    counts = [0] * players
    castles = 0
    for row, rank_text in enumerate(ranks):
        cells = rank_text.split(",")
        rank_number = SIZE - row
        if len(cells) != SIZE:
            raise PositionError(
                f"{prefix}: rank {rank_number} has {len(cells)} squares, expected {SIZE} "
                "separated by ',' (rules 10.1)"
            )
        for file, cell in enumerate(cells):
            sq = (rank_number - 1) * SIZE + file
            stacks[sq] = _parse_stack(prefix, SQUARE_NAMES[sq], cell, letters, players)
            for token in stacks[sq]:
                if token == CASTLE:
                    castles += 1
                else:
                    counts[token] += 1
    if castles != len(CASTLE_SQUARES):
        raise PositionError(f"{prefix}: {castles} castles on the board, the game has {len(CASTLE_SQUARES)} (rules 2.1)")
    for seat, count in enumerate(counts):
        if count > SUPPLY[players]:
            raise PositionError(
                f"{prefix}: {count} {letters[seat]} pieces on the board, more than the supply "
                f"of {SUPPLY[players]} (rules 1.3)"
            )
    if len(mover_text) != 1 or mover_text not in letters:
        raise PositionError(
            f"{prefix}: seat to move {mover_text!r} is not one of {', '.join(letters)} "
            f"in a {players}-player game (rules 10.1)"
        )
    no_progress = 0
    if len(fields) == 3:
        if not fields[2].isdigit():
            raise PositionError(f"{prefix}: the no-progress counter {fields[2]!r} is not a whole number (rules 10.2)")
        no_progress = int(fields[2])
        if no_progress > no_progress_limit:
            raise PositionError(
                f"{prefix}: the no-progress counter {no_progress} exceeds the limit "
                f"{no_progress_limit} (rules 8.2)"
            )
    return TowersPosition(tuple(stacks), letters.index(mover_text), no_progress)


def _parse_stack(prefix: str, square: str, cell: str, letters: str, players: int) -> Stack:
    if cell == EMPTY:
        return ()
    if not cell:
        raise PositionError(f"{prefix}: square {square} is blank; write '-' for an empty square (rules 10.1)")
    if len(cell) > MAX_HEIGHT:
        raise PositionError(f"{prefix}: square {square} holds {len(cell)} pieces, at most {MAX_HEIGHT} (rules 1.4)")
    tokens = []
    for level, char in enumerate(cell):
        if char == CASTLE_LETTER:
            if level != 0:
                raise PositionError(
                    f"{prefix}: square {square} has a castle piece at level {level}; "
                    "castle pieces only lie at the bottom (rules 1.6)"
                )
            tokens.append(CASTLE)
        elif char in letters:
            tokens.append(letters.index(char))
        else:
            raise PositionError(
                f"{prefix}: square {square} has token {char!r}; a {players}-player position uses "
                f"{', '.join(letters)} and C (rules 10.1)"
            )
    return tuple(tokens)

