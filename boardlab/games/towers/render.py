"""What a Towers state looks like: the JSON view and its terminal drawing (rich markup).

Towers has no hidden information, so the view is the same for every seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from .board import CASTLE, COLOUR_NAMES, COLOUR_STYLES, FILES, MAX_HEIGHT, SIZE, SQUARE_NAMES, castle_counts
from .position import format_position

if TYPE_CHECKING:
    from .state import TowersState

CASTLE_STYLE = "bold green"
CROWN_STYLE = "bold yellow"
CELL_WIDTH = 8


def state_view(state: "TowersState") -> dict[str, Any]:
    """A JSON-safe description of the whole position (cost: one board scan)."""
    rules = state.rules
    letters = rules.letters
    stacks = state.stacks
    controlled, crowned = castle_counts(stacks, state.castles)
    board = []
    for rank in range(SIZE - 1, -1, -1):
        board.append([
            "".join("C" if token == CASTLE else letters[token] for token in stacks[rank * SIZE + file])
            for file in range(SIZE)
        ])
    controllers = {
        SQUARE_NAMES[sq]: stack[-1]
        for sq, stack in enumerate(stacks)
        if stack and stack[-1] != CASTLE
    }
    crowns = {
        SQUARE_NAMES[sq]: stacks[sq][-1] for sq in state.castles if len(stacks[sq]) == MAX_HEIGHT
    }
    result = state.result()
    return {
        "game": "towers",
        "players": rules.players,
        "colours": list(rules.names),
        "letters": letters,
        "board": board,
        "castles": [SQUARE_NAMES[sq] for sq in state.castles],
        "controllers": controllers,
        "crowned": crowns,
        "castle_counts": controlled[: rules.players],
        "crown_counts": crowned[: rules.players],
        "castles_to_win": rules.castles_to_win,
        "crowns_to_win": rules.crowns_to_win,
        "reserves": list(state.reserves),
        "to_move": None if result is not None else state.to_move,
        "no_progress": state.no_progress,
        "no_progress_limit": rules.no_progress_limit,
        "ply": state.ply,
        "result": None if result is None else result.to_json(),
        "position": format_position(stacks, letters, state.to_move, state.no_progress),
    }


def render_view(view: Mapping[str, Any]) -> str:
    """The board as rich markup: coloured stacks bottom-to-top, castles in green brackets,
    crowned castles in yellow ones, file and rank labels, then reserves and whose turn."""
    players = int(view["players"])
    letters: str = view["letters"]
    styles = COLOUR_STYLES[players]
    token_style = {letter: styles[seat] for seat, letter in enumerate(letters)}
    token_style["C"] = CASTLE_STYLE
    castles = set(view["castles"])
    crowned = set(view["crowned"])
    lines = ["    " + "".join(f"{f:^{CELL_WIDTH}}" for f in FILES)]
    for row, cells in enumerate(view["board"]):
        rank = SIZE - row
        parts = []
        for file, cell in enumerate(cells):
            name = f"{FILES[file]}{rank}"
            body = "".join(f"[{token_style[t]}]{t}[/]" for t in cell) if cell else "[dim].[/]"
            visible = max(len(cell), 1)
            if name in castles:
                style = CROWN_STYLE if name in crowned else CASTLE_STYLE
                body = f"[{style}]\\[[/]{body}[{style}]][/]"
                visible += 2
            pad = CELL_WIDTH - visible
            parts.append(" " * (pad // 2) + body + " " * (pad - pad // 2))
        lines.append(f" {rank}  " + "".join(parts) + f"  {rank}")
    lines.append(lines[0])
    names = COLOUR_NAMES[players]
    for seat in range(players):
        marker = "▶ " if view["to_move"] == seat else "  "
        lines.append(
            f"{marker}[{styles[seat]}]{names[seat]}[/] ({letters[seat]}): "
            f"reserve {view['reserves'][seat]}, castles {view['castle_counts'][seat]}"
            f"/{view['castles_to_win']}, crowns {view['crown_counts'][seat]}/{view['crowns_to_win']}"
        )
    lines.append(
        f"[{CASTLE_STYLE}]\\[ ][/] castle (stack bottom to top)   [{CROWN_STYLE}]\\[ ][/] crowned   "
        f"no progress {view['no_progress']}/{view['no_progress_limit']}   ply {view['ply']}"
    )
    result = view.get("result")
    if result:
        winners = result["winners"]
        if len(winners) == 1:
            lines.append(f"[bold]{names[winners[0]]} wins[/]: {result['reason']}")
        else:
            lines.append(f"[bold]Draw[/]: {result['reason']}")
    return "\n".join(lines)
