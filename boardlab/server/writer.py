"""Group commit: the changes of every room go to storage in batches, off the event loop.

A commit that waits for the disk (SQLite with ``synchronous=FULL``, PostgreSQL) costs a
flush, a few milliseconds, whatever it holds. One writer thread takes every change that
arrived while the previous batch was being written and commits them together, so the
number of flushes a second stays bounded while each change is still on disk before its
move is acknowledged. Changes of one room never share a batch: a room has one change in
flight at a time (its lock), so every change in a batch is independent, and a conflict
refuses only its own change (:meth:`Storage.write_many`).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from .rows import Write
from .storage import Storage

#: the most writes one transaction holds
MAX_BATCH = 256


class GroupCommitter:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="boardlab-writer")
        self._queue: asyncio.Queue[tuple[Write, asyncio.Future[None]]] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._queue = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def write(self, write: Write) -> None:
        """Return once ``write`` is committed; raise what storage raised for it."""
        assert self._queue is not None, "the committer is not started"
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((write, done))
        await done

    async def _run(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self._queue.get()]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                outcomes = await loop.run_in_executor(self._thread, self.storage.write_many, [write for write, _ in batch])
            except Exception as exc:  # the thread itself failed: every write of the batch failed with it
                outcomes = [exc] * len(batch)
            for (_write, done), outcome in zip(batch, outcomes):
                if done.done():
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._thread.shutdown(wait=True)


__all__ = ["MAX_BATCH", "GroupCommitter"]
