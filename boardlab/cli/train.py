"""``boardlab train GAME``: fit the game's evaluation to the results of games it plays (docs/evaluation.md).

Plays the training games as a lab study (resumable: the same command continues an
interrupted run), fits the weights, measures them on the held-out games against the
hand-set evaluation, and writes them (the game's own weights file unless ``--weights``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import OptionError
from ..core.fitted import EvaluationFileError, shipped_path, writable_evaluations, write_evaluation
from ..core.game import Game
from ..core.records import Record
from ..lab.calibration import RELIABLE_COUNT
from ..lab.executors import BACKENDS, make_executor
from ..lab.stats import GameOutcome
from ..lab.store import StudyFolder
from ..lab.study import Study
from ..lab.training import (
    DEFAULT_PAIRINGS,
    HELD_OUT_EVERY,
    HELD_OUT_FIFTH,
    TrainingReport,
    TrainingSetup,
    plot_reliability,
    split_records,
    train_and_measure,
)
from .common import CliError, parse_options, seat_count, split_specs
from .lab import run_with_display


def add_train_parser(commands: Any) -> None:
    train = commands.add_parser(
        "train",
        help="fit a game's evaluation to game results: play, fit, measure on held-out games, write the weights",
    )
    train.add_argument("game", help="game id")
    train.add_argument("-n", "--games", type=int, default=200, help="games per pairing (default 200; one in 5 is held out)")
    train.add_argument(
        "--pairing", action="append", metavar="SPEC,SPEC",
        help="the agents of one kind of training game, a level or spec per seat (repeatable; default: "
        + "; ".join(",".join(pairing) for pairing in DEFAULT_PAIRINGS) + ")",
    )
    train.add_argument("--seats", type=int, help="number of players (default: the game's)")
    train.add_argument("--seed", type=int, default=0, help="base seed of the games (default 0)")
    train.add_argument("--jobs", "-j", type=int, default=1, help="worker processes, or Ray CPUs (default 1)")
    train.add_argument("--backend", choices=BACKENDS, default="process", help="where games run (default: this machine)")
    train.add_argument("--address", help="with --backend ray: the cluster to use")
    train.add_argument("--out", metavar="DIR", help="the training folder: games, report, plot (default train-GAME)")
    train.add_argument(
        "--weights", metavar="FILE",
        help="write the weights here (default: the game's own evaluation.json, which the analysis and evaluation=fitted read)",
    )
    train.add_argument("--option", "-O", action="append", metavar="NAME=VALUE", help="a rule option (repeatable)")
    train.add_argument(
        "--held-out", type=int, default=HELD_OUT_FIFTH, choices=range(HELD_OUT_EVERY), metavar="K",
        help=f"hold out the games numbered K modulo {HELD_OUT_EVERY} (0 to {HELD_OUT_FIFTH}; default {HELD_OUT_FIFTH}): "
        "each K in turn, with --weights elsewhere, shows how much one held-out set can read",
    )


def train_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    pairings = tuple(tuple(split_specs(text)) for text in args.pairing) if args.pairing else DEFAULT_PAIRINGS
    players = seat_count(args.game, args.seats, [])
    setup = TrainingSetup(
        game_id=args.game, players=players, options=parse_options(args.option), pairings=pairings,
        games=args.games, seed=args.seed,
    )
    game = setup.game()
    # every argument is checked before the study folder is opened or a game is played
    study = setup.study()
    executor = make_executor(args.backend, args.jobs, args.address)
    target = _weights_target(args.weights, game)
    folder_path = Path(args.out) if args.out else Path(f"train-{game.id}")
    folder = StudyFolder(folder_path / "games", study)
    outcomes, interrupted = run_with_display(study, executor, folder, err, f"{game.id}: training games")
    if interrupted:
        _interrupted_note(err, study, outcomes, folder.folder)
        return 130
    train, held_out = split_records(study, folder, outcomes, args.held_out)
    command = "boardlab train " + " ".join(_command_words(args))
    about = {"command": command, "seed": args.seed, "pairings": [list(pairing) for pairing in pairings]}
    report = _fit_with_progress(game, train, held_out, about, err)
    # the report first: it holds the weights too, so a weights file that fails to write loses no fit
    report_path = folder_path / "report.json"
    report_path.write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")
    try:
        write_evaluation(target, report.model)
    except EvaluationFileError as exc:
        raise CliError(f"{exc}; the fitted weights are in {report_path}") from None
    plotted = None
    try:
        plotted = plot_reliability(report, folder_path / "reliability.png")
    except OptionError as exc:  # no matplotlib: the weights and the report stand without the plot
        err.print(f"[yellow]no plot: {escape(str(exc))}[/yellow]")
    _print_report(out, report)
    out.print(f"weights written to {escape(str(target))}; report in {escape(str(folder_path / 'report.json'))}"
              + (f", plot {escape(str(plotted))}" if plotted else ""))
    if args.weights is None:
        out.print(f"These are now the shipped weights of {escape(game.name)}: the computer levels and analyses that judge "
                  "by fitted weights use them (give --weights FILE to try weights without changing the game's).")
    return 0


def _weights_target(named: str | None, game: Game) -> Path:
    """Where the weights go (``--weights``, else the game's own file), refused now where they
    could not be written once every game is played and fitted."""
    target = Path(named).expanduser() if named else shipped_path(game)
    try:
        writable_evaluations(target, game.id)
    except EvaluationFileError as exc:
        if named:
            raise CliError(f"--weights {exc}") from None
        raise CliError(f"{exc}; give --weights FILE to write the weights elsewhere") from None
    return target


def _interrupted_note(err: Console, study: Study, outcomes: Mapping[str, Sequence[GameOutcome]], folder: Path) -> None:
    """What an interrupted run kept: its games (stored), no weights yet, and how to go on."""
    finished = sum(len(games) for games in outcomes.values())
    total = study.games * len(study.variants)
    err.print(
        f"interrupted: {finished} of {total} training games are finished and stored in {escape(str(folder))}/; "
        "no weights were fitted yet. Run the same command again to play the rest and fit."
    )


def _command_words(args: argparse.Namespace) -> list[str]:
    words = [args.game, "--games", str(args.games), "--seed", str(args.seed)]
    for pairing in args.pairing or ():
        words += ["--pairing", pairing]
    if args.seats:
        words += ["--seats", str(args.seats)]
    for option in args.option or ():
        words += ["--option", option]
    if args.held_out != HELD_OUT_FIFTH:
        words += ["--held-out", str(args.held_out)]
    return words


def _fit_with_progress(game: Any, train: list[Record], held_out: list[Record], about: dict[str, Any],
                       err: Console) -> TrainingReport:
    total = len(train) + 2 * len(held_out)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task(f"{game.id}: reading and judging positions", total=total)
        return train_and_measure(game, train, held_out, about, lambda _step: progress.advance(task))


def _print_report(out: Console, report: TrainingReport) -> None:
    summary = Table(
        title=f"{report.model.game_id}: held-out games ({report.held_out_games}), "
              f"{report.hand.positions} positions; fitted on {report.train_games} games",
        caption="log loss and Brier: lower is better. Worst tenth: among the tenths of predicted chance that hold "
                f"{RELIABLE_COUNT} positions or more, the largest gap between the chance predicted and the share "
                "won, with its 95% interval from resampling the games.",
    )
    for column in ("evaluation", "log loss", "Brier", "worst tenth [95%]"):
        summary.add_column(column, justify="left" if column == "evaluation" else "right")
    for label, measured in (("hand-set", report.hand), ("fitted", report.fitted)):
        gap = measured.worst_gap(RELIABLE_COUNT)
        interval = measured.worst_gap_interval(RELIABLE_COUNT)
        shown = "-" if gap is None else f"{100 * gap:.1f} points"
        if interval is not None:
            shown += f" [{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"
        summary.add_row(label, f"{measured.log_loss:.4f}", f"{measured.brier:.4f}", shown)
    out.print(summary)
    table = Table(title="reliability: seat-positions by predicted chance, and the share they won")
    for column in ("tenth", "hand: count", "predicted", "won", "fitted: count", "predicted", "won"):
        table.add_column(column, justify="right")
    for tenth, (hand, fitted) in enumerate(zip(report.hand.table, report.fitted.table)):
        table.add_row(
            f"{tenth / 10:.1f}-{(tenth + 1) / 10:.1f}",
            str(hand[0]), f"{hand[1]:.3f}", f"{hand[2]:.3f}", str(fitted[0]), f"{fitted[1]:.3f}", f"{fitted[2]:.3f}",
        )
    out.print(table)
    weights = Table(title="fitted weights (per seat: score = bias + sum of weight x term)")
    weights.add_column("term")
    weights.add_column("weight", justify="right")
    for name, weight in zip(report.model.terms, report.model.weights):
        weights.add_row(name, f"{weight:+.4f}")
    out.print(weights)


__all__ = ["add_train_parser", "train_command"]
