"""``boardlab tournament``: a round robin of agents with seats rotated, then ratings.

Every combination of as many agents as the game has seats plays ``-n`` games
(a multiple of the seat count keeps the seating even). With ``--out DIR`` the
tournament is a resumable study with a report (ratings included). Beside openskill's
ratings it shows Elo by maximum likelihood from the same games, anchored at ``random`` = 0
when random plays (else at the first agent listed, and the table's title says which).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..lab.executors import make_executor
from ..lab.presets import expand_all
from ..lab.ratings import EloRating, Rating, pairings, rate, tournament_elo
from ..lab.report import build_report, write_report
from ..lab.store import StudyFolder
from ..lab.study import Study
from .common import build_game, parse_options, split_specs
from .lab import add_study_arguments, interrupted_note, run_with_display, seat_names


def add_tournament_parser(commands: Any) -> None:
    tournament = commands.add_parser("tournament", help="a round robin of agents with seats rotated, rated with intervals")
    add_study_arguments(tournament, "games per pairing (default 20)",
                        "players in each game (default: the game's default number; each game seats that many of the agents)")
    tournament.set_defaults(games=20)
    tournament.add_argument("--agents", required=True, help="agent specs, e.g. random,greedy,mcts:iterations=200")
    tournament.add_argument("--out", metavar="DIR", help="keep the games (resumable) and write a report here")
    tournament.add_argument("--json", action="store_true", help="print the ratings as JSON")


def tournament_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    game = build_game(args.game, args.seats, args.option)
    specs = expand_all(split_specs(args.agents), game)
    study = Study(
        game_id=game.id,
        variants=pairings(specs, game.num_players),
        games=args.games,
        seed=args.seed,
        players=game.num_players,
        rotate=True,
        options=parse_options(args.option),
    )
    study.validate()
    executor = make_executor(args.backend, args.jobs, args.address)
    folder = StudyFolder(Path(args.out), study) if args.out else None
    outcomes, interrupted = run_with_display(study, executor, folder, err, f"{game.id} tournament")
    ratings = rate(study, outcomes, specs)
    anchor, elo = tournament_elo(study, outcomes, specs)
    rows = [_with_elo(r.to_json(), elo, anchor) for r in ratings]
    if folder is not None:
        settings = {**folder.settings, "study_id": folder.study_id, "games_per_variant": study.games}
        report = build_report(settings, outcomes, seat_names(game), [], rows)
        html = write_report(folder.folder, report, outcomes)
    if args.json:
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
    else:
        out.print(ratings_table(game.name, sum(len(games) for games in outcomes.values()), ratings, elo, anchor))
        if folder is not None:
            out.print(f"Report: {escape(str(html))}.")
    if interrupted:
        interrupted_note(err, outcomes, folder.folder if folder is not None else None)
        return 130
    return 0


def _with_elo(row: dict[str, Any], elo: list[EloRating], anchor: str) -> dict[str, Any]:
    found = next(entry for entry in elo if entry.agent == row["agent"])
    return {**row, "elo": found.elo, "elo_low": found.low, "elo_high": found.high, "elo_anchor": anchor}


def ratings_table(game_name: str, games: int, ratings: list[Rating], elo: list[EloRating], anchor: str) -> Table:
    table = Table(
        title=f"{escape(game_name)}: {games} games, openskill ratings and Elo ({escape(anchor)} = 0), 95% intervals",
        caption="rating: openskill's skill (every agent starts at 25; only the differences count, about 4 points "
                "between two agents meaning the stronger wins about three games in four); Elo: 400 points mean "
                "the stronger wins ten games to one. Score: wins and shares of draws, per game.",
    )
    # an agent's spec is folded onto more lines rather than cut (at 80 columns it lost its end),
    # and each figure shares its column with its interval, so the specs keep the room
    table.add_column("agent", overflow="fold", ratio=1)
    for column in ("rating [95%]", "Elo [95%]", "games", "score"):
        table.add_column(column, justify="right", no_wrap=True)
    by_agent = {entry.agent: entry for entry in elo}
    for entry in ratings:
        fitted = by_agent[entry.agent]
        elo_text = "-" if fitted.elo is None else f"{fitted.elo:.0f}"
        if fitted.low is not None and fitted.high is not None and fitted.agent != anchor:
            elo_text += f" [{fitted.low:.0f}, {fitted.high:.0f}]"
        table.add_row(
            escape(entry.agent), f"{entry.mu:.1f} [{entry.low:.1f}, {entry.high:.1f}]", elo_text,
            str(entry.games), f"{entry.score_rate:.1%}",
        )
    return table
