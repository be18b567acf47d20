"""server/collector.py: the full passes skip what survived the last one, and the whole heap is
scanned again every rescan_seconds, so frozen cycles that became garbage are still freed."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from boardlab.server.collector import LongLivedFreezer


class Cycle:
    """An object in a reference cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def freezer(clock: FakeClock) -> Iterator[LongLivedFreezer]:
    installed = LongLivedFreezer(rescan_seconds=600, clock=clock)
    installed.install()
    try:
        yield installed
    finally:
        installed.uninstall()


def test_what_survives_a_full_pass_is_frozen_and_young_cycles_are_still_freed(freezer: LongLivedFreezer) -> None:
    before = gc.get_freeze_count()
    kept = [Cycle() for _ in range(500)]
    young = weakref.ref(Cycle())  # garbage at once: a cycle nothing refers to
    gc.collect()
    assert young() is None
    assert gc.get_freeze_count() >= before + len(kept)
    assert freezer.full_passes == 1 and freezer.whole_heap_passes == 0


def test_a_frozen_cycle_that_becomes_garbage_is_freed_after_the_rescan(freezer: LongLivedFreezer, clock: FakeClock) -> None:
    held = [Cycle()]
    gc.collect()  # the cycle survives a full pass: frozen
    watched = weakref.ref(held[0])
    held.clear()
    gc.collect()
    assert watched() is not None  # frozen: no full pass sees it before the rescan is due
    clock.now += 599
    gc.collect()
    assert watched() is not None
    clock.now += 1
    gc.collect()  # the rescan is due: this pass thaws the heap for the next one
    assert watched() is not None
    gc.collect()  # the whole heap scanned: the cycle is found and freed
    assert watched() is None
    assert freezer.whole_heap_passes == 1
    assert gc.get_freeze_count() > 0  # and the survivors are frozen again


def test_uninstall_thaws_everything_and_stops_freezing(clock: FakeClock) -> None:
    freezer = LongLivedFreezer(rescan_seconds=600, clock=clock)
    freezer.install()
    assert gc.get_freeze_count() > 0
    freezer.uninstall()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gc.get_freeze_count() == 0 and freezer.full_passes == 0


@pytest.mark.parametrize("seconds", [0, -1, float("nan")])
def test_a_rescan_period_that_is_not_positive_is_refused(seconds: float) -> None:
    with pytest.raises(ValueError, match="rescan_seconds"):
        LongLivedFreezer(rescan_seconds=seconds)
