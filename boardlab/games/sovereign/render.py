"""The terminal drawing of a Sovereign view (rich markup).

Each square shows its tower height (``·`` for open ground) and the piece on top by its
letter, uppercase for P1 and lowercase for P2, so the board reads without colour too
(NO_COLOR). Colour adds to it: the players' pieces in two colours, towers shaded by
height, a threatened Sovereign marked ``!`` in red.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import FILES, KIND_NAMES, SIZE

SEAT_STYLES = ("bold bright_cyan", "bold bright_magenta")
#: background of a square by its height (0: none)
HEIGHT_STYLES = ("", "on grey23", "on grey42", "on grey62")
THREAT_STYLE = "bold red"
CELL_WIDTH = 5


def _cell(height: int, letter: str, threatened: bool) -> str:
    shade = HEIGHT_STYLES[height]
    mark = "!" if threatened else " "
    body = f"{height if height else '·'}"
    if letter:
        style = SEAT_STYLES[0 if letter.isupper() else 1]
        piece = f"[{style}]{letter}[/]"
    else:
        piece = " "
    mark_text = f"[{THREAT_STYLE}]{mark}[/]" if threatened else mark
    inner = f" {body}{piece}{mark_text} "
    return f"[{shade}]{inner}[/]" if shade else inner


def render_view(envelope: Mapping[str, Any]) -> str:
    """The board as rich markup with file and rank labels, then the supply, the captured
    pieces, the setup step or the ply count, whose turn it is and the result."""
    view = envelope["board"]
    threatened = view["threatened"]
    header = "    " + "".join(f"{f:^{CELL_WIDTH}}" for f in FILES)
    lines = [header]
    for row in range(SIZE):
        rank = SIZE - row
        cells = []
        for file in range(SIZE):
            letter = view["pieces"][row][file]
            marked = bool(letter) and letter in "Ss" and threatened[0 if letter == "S" else 1]
            cells.append(_cell(view["heights"][row][file], letter, marked))
        lines.append(f" {rank}  " + "".join(cells) + f"  {rank}")
    lines.append(header)
    names = envelope["seat_names"]
    for seat in (0, 1):
        marker = "▶ " if envelope["to_move"] == seat else "  "
        letters = "SDCB" if seat == 0 else "sdcb"
        lost = view["captured"][seat]
        extra = f", lost {' '.join(lost)}" if lost else ""
        goal = "6-7" if seat == 0 else "1-2"
        alarm = f" [{THREAT_STYLE}]Sovereign threatened![/]" if threatened[seat] else ""
        lines.append(
            f"{marker}[{SEAT_STYLES[seat]}]{names[seat]}[/] ({letters}, goal ranks {goal}){extra}{alarm}"
        )
    supply = view["supply"]
    status = f"supply {supply['lower']} lower / {supply['top']} top"
    setup = view["setup"]
    if setup is not None:
        what = KIND_NAMES["SDCB".index(setup["piece"])]
        tower = " with the 1-level tower beside it" if setup["with_tower"] else ""
        status += f"   setup: {names[setup['seat']]} places a {what}{tower} ({setup['placements']}/14 placed)"
    else:
        # "move N" is the terminal's number of the next move; this is a count toward the limit
        status += f"   limit {view['play_ply']}/{view['ply_limit']} moves"
    lines.append(status)
    lines.append("pieces: S Sovereign, D Diplomat, C Consultant, B Contractor")
    lines.append("digit: tower height (· open ground); ! a threatened Sovereign")
    result = envelope.get("result")
    if result:
        winners = result["winners"]
        if len(winners) == 1:
            lines.append(f"[bold]{names[winners[0]]} wins[/]: {result['reason']}")
        else:
            lines.append(f"[bold]Draw[/]: {result['reason']}")
    return "\n".join(lines)
