"""What the terminal says of a game in play (``boardlab play``): its commands and their help, a
move just played, the chance outcomes a player may read, and the seed's commitment."""

from __future__ import annotations

import hashlib

from rich.console import Group
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from ..core.turns import Turn
from ..core.values import CHANCE, Player

#: the commands of a game in the terminal, and what each does (``help``)
COMMANDS = (
    ("moves [TEXT]", "list the legal moves (only those starting with TEXT)"),
    ("undo", "take back your last move (and the computer's and chance moves after it); with people "
             "sharing the screen, the last move, whoever made it"),
    ("save FILE", "save the game as a record (boardlab replay FILE shows it; --resume FILE goes on)"),
    ("preview MOVE", "show the board after MOVE without playing it"),
    ("picture on|off", "after every move, write the table's picture to a PNG (games that draw pictures)"),
    ("hint", "ask the computer for a move (the browser's hint: docs/analysis.md)"),
    ("board", "draw the board again"),
    ("history", "the moves so far"),
    ("resign", "give up the game"),
    ("draw", "offer a draw (where the game has draws by agreement)"),
    ("help", "this text"),
    ("quit", "leave the game"),
    ("now", "(typed while a computer thinks) make it move at once with the best move it has found; "
            "anything else typed meanwhile waits, in order, for your prompt"),
)


def help_text() -> Group:
    """``help``: the commands in two columns, the meanings wrapped inside their own column at
    any terminal width (a plain text laid out for 95 columns broke at 80)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column()
    for command, meaning in COMMANDS:
        table.add_row(escape(command), escape(meaning))
    return Group("Enter a move in the game's notation, or a command:", Padding(table, (0, 0, 0, 2)))


#: a longer run of alike chance outcomes is announced by its count (the board shows them)
CHANCE_RUN_SHOWN = 3


def played_line(who: str, text: str, notation: str, colour: str) -> str:
    """A move just played, as the terminal says it: ``White plays b7S`` for notation, ``White:
    builds a Town at 1,1`` where the game says the move in words of its own."""
    if text == notation:
        return f"[{colour}]{escape(who)} plays[/{colour}] [bold]{escape(text)}[/bold]"
    return f"[{colour}]{escape(who)}:[/{colour}] [bold]{escape(text)}[/bold]"


def seed_commitment(seed: int) -> str:
    """SHA-256 (hex) of the seed as 32 big-endian bytes: Honor's formula (rule 11.5), used for
    every game so that the commitment Honor's board shows is the one printed here."""
    return hashlib.sha256((seed % (1 << 256)).to_bytes(32, "big")).hexdigest()


def chance_summary(entries: list[Turn], viewer: Player | None) -> list[str]:
    """The chance outcomes among ``entries`` as ``viewer`` may read them; a run of more than
    :data:`CHANCE_RUN_SHOWN` alike outcomes (a deal of 20 cards) is counted, not listed."""
    chance = [entry for entry in entries if entry.by == CHANCE]
    parts: list[str] = []
    start = 0
    while start < len(chance):
        end = start
        while end < len(chance) and chance[end].kind == chance[start].kind:
            end += 1
        run = chance[start:end]
        if len(run) > CHANCE_RUN_SHOWN:
            parts.append(f"{run[0].kind} ×{len(run)}")
        else:
            parts.extend(entry.text_for(viewer) for entry in run)
        start = end
    return parts


__all__ = ["CHANCE_RUN_SHOWN", "COMMANDS", "chance_summary", "help_text", "played_line", "seed_commitment"]
