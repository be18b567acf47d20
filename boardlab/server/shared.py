"""Answers that are the same for everybody, made once and shared: the catalog of games and the
lessons (``/api/games``, ``/api/games/{game}``, ``/api/games/{game}/lesson``).

They hold no secret, depend on no token and change only with the installation, yet each is
built from the registry, the level ladder and the lesson files: one visitor asking fifty times
a second would cost the event loop what fifty visitors' moves do. An ASGI middleware keeps
each such answer (its status, headers and body) for :data:`KEEP_SECONDS`, per path, for the last
:data:`KEPT` of them; only complete ``200`` answers are kept. None of these routes reads a query
parameter, so the query is no part of the key: ``/api/games?v=1``, ``?v=2``... are one answer,
not a new one each (which would also push the others out).
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the answers kept: the catalog, one game, its lesson
SHARED = re.compile(r"/api/games(/[A-Za-z0-9_-]{1,64}(/lesson)?)?/?")
KEEP_SECONDS = 60.0
KEPT = 64


class SharedAnswers:
    """ASGI middleware: answer the routes of :data:`SHARED` from memory while it is fresh."""

    def __init__(self, app: ASGIApp, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.clock = clock
        self._kept: OrderedDict[str, tuple[float, list[Message]]] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET" or not SHARED.fullmatch(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        key: str = scope["path"]
        kept = self._kept.get(key)
        if kept is not None and kept[0] > self.clock():
            self._kept.move_to_end(key)
            for message in kept[1]:
                await send(message)
            return
        messages: list[Message] = []

        async def keep(message: Message) -> None:
            messages.append(message)
            await send(message)

        await self.app(scope, receive, keep)
        start = messages[0] if messages else {}
        whole = bool(messages) and not messages[-1].get("more_body", False)
        if start.get("type") == "http.response.start" and start.get("status") == 200 and whole:
            self._kept[key] = (self.clock() + KEEP_SECONDS, messages)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)


__all__ = ["KEEP_SECONDS", "SHARED", "SharedAnswers"]
