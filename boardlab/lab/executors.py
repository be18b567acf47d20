"""Where a study's games are played: this process, a process pool, or a Ray cluster.

Every executor runs the same unit of work, :func:`~boardlab.lab.play.play_one`,
on (plan, game index) tasks, so the same seeds give the same games on any of
them. :meth:`Executor.run` yields finished games in completion order, and
``None`` as a heartbeat at least every :data:`HEARTBEAT_SECONDS` while it waits,
so a caller can keep a clock and a progress display moving. Progress within a
game arrives through ``on_ply((variant, index), ply)`` (not from Ray workers).

Ctrl-C: workers ignore it and the parent stops them; closing the generator
(or an exception in the caller) terminates the pool or cancels the Ray tasks.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..core.errors import OptionError
from .play import PlayedGame, SimulationPlan, play_one

Task = tuple[SimulationPlan, int]
#: ``on_ply((variant, index), ply)``: game ``index`` of ``variant`` has reached move ``ply``
OnPly = Callable[[tuple[str, int], int], None]
HEARTBEAT_SECONDS = 0.25

BACKENDS = ("process", "ray")


class Executor:
    """Plays tasks; subclasses choose where."""

    def run(self, tasks: Sequence[Task], on_ply: OnPly | None = None) -> Iterator[PlayedGame | None]:
        raise NotImplementedError


class SerialExecutor(Executor):
    """Every game in this process, one after the other (``--jobs 1``)."""

    def run(self, tasks: Sequence[Task], on_ply: OnPly | None = None) -> Iterator[PlayedGame | None]:
        for plan, index in tasks:
            tick = None if on_ply is None else _tick_for(on_ply, (plan.variant, index))
            yield play_one(plan, index, tick)


def _tick_for(on_ply: OnPly, key: tuple[str, int]) -> Callable[[int], None]:
    return lambda ply: on_ply(key, ply)


# --- the process pool ---------------------------------------------------------------
_worker_ticks: Any = None


def _start_worker(ticks: Any) -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool; otherwise every
    worker prints its own traceback on top of the parent's clean message."""
    global _worker_ticks
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_ticks = ticks


def _pool_play(task: Task) -> PlayedGame:
    plan, index = task
    key = (plan.variant, index)
    return play_one(plan, index, lambda ply: _worker_ticks.put((key, ply)))


class ProcessPoolExecutor(Executor):
    """``jobs`` worker processes on this machine (``--jobs N``)."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise OptionError(f"--jobs must be at least 1, not {jobs}")
        self.jobs = jobs

    def run(self, tasks: Sequence[Task], on_ply: OnPly | None = None) -> Iterator[PlayedGame | None]:
        if not tasks:
            return
        context = multiprocessing.get_context()
        ticks = context.Queue()
        # Callers must not run threads while the pool forks its workers (the CLI's
        # progress display refreshes by hand for that reason).
        with context.Pool(min(self.jobs, len(tasks)), initializer=_start_worker, initargs=(ticks,)) as pool:
            finished = pool.imap_unordered(_pool_play, tasks, chunksize=1)
            while True:
                try:
                    played = finished.next(timeout=HEARTBEAT_SECONDS)
                except multiprocessing.TimeoutError:
                    _drain(ticks, on_ply)
                    yield None
                    continue
                except StopIteration:
                    # a worker's ticks reach the queue through its feeder thread, which may be
                    # behind the game's result; workers that exit normally flush it first
                    pool.close()
                    pool.join()
                    _drain(ticks, on_ply)
                    break
                _drain(ticks, on_ply)
                yield played


def _drain(ticks: Any, on_ply: OnPly | None) -> None:
    while True:
        try:
            key, ply = ticks.get_nowait()
        except queue_module.Empty:
            return
        if on_ply is not None:
            on_ply(key, ply)


# --- Ray -------------------------------------------------------------------------------
def _ray_play(task: Task) -> PlayedGame:
    plan, index = task
    return play_one(plan, index)


class RayExecutor(Executor):
    """Tasks on a Ray cluster (the ``ray`` extra): ``address`` names a running cluster
    (``auto`` finds the local one); without it, an already connected session is used,
    else a local Ray is started with ``num_cpus`` CPUs and shut down afterwards.

    At most ``in_flight`` tasks are submitted at once, so a huge study does not
    flood the cluster's object store.
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None, in_flight: int | None = None) -> None:
        try:
            import ray  # the optional extra: imported only when this backend is chosen
        except ImportError:
            raise OptionError(
                "--backend ray needs Ray: pip install 'boardlab[ray]'"
            ) from None
        self._ray = ray
        self.address = address
        self.num_cpus = num_cpus
        self.in_flight = in_flight

    def run(self, tasks: Sequence[Task], on_ply: OnPly | None = None) -> Iterator[PlayedGame | None]:
        ray = self._ray
        started_here = not ray.is_initialized()
        if started_here:
            ray.init(
                address=self.address,
                num_cpus=None if self.address else self.num_cpus,
                include_dashboard=False,
                log_to_driver=False,
            )
        remote_play = ray.remote(max_retries=2)(_ray_play)
        window = self.in_flight or max(8, 4 * int(ray.cluster_resources().get("CPU", 1)))
        waiting = list(tasks)
        waiting.reverse()  # pop() from the end keeps the tasks' order
        pending: list[Any] = []
        try:
            while waiting or pending:
                while waiting and len(pending) < window:
                    pending.append(remote_play.remote(waiting.pop()))
                done, pending = ray.wait(pending, num_returns=1, timeout=HEARTBEAT_SECONDS)
                if not done:
                    yield None
                for ref in done:
                    yield ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if started_here:
                ray.shutdown()


def make_executor(backend: str = "process", jobs: int = 1, address: str | None = None) -> Executor:
    """The executor for a command line's ``--backend``, ``--jobs`` and ``--address``."""
    if backend not in BACKENDS:
        raise OptionError(f"--backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {jobs}")
    if backend == "ray":
        return RayExecutor(address=address, num_cpus=jobs if address is None else None)
    if address is not None:
        raise OptionError("--address names a Ray cluster: use it with --backend ray")
    return SerialExecutor() if jobs == 1 else ProcessPoolExecutor(jobs)
