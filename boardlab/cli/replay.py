"""``boardlab replay FILE``: step through a saved game, or show one moment of it.

Moves are numbered as players count them (:mod:`boardlab.core.turns`): ``after move N`` is the
position after the players' Nth move and the chance outcomes that follow it (a roll, a deal),
so that move 0 is where the first player decides."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from ..core.records import Record, Seat
from ..core.state import State
from ..core.turns import Turn, moves_made
from ..core.values import CHANCE, Player
from ..lab.playtests import variant_label
from .common import CliError, board_panel, level_name, moves_text, rules_version_warning

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
    def who(number: int, seat: Seat) -> str:
        if seat.agent == "human":
            # a person left unnamed is named by the seat: "White: White" said nothing
            return "a person" if seat.name == game.player_name(number) else escape(seat.name)
        # a computer seat reads by its level; a spec that plays none of them (typed by hand) as itself
        level = escape(level_name(game, seat.agent) or seat.agent)
        return f"the computer ({level})" if seat.name == seat.agent else f"{escape(seat.name)} ({level})"

    seats = ", ".join(f"{game.player_name(i)}: {who(i, s)}" for i, s in enumerate(record.seats))
    result = "unfinished" if record.result is None else f"{record.result.score_text()} ({escape(record.result.reason)})"
    # only what differs from the rules as written: a game of 24 options said all of them
    options = variant_label(game).replace(",", ", ") or "the rules as written"
    out.print(
        f"[bold]{escape(game.name)}[/bold], {record.players} players, {escape(options)}, seed {record.seed}. "
        f"{seats}. {moves_text(moves_made(record.turns))}; result: {result}."
    )


def move_boundaries(turns: list[Turn]) -> list[int]:
    """``boundaries[N]``: how many turns of the log the position after move N has played (the
    players' Nth move and the chance outcomes after it); N runs from 0 to the number of moves."""
    decisions = [index for index, turn in enumerate(turns) if turn.by != CHANCE]
    return [*decisions, len(turns)]


def moves_after(turns: list[Turn], start: int, end: int, viewer: Player | None, game_name: Callable[[int], str]) -> str:
    """How turns ``start`` to ``end`` read to ``viewer``: ``White b7+; chance 5+3``."""
    parts = []
    for turn in turns[start:end]:
        who = "chance" if turn.by == CHANCE else game_name(turn.by)
        parts.append(f"{who} {turn.text_for(viewer)}")
    return "; ".join(parts)


def replay_command(args: argparse.Namespace, out: Console, err: Console, read_line: Callable[[str], str]) -> int:
    """Validate the whole record first, then show ``--to N``/``--final`` or step interactively."""
    record = Record.load(args.file)  # every move re-validated: RecordError names the first bad one
    viewer = _viewer(record, args.seat)
    describe_record(record, out)
    warning = rules_version_warning(record, args.file)
    if warning:
        err.print(f"[yellow]{escape(warning)}[/yellow]")
    boundaries = move_boundaries(record.turns)
    total = len(boundaries) - 1
    if args.final or args.to is not None:
        number = total if args.final else args.to
        if not 0 <= number <= total:
            raise CliError(f"--to {number}: the record has moves 0..{total}")
        state = record.state_at(boundaries[number])
        show(record, state, number, total, viewer, out, last_moves(record, boundaries, number, viewer))
        return 0
    return step_through(record, boundaries, viewer, out, read_line)


def last_moves(record: Record, boundaries: list[int], number: int, viewer: Player | None) -> str:
    """How move ``number`` and the chance after it read to ``viewer`` ('' for move 0)."""
    if number == 0:
        return ""
    game = record.game()
    return moves_after(record.turns, boundaries[number - 1], boundaries[number], viewer, game.player_name)


def show(record: Record, state: State, number: int, total: int, viewer: int | None, out: Console, last: str = "") -> None:
    """Draw ``state`` (the position after move ``number`` of ``total``) as ``viewer`` sees it;
    ``last`` is how the move that led there (and the chance after it) reads to ``viewer``."""
    title = f"after move {number} of {total}"
    if number and last:
        title += f": {last}"
    out.print(board_panel(state.game, state.view(viewer), escape(title)))
    result = state.result()
    if result is None and number == total:
        result = record.result  # a match that ended outside the rules (resignation, agreement, time)
    if result is not None:
        out.print(f"[bold]Game over:[/bold] {result.score_text()} ({escape(result.reason)})")


def step_through(
    record: Record, boundaries: list[int], viewer: int | None, out: Console, read_line: Callable[[str], str]
) -> int:
    """Interactive stepping, a player's move at a time (the chance after it comes with it); the
    state moves by play/undo, so each step costs the turns it crosses."""
    total = len(boundaries) - 1
    state = record.state_at(boundaries[0])
    played = boundaries[0]  # turns of the log played on ``state``
    number = 0
    out.print(f"Keys: {KEYS}.")
    show(record, state, 0, total, viewer, out)
    while True:
        try:
            line = read_line(f"after move {number}/{total} > ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            out.print()
            return 0
        if line in ("q", "quit", "exit"):
            return 0
        if line == "":
            target = number + 1
        elif line in ("b", "back"):
            target = number - 1
        elif line.isdecimal():
            target = int(line)
        else:
            out.print(f"[red]Unknown key {escape(line[:40])}:[/red] {KEYS}.")
            continue
        if not 0 <= target <= total:
            out.print(f"[yellow]No move {target}: the game has moves 0..{total}.[/yellow]")
            continue
        while played > boundaries[target]:
            state.undo()
            played -= 1
        while played < boundaries[target]:
            state.play(record.turns[played].notation)
            played += 1
        number = target
        last = last_moves(record, boundaries, number, viewer)
        if last:
            turn = record.turns[boundaries[number - 1]]
            out.print(f"Move {number}: [bold]{escape(last)}[/bold] (at {turn.t:.1f} s)")
        show(record, state, number, total, viewer, out, last)
