"""The terminal drawing of a Towers view (rich markup)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import COLOUR_NAMES, COLOUR_STYLES, FILES, SIZE

CASTLE_STYLE = "bold green"
CROWN_STYLE = "bold yellow"
#: a crowned castle [C + 4 pieces] is the widest cell: 7 characters; 7 x 7 cells fit a 60-column screen
CELL_WIDTH = 7
#: brackets of a castle and of a crowned one: told apart by shape too, so they read without colour
CASTLE_BRACKETS = ("\\[", "]")
CROWN_BRACKETS = ("{", "}")


def render_view(envelope: Mapping[str, Any]) -> str:
    """The board as rich markup: coloured stacks bottom-to-top, castles in green brackets,
    crowned castles in yellow ones, file and rank labels, then reserves and whose turn."""
    players = int(envelope["players"])
    view = envelope["board"]
    letters: str = view["letters"]
    styles = COLOUR_STYLES[players]
    token_style = {letter: styles[seat] for seat, letter in enumerate(letters)}
    token_style["C"] = CASTLE_STYLE
    castles = set(view["castles"])
    crowned = set(view["crowned"])
    lines = ["   " + "".join(f"{f:^{CELL_WIDTH}}" for f in FILES)]
    for row, cells in enumerate(view["stacks"]):
        rank = SIZE - row
        parts = []
        for file, cell in enumerate(cells):
            name = f"{FILES[file]}{rank}"
            body = "".join(f"[{token_style[t]}]{t}[/]" for t in cell) if cell else "[dim].[/]"
            visible = max(len(cell), 1)
            if name in castles:
                style, (left, right) = (
                    (CROWN_STYLE, CROWN_BRACKETS) if name in crowned else (CASTLE_STYLE, CASTLE_BRACKETS)
                )
                body = f"[{style}]{left}[/]{body}[{style}]{right}[/]"
                visible += 2
            pad = CELL_WIDTH - visible
            parts.append(" " * (pad // 2) + body + " " * (pad - pad // 2))
        lines.append(f" {rank} " + "".join(parts) + f" {rank}")
    lines.append(lines[0])
    names = COLOUR_NAMES[players]
    for seat in range(players):
        marker = "▶ " if envelope["to_move"] == seat else "  "
        lines.append(
            f"{marker}[{styles[seat]}]{names[seat]}[/] ({letters[seat]}): "
            f"reserve {view['reserves'][seat]}, castles {view['castle_counts'][seat]}"
            f"/{view['castles_to_win']}, crowns {view['crown_counts'][seat]}/{view['crowns_to_win']}"
        )
    lines.append(f"[{CASTLE_STYLE}]\\[C][/] castle   [{CROWN_STYLE}]{{C}}[/] crowned   stacks bottom to top")
    # fixed-width counters, so the frame does not grow a column when a number gains a digit
    limit = view["no_progress_limit"]
    lines.append(
        f"no progress {view['no_progress']:>{len(str(limit))}}/{limit}   played {envelope['ply']:>5}"
    )
    result = envelope.get("result")
    if result:
        winners = result["winners"]
        if len(winners) == 1:
            lines.append(f"[bold]{names[winners[0]]} wins[/]: {result['reason']}")
        else:
            lines.append(f"[bold]Draw[/]: {result['reason']}")
    return "\n".join(lines)
