"""``boardlab simulate``: the quick summary of many computer games (the lab's engine).

With ``--records DIR`` the games are a resumable study in DIR (boardlab.lab.store):
run again, it continues; a folder holding anything else is refused. Ctrl-C prints
the statistics of the games finished so far.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..lab.executors import make_executor
from ..lab.metrics import estimate, metric_definitions
from ..lab.play import SimulationPlan
from ..lab.presets import expand_all
from ..lab.stats import GameOutcome, Summary, sample_warnings, summarize
from ..lab.store import StudyFolder
from ..lab.study import single_variant_study
from .common import build_game, parse_options, seat_count, split_specs
from .lab import agent_labels, interrupted_note, run_with_display, seat_names


def _num(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def agent_score_rates(outcomes: Sequence[GameOutcome], summary: Summary) -> list[float]:
    """Each agent's score rate as docs/lab.md defines it and the lab computes it: its mean
    return per game played, its seats in a game averaged (NaN for an agent that never played).
    Dividing its summed score by its games instead would count an agent holding two seats
    twice: in self-play, 100% where it scores an even share."""
    metrics = {metric.key: metric for metric in metric_definitions(summary.seat_names, summary.agents)}
    return [estimate(metrics[f"score_{number}"], outcomes).value for number in range(len(summary.agents))]


def summary_tables(summary: Summary, agent_rates: Sequence[float] | None) -> list[Table]:
    """Seats, agents, agents by seat and game length, as rich tables. ``agent_rates``
    (:func:`agent_score_rates`) None: one agent in every seat, whose score rate is an even share
    by definition, so the per-agent table says nothing and is left out (``boardlab lab`` leaves
    out per-agent rows in self-play too)."""
    games = summary.games
    seats = Table(title=f"{games} games: wins per seat")
    for column in ("seat", "wins", "win rate", "95% interval"):
        seats.add_column(column, justify="right" if column != "seat" else "left")
    for name, wins, (low, high) in zip(summary.seat_names, summary.seat_wins, summary.seat_win_interval):
        seats.add_row(escape(name), str(wins), f"{wins / games:.1%}", f"{low:.1%} - {high:.1%}")
    seats.add_row("draws", str(summary.draws), f"{summary.draws / games:.1%}", "")
    tables = [seats]

    if agent_rates is not None:
        # more seat-games than games: the agent sat in two seats of one game (four seats, two agents)
        several_seats = any(sum(row) > played for row, played in zip(summary.agent_seat_games, summary.agent_games))
        agents = Table(
            title="per agent (score: wins + shares of draws)",
            caption="an agent in several seats of a game: its score counts them all, its rate averages them"
            if several_seats else None,
        )
        for column in ("agent", "games", "wins", "score", "score rate"):
            agents.add_column(column, justify="right" if column != "agent" else "left")
        for label, played, wins, score, rate in zip(
            summary.agents, summary.agent_games, summary.agent_wins, summary.agent_score, agent_rates
        ):
            agents.add_row(escape(label), str(played), str(wins), f"{score:.1f}", "-" if math.isnan(rate) else f"{rate:.1%}")
        tables.append(agents)

    by_seat = Table(title="score rate by agent and seat (games)")
    by_seat.add_column("agent")
    for name in summary.seat_names:
        by_seat.add_column(escape(name), justify="right")
    for label, scores, seat_games in zip(summary.agents, summary.agent_seat_score, summary.agent_seat_games):
        by_seat.add_row(
            escape(label),
            *(f"{score / count:.1%} ({count})" if count else "-" for score, count in zip(scores, seat_games)),
        )

    length = Table(title=f"game length ({_num(summary.seconds_per_game, 2)} s per game)")
    for column in ("counting", "mean", "std dev", "median", "min", "max"):
        length.add_column(column, justify="right" if column != "counting" else "left")
    for label, stats in (("all moves", summary.moves), ("decisions", summary.decisions)):
        length.add_row(
            label, _num(stats.mean), _num(stats.stdev), _num(stats.median, 1), str(stats.minimum), str(stats.maximum)
        )
    return [*tables, by_seat, length]


def simulate_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    specs = split_specs(args.players)
    players = seat_count(args.game, args.seats, specs)
    game = build_game(args.game, players, args.option)
    specs = expand_all(specs, game)
    plan = SimulationPlan(
        game_id=game.id,
        agents=tuple(specs),
        games=args.games,
        seed=args.seed,
        players=game.num_players,
        options=parse_options(args.option),
        rotate=args.rotate,
        records_dir=args.records,
    )
    plan.validate()
    study = single_variant_study(plan)
    executor = make_executor("process", args.jobs)
    folder = StudyFolder(args.records, study) if args.records is not None else None
    games, interrupted = run_with_display(study, executor, folder, err, game.id, transient=not args.json)
    outcomes = games[""]
    summary = summarize(outcomes, agent_labels(specs), seat_names(game))
    if args.json:
        data = summary.to_json()
        data.update({"game": game.id, "options": dict(game.options), "seed": plan.seed, "rotate": plan.rotate})
        if interrupted:
            data["interrupted"] = True
        sys.stdout.write(json.dumps(data, indent=1) + "\n")
    elif outcomes:
        # ``greedy,greedy`` keeps its table: each copy holds one seat, so its rate is that seat's
        agent_rates = None if len(plan.agents) == 1 else agent_score_rates(outcomes, summary)
        print_summary(out, game.name, game.num_players, plan, summary, agent_rates)
    if interrupted:
        interrupted_note(err, games, folder.folder if folder is not None else None, keep_with="--records DIR")
        return 130
    return 0


def is_self_play(plan: SimulationPlan) -> bool:
    """One spec in every seat (``greedy``, or ``greedy,greedy``): the lab's self-play."""
    return len(set(plan.agents)) == 1


def print_summary(
    out: Console, game_name: str, players: int, plan: SimulationPlan, summary: Summary,
    agent_rates: Sequence[float] | None,
) -> None:
    seating = "rotating seats" if plan.rotate else "fixed seats"
    labels = ", ".join(summary.agents)
    who = labels
    if is_self_play(plan):
        who = f"self-play: {plan.agents[0]} in every seat" + (f", as {labels}" if len(plan.agents) > 1 else "")
    out.print(f"{escape(game_name)}, {players} players, {escape(who)} ({seating}), base seed {plan.seed}.")
    for table in summary_tables(summary, agent_rates):
        out.print(table)
    if not math.isnan(summary.seat_balance_p):
        caveat = (
            "a small p means a seat advantage"
            if plan.rotate or is_self_play(plan)
            else "the agents differ by seat: use --rotate to measure the seat advantage"
        )
        out.print(
            f"Seat balance (equal wins per seat?): chi-square {summary.seat_balance_chi2:.2f}, "
            f"p = {summary.seat_balance_p:.3g}; {caveat}."
        )
    endings = ", ".join(f"{escape(code)}: {count}" for code, count in summary.endings.items())
    out.print(f"Endings: {endings}.")
    for warning in sample_warnings(summary.to_json()):
        out.print(f"[bold]Warning[/]: {escape(warning)}.")
    if plan.records_dir is not None:
        out.print(f"Records of every game are in {escape(plan.records_dir)}/ (run again to extend or resume).")
