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

from collections.abc import Hashable


class ProgressTracker:
    """Position keys, the run without progress and the move count, with undo.

    ``start_key`` is the key of the starting position. A position loaded mid-game
    may say how many moves without progress and how many moves in all came
    before it (``quiet_moves``, ``moves``); the keys of those earlier positions
    are unknown, so repetitions count from the loaded position on.

    Cost: :meth:`record`, :meth:`repetitions` and :meth:`undo` are O(1) (an undo past a progress
    move is O(length of the run it returns to)); :meth:`copy` is O(positions).
    """

    __slots__ = ("_counts", "_keys", "_moves_before", "_quiet_before", "_resets")

    def __init__(self, start_key: Hashable, quiet_moves: int = 0, moves: int = 0) -> None:
        if quiet_moves < 0 or moves < 0:
            raise ValueError("move counts cannot be negative")
        self._keys: list[Hashable] = [start_key]
        #: indices in ``_keys`` of the positions reached by progress moves (0: the start)
        self._resets: list[int] = [0]
        #: how often each key occurs in the current run (a search asks after every move); None
        #: exactly while the run is one position (a progress move starts one, and is often
        #: followed by another), so that equal histories always have equal fields
        self._counts: dict[Hashable, int] | None = None
        self._quiet_before = quiet_moves
        self._moves_before = moves

    def record(self, key: Hashable, progress: bool) -> int:
        """A move was made and reached the position ``key``; ``progress`` if the move was
        irreversible in the rules' sense (it resets the run and forgets earlier positions).
        Returns how often ``key`` now occurs in the current run (:meth:`repetitions`)."""
        keys = self._keys
        keys.append(key)
        if progress:
            self._resets.append(len(keys) - 1)
            self._counts = None
            return 1
        counts = self._counts
        if counts is None:
            counts = self._counts = {keys[-2]: 1}  # the run so far: the one position before this one
        count = counts.get(key, 0) + 1
        counts[key] = count
        return count

    def undo(self) -> None:
        """Forget the last :meth:`record` (the start position stays)."""
        keys = self._keys
        last = len(keys) - 1
        if last == 0:
            raise IndexError("nothing recorded to undo")
        key = keys.pop()
        resets = self._resets
        if resets[-1] == last:
            resets.pop()
            # back into the run before the progress move: count its positions again
            run = keys[resets[-1]:]
            if len(run) == 1:
                self._counts = None
                return
            recounted: dict[Hashable, int] = {}
            for earlier in run:
                recounted[earlier] = recounted.get(earlier, 0) + 1
            self._counts = recounted
            return
        if last - 1 == resets[-1]:
            self._counts = None  # back to a run of one position
            return
        counts = self._counts
        assert counts is not None  # the run has two positions at least: a record made the counts
        count = counts[key] - 1
        if count:
            counts[key] = count
        else:
            del counts[key]

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
        latest = self._keys[-1]
        counts = self._counts
        if counts is None:
            return 1 if key is None or key == latest else 0
        return counts.get(latest if key is None else key, 0)

    def copy(self) -> ProgressTracker:
        clone = ProgressTracker.__new__(ProgressTracker)
        clone._keys = self._keys.copy()
        clone._resets = self._resets.copy()
        counts = self._counts
        clone._counts = None if counts is None else counts.copy()
        clone._quiet_before = self._quiet_before
        clone._moves_before = self._moves_before
        return clone

    def __repr__(self) -> str:
        return f"ProgressTracker(moves={self.moves}, quiet_moves={self.quiet_moves}, positions={len(self._keys)})"


__all__ = ["ProgressTracker"]
