"""Repetition and move-limit bookkeeping for games that end in a draw by either.

Chess-like games (Towers, Sovereign, Overseer) draw when a position comes back
often enough or when too many moves pass without progress (a capture, a build,
a piece dropping ...). :class:`ProgressTracker` keeps what those rules need,
undoably and cheaply enough for search: a key per position reached (a Zobrist
hash, or any hashable), the length of the current run of moves without progress,
and the number of moves made.

Positions before the last progress move can never come back (progress is
irreversible by definition), so repetitions are counted within the current run
only.

Typical use in a game's ``_apply``::

    self.progress.record(self.zobrist, progress=captured)
    if self.progress.repetitions() >= 3: ...            # threefold repetition
    if self.progress.quiet_moves >= self.rules.quiet_limit: ...
    if self.progress.moves >= self.rules.move_limit: ...

and in ``_restore``: ``self.progress.undo()``. The tracker is mutable: copy it in
``_copy`` (:meth:`copy`), never share it between states.

The class is written in :mod:`.kernel`, compiled with the core's :class:`~.kernel.State`.
"""

from __future__ import annotations

from .kernel import ProgressTracker

__all__ = ["ProgressTracker"]
