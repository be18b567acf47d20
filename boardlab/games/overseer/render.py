"""The terminal drawing of an Overseer view (rich markup): the disc unrolled into a table.

Columns are the sectors A to L, rows the indices from 8 (the rim) down to 1 (the centre),
so White's army stands at the bottom. The double bars on both sides are the L|A seam:
the ring goes on from L to A. Pieces are letters, White upper case and Black lower case,
so the board reads the same without colour (NO_COLOR).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import KIND_LETTERS, KIND_NAMES, KINDS, NUM_INDICES, SEAT_NAMES, SECTORS

SEAT_STYLES = ("bold bright_white", "bold magenta")
DARK_SQUARE = "on grey23"
LAST_MOVE = "bold yellow"
SEAM = "[bold cyan]║[/]"
EMPTY = "·"
#: beside the rows: the piece letters, and what the brackets mean
LEGEND = (*tuple(f"{KIND_LETTERS[kind]} {KIND_NAMES[kind]}" for kind in KINDS), "\\[ ] last move")


def _cell(name: str, view: Mapping[str, Any], dark: set[str], last: tuple[str, str] | None) -> str:
    piece = view["pieces"].get(name)
    if piece:
        body = f"[{SEAT_STYLES[piece['seat']]}]{piece['letter']}[/]"
    else:
        body = f"[dim]{EMPTY}[/]"
    if last and name in last:
        # brackets mark the last move's two squares, with or without colour
        cell = f"[{LAST_MOVE}]\\[[/]{body}[{LAST_MOVE}]][/]"
    else:
        cell = f" {body} "
    if name in dark:
        cell = f"[{DARK_SQUARE}]{cell}[/]"
    return cell


def _material(counts: Mapping[str, int], seat: int) -> str:
    parts = []
    by_name = {KIND_NAMES[kind]: KIND_LETTERS[kind] for kind in KINDS}
    for name, count in counts.items():
        letter = by_name[name] if seat == 0 else by_name[name].lower()
        parts.append(letter if count == 1 else f"{letter}×{count}")
    return " ".join(parts) or "-"


def render_view(envelope: Mapping[str, Any]) -> str:
    """The board as rich markup, then whose turn, material, warnings and the result."""
    view = envelope["board"]
    dark = set(view["dark_squares"])
    last_move = view.get("last_move")
    last = (last_move["from"], last_move["to"]) if last_move else None
    header = "         " + "".join(f" {sector} " for sector in SECTORS)
    lines = [header]
    for row, index in enumerate(range(NUM_INDICES, 0, -1)):
        label = {NUM_INDICES: "rim", 1: "ctr"}.get(index, "")
        cells = "".join(_cell(f"{sector}{index}", view, dark, last) for sector in SECTORS)
        lines.append(f"  {index} {label:>3} {SEAM}{cells}{SEAM} {index}   {LEGEND[row]}")
    lines.append(header)
    lines.append(f"         {SEAM} the L|A seam: every ring goes on from L to A")
    to_move = envelope["to_move"]
    for seat in (1, 0):
        marker = "▶ " if to_move == seat else "  "
        lines.append(
            f"{marker}[{SEAT_STYLES[seat]}]{SEAT_NAMES[seat]}[/] ({'lower' if seat else 'upper'} case): "
            f"{_material(view['material'][seat], seat)}"
        )
    # the move number is the frame's (the terminal's one numbering); the rule counts plies
    lines.append(f"{view['plies_since_capture']}/{view['no_capture_limit']} plies without a capture")
    result = envelope.get("result")
    if not result:
        for seat in (0, 1):
            if view["overseer_in_danger"][seat]:
                square = view["overseers"][seat]
                lines.append(f"[bold red]! {SEAT_NAMES[seat]}'s Overseer on {square} can be captured[/]")
    else:
        winners = result["winners"]
        if len(winners) == 1:
            lines.append(f"[bold]{SEAT_NAMES[winners[0]]} wins[/]: {result['reason']}")
        else:
            lines.append(f"[bold]Draw[/]: {result['reason']}")
    return "\n".join(lines)


__all__ = ["render_view"]
