"""``boardlab replay FILE``: step through a saved game, or show one moment of it."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from ..core.records import Record
from ..core.state import State
from ..core.values import CHANCE, Player
from .common import CliError, board_panel, rules_version_warning

KEYS = "Enter next, b back, a number jumps there, q quits"


def _viewer(record: Record, seat: int | None) -> int | None:
    """The 0-based seat whose view is drawn (None: spectators), from a 1-based --seat."""
    if seat is None:
        return None
    if not 1 <= seat <= record.players:
        raise CliError(f"--seat {seat}: the game has seats 1..{record.players}")
    return seat - 1


def describe_record(record: Record, out: Console) -> None:
    """One paragraph: game, options, seed, seats, length and result."""
    game = record.game()
    seats = ", ".join(
        f"{game.player_name(i)}: {escape(s.name)}" + ("" if s.agent in (s.name, "human") else f" ({escape(s.agent)})")
        for i, s in enumerate(record.seats)
    )
    result = "unfinished" if record.result is None else f"{record.result.score_text()} ({escape(record.result.reason)})"
    options = ", ".join(f"{k}={v}" for k, v in record.options.items()) or "default options"
    out.print(
        f"[bold]{escape(game.name)}[/bold], {record.players} players, {escape(options)}, seed {record.seed}. "
        f"{seats}. {len(record.turns)} moves; result: {result}."
    )


def replay_command(args: argparse.Namespace, out: Console, err: Console, read_line: Callable[[str], str]) -> int:
    """Validate the whole record first, then show ``--to N``/``--final`` or step interactively."""
    record = Record.load(args.file)  # every move re-validated: RecordError names the first bad one
    viewer = _viewer(record, args.seat)
    describe_record(record, out)
    warning = rules_version_warning(record, args.file)
    if warning:
        err.print(f"[yellow]{escape(warning)}[/yellow]")
    total = len(record.turns)
    if args.final or args.to is not None:
        number = total if args.final else args.to
        if not 0 <= number <= total:
            raise CliError(f"--to {number}: the record has moves 0..{total}")
        state = record.state_at(max(number - 1, 0))
        last = ""
        if number:
            last = move_text(state, record.turns[number - 1].notation, viewer)
            state.play(record.turns[number - 1].notation)
        show(record, state, number, viewer, out, last)
        return 0
    return step_through(record, viewer, out, read_line)


def show(record: Record, state: State, number: int, viewer: int | None, out: Console, last: str = "") -> None:
    """Draw ``state`` (the position after move ``number``) as ``viewer`` sees it; ``last`` is
    how the move that led there reads to ``viewer``."""
    title = f"after move {number} of {len(record.turns)}"
    if number and last:
        title += f": {last}"
    out.print(board_panel(state.game, state.view(viewer), escape(title)))
    result = state.result()
    if result is None and number == len(record.turns):
        result = record.result  # a match that ended outside the rules (resignation, agreement, time)
    if result is not None:
        out.print(f"[bold]Game over:[/bold] {result.score_text()} ({escape(result.reason)})")


def move_text(state: State, notation: str, viewer: Player | None) -> str:
    """How the recorded move ``notation``, about to be played on ``state``, reads to ``viewer``."""
    return state.move_text(state.parse_move(notation), viewer)


def step_through(record: Record, viewer: int | None, out: Console, read_line: Callable[[str], str]) -> int:
    """Interactive stepping; the state moves by play/undo, so each step costs one move."""
    state = record.initial_state()
    total = len(record.turns)
    out.print(f"Keys: {KEYS}.")
    show(record, state, 0, viewer, out)
    while True:
        try:
            line = read_line(f"after move {state.ply}/{total} > ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            out.print()
            return 0
        if line in ("q", "quit", "exit"):
            return 0
        if line == "":
            target = state.ply + 1
        elif line in ("b", "back"):
            target = state.ply - 1
        elif line.isdecimal():
            target = int(line)
        else:
            out.print(f"[red]Unknown key {escape(line[:40])}:[/red] {KEYS}.")
            continue
        if not 0 <= target <= total:
            out.print(f"[yellow]No move {target}: the game has moves 0..{total}.[/yellow]")
            continue
        while state.ply > target:
            state.undo()
        last = ""
        while state.ply < target:
            if state.ply == target - 1:
                last = move_text(state, record.turns[state.ply].notation, viewer)
            state.play(record.turns[state.ply].notation)
        if last and target >= 1:
            turn = record.turns[target - 1]
            who = "chance" if turn.by == CHANCE else state.game.player_name(turn.by)
            out.print(f"{escape(who)} played [bold]{escape(last)}[/bold] (at {turn.t:.1f} s)")
        show(record, state, target, viewer, out, last)
