"""The computer thinks here: a pool of processes, off the event loop.

A search is handed only what the match says is to be decided (:meth:`Match.pending`: the
seat's agent, its seed, a state resampled for its seat and never the real one, its
deadline). The worker thinks with :func:`boardlab.core.decisions.think` and sends back the
move's notation and the agent as the search left it, which the room keeps in the seat, so
an agent's memory between moves survives the trip. The search is told the deadline and
answers by then with the best move it has found; one that still outlives it (a stuck or
crashed worker) is abandoned and the match plays its fallback move instead (the rules'
default move or the one-ply best move, never a random one), and a broken pool is
replaced, so one room's search never holds up another room's moves.

Searches are scheduled, not served first come: at most one search per worker is in the
pool at a time, and the next one is picked by priority, then age. A decision a person is
waiting for (:data:`PERSON`: a room with a seat held by a person, a hint) goes before a
room of computers only (:data:`COMPUTERS`), and computers-only rooms never hold every
worker: one is kept for people whenever there are two or more. A search's deadline runs
from when it starts, so a person's room waiting its turn is answered by its own search,
never by a fallback made of the wait.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import heapq
import itertools
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..core.agent import Agent
from ..core.decisions import Decision
from ..core.decisions import think as think_inline
from ..core.registry import game_ids

log = logging.getLogger("boardlab.server")
#: how often a worker checks that the server that started it still runs
PARENT_CHECK_SECONDS = 1.0
#: search priorities, lower first: a person waits for the first, nobody for the second
PERSON, COMPUTERS = 0, 1
#: the thread pool's size when ``workers`` is 0 (tests)
THREADS = 2


def think(decision: Decision) -> tuple[str, Agent]:
    """Run in a worker: the notation of the move ``decision``'s agent chooses, and the agent as
    the search left it (what it remembers between moves goes back to the room)."""
    return str(think_inline(decision)), decision.agent


@dataclasses.dataclass(frozen=True)
class Answer:
    """What came back from a search: the move's notation and the agent after it, or no move
    (None) and why, for :meth:`Match.decide` to play the fallback move."""

    move: str | None
    agent: Agent | None = None
    failure: str = ""


def _serve_parent(parent: int) -> None:
    """Run in each worker as it starts: leave as soon as the server is gone (killed, or shut
    down while this worker searched), instead of lingering as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="boardlab-parent-watch", daemon=True).start()


def _warm_up() -> int:
    # import every game (and the agents they ship) once, before the first real search
    game_ids()
    return os.getpid()


class ComputerPlayers:
    """The pool the computer seats of every room think in, and the queue in front of it.

    ``workers`` processes (spawned, so a worker never inherits the server's threads or
    sockets); 0 thinks in threads of this process instead, which tests use to avoid
    process start-up.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.slots = workers if workers > 0 else THREADS
        # with a single worker there is nothing to keep back: people still go first in the queue
        self.computer_slots = max(1, self.slots - 1)
        self._executor: Executor | None = None
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._running = 0
        self._running_computers = 0

    @property
    def queued(self) -> int:
        """Searches waiting for a worker (not counting those that run)."""
        return len(self._queue)

    def start(self) -> None:
        self._executor = self._new_executor()
        if isinstance(self._executor, ProcessPoolExecutor):
            for _ in range(self.workers):
                self._executor.submit(_warm_up)

    def _new_executor(self) -> Executor:
        if self.workers <= 0:
            return ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="boardlab-think")
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_serve_parent,
            initargs=(os.getpid(),),
        )

    def _may_start(self, priority: int) -> bool:
        if self._running >= self.slots:
            return False
        return priority == PERSON or self._running_computers < self.computer_slots

    async def _turn(self, priority: int) -> None:
        """Wait until this search may take a worker (priority, then age)."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (priority, next(self._order), turn)
        heapq.heappush(self._queue, entry)
        # a free worker may suit this search though older ones wait (people's, kept back from computers)
        self._hand_on()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(priority)  # handed a worker just as the room gave up: pass it on
            elif entry in self._queue:
                self._queue.remove(entry)
                heapq.heapify(self._queue)
            raise

    def _take(self, priority: int) -> None:
        self._running += 1
        if priority == COMPUTERS:
            self._running_computers += 1

    def _release(self, priority: int) -> None:
        self._running -= 1
        if priority == COMPUTERS:
            self._running_computers -= 1
        self._hand_on()

    def _finished(self, done: asyncio.Future[tuple[str, Agent]], priority: int) -> None:
        if not done.cancelled():
            done.exception()  # retrieved here: a search the room gave up on may still fail later
        self._release(priority)

    def _hand_on(self) -> None:
        skipped: list[tuple[int, int, asyncio.Future[None]]] = []
        while self._queue and self._running < self.slots:
            entry = heapq.heappop(self._queue)
            if entry[2].done():
                continue  # its room gave up waiting (cancelled), and takes it out itself
            if not self._may_start(entry[0]):
                skipped.append(entry)  # a computers-only search while only the people's worker is free
                continue
            self._take(entry[0])
            entry[2].set_result(None)
        for entry in skipped:
            heapq.heappush(self._queue, entry)

    async def choose(self, decision: Decision, wait: float, priority: int = PERSON) -> Answer:
        """Think ``decision`` in the pool; give up after ``wait`` seconds from the search's start
        (its deadline and a grace for the hand-over between processes). The search itself is
        told the decision's deadline and answers with its best move so far in time. A failed
        or abandoned search gives an :class:`Answer` without a move. ``priority`` places it in
        the queue (:data:`PERSON` first)."""
        if self._executor is None:
            self.start()
        await self._turn(priority)
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        if not isinstance(self._executor, ProcessPoolExecutor):
            # a thread shares the room's objects: it gets its own agent, as a worker process would,
            # so a search the room gave up on never touches the agent of the next decision
            decision = dataclasses.replace(decision, agent=copy.deepcopy(decision.agent))
        try:
            future = loop.run_in_executor(self._executor, think, decision)
        except BaseException:
            self._release(priority)
            raise
        # the worker stays busy until the search really ends, even after the room gave up on it:
        # its slot is given on only then, so the pool never holds more searches than workers
        future.add_done_callback(lambda done: self._finished(done, priority))
        spec = decision.spec
        try:
            move, agent = await asyncio.wait_for(asyncio.shield(future), wait)
            return Answer(move, agent)
        except TimeoutError:
            log.warning("computer %s took longer than %.0f s; playing a fallback move", spec, wait)
            return Answer(None, failure=f"no answer in {wait:.1f} s")
        except BrokenProcessPool:
            log.error("the computer's process pool broke (a worker died); starting a new one")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            return Answer(None, failure="its worker process died")
        except Exception as exc:  # an agent's bug must not take the room down: it is logged, the room goes on
            log.exception("computer %s failed to choose a move", spec)
            return Answer(None, failure=f"it failed: {exc!r}")

    def close(self) -> None:
        for _priority, _order, turn in self._queue:
            turn.cancel()
        self._queue.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


__all__ = ["COMPUTERS", "PERSON", "Answer", "ComputerPlayers", "think"]
