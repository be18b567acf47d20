"""Live watchers of a room: each WebSocket's latest state and its log delta."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ..core.values import Player

Message = dict[str, Any]


class Update:
    """One state message for every watcher that sees the room alike (one viewer, the same held
    seats), encoded to JSON once for each log start its watchers ask (all of them the same, but
    for a watcher that skipped states): a hundred spectators cost one encoding, not a hundred."""

    __slots__ = ("_texts", "message")

    def __init__(self, message: Message) -> None:
        self.message = message
        self._texts: dict[int, str] = {}

    def text(self, start: int) -> str:
        """The message as JSON with its log from entry ``start`` on."""
        text = self._texts.get(start)
        if text is None:
            log = self.message["log"]
            text = self._texts[start] = json.dumps({**self.message, "log_start": start, "log": log[start:]})
        return text


class Watcher:
    """One live connection to a room: the seats its token holds and the seat it asked for.

    Only the latest state is kept: a slow client skips states, never gets them out of order.
    The log goes as a delta: each message sent names ``log_start``, the number of entries
    the client keeps from the previous message on this connection, and carries the entries
    from there on (all of them in the first message; fewer after an undo took some back).
    A token holding several seats sees the seat to move: when that viewer changes, the
    entries the client holds were written for the other seat, so the log goes again from the
    first entry that reads differently for the new one (in a game without hidden moves, none).
    """

    def __init__(self, held: list[Player], seat: Player | None) -> None:
        self.held = held
        self.seat = seat
        self._latest: Update | None = None
        self._ready = asyncio.Event()
        #: log entries the client holds, and how many of them are still valid
        self._known = 0
        self._valid = 0
        #: the seat the client's log entries were written for, and those entries
        self._log_viewer: Player | None = None
        self._sent_log: list[Any] = []

    @property
    def spectator(self) -> bool:
        return not self.held

    def push(self, update: Update, unchanged_log: int) -> None:
        """Queue ``update`` (with the viewer's whole log); the first ``unchanged_log`` log
        entries are the same as in the previous message pushed."""
        self._latest = update
        self._valid = min(self._valid, unchanged_log)
        self._ready.set()

    def resend(self) -> None:
        """Queue the latest state again with its whole log (a client that said who it is again
        starts its log afresh), as the text already encoded for every watcher that saw it so:
        nothing is built for it."""
        if self._latest is not None:
            self._known = self._valid = 0
            self._ready.set()

    async def next_message(self) -> str:
        """The next state to send, as JSON text."""
        await self._ready.wait()
        self._ready.clear()
        update = self._latest
        assert update is not None
        message = update.message
        log = message["log"]
        start = min(self._known, self._valid)
        if message["seat"] != self._log_viewer:
            start = next((i for i in range(start) if self._sent_log[i] != log[i]), start)
        self._log_viewer, self._sent_log = message["seat"], log
        self._known = self._valid = len(log)
        return update.text(start)


__all__ = ["Message", "Update", "Watcher"]
