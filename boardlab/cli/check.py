"""``boardlab check GAME``: run the conformance suite (boardlab.testing) on a game and report."""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from collections.abc import Iterator

from rich.console import Console
from rich.markup import escape

from ..core.registry import load
from ..testing import CheckOutcome, budget_for, run_conformance
from ..testing.encodings import declared
from .common import parse_options


def check_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Every check, one line each as it finishes; exit status 1 when any check fails."""
    game = load(args.game, players=args.seats, **parse_options(args.option))
    budget = budget_for(game)
    if args.quick:
        budget = budget.scaled(0.2)
    out.print(
        f"[bold]Conformance of {escape(game.id)}[/bold] ({game.num_players} players; "
        f"{budget.random_games} random games per check, fuzz {'off' if args.no_fuzz else 'on'})"
    )
    undeclared = [
        kind for kind, make in (("action", game.action_encoding), ("observation", game.observation_encoding))
        if declared(make) is None
    ]
    if undeclared:
        out.print(
            f"[yellow]note:[/yellow] {escape(game.id)} declares no {' and no '.join(undeclared)} encoding, so its "
            "encoding checks have nothing to check and the OpenSpiel and PettingZoo adapters cannot play it "
            "(docs/api.md, 'Action and observation encodings')."
        )

    def show(outcome: CheckOutcome) -> None:
        mark = "[green]pass[/green]" if outcome.passed else "[red]FAIL[/red]"
        out.print(f"  {mark}  {escape(outcome.name.removeprefix('check_'))}  ({outcome.seconds:.1f} s)")
        if not outcome.passed:
            out.print("        " + escape(outcome.failure.strip()).replace("\n", "\n        "))

    with _hypothesis_home_elsewhere():
        report = run_conformance(game, budget, fuzz=not args.no_fuzz, on_check=show)
    failed = len(report.failures)
    if failed:
        out.print(f"[red]{failed} of {len(report.outcomes)} checks failed.[/red]")
        return 1
    out.print(f"[green]All {len(report.outcomes)} checks passed.[/green]")
    return 0


@contextlib.contextmanager
def _hypothesis_home_elsewhere() -> Iterator[None]:
    """Hypothesis keeps caches in ``./.hypothesis`` even without an example database; a game's
    author runs check wherever they are, so its files go to a temporary folder instead
    (unless HYPOTHESIS_STORAGE_DIRECTORY chooses a place)."""
    try:
        import hypothesis.configuration as configuration
    except ImportError:  # no fuzzing possible, nothing written
        yield
        return
    if os.getenv("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    before = getattr(configuration, "__hypothesis_home_directory", None)
    with tempfile.TemporaryDirectory(prefix="boardlab-check-") as home:
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(before)
