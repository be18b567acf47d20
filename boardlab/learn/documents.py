"""A rules document's two parts: the rules for players, and the part for programs.

A game's rules document (``docs/rules/<id>.md``) holds every rule, numbered, for both: the part
for programs starts at a level-1 heading that begins ``# For programs`` (the notation, the
position string, the result codes, the views and the integer encodings) and runs to the end.
The rules page a player opens (``/rules/GAME``) and ``boardlab rules GAME`` show the first
part; ``/rules/GAME/programs`` and ``boardlab rules GAME --programs`` the second. One file keeps
the numbers the code and the tests cite in one place.
"""

from __future__ import annotations

import re

#: how the heading that starts the part for programs begins
PROGRAMS_HEADING = "# For programs"
_FENCE = re.compile(r"^(`{3,}|~{3,})")


def split_rules(text: str) -> tuple[str, str | None]:
    """``(the rules for players, the part for programs)``; the second is None in a document
    without the heading (all of it is then for players). A heading inside a code block does
    not count."""
    fence: str | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        opening = _FENCE.match(line)
        if opening is not None:
            if fence is None:
                fence = opening.group(1)
            elif line.startswith(fence):
                fence = None
        elif fence is None and line.startswith(PROGRAMS_HEADING):
            return text[:offset].rstrip() + "\n", text[offset:]
        offset += len(line)
    return text, None


__all__ = ["PROGRAMS_HEADING", "split_rules"]
