"""The terminal's thinker: the computer searches in a thread while the keyboard is watched.

While a computer thinks, the line ``now`` makes it move at once with the best move it has found
(its agent is interrupted); any other line typed meanwhile is kept, in order, for the prompts that
follow, and does not disturb the search. The input ending (Ctrl-D, a closed pipe) is noted: the
session leaves once the kept lines are used.
"""

from __future__ import annotations

import os
import select
import threading
from typing import TextIO

from ..core.decisions import Decision, think
from ..core.values import Move

#: the line that, typed while a computer thinks, makes it move at once
MOVE_NOW = "now"


class KeyboardThinker:
    """A :class:`~boardlab.core.decisions.Thinker` that watches ``source`` (the keyboard; None:
    nothing to watch, the computer thinks its full time inline)."""

    def __init__(self, source: TextIO | None) -> None:
        self.source = source
        #: whole lines typed while a computer thought, answered in order by the next prompts
        self.typed_ahead: list[str] = []
        #: bytes of a line still being typed when the thinking ended (a pipe can deliver half a line)
        self.partial_line = b""
        #: the input ended (Ctrl-D) while a computer thought: leave once the typed lines are used
        self.input_ended = False

    def think(self, decision: Decision) -> Move:
        """Think ``decision``: inline without a keyboard to watch, else in a thread while the
        keyboard is read (Ctrl-C stops the search too, and leaves)."""
        source = self.source
        if source is None or self.input_ended:
            return think(decision)
        outcome: dict[str, Move | BaseException] = {}

        def search() -> None:
            try:
                outcome["move"] = think(decision)
            except BaseException as exc:  # handed to the main thread
                outcome["error"] = exc

        worker = threading.Thread(target=search, name="computer-move", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                ready, _, _ = select.select([source], [], [], 0.1)
                if ready and self.take_typed_lines():
                    decision.agent.interrupt()
                    worker.join()
        except BaseException:
            decision.agent.interrupt()  # Ctrl-C: stop the search too, then leave
            worker.join()
            raise
        error = outcome.get("error")
        if isinstance(error, BaseException):
            raise error  # the agent's failure (the match plays the fallback move), or Ctrl-C
        move = outcome["move"]
        assert isinstance(move, Move)
        return move

    def take_typed_lines(self) -> bool:
        """Read what is waiting on the keyboard (without blocking: select said it is ready) into
        :attr:`typed_ahead`; whether one of the lines is ``now``, which is consumed, not kept.

        Reads the descriptor itself rather than the text stream: the stream's buffer would hide
        a second line from select, and the prompt's ``input()`` must find nothing half-read."""
        assert self.source is not None
        chunk = os.read(self.source.fileno(), 4096)
        if not chunk:
            self.input_ended = True  # Ctrl-D on an empty line, or the pipe closed
            return False
        *lines, self.partial_line = (self.partial_line + chunk).split(b"\n")
        move_now = False
        for raw in lines:
            line = raw.decode("utf-8", errors="replace").rstrip("\r")
            if line.strip().lower() == MOVE_NOW:
                move_now = True
            elif line.strip():
                self.typed_ahead.append(line)
        return move_now


__all__ = ["MOVE_NOW", "KeyboardThinker"]
