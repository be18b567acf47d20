"""``boardlab lab``: a designer's study (variants side by side, a report), and the progress
display that ``lab``, ``simulate`` and ``tournament`` share.

The study runs on the lab's one engine (boardlab.lab); this module parses the
command line, draws progress and prints the summary. Progress is drawn on
stderr: a bar on a terminal, a plain line every few seconds on a pipe. Ctrl-C
stops the workers; the games finished so far are kept (in the study folder)
and summarised, and running the same command again continues the study.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from ..core.game import Game
from ..lab.executors import BACKENDS, Executor, make_executor
from ..lab.presets import PRESETS, expand_all, preset_seats
from ..lab.progress import StudyProgress
from ..lab.report import build_report, format_figure, shown_metrics, variant_label, write_report
from ..lab.sequential import run_until_sure
from ..lab.stats import GameOutcome
from ..lab.store import StudyFolder
from ..lab.study import OutcomeSink, Study, StudyInterrupted, option_variants, parse_vary, run_study
from ..lab.verdict import bound_text, build_verdict, percent_text, verdict_lines
from .common import CliError, build_game, parse_options, seat_count, split_specs

#: on a pipe, a progress line at most this often
PIPE_LINE_SECONDS = 5.0
#: on a terminal, the bar is redrawn at most this often
TERMINAL_REFRESH_SECONDS = 0.2


def clock_text(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    whole = int(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class StudyDisplay:
    """Draws a run's progress on ``err``; pass it as ``run_study``'s ``on_progress``.

    Refreshed by hand, never by a timer thread, because the process pool forks
    its workers while it runs.
    """

    def __init__(self, err: Console, title: str, transient: bool) -> None:
        self._err = err
        self._title = title
        self._last = 0.0
        self._terminal = err.is_terminal
        self._bar: Progress | None = None
        self._task: Any = None
        if self._terminal:
            self._bar = Progress(
                TextColumn(escape(title)),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[under_way]}"),
                # the run's own clock (from its start), not the bar's, which starts at the first event
                TextColumn("{task.fields[elapsed]}"),
                TextColumn("{task.fields[left]}"),
                console=err,
                auto_refresh=False,
                transient=transient,
            )

    def __enter__(self) -> StudyDisplay:
        if self._bar is not None:
            self._bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)

    def __call__(self, progress: StudyProgress, force: bool = False) -> None:
        now = time.monotonic()
        every = TERMINAL_REFRESH_SECONDS if self._terminal else PIPE_LINE_SECONDS
        finished = progress.done == progress.total
        if not force and not finished and now - self._last < every:
            return
        self._last = now
        snap = progress.snapshot()
        under_way = f"{snap.running} under way, {snap.running_moves} moves" if snap.running else ""
        left = f"about {clock_text(snap.remaining)} left" if snap.remaining is not None else "time left: after the first game"
        if self._bar is not None:
            if self._task is None:
                self._task = self._bar.add_task("games", total=snap.total, completed=snap.done, under_way="", elapsed="", left="")
            self._bar.update(
                self._task, completed=snap.done, under_way=under_way, elapsed=clock_text(snap.elapsed), left=left
            )
            self._bar.refresh()
            return
        resumed = f" ({snap.resumed} played before)" if snap.resumed else ""
        self._err.print(
            f"{escape(self._title)}: {snap.done}/{snap.total} games{resumed}"
            f"{'; ' + under_way if under_way else ''}; {clock_text(snap.elapsed)} elapsed; {left}",
            soft_wrap=True,
        )


def run_with_display(
    study: Study, executor: Executor, sink: OutcomeSink | None, err: Console, title: str, transient: bool = True
) -> tuple[dict[str, list[GameOutcome]], bool]:
    """Run ``study`` with a progress display; (outcomes per variant, whether Ctrl-C stopped it)."""
    display = StudyDisplay(err, title, transient)
    with display:
        try:
            return run_study(study, executor, sink, on_progress=display), False
        except StudyInterrupted as stop:
            return stop.outcomes, True


def interrupted_note(
    err: Console, outcomes: Mapping[str, Sequence[GameOutcome]], folder: Path | None, keep_with: str = "--out DIR"
) -> None:
    """What Ctrl-C left: the finished games' statistics (printed above) and where they are kept,
    or the command's own flag (``keep_with``) that would have kept them."""
    finished = sum(len(games) for games in outcomes.values())
    again = (
        f" They are stored in {escape(str(folder))}/: run the same command again to continue."
        if folder is not None
        else f" Give {keep_with} to keep the games for a later run."
    )
    err.print(f"interrupted: statistics of the {finished} finished games above.{again}")


#: games per variant between two looks of ``lab --until-sure``
UNTIL_SURE_BATCH = 50


def add_study_arguments(
    parser: argparse.ArgumentParser, games_help: str, seats_help: str = "number of players (default: one per listed agent)"
) -> None:
    """The arguments every study command takes (besides its agents)."""
    parser.add_argument("game", help="game id")
    parser.add_argument("-n", "--games", type=int, default=100, help=games_help)
    parser.add_argument("--seats", type=int, help=seats_help)
    parser.add_argument("--seed", type=int, default=0, help="base seed; game i gets a seed derived from it")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes, or Ray CPUs for a local Ray (default 1)")
    parser.add_argument("--backend", choices=BACKENDS, default="process", help="where games run (default: this machine)")
    parser.add_argument("--address", help="with --backend ray: the cluster to use (e.g. auto, or ray://HOST:10001)")
    parser.add_argument("--option", "-O", action="append", metavar="NAME=VALUE", help="a rule option (repeatable)")


def add_lab_parser(commands: Any) -> None:
    lab = commands.add_parser("lab", help="a designer's study: metrics per rule variant, a report, resumable")
    add_study_arguments(lab, "games per variant (default 100)")
    lab.add_argument("--players",
                     help="levels or agent specs, e.g. normal,hard or mcts,greedy (repeat around the table); or use --preset")
    lab.add_argument("--preset", choices=sorted(PRESETS), help="a named agent setting in every seat (docs/lab.md)")
    lab.add_argument("--vary", action="append", metavar="NAME=V1,V2", help="run the study for each value (repeatable)")
    lab.add_argument("--out", metavar="DIR", help="the study folder: records, games, report (default lab-GAME)")
    lab.add_argument("--fixed-seats", action="store_true", help="do not rotate the seating between games")
    lab.add_argument("--json", action="store_true", help="print the report's data as JSON")
    lab.add_argument("--until-sure", action="store_true",
                     help="play in batches and stop once every difference is settled (or at -n); docs/lab.md")
    lab.add_argument("--batch", type=int, help=f"with --until-sure: games per variant between looks (default {UNTIL_SURE_BATCH})")
    lab.add_argument("--width", type=float, metavar="POINTS",
                     help="with --until-sure: an interval narrower than this many percentage points also settles")


def resolve_agents(args: argparse.Namespace) -> tuple[Game, list[str]]:
    """The game and its agent specs (presets expanded) from --players / --preset."""
    if args.preset and args.players:
        raise CliError("give --players or --preset, not both")
    if not args.preset and not args.players:
        raise CliError(f"give --players (agent specs) or --preset ({', '.join(sorted(PRESETS))})")
    specs = split_specs(args.players) if args.players else []
    game = build_game(args.game, seat_count(args.game, args.seats, specs), args.option)
    if args.preset:
        return game, preset_seats(args.preset, game)
    return game, expand_all(specs, game)


def seat_names(game: Game) -> list[str]:
    return [game.player_name(seat) for seat in range(game.num_players)]


def lab_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    game, specs = resolve_agents(args)
    study = Study(
        game_id=game.id,
        variants=option_variants(specs, parse_vary(args.vary)),
        games=args.games,
        seed=args.seed,
        players=game.num_players,
        rotate=not args.fixed_seats,
        options=parse_options(args.option),
    )
    study.validate()
    # every argument is checked before the study folder is made
    for flag, given in (("--width", args.width), ("--batch", args.batch)):
        if given is not None and not args.until_sure:
            raise CliError(f"{flag} applies to --until-sure")
    if args.width is not None and not 0 < args.width < 100:
        raise CliError(f"--width {args.width:g}: an interval's width in percentage points, above 0 and below 100")
    if args.batch is not None and args.batch < 1:
        raise CliError("--batch needs at least one game")
    executor = make_executor(args.backend, args.jobs, args.address)
    folder = StudyFolder(Path(args.out) if args.out else Path(f"lab-{game.id}"), study)
    stopping = None
    if args.until_sure:
        batch = UNTIL_SURE_BATCH if args.batch is None else args.batch
        width = None if args.width is None else args.width / 100
        outcomes, interrupted, stopping = _until_sure(study, executor, folder, err, game, specs, batch, width)
    else:
        outcomes, interrupted = run_with_display(study, executor, folder, err, game.id)
    labels = agent_labels(specs)
    settings = {**folder.settings, "study_id": folder.study_id, "games_per_variant": study.games}
    report = build_report(settings, outcomes, seat_names(game), labels)
    if stopping is not None:
        report["stopping"] = stopping.to_json()
    report["verdict"] = build_verdict(report, game)
    html = write_report(folder.folder, report, outcomes)
    if args.json:
        sys.stdout.write(json.dumps(report, indent=1) + "\n")
    else:
        print_report(out, report)
        print_games_to_look_at(out, report, folder.folder)
        out.print(f"Report: {escape(str(html))} (and report.json, summary.csv, differences.csv, games.csv).")
    if interrupted:
        interrupted_note(err, outcomes, folder.folder)
        return 130
    return 0


def _until_sure(
    study: Study, executor: Executor, folder: StudyFolder, err: Console, game: Game, specs: Sequence[str],
    batch: int, width: float | None,
) -> tuple[dict[str, list[GameOutcome]], bool, Any]:
    """A study played batch by batch until it is sure; Ctrl-C keeps the games so far."""
    def play(part: Study) -> dict[str, list[GameOutcome]]:
        title = f"{game.id} (until sure: the first {part.games} per variant)"
        return run_study(part, executor, folder, on_progress=StudyDisplay(err, title, True))

    try:
        outcomes, stopping = run_until_sure(study, specs, game.num_players, batch, width, run=play)
    except StudyInterrupted as stop:
        return stop.outcomes, True, None
    return outcomes, False, stopping


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Display names: a spec listed twice becomes ``random#1``, ``random#2``."""
    labels = []
    for index, spec in enumerate(specs):
        labels.append(f"{spec}#{specs[: index + 1].count(spec)}" if specs.count(spec) > 1 else spec)
    return labels


#: a variant's name longer than this heads its column by a letter, named above the table, so
#: that an 80-column terminal shows every name whole
LONGEST_COLUMN_NAME = 14


def terminal_figure(figure: Mapping[str, Any], percent: bool) -> str:
    """A figure short enough for a table cell: shares in whole points as the verdict says
    them (``35% [22, 51]``), other figures as the report has them."""
    return percent_text(figure) if percent else format_figure(figure, percent)


def difference_text(figure: Mapping[str, Any], percent: bool) -> str:
    """A difference between two variants: of shares in points (``-20 points [-53, +21]``, the
    verdict's words), of other figures as the report has them."""
    if not percent or figure["value"] is None or figure["low"] is None or figure["high"] is None:
        return format_figure(figure, percent)
    value, low, high = (100 * figure[part] for part in ("value", "low", "high"))
    def signed(bound: float, upper: bool) -> str:
        text = bound_text(bound, 0, upper)
        return text if text.startswith("-") or text == "0" else "+" + text
    return f"{'-' if value < 0 else '+' if value > 0 else ''}{abs(value):.0f} points [{signed(low, False)}, {signed(high, True)}]"


def print_report(out: Console, report: Mapping[str, Any]) -> None:
    """The metrics per variant, and the differences from the first, as rich tables."""
    variants = report["variants"]
    for line in verdict_lines(report):
        out.print(escape(line))
    names = [variant_label(variant["variant"]) for variant in variants]
    if len(names) > 1 and max(map(len, names)) > LONGEST_COLUMN_NAME:
        headers = [chr(ord("A") + number) if number < 26 else str(number + 1) for number in range(len(names))]
        out.print("; ".join(f"{header}: {escape(name)}" for header, name in zip(headers, names, strict=True)))
    else:
        headers = names
    table = Table(title=f"{sum(v['games'] for v in variants)} games: metrics with 95% intervals")
    table.add_column("metric")
    for header in headers:
        table.add_column(escape(header), justify="right", no_wrap=True)
    for metric in shown_metrics(report):
        table.add_row(
            escape(metric["title"]), *(terminal_figure(v["metrics"][metric["key"]], metric["percent"]) for v in variants)
        )
    for title, key in (("chance of a first-player edge this large (p)", "first_player_p"),
                       ("chance of a seat gap this large (p)", "seat_balance_p")):
        table.add_row(title, *("-" if v[key] is None else f"{v[key]:.3g}" for v in variants))
    out.print(table)
    out.print("p: the chance that games as even as the rules intend would look this uneven; below 0.05, "
              "the edge is not chance. Every metric: docs/lab.md.", style="dim")
    for comparison in report["comparisons"]:
        differences = Table(title=f"{escape(comparison['variant'])} minus {escape(variant_label(comparison['baseline']))}")
        differences.add_column("metric")
        differences.add_column("difference [95%]", justify="right", no_wrap=True)
        differences.add_column("sure?", justify="center")
        for metric in shown_metrics(report):
            figure = comparison["differences"][metric["key"]]
            sure = figure["low"] is not None and (figure["low"] > 0 or figure["high"] < 0)
            differences.add_row(escape(metric["title"]), difference_text(figure, metric["percent"]), "yes" if sure else "")
        out.print(differences)


def print_games_to_look_at(out: Console, report: Mapping[str, Any], folder: Path) -> None:
    """The report's games to look at, each with the command that replays it."""
    highlights = report.get("highlights") or []
    if not any(entry["games"] for entry in highlights):
        return
    out.print("Games to look at:")
    for entry in highlights:
        prefix = f"{variant_label(entry['variant'])}: " if len(highlights) > 1 else ""
        for game in entry["games"]:
            where = f"boardlab replay {folder / game['record']}" if game["record"] else f"game {game['index']}"
            why = escape(prefix + game["why"])
            out.print(Padding(f"{why}; this one {game['decisions']} decisions: {escape(where)}", (0, 0, 0, 2)))
