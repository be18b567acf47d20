"""Fewer passes of the cyclic garbage collector while games are played in bulk or searched.

CPython runs a young-generation pass of its cyclic collector whenever the objects that
can hold references (lists, tuples, states, search nodes) made since the last pass, less
those freed, pass a threshold: 700 by default. A game's history keeps a snapshot of every
move and a search keeps every node it makes, so both cross that threshold every few dozen
moves or iterations, and each pass walks the objects that survived it (the older
generations' passes, less often, walk more). Measured on this project's games, fewer passes
make random play and the searches faster (docs/speed.md, The collector, has the figures).

:func:`fewer_collections` raises that threshold while a block runs, so a pass comes about
fourteen times less often (10,000 against 700). Nothing is left uncollected: the passes still run, each over more
objects, and cyclic garbage waits at most that many more allocations for one. The lab's
games (:func:`boardlab.lab.play.play_one`) and the tree searches (``mcts``, ``ismcts``) run
inside it. ``alphabeta`` does not: it takes back every move it tries, so little survives to
be walked, and it measured no faster inside. The server's long-lived heap has its own policy
(``boardlab.server.collector``).

``BOARDLAB_COLLECTOR=python`` in the environment turns this off (Python's collector as it
is), to measure what it saves (``bench/speed.py --compare-collector``) or to keep cyclic
garbage shorter-lived.
"""

from __future__ import annotations

import gc
import os
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

#: the young generation's threshold inside :func:`fewer_collections` (Python's own is 700);
#: 5,000 to 50,000 measured alike, so the low end: the least garbage left waiting
YOUNG_THRESHOLD = 10_000

#: the environment variable that turns :func:`fewer_collections` off: ``python`` (``fewer``,
#: empty or unset: on)
COLLECTOR_VARIABLE = "BOARDLAB_COLLECTOR"
COLLECTOR_SETTINGS = ("fewer", "python")

_lock = threading.Lock()
#: blocks open now, in any thread, and the thresholds to put back when the last one closes
#: (None: the first block found automatic collection off, or a threshold already as high)
_open_blocks = 0
_saved_thresholds: tuple[int, ...] | None = None


@contextmanager
def fewer_collections(young: int = YOUNG_THRESHOLD) -> Iterator[None]:
    """Run the block with the collector's young threshold at ``young`` at least.

    The thresholds are the process's, so blocks count: nested blocks, and blocks open at
    once in several threads, raise the threshold once, and the last to close puts back what
    the first found. Automatic collection switched off (``gc.disable()``, or a threshold of 0)
    is left as it is. ValueError if ``young`` is not positive.
    """
    global _open_blocks, _saved_thresholds
    if young < 1:
        raise ValueError(f"young threshold {young}: must be at least 1")
    if collector_setting() == "python":
        yield
        return
    with _lock:
        if _open_blocks == 0:
            found = gc.get_threshold()
            if found[0] and found[0] < young:
                _saved_thresholds = found
                gc.set_threshold(young, *found[1:])
        _open_blocks += 1
    try:
        yield
    finally:
        with _lock:
            _open_blocks -= 1
            if _open_blocks == 0 and _saved_thresholds is not None:
                gc.set_threshold(*_saved_thresholds)
                _saved_thresholds = None


def collector_setting() -> str:
    """``fewer`` or ``python``, from :data:`COLLECTOR_VARIABLE`; another value warns (naming the
    ones it takes) and counts as ``fewer``."""
    setting = os.environ.get(COLLECTOR_VARIABLE, "").strip().lower() or "fewer"
    if setting not in COLLECTOR_SETTINGS:
        warnings.warn(
            f"{COLLECTOR_VARIABLE}={setting!r} is not one of {', '.join(COLLECTOR_SETTINGS)}: using fewer",
            RuntimeWarning,
            stacklevel=3,
        )
        return "fewer"
    return setting


__all__ = ["COLLECTOR_SETTINGS", "COLLECTOR_VARIABLE", "YOUNG_THRESHOLD", "collector_setting", "fewer_collections"]
