"""One played turn: the one value for a move once it is made.

The match log holds :class:`Turn` values; the terminal prints them, the server sends them to
pages (:meth:`Turn.to_json` for one viewer), storage appends and truncates its rows from them
and a record is written from them. A turn keeps the move itself, so a client that may read
the move whole is given its structure (the same as a legal move's ``to_json``), and a page
never has to take the notation text apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .values import CHANCE, Move, Player


@dataclass(frozen=True)
class Turn:
    """One move of a match: its number (1-based ply), who decided it (a seat or CHANCE),
    when (seconds since the start), how it reads to each viewer, its notation, a note
    (``timeout`` when the clock made it, ``fallback`` when a computer's thinking failed),
    its type, the move itself and its move number (:func:`next_move_number`; None for chance)."""

    number: int
    by: Player
    t: float
    #: texts[0] for spectators, texts[seat + 1] for each seat; None: the notation for everybody
    texts: tuple[str, ...] | None
    notation: str
    note: str = ""
    #: the move's type (``Move.json_type``): lets a client group a run of alike moves (a deal)
    kind: str = ""
    #: the move as played; its structure goes only to the viewers who may read it whole
    move: Move | None = None
    #: the move's number as players count them (decisions from 1); None for a chance outcome
    move_number: int | None = None

    def text_for(self, viewer: Player | None) -> str:
        """How the move reads to ``viewer`` (None: spectators): a redacted text where the
        viewer may not see all of it ("drew a card")."""
        if self.texts is None:
            return self.notation
        return self.texts[0 if viewer is None else viewer + 1]

    def readable_by(self, viewer: Player | None) -> bool:
        """Whether ``viewer`` may read the move whole: its text is the notation, or reads the
        same to everybody (a move in words: "rolled 3+5 = 8"), or tells ``viewer`` more than
        spectators (the drawer's "drew Q♦" where the others read "drew a card")."""
        if self.texts is None:
            return True
        own = self.text_for(viewer)
        return own == self.notation or own != self.texts[0] or len(set(self.texts)) == 1

    def to_json(self, viewer: Player | None) -> dict[str, Any]:
        """The turn as ``viewer`` may know it: ``number``, ``by`` (a seat or ``"chance"``),
        ``type``, ``text``, ``t``, ``note`` when there is one, and ``move``: the move's
        structure (as in ``legal_moves``) when the viewer may read it whole, else null, and
        ``move_number``: the move as players count it, null for chance."""
        entry: dict[str, Any] = {
            "number": self.number,
            "move_number": self.move_number,
            "by": "chance" if self.by == CHANCE else self.by,
            "type": self.kind,
            "text": self.text_for(viewer),
            "t": round(self.t, 3),
            "move": self.move.to_json() if self.move is not None and self.readable_by(viewer) else None,
        }
        if self.note:
            entry["note"] = self.note
        return entry


def next_move_number(log: Sequence[Turn], by: Player) -> int | None:
    """The move number of a turn by ``by`` after ``log``: one more than the last decision's,
    None for chance. Cost: the chance outcomes since the last decision."""
    if by == CHANCE:
        return None
    for turn in reversed(log):
        if turn.move_number is not None:
            return turn.move_number + 1
        if turn.by != CHANCE:  # a turn made before move numbers were kept: count them all
            return sum(1 for earlier in log if earlier.by != CHANCE) + 1
    return 1


def numbered(turns: Iterable[Turn]) -> list[Turn]:
    """``turns`` with their move numbers (:func:`next_move_number`) set afresh."""
    result: list[Turn] = []
    for turn in turns:
        number = next_move_number(result, turn.by)
        result.append(turn if turn.move_number == number else replace(turn, move_number=number))
    return result


def moves_made(log: Sequence[Turn]) -> int:
    """How many moves the players made in ``log`` (chance outcomes are not moves)."""
    return sum(1 for turn in log if turn.by != CHANCE)


__all__ = ["Turn", "moves_made", "next_move_number", "numbered"]
