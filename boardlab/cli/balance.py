"""``boardlab balance GAME``: search the game's options for the setting closest to fair, decisive
and of the wanted length (boardlab.lab.balance), confirm the best ones in a lab study, and
write the report (balance.json, balance.md; optionally a copy for docs/studies/).

Everything is stored under ``--out``: each candidate's games in ``trials/<study id>/``,
the confirmation study in ``confirm/<study id>/`` with its full lab report. Running the same
command again replays the search from the stored games (nothing is played twice); a larger
``-n`` or ``--confirm-games`` adds games.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..lab.balance import (
    BalanceSearch,
    Trial,
    confirmation_study,
    finalists,
    parse_dimension,
    parse_targets,
    recommend,
    run_search,
    searched_defaults,
    variant_name,
)
from ..lab.balance_report import (
    A_LEAD_NOT_A_RULING,
    balance_data,
    balance_markdown,
    recommendation_words,
    recommends_a_change,
    shown,
    write_balance,
)
from ..lab.executors import make_executor
from ..lab.presets import PRESETS
from ..lab.report import build_report, write_report
from ..lab.store import StudyFolder
from ..lab.study import run_study
from ..lab.verdict import build_verdict, strength_line
from .common import CliError, parse_options
from .lab import add_study_arguments, agent_labels, resolve_agents, run_with_display, seat_names


def add_balance_parser(commands: Any) -> None:
    balance = commands.add_parser(
        "balance", help="search a game's options for the fairest, most decisive setting (Optuna); docs/lab.md"
    )
    add_study_arguments(balance, "games per candidate (default 60)")
    balance.set_defaults(games=60)
    balance.add_argument("--vary", action="append", metavar="NAME=RANGE",
                         help="an option to search: NAME=LOW..HIGH[:STEP] (whole numbers) or NAME=V1,V2,... (repeatable)")
    balance.add_argument("--target", action="append", metavar="FIGURE=VALUE",
                         help="first_player_wins=0.5, draws=0, balance=1 or length=40 (decisions); repeatable "
                              "(default: first_player_wins=1/players and draws=0)")
    balance.add_argument("--players", help="agent specs or levels, e.g. hard or greedy,mcts (repeat around the table)")
    balance.add_argument("--preset", choices=sorted(PRESETS), help="a named agent setting in every seat (docs/lab.md)")
    balance.add_argument("--trials", type=int, default=12, help="candidate settings to try (default 12)")
    balance.add_argument("--batch", type=int, default=20, help="games between looks at a candidate (default 20)")
    balance.add_argument("--finalists", type=int, default=3, help="best candidates played again to confirm (default 3)")
    balance.add_argument("--confirm-games", type=int, default=200,
                         help="games per finalist and for the game's own setting (default 200; 0: no confirmation)")
    balance.add_argument("--out", metavar="DIR", help="where the games and the report go (default balance-GAME)")
    balance.add_argument("--doc", metavar="FILE", help="also write the report (Markdown) to FILE, e.g. docs/studies/towers.md")
    balance.add_argument("--json", action="store_true", help="print the report's data as JSON")


def command_line(args: argparse.Namespace) -> str:
    """The command as a shell line with every setting spelled out, which reproduces the run."""
    words = ["boardlab", "balance", args.game]
    if args.preset:
        words += ["--preset", args.preset]
    if args.players:
        words += ["--players", args.players]
    if args.seats is not None:
        words += ["--seats", str(args.seats)]
    for text in args.option or ():
        words += ["--option", text]
    for text in args.vary or ():
        words += ["--vary", text]
    for text in args.target or ():
        words += ["--target", text]
    words += ["-n", str(args.games), "--trials", str(args.trials), "--batch", str(args.batch),
              "--finalists", str(args.finalists), "--confirm-games", str(args.confirm_games),
              "--seed", str(args.seed), "--jobs", str(args.jobs)]
    if args.out:
        words += ["--out", args.out]
    if args.doc:
        words += ["--doc", args.doc]
    return shlex.join(words)


def _load() -> str:
    try:
        return ", ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:  # not every platform reports one
        return "unknown"


def stored_games(root: Path) -> int:
    """Games stored under a balance folder (every study's games.jsonl, one line each)."""
    total = 0
    for path in root.rglob("games.jsonl"):
        with path.open("rb") as handle:
            total += sum(1 for line in handle if line.endswith(b"\n"))
    return total


def balance_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    root = Path(args.out) if args.out else Path(f"balance-{args.game}")
    stored_before = stored_games(root)
    try:
        return _balance(args, out, err, root, stored_before)
    except KeyboardInterrupt:
        err.print(f"interrupted: {stored_games(root) - stored_before} games played now, {stored_games(root)} in all, "
                  f"are stored in {escape(str(root))}/; run the same command again to go on (no stored game is "
                  "played again).", soft_wrap=True)
        return 130


def _balance(args: argparse.Namespace, out: Console, err: Console, root: Path, stored_before: int) -> int:
    """The search, the finalists' confirmation and the report, into ``root``."""
    try:
        import optuna  # noqa: F401  (checked first: a search without it would fail after games were played)
    except ImportError:
        raise CliError("boardlab balance needs Optuna: pip install 'boardlab[lab]'") from None
    if not args.vary:
        raise CliError("give at least one --vary NAME=LOW..HIGH or NAME=V1,V2,... (boardlab games GAME lists the options)")
    if args.finalists < 1 or args.confirm_games < 0:
        raise CliError("--finalists must be at least 1 and --confirm-games at least 0")
    began, load_before = time.monotonic(), _load()
    game, specs = resolve_agents(args)
    search = BalanceSearch(
        game_id=game.id, agents=tuple(specs), dimensions=tuple(parse_dimension(text, game) for text in args.vary),
        targets=parse_targets(args.target, game.num_players), players=game.num_players, trials=args.trials,
        games=args.games, batch=args.batch, seed=args.seed, options=parse_options(args.option),
    )
    search.study(searched_defaults(search, game.options_spec)).validate()
    executor = make_executor(args.backend, args.jobs, args.address)
    how = "every combination" if search.exhaustive else f"Optuna TPE over {search.grid_size} combinations"
    candidates = min(search.trials, search.grid_size)  # run_search plays no combination twice
    err.print(f"balance {escape(game.id)}: {candidates} candidates ({how}), {search.games} games each", soft_wrap=True)

    def tried(trial: Trial) -> None:
        note = "; ".join(part for part in ("dropped early" if trial.pruned else "", trial.note) if part)
        err.print(f"  trial {trial.number}: {escape(variant_name(trial.options))}: score "
                  f"{'-' if not math.isfinite(trial.score) else f'{trial.score:.3f}'} over {trial.games} games"
                  f"{'; ' + note if note else ''}", soft_wrap=True)

    trials = run_search(search, root, lambda study, sink: run_study(study, executor, sink), tried)
    recommendation, report = None, None
    if args.confirm_games:
        study = confirmation_study(search, searched_defaults(search, game.options_spec),
                                   finalists(trials, args.finalists), args.confirm_games)
        folder = StudyFolder(root / "confirm" / study.study_id, study)
        # another --finalists made another confirmation study: its games of the settings both
        # play are the very games this one would play (same seeds), so they are taken over
        earlier = sorted(path for path in (root / "confirm").iterdir() if path.is_dir() and path != folder.folder)
        adopted = sum(folder.adopt(path) for path in earlier)
        if adopted:
            err.print(f"{game.id} confirmation: {adopted} games taken over from earlier confirmation studies")
        outcomes, interrupted = run_with_display(study, executor, folder, err, f"{game.id} confirmation")
        if interrupted:
            raise KeyboardInterrupt
        settings = {**folder.settings, "study_id": folder.study_id, "games_per_variant": study.games}
        report = build_report(settings, outcomes, seat_names(game), agent_labels(specs))
        report["verdict"] = build_verdict(report, game)
        html = write_report(folder.folder, report, outcomes)
        recommendation = recommend(report, search.targets)
        recommendation["report"] = str(html)
    made = {
        "command": command_line(args), "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "seconds": time.monotonic() - began, "load_before": load_before, "load_after": _load(),
        "cpus": os.cpu_count(), "game_name": game.name, "agents_note": strength_line(game, specs),
        "games_played": stored_games(root) - stored_before, "games_stored": stored_games(root),
    }
    data = balance_data(search, trials, recommendation, report, made)
    _, markdown = write_balance(root, data)
    if args.doc:
        Path(args.doc).parent.mkdir(parents=True, exist_ok=True)
        Path(args.doc).write_text(balance_markdown(data), encoding="utf-8")
    if args.json:
        sys.stdout.write(json.dumps(data, indent=1) + "\n")
        return 0
    print_balance(out, data)
    out.print(f"Report: {escape(str(markdown))} (and balance.json"
              f"{'; the confirmation study: ' + escape(recommendation['report']) if recommendation else ''}).", soft_wrap=True)
    return 0


def print_balance(out: Console, data: dict[str, Any]) -> None:
    table = Table(title="the search, trial by trial (score: distance from the targets, smaller is better)")
    # a setting is read whole, on one line: the figures beside it wrap instead
    for column in ("trial", "setting", "games", "first player", "draws", "length", "score"):
        table.add_column(column, justify="left" if column == "setting" else "right", no_wrap=column == "setting")
    for trial in data["trials"]:
        figures = trial["figures"]
        table.add_row(str(trial["number"]), escape(variant_name(trial["options"])), str(trial["games"]),
                      shown(figures["first_player_wins"], True, False), shown(figures["draws"], True, False),
                      shown(figures["length"], False, False),
                      "-" if trial["score"] is None else f"{trial['score']:.3f}"
                      + (" (dropped)" if trial["pruned"] else ""))
    out.print(table)
    recommendation = data.get("recommendation")
    if not recommendation:
        return
    confirmed = Table(title=f"confirmed over {data['confirmation']['games_per_variant']} games each (95% intervals)")
    for column in ("setting", "first player", "draws", "length", "score"):
        confirmed.add_column(column, justify="left" if column == "setting" else "right", no_wrap=column == "setting")
    for entry in recommendation["candidates"]:
        figures = entry["figures"]
        name = entry["variant"] + ("\n(as the rules are)" if entry["variant"] == recommendation["baseline"] else "")
        confirmed.add_row(escape(name), shown(figures["first_player_wins"], True), shown(figures["draws"], True),
                          shown(figures["length"], False), "-" if entry["score"] is None else f"{entry['score']:.3f}")
    out.print(confirmed)
    for line in recommendation_words(recommendation):
        out.print(escape(line))
    if recommends_a_change(recommendation):
        out.print(A_LEAD_NOT_A_RULING)
