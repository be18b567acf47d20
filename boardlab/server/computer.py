"""The computer thinks here: a pool of processes, off the event loop.

A search is handed only what the match hands a computer player: the agent's spec, a
seed, and :meth:`Match.agent_input` (a state resampled for its seat, never the real
one). The worker rebuilds the agent with :func:`boardlab.agents.make_agent` and sends
back the move's notation. The search is told the level's deadline and answers by then
with the best move it has found; one that still outlives it (a stuck or crashed worker)
is abandoned, the room plays the rules' default move or the one-ply best move instead
(never a random one), and a broken pool is replaced, so one room's search never holds up
another room's moves.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..agents import make_agent
from ..core.registry import game_ids
from ..core.state import State
from ..core.values import Move

log = logging.getLogger("boardlab.server")
#: how often a worker checks that the server that started it still runs
PARENT_CHECK_SECONDS = 1.0


def think(spec: str, seed: int, state: State, cap: float | None = None) -> str:
    """Run in a worker: the move the agent ``spec`` (seeded with ``seed``) chooses in ``state``,
    its search capped at ``cap`` seconds of wall time: a search cut short by the cap plays the
    best move it has found so far."""
    agent = make_agent(spec, seed=seed, game=state.game)
    agent.limit_time(cap)
    return str(agent.choose(state))


def fallback_move(state: State, seed: int) -> Move:
    """What the room plays when no answer came back: the rules' own default move (as a
    clock's timeout plays), else the best move one ply ahead. Never a random move."""
    move = state.default_move()
    if move is not None:
        return move
    return make_agent("greedy", seed=seed, game=state.game).choose(state)


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
    """The pool the computer seats of every room think in.

    ``workers`` processes (spawned, so a worker never inherits the server's threads or
    sockets); 0 thinks in threads of this process instead, which tests use to avoid
    process start-up.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Executor | None = None

    def start(self) -> None:
        self._executor = self._new_executor()
        if isinstance(self._executor, ProcessPoolExecutor):
            for _ in range(self.workers):
                self._executor.submit(_warm_up)

    def _new_executor(self) -> Executor:
        if self.workers <= 0:
            return ThreadPoolExecutor(max_workers=2, thread_name_prefix="boardlab-think")
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_serve_parent,
            initargs=(os.getpid(),),
        )

    async def choose(
        self, spec: str, seed: int, state: State, deadline: float, cap: float | None = None
    ) -> str | None:
        """The notation of the agent's move, or None when the search failed or took longer
        than ``deadline`` seconds (the caller then plays a fallback move). ``cap`` (at most the
        deadline) is told to the search, which then answers with its best move so far in time."""
        if self._executor is None:
            self.start()
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        cap = deadline if cap is None else min(cap, deadline)
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self._executor, think, spec, seed, state, cap), deadline
            )
        except asyncio.TimeoutError:
            log.warning("computer %s took longer than %.0f s; playing a fallback move", spec, deadline)
        except BrokenProcessPool:
            log.error("the computer's process pool broke (a worker died); starting a new one")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
        except Exception:  # an agent's bug must not take the room down: it is logged, the room goes on
            log.exception("computer %s failed to choose a move", spec)
        return None

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


__all__ = ["ComputerPlayers", "fallback_move", "think"]
