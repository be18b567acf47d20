"""``boardlab analyse RECORD``: each seat's chances after every move, a graph of them, and the
moves that lost the most with the move the engine preferred (docs/analysis.md)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..agents.analysis import WORST_MIN_LOSS, Analysis, MoveAnalysis, analyse
from ..agents.levels import describe_spec
from ..core.records import Record
from ..core.turns import moves_made
from .common import CliError, rules_version_warning
from .replay import describe_record

#: the sparkline's eight heights, lowest first
BLOCKS = "▁▂▃▄▅▆▇█"


def add_analyse_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="each seat's chances after every move of a saved game, and its worst moves",
    )
    parser.add_argument("file", help="a record (JSON) saved by play, simulate or the server")
    parser.add_argument(
        "--budget",
        type=int,
        metavar="N",
        help="search iterations per position (default: the game's, docs/analysis.md; more is slower and surer)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the searches (default 0): the same seed, the same analysis")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")


def analyse_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    if args.budget is not None and args.budget < 1:
        raise CliError(f"--budget {args.budget}: give 1 or more search iterations per position")
    record = Record.load(args.file)  # every move re-validated: RecordError names the first bad one
    warning = rules_version_warning(record, args.file)
    if warning:
        err.print(f"[yellow]{escape(warning)}[/yellow]")
    with _progress(err, not args.json) as update:
        analysis = analyse(record, iterations=args.budget, seed=args.seed, on_progress=update)
    if args.json:
        out.print_json(json.dumps(analysis.to_json()))
        return 0
    describe_record(record, out)
    numbers = move_numbers(record)
    out.print(moves_table(analysis, numbers))
    out.print()
    for line in graph_lines(analysis, max(20, out.width - 16), moves_made(record.turns)):
        out.print(line)
    if analysis.ending:
        out.print(f"Then the game ended outside the rules: {escape(analysis.ending)}.")
    out.print()
    print_worst(analysis, out, numbers)
    budget = f"{analysis.iterations} iterations per position" if analysis.iterations else "the computer's own budget"
    out.print(
        # an agent's words are a noun ("a search of ...") or a verb ("looks 3 moves ahead"): after a colon both read
        f"[dim]The judge: {escape(describe_spec(analysis.agent))} ({budget}, seed {analysis.seed}); "
        f"{len(analysis.moves) + 1} positions in {analysis.seconds:.1f} s.[/dim]"
    )
    return 0


class _progress:
    """A transient progress bar on stderr (none for --json, nor on a pipe's plain output)."""

    def __init__(self, err: Console, shown: bool) -> None:
        self.bar: Progress | None = None
        if shown and err.is_terminal:
            self.bar = Progress(
                TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("positions"),
                TimeElapsedColumn(), console=err, transient=True,
            )
        self.task: Any = None

    def __enter__(self) -> Any:
        if self.bar is None:
            return None
        self.bar.start()
        self.task = self.bar.add_task("analyse", total=None)

        def update(done: int, total: int) -> None:
            assert self.bar is not None
            self.bar.update(self.task, completed=done, total=total)

        return update

    def __exit__(self, *_exc: Any) -> None:
        if self.bar is not None:
            self.bar.stop()


def move_numbers(record: Record) -> list[int | None]:
    """Each log entry's move number as players count them (None for chance), by its place."""
    return [turn.move_number for turn in record.turns]


def percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def moves_table(analysis: Analysis, numbers: Sequence[int | None]) -> Table:
    """One row per move: its number (``numbers``, by the entry's place; a chance outcome has
    none), who, what, every seat's chance after it, the engine's move, the loss."""
    table = Table(title="Chances after each move", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("by")
    table.add_column("move")
    for name in analysis.seat_names:
        table.add_column(escape(name), justify="right")
    table.add_column("engine preferred")
    table.add_column("loss", justify="right")
    worst = {entry.number for entry in analysis.worst}
    table.add_row("0", "", "(start)", *(percent(chance) for chance in analysis.start), "", "")
    for entry in analysis.moves:
        by = "chance" if not entry.is_decision else analysis.seat_names[entry.by]
        loss = f"{entry.loss:.2f}" if entry.is_decision and entry.loss >= 0.005 else ""
        if not entry.is_decision and entry.luck >= WORST_MIN_LOSS:
            loss = f"{entry.luck:.2f} (luck)"  # the dice or the card, not a player, moved the chances
        move = escape(_short(entry.text or entry.move))
        if entry.number in worst:
            move, loss = f"[bold red]{move}[/bold red]", f"[bold red]{loss} ??[/bold red]"
        preferred = escape(_short(entry.preferred_text or entry.preferred)) if entry.differs and entry.preferred else ""
        number = numbers[entry.number - 1]
        chances = (percent(c) for c in entry.chances)
        table.add_row("" if number is None else str(number), escape(by), move, *chances, preferred, loss)
    return table


def sparkline(values: Sequence[float], width: int) -> str:
    """``values`` (in [0, 1]) as block characters, at most ``width`` of them: a long game's
    moves are averaged in equal groups so the whole game fits one line."""
    if not values:
        return ""
    groups = max(1, -(-len(values) // width))
    points = [
        sum(values[start : start + groups]) / len(values[start : start + groups])
        for start in range(0, len(values), groups)
    ]
    return "".join(BLOCKS[min(len(BLOCKS) - 1, int(value * len(BLOCKS)))] for value in points)


def graph_lines(analysis: Analysis, width: int, moves: int) -> list[str]:
    """A sparkline per seat of its chance from the start to the end of the game's ``moves``
    moves, labelled with its name and its chance at the start and the end (the lines do not
    rely on colour)."""
    series = analysis.series()
    names = analysis.seat_names
    label = max(len(name) for name in names)
    per = -(-len(series) // width)
    scale = f"one mark per {per} positions" if per > 1 else "one mark per position"
    lines = [f"[bold]Chances over the game[/bold] (move 0 to {moves}, {scale}; low ▁ = 0%, high █ = 100%)"]
    for seat, name in enumerate(names):
        values = [point[seat] for point in series]
        lines.append(
            f"{escape(name.ljust(label))} {sparkline(values, width)} "
            f"{percent(values[0])} → {percent(values[-1])}"
        )
    return lines


def print_worst(analysis: Analysis, out: Console, numbers: Sequence[int | None]) -> None:
    worst = analysis.worst
    if not worst:
        out.print("[bold]Worst moves:[/bold] none lost more than a small share of a win.")
        return
    out.print("[bold]Worst moves[/bold] (loss: how much of a win the mover gave away, by the engine's estimate):")
    series = analysis.series()
    for entry in worst:
        out.print(f"  {_worst_line(entry, analysis, series[entry.number - 1][entry.by], numbers[entry.number - 1])}")


def _worst_line(entry: MoveAnalysis, analysis: Analysis, before: float, number: int | None) -> str:
    name = escape(analysis.seat_names[entry.by])
    after = entry.chances[entry.by]
    # a game's own words carry their verb ("announces a Swap"); notation is "played" ("played b7S")
    in_words = bool(entry.text) and entry.text != entry.move
    played = f"{name}:" if in_words else f"{name} played"
    preferred = "the engine preferred:" if in_words else "the engine preferred"
    return (
        f"move {number}: {played} [bold]{escape(_short(entry.text or entry.move))}[/bold] "
        f"({percent(before)} → {percent(after)}); {preferred} "
        f"[bold]{escape(_short(entry.preferred_text or entry.preferred or '?'))}[/bold] (loss {entry.loss:.2f})"
    )


def _short(text: str, limit: int = 34) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["add_analyse_parser", "analyse_command", "graph_lines", "moves_table", "sparkline"]
