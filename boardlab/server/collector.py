"""Keep the cyclic garbage collector's full passes short on a busy server.

A server's heap is mostly long-lived: the code, the games' tables, and every open room's
history, which grows with each move. CPython's full pass scans all of it, and under 200
games of Towers one pass stopped every room for 100 to 170 ms about every ten seconds: the
largest part of a move's 99th-percentile latency (docs/server.md, Load).

:class:`LongLivedFreezer` takes what survives a full pass out of the later ones
(``gc.freeze()``), so that each full pass scans only what was made since the last one.
Freezing does not keep anything alive: a frozen object whose last reference goes is freed
at once as usual. What the frozen generation cannot do is find reference cycles that became
garbage: so every ``rescan_seconds`` it is thawed and the next full pass scans the whole heap
(one long pause in that many seconds, not one every ten), and collects them.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


class LongLivedFreezer:
    """Freeze what survives each full collection; thaw it all every ``rescan_seconds``.

    ``install()`` freezes what is loaded now and hooks ``gc.callbacks``; ``uninstall()``
    unhooks and thaws. One per process (the collector is the process's)."""

    def __init__(self, rescan_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        if not rescan_seconds > 0:
            raise ValueError(f"rescan_seconds {rescan_seconds}: must be more than 0")
        self.rescan_seconds = rescan_seconds
        self._clock = clock
        self._last_whole_scan = clock()
        #: the next full pass scans the whole heap (it was thawed after the last one)
        self._thawed = False
        #: full passes seen, and how many of them scanned the whole heap
        self.full_passes = 0
        self.whole_heap_passes = 0

    def install(self) -> None:
        """Collect and freeze what is loaded now, then keep freezing after each full pass."""
        gc.collect()
        gc.freeze()
        self._last_whole_scan = self._clock()
        if self._after_pass not in gc.callbacks:
            gc.callbacks.append(self._after_pass)

    def uninstall(self) -> None:
        """Stop freezing and thaw everything (the collector is then as Python starts it)."""
        if self._after_pass in gc.callbacks:
            gc.callbacks.remove(self._after_pass)
        gc.unfreeze()

    def _after_pass(self, phase: str, info: dict[str, Any]) -> None:
        # runs inside the collector, in whichever thread triggered it: no allocation-heavy
        # work here, and never a collection (it would not run)
        if phase != "stop" or info.get("generation") != 2:
            return
        self.full_passes += 1
        now = self._clock()
        if self._thawed:
            self._thawed = False
            self.whole_heap_passes += 1
            self._last_whole_scan = now
        elif now - self._last_whole_scan >= self.rescan_seconds:
            # let the next full pass see everything once, and free the frozen cycles that
            # became garbage since; it freezes the survivors again
            gc.unfreeze()
            self._thawed = True
            return
        gc.freeze()


__all__ = ["LongLivedFreezer"]
