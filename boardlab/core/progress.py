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
"""

from __future__ import annotations

from typing import Hashable


class ProgressTracker:
    """Position keys, the run without progress and the move count, with undo.

    ``start_key`` is the key of the starting position. A position loaded mid-game
    may say how many moves without progress and how many moves in all came
    before it (``quiet_moves``, ``moves``); the keys of those earlier positions
    are unknown, so repetitions count from the loaded position on.

    Cost: :meth:`record` and :meth:`undo` are O(1); :meth:`repetitions` is
    O(length of the current run); :meth:`copy` O(positions).
    """

    __slots__ = ("_keys", "_resets", "_quiet_before", "_moves_before")

    def __init__(self, start_key: Hashable, quiet_moves: int = 0, moves: int = 0) -> None:
        if quiet_moves < 0 or moves < 0:
            raise ValueError("move counts cannot be negative")
        self._keys: list[Hashable] = [start_key]
        #: indices in ``_keys`` of the positions reached by progress moves (0: the start)
        self._resets: list[int] = [0]
        self._quiet_before = quiet_moves
        self._moves_before = moves

    def record(self, key: Hashable, progress: bool) -> None:
        """A move was made and reached the position ``key``; ``progress`` if the move was
        irreversible in the rules' sense (it resets the run and forgets earlier positions)."""
        keys = self._keys
        keys.append(key)
        if progress:
            self._resets.append(len(keys) - 1)

    def undo(self) -> None:
        """Forget the last :meth:`record` (the start position stays)."""
        keys = self._keys
        last = len(keys) - 1
        if last == 0:
            raise IndexError("nothing recorded to undo")
        keys.pop()
        if self._resets[-1] == last:
            self._resets.pop()

    @property
    def last_key(self) -> Hashable:
        """The key of the latest position."""
        return self._keys[-1]

    @property
    def quiet_moves(self) -> int:
        """Moves since the last progress move (or since the start, plus any loaded count)."""
        start = self._resets[-1]
        quiet = len(self._keys) - 1 - start
        return quiet + self._quiet_before if start == 0 else quiet

    @property
    def moves(self) -> int:
        """Moves recorded in all (plus any count a loaded position came with)."""
        return len(self._keys) - 1 + self._moves_before

    def repetitions(self, key: Hashable | None = None) -> int:
        """How often ``key`` (default: the latest position) occurs in the current run,
        the latest position included."""
        keys = self._keys
        if key is None:
            key = keys[-1]
        start = self._resets[-1]
        return keys[start:].count(key) if start else keys.count(key)

    def copy(self) -> "ProgressTracker":
        clone = ProgressTracker.__new__(ProgressTracker)
        clone._keys = self._keys.copy()
        clone._resets = self._resets.copy()
        clone._quiet_before = self._quiet_before
        clone._moves_before = self._moves_before
        return clone

    def __repr__(self) -> str:
        return f"ProgressTracker(moves={self.moves}, quiet_moves={self.quiet_moves}, positions={len(self._keys)})"


__all__ = ["ProgressTracker"]
