"""The Towers state (:class:`TowersState`).

The class lives in kernel.py, with the rules it applies: compiled (mypyc) with the core's State,
the position is held in machine integers and a search's moves, copies and undos never enter the
interpreter (docs/speed.md). This module is where the rest of the game imports it from.

Representation (kernel.py has the details):

* ``board``: everything a move changes, replaced by each move and never changed after
  (copy-on-write), so that the undo snapshot is the board before the move and a copy shares it:
  49 stacks, each one int (its height, then 3 bits per token from the bottom; tokens are seats
  ``0..3`` or CASTLE); one bit mask per seat of the squares whose top token is its, and one of
  the bare castles; the reserves (rules 1.7); the Zobrist hash (stacks + seat to move); the seat
  to move and the result.
* ``progress``: the core's :class:`~boardlab.core.ProgressTracker` with the hash of every
  position reached, the moves since the last build or dropping push, and the move count:
  threefold repetition (rules 8.1), the no-progress draw (8.2) and the cap (8.3).

``stacks``, ``control``, ``reserves``, ``to_move`` and ``zobrist`` read the board the way the
views, the legality messages and the position string want it (tuples of tokens, lists).
"""

from __future__ import annotations

from .kernel import Board, TowersState

__all__ = ["Board", "TowersState"]
