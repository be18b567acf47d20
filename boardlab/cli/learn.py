"""``boardlab learn GAME``: the game's guided lesson in the terminal (docs/learn.md).

Each step shows its explanation, the board (the game's own text board) and the task, then
reads moves: the game refuses an illegal one with its reason, a legal one that misses the
task is answered with why, and the right one shows the position it leads to. ``hint``,
``show`` (the solution), ``moves``, ``skip`` and ``quit`` help along. At the end the
practice game is one command away.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from ..learn import PRACTICE_LEVEL, Lesson, load_lesson
from .common import CliError, print_moves

ReadLine = Callable[[str], str]

HELP = """Type a move in the game's notation, or:
  hint         the next hint for this step
  show         show the solution and play it
  moves [TEXT] the legal moves here (only those starting with TEXT)
  board        draw the position again
  skip         go on to the next step
  quit         stop the lesson"""


def add_learn_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    learn = commands.add_parser("learn", help="a guided lesson: each rule on a real board, one move at a time")
    learn.add_argument("game", help="game id (see `boardlab games`)")
    learn.add_argument("--step", type=int, default=1, metavar="N", help="start at step N (default 1)")


def learn_command(args: argparse.Namespace, out: Console, err: Console, read_line: ReadLine) -> int:
    lesson = load_lesson(args.game, medium="terminal")
    if not 1 <= args.step <= len(lesson.steps):
        raise CliError(f"--step {args.step}: the {args.game} lesson has steps 1-{len(lesson.steps)}")
    return LessonSession(lesson, out, read_line).run(args.step - 1)


class LessonSession:
    """One person going through a lesson: the steps in order, each until it is done,
    shown or skipped."""

    def __init__(self, lesson: Lesson, out: Console, read_line: ReadLine) -> None:
        self.lesson = lesson
        self.out = out
        self.read_line = read_line

    def run(self, first: int = 0) -> int:
        lesson = self.lesson
        self.out.print(f"[bold]{escape(lesson.title)}[/bold]")
        self.out.print(escape(lesson.intro))
        self.out.print("Type [bold]help[/bold] for the commands.\n")
        for index in range(first, len(lesson.steps)):
            if not self.play_step(index):
                self.out.print(f"Lesson stopped. Go on later with: boardlab learn {lesson.game_id} --step {index + 1}")
                return 0
        self.out.print(f"\n[bold]Lesson complete.[/bold] {escape(lesson.outro)}")
        self.out.print(
            f"Practice against the gentlest computer (hints and take-backs on: type hint or undo):\n"
            f"  boardlab play {lesson.game_id} --level {PRACTICE_LEVEL}"
        )
        return 0

    def play_step(self, index: int) -> bool:
        """Run step ``index`` until it is done, shown or skipped (True) or the person quits (False)."""
        lesson = self.lesson
        step = lesson.step(index)
        state = lesson.state(index)
        mover = state.current_player()
        total = len(lesson.steps)
        self.out.rule(f"Step {step.number}/{total}: {escape(step.title)}")
        self.out.print(f"{escape(step.explanation)}  [dim](rule {escape(step.rule)})[/dim]\n")
        self.out.print(state.render(mover))
        self.out.print(f"\n[bold]Task:[/bold] {escape(step.task)}")
        hints = iter(step.hints)
        while True:
            try:
                line = self.read_line(f"{lesson.game().player_name(mover)}, your move > ").strip()
            except EOFError:
                return False
            command = line.lower().partition(" ")[0]
            if not line:
                continue
            if command in ("help", "?"):
                self.out.print(escape(HELP))
            elif command == "quit":
                return False
            elif command == "skip":
                return True
            elif command == "board":
                self.out.print(state.render(mover))
            elif command == "moves":
                print_moves(self.out, [str(move) for move in state.legal_moves()], line.partition(" ")[2].strip(),
                            state.game.continuous_moves)
            elif command == "hint":
                hint = next(hints, None)
                self.out.print(f"[cyan]Hint:[/cyan] {escape(hint)}" if hint else "No more hints: type show for the solution.")
            elif command == "show":
                self.out.print(f"The solution: [bold]{escape(step.solution)}[/bold]")
                self.finish(index, step.solution)
                return True
            else:
                attempt = lesson.attempt(index, line)
                if attempt.done:
                    self.out.print(f"[green]{escape(attempt.message)}[/green]")
                    self.finish(index, line)
                    return True
                label = "Not legal" if attempt.outcome == "illegal" else "Not yet"
                self.out.print(f"[red]{label}:[/red] {escape(attempt.message)}  [dim](try again, or hint / show)[/dim]")

    def finish(self, index: int, text: str) -> None:
        """Show the position the step's move leads to."""
        attempt = self.lesson.attempt(index, text)
        if attempt.after is not None:
            self.out.print(attempt.after.render(self.lesson.mover(index)))


__all__ = ["LessonSession", "add_learn_parser", "learn_command"]
