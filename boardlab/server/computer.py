"""The computer thinks here: a pool of processes, off the event loop.

The server's thinker (:class:`PoolThinker`, an :class:`~boardlab.core.decisions.AsyncThinker`)
hands a worker only what the match says is to be decided (:meth:`Match.pending`: the seat's
agent, its seed, a state resampled for its seat and never the real one, its deadline). The
worker thinks with :func:`boardlab.core.decisions.think` and sends back the move and the agent
as the search left it, whose memory between moves the seat's agent takes over
(:meth:`Agent.carry_over`). The search is told the deadline and answers by then with the best
move it has found; one that still outlives it (a stuck or crashed worker) is abandoned: the
thinker raises :class:`~boardlab.core.decisions.ThinkingFailed` and the match plays its fallback
move instead (the rules' default move or the one-ply best move, never a random one), and a
broken pool is replaced, so one room's search never holds up another room's moves.

Searches are scheduled, not served first come: at most one search per worker is in the
pool at a time, and the next one is picked fairly. Each search is charged to an owner (the
client address whose action asked for it: :mod:`.ratelimits`), and owners are served in
turn, round-robin, so one address's twenty rooms wait behind each other, not in front of
everybody else; no owner holds every worker (one is kept for the others whenever there are
two or more), so another person's search starts at once. A decision a person is waiting for
(:data:`PERSON`: a room with a seat held by a person, a hint) goes before a room of computers
only or an analysis (:data:`COMPUTERS`), and those never hold every worker either; an analysis
comes in slices of about half a second (:mod:`.analysis_slices`), so that the owners' turns
reach it too. A queued search whose room ended or moved on meanwhile (a resignation, an undo, a
move by another process) is dropped when the pool comes to it, or sooner when the service
sweeps the queue after a change (:meth:`ComputerPlayers.drop_unwanted`).
A search's deadline runs from when it starts, so a room waiting its turn is answered by its
own search, never by a fallback made of the wait.
"""

from __future__ import annotations

import asyncio
import collections
import copy
import dataclasses
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..core.agent import Agent
from ..core.decisions import Decision, ThinkingFailed
from ..core.decisions import think as think_inline
from ..core.registry import game_ids
from ..core.values import Move

log = logging.getLogger("boardlab.server")
#: how often a worker checks that the server that started it still runs
PARENT_CHECK_SECONDS = 1.0
#: search priorities, lower first: a person waits for the first, nobody for the second
PERSON, COMPUTERS = 0, 1
#: the thread pool's size when ``workers`` is 0 (tests)
THREADS = 2


def think(decision: Decision) -> tuple[Move, Agent]:
    """Run in a worker: the move ``decision``'s agent chooses, and the agent as the search left
    it (what it remembers between moves goes back to the seat)."""
    return think_inline(decision), decision.agent


@dataclasses.dataclass(frozen=True)
class JobResult:
    """What came back from a job in the pool (an analysis, a replay): its ``value``, or None and
    why it has none."""

    value: Any
    failure: str = ""
    #: the job was dropped unstarted: whoever asked no longer wanted it
    dropped: bool = False


def _serve_parent(parent: int) -> None:
    """Run in each worker as it starts: leave as soon as the server is gone (killed, or shut
    down while this worker searched), instead of lingering as an orphan. Ctrl-C in the terminal
    reaches every process of its group: it is the server's to act on (it shuts the pool down),
    so a worker ignores it rather than print a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="boardlab-parent-watch", daemon=True).start()


def _warm_up() -> int:
    # import every game (and the agents they ship) once, before the first real search
    game_ids()
    return os.getpid()


class SearchDropped(ThinkingFailed):
    """A queued search whose room no longer wants it (it ended, or moved on): nothing is to be
    played for it."""


@dataclasses.dataclass(eq=False)
class Queued:
    """A search waiting for a worker: ``turn`` is resolved when it gets one."""

    priority: int
    order: int
    owner: str
    turn: asyncio.Future[None]
    wanted: Callable[[], bool]


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
        #: the most workers one owner holds at once: one is kept for everybody else
        self.owner_slots = max(1, self.slots - 1)
        self._executor: Executor | None = None
        #: each owner's waiting searches, oldest first; owners in the order they are served
        self._waiting: dict[str, list[Queued]] = {}
        self._owners: collections.deque[str] = collections.deque()
        self._order = itertools.count()
        self._running = 0
        self._running_computers = 0
        self._running_by_owner: collections.Counter[str] = collections.Counter()
        self._warm: list[Future[int]] = []

    @property
    def queued(self) -> int:
        """Searches waiting for a worker (not counting those that run)."""
        return sum(len(entries) for entries in self._waiting.values())

    def queued_for(self, owner: str) -> int:
        """Searches of ``owner`` waiting for a worker."""
        return len(self._waiting.get(owner, ()))

    def running_for(self, owner: str) -> int:
        return self._running_by_owner[owner]

    def start(self) -> None:
        self._executor = self._new_executor()
        if isinstance(self._executor, ProcessPoolExecutor):
            self._warm = [self._executor.submit(_warm_up) for _ in range(self.workers)]

    async def warmed_up(self) -> None:
        """Return once every worker has started and loaded the games and agents (a first search
        then starts at once instead of waiting seconds for its worker's imports)."""
        if self._warm:
            await asyncio.gather(*(asyncio.wrap_future(future) for future in self._warm), return_exceptions=True)

    def _new_executor(self) -> Executor:
        if self.workers <= 0:
            return ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="boardlab-think")
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_serve_parent,
            initargs=(os.getpid(),),
        )

    def _may_start(self, entry: Queued) -> bool:
        if self._running >= self.slots:
            return False
        if entry.owner and self._running_by_owner[entry.owner] >= self.owner_slots:
            return False
        return entry.priority == PERSON or self._running_computers < self.computer_slots

    async def _turn(self, priority: int, owner: str, wanted: Callable[[], bool]) -> None:
        """Wait until this search may take a worker (its owner's turn; people first)."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = Queued(priority, next(self._order), owner, turn, wanted)
        if owner not in self._waiting:
            self._waiting[owner] = []
            self._owners.append(owner)
        self._waiting[owner].append(entry)
        # a free worker may suit this search though older ones wait (people's, kept back from computers)
        self._hand_on()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(entry)  # handed a worker just as the room gave up: pass it on
            else:
                self._forget(entry)
            raise

    def _forget(self, entry: Queued) -> None:
        entries = self._waiting.get(entry.owner)
        if entries is not None and entry in entries:
            entries.remove(entry)
            if not entries:
                del self._waiting[entry.owner]
                self._owners.remove(entry.owner)

    def _take(self, entry: Queued) -> None:
        self._running += 1
        self._running_by_owner[entry.owner] += 1
        if entry.priority == COMPUTERS:
            self._running_computers += 1

    def _release(self, entry: Queued) -> None:
        self._running -= 1
        self._running_by_owner[entry.owner] -= 1
        if not self._running_by_owner[entry.owner]:
            del self._running_by_owner[entry.owner]
        if entry.priority == COMPUTERS:
            self._running_computers -= 1
        self._hand_on()

    def _finished(self, done: asyncio.Future[Any], entry: Queued) -> None:
        if not done.cancelled():
            done.exception()  # retrieved here: a search the room gave up on may still fail later
        self._release(entry)

    def drop_unwanted(self) -> int:
        """Drop every waiting search whose room no longer wants it; how many were dropped."""
        dropped = 0
        for entries in list(self._waiting.values()):
            for entry in list(entries):
                if not entry.turn.done() and not entry.wanted():
                    self._forget(entry)
                    entry.turn.set_exception(SearchDropped())
                    dropped += 1
        return dropped

    def _next(self) -> Queued | None:
        """The search to start now: people's before computers-only rooms', the owners in turn
        (each owner's oldest first); None when no waiting search may start."""
        for priority in (PERSON, COMPUTERS):
            for _ in range(len(self._owners)):
                owner = self._owners[0]
                self._owners.rotate(-1)  # served or not, the next look starts with the next owner
                for entry in self._waiting.get(owner, ()):
                    if entry.priority != priority or entry.turn.done():
                        continue
                    if not entry.wanted():
                        continue  # dropped below, by the sweep
                    if self._may_start(entry):
                        return entry
                    break  # this owner's oldest search of this priority may not start: the next owner
        return None

    def _hand_on(self) -> None:
        self.drop_unwanted()
        while self._running < self.slots:
            entry = self._next()
            if entry is None:
                return
            self._forget(entry)
            self._take(entry)
            entry.turn.set_result(None)

    async def run(
        self,
        function: Callable[..., Any],
        argument: Any,
        wait: float,
        priority: int = PERSON,
        owner: str = "",
        wanted: Callable[[], bool] | None = None,
        *,
        spec: str = "",
        copy_agent: bool = False,
    ) -> JobResult:
        """Run ``function(argument)`` in the pool at its turn (a search for :class:`PoolThinker`,
        an analysis, a replay); give up after ``wait`` seconds from the job's start. A failed or
        abandoned job gives a result without a value; a job nobody ``wanted`` any more when its
        turn came gives one marked ``dropped``. ``priority`` and ``owner`` place it in the queue
        (:data:`PERSON` first, the owners in turn)."""
        if self._executor is None:
            self.start()
        try:
            await self._turn(priority, owner, wanted or _always)
        except SearchDropped:
            return JobResult(None, failure="its room moved on while it waited", dropped=True)
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        if copy_agent and not isinstance(self._executor, ProcessPoolExecutor):
            # a thread shares the room's objects: it gets its own agent, as a worker process would,
            # so a search the room gave up on never touches the agent of the next decision
            argument = dataclasses.replace(argument, agent=copy.deepcopy(argument.agent))
        entry = Queued(priority, 0, owner, loop.create_future(), _always)
        try:
            future = loop.run_in_executor(self._executor, function, argument)
        except BaseException:
            self._release(entry)
            raise
        # the worker stays busy until the search really ends, even after the room gave up on it:
        # its slot is given on only then, so the pool never holds more searches than workers
        future.add_done_callback(lambda done: self._finished(done, entry))
        try:
            result = await asyncio.wait_for(asyncio.shield(future), wait)
        except TimeoutError:
            log.warning("computer %s took longer than %.0f s; playing a fallback move", spec, wait)
            return JobResult(None, failure=f"no answer in {wait:.1f} s")
        except BrokenProcessPool:
            log.error("the computer's process pool broke (a worker died); starting a new one")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            return JobResult(None, failure="its worker process died")
        except Exception as exc:  # an agent's bug must not take the room down: it is logged, the room goes on
            log.exception("computer %s failed to choose a move", spec)
            return JobResult(None, failure=f"it failed: {exc!r}")
        return JobResult(result)

    def close(self) -> None:
        for entries in self._waiting.values():
            for entry in entries:
                entry.turn.cancel()
        self._waiting.clear()
        self._owners.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _always() -> bool:
    return True


@dataclasses.dataclass(frozen=True)
class PoolThinker:
    """The server's thinker: a decision thought in the pool at its turn, charged to ``owner`` at
    ``priority``, given ``grace`` seconds beyond the decision's deadline for the hand-over between
    processes. A search its room no longer ``wanted`` when its turn came raises
    :class:`SearchDropped` (nothing is to be played); one that failed or overran raises
    :class:`~boardlab.core.decisions.ThinkingFailed` (the match plays its fallback move)."""

    pool: ComputerPlayers
    grace: float
    priority: int = PERSON
    owner: str = ""
    wanted: Callable[[], bool] = _always

    async def think(self, decision: Decision) -> Move:
        wait = (decision.deadline or 0.0) + self.grace
        result = await self.pool.run(
            think, decision, wait, self.priority, self.owner, self.wanted, spec=decision.spec, copy_agent=True
        )
        if result.dropped:
            raise SearchDropped(result.failure)
        if result.value is None:
            raise ThinkingFailed(result.failure)
        move, searched = result.value
        if self.wanted():  # a search the room gave up on leaves the seat's memory as it is
            decision.agent.carry_over(searched)
        return move  # type: ignore[no-any-return]


__all__ = ["COMPUTERS", "PERSON", "ComputerPlayers", "JobResult", "PoolThinker", "SearchDropped", "think"]
