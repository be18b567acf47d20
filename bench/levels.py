"""The level ladder of one game: does each level beat the one below, how strong, how costly?

    python bench/levels.py towers --games 100 --jobs 16            # play (resumes), print the tables
    python bench/levels.py towers --merge runs-a/towers runs-b/towers --write-docs
    python bench/levels.py towers --merge boardlab/games/towers/ladder.json runs-c/towers --write-docs
    python bench/levels.py honor --pairs normal-hard --seed 1 --games 50

Plays random vs beginner, beginner vs easy, easy vs normal, normal vs hard (and greedy, an
anchor, against random and easy where no level is plain greedy): ``--games`` two-player
games per pair with seats rotated, seeded from ``--seed``, on ``--jobs`` worker processes.
Each game is appended to ``--out DIR/GAME/<pair>.jsonl`` as it finishes: the same command
continues an interrupted run, and files from other runs or machines are counted too (copy
them in, or name them with ``--merge``; a game counts once). Another ``--seed`` plays new
games of the same pairs, so machines can share a ladder. A ``ladder.json`` named with
``--merge`` adds each pair's recorded W-D-L where no file holds that pair's games: a new rung
is rated against the old ones without playing them again.

Prints per pair the stronger side's W-D-L and score with a 95% Wilson interval and whether it
passes (at least 65% over at least 100 games), per agent the CPU seconds per decision (median,
maximum) and Elo by maximum likelihood (random = 0); with ``--write-docs`` writes the game's
section of docs/levels.md and boardlab/games/GAME/ladder.json. ``--json`` prints the summary.
``--spec LEVEL=SPEC`` tries another spec for a level (tests, tuning). docs/levels.md says how
each figure is computed. Needs only the standard library and boardlab (Honor: pymunk).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path

from boardlab.agents import LEVELS
from boardlab.core.errors import BoardlabError
from boardlab.core.registry import load
from boardlab.lab.executors import make_executor
from boardlab.lab.ladder import (
    LadderFolder,
    about,
    cut_note,
    default_pairs,
    ladder_agents,
    ladder_study,
    missing_note,
    parse_pairs,
    play_ladder,
    read_lines,
    recorded_ladder,
    summarize,
)
from boardlab.lab.ladder_docs import write_docs, write_ladder_file
from boardlab.lab.study import StudyInterrupted

DOCS = Path(__file__).resolve().parents[1] / "docs" / "levels.md"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/levels.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game id: towers, sovereign, overseer, territories, honor")
    parser.add_argument("--games", type=int, default=100, help="games per pair (default 100: what the rule asks)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: every CPU)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0); another seed plays other games")
    parser.add_argument("--pairs", help="WEAKER-STRONGER,... (default: every rung, and greedy's games)")
    parser.add_argument("--out", default="ladder-runs", help="folder for the games (default ladder-runs)")
    parser.add_argument(
        "--merge", nargs="+", metavar="PATH",
        help="play nothing: summarise the games in these files or folders (and the pairs a ladder.json records)",
    )
    parser.add_argument("--spec", action="append", default=[], metavar="LEVEL=SPEC", help="play LEVEL with another spec")
    parser.add_argument("--write-docs", action="store_true", help="write docs/levels.md's section and the game's ladder.json")
    parser.add_argument(
        "--docs", default=str(DOCS), help="the document --write-docs updates (default: docs/levels.md of this checkout)"
    )
    parser.add_argument("--ladder-file", help="where --write-docs puts ladder.json (default: the game's folder)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = shlex.join(["python", "bench/levels.py", *(sys.argv[1:] if argv is None else argv)])
    try:
        game = load(args.game, players=2)
        overrides = dict(_split_spec(text) for text in args.spec)
        agents = ladder_agents(game, overrides)
        pairs = parse_pairs(args.pairs, agents) if args.pairs else default_pairs(agents)
        recorded = []
        if args.merge:
            ladder_files = [path for path in args.merge if path.endswith(".json")]
            recorded = [recorded_ladder(path) for path in ladder_files]
            lines, runs = read_lines([path for path in args.merge if path not in ladder_files])
        else:
            lines, runs = _play(args, game.id, agents, pairs, command)
    except BoardlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except StudyInterrupted:
        print(f"\ninterrupted: the finished games are in {args.out}; run the same command to continue", file=sys.stderr)
        return 130
    summary = summarize(game, agents, lines, runs, recorded)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print_summary(summary)
    if args.write_docs:
        if overrides:
            print("note: --spec changed a level: ladder.json keeps the ratings, but they show only for a level "
                  "that plays its measured spec", file=sys.stderr)
        print(f"wrote {write_docs(args.docs, summary)} and {write_ladder_file(summary, args.ladder_file)}", file=sys.stderr)
    return 0


def _split_spec(text: str) -> tuple[str, str]:
    level, eq, spec = text.partition("=")
    if not eq or not spec.strip():
        raise BoardlabError(f"--spec {text!r}: expected LEVEL=SPEC, e.g. hard=mcts:iterations=500")
    return level.strip(), spec.strip()


def _play(args: argparse.Namespace, game_id: str, agents: dict, pairs: list, command: str) -> tuple[list, list]:
    if args.games % 2:
        print(f"note: {args.games} games per pair is odd: one seat gets one game more", file=sys.stderr)
    study = ladder_study(game_id, agents, pairs, args.games, args.seed)
    study.validate()
    folder = LadderFolder(args.out, study)
    total = len(pairs) * args.games
    already = len(folder.done())
    began = last = time.monotonic()
    count = already

    def report(_outcome: object) -> None:
        nonlocal count, last
        count += 1
        now = time.monotonic()
        if now - last >= 10 or count == total:
            last = now
            print(f"{game_id}: {count}/{total} games ({already} from earlier runs), {now - began:.0f} s", file=sys.stderr)

    print(f"{game_id}: {total} games, {already} already in {folder.folder}; load average {os.getloadavg()[0]:.2f}",
          file=sys.stderr)
    play_ladder(study, make_executor("process", args.jobs), folder, command, args.jobs, report)
    return read_lines([folder.folder])


def print_summary(summary: dict) -> None:
    print(f"{summary['game']}: {summary['games']} games, {summary['players']} players")
    print()
    print(f"{'pair (weaker vs stronger)':28} {'games':>5}  {'W-D-L':>11} {'score':>6}  {'95% interval':>15}  65%?")
    for row in summary["pairs"]:
        verdict = "anchor" if row["passed"] is None else "yes" if row["passed"] else "no"
        if row["passed"] is False and row["games"] < 100:
            verdict = "too few games"
        wdl = f"{row['wins']}-{row['draws']}-{row['losses']}"
        print(f"{row['weaker'] + ' vs ' + row['stronger']:28} {row['games']:>5}  {wdl:>11} {row['score']:6.1%}  "
              f"{row['low']:6.1%} - {row['high']:6.1%}  {verdict}")
    for note in filter(None, [*map(missing_note, summary["pairs"]), *map(cut_note, summary["pairs"])]):
        print(note)
    print()
    ratings = {rating["agent"]: rating for rating in summary["ratings"]}
    print(f"{'agent':10} {'Elo':>6}  {'95% interval':>15}  {'games':>5}  {'CPU/decision median':>19} {'max':>8}  spec")
    for label, spec in summary["agents"].items():
        rating, cpu = ratings.get(label), summary["cpu"].get(label)
        elo = "-" if rating is None or rating["elo"] is None else f"{rating['elo']:.0f}"
        interval = "-" if rating is None or rating["low"] is None else f"{rating['low']:.0f} - {rating['high']:.0f}"
        games = 0 if rating is None else rating["games"]
        median = "-" if cpu is None else f"{cpu['median']:.4f} s"
        most = "-" if cpu is None else f"{cpu['max']:.3f} s"
        print(f"{label:10} {elo:>6}  {interval:>15}  {games:>5}  {median:>19} {most:>8}  {spec}")
    if summary["recorded"]:
        print(f"from a ladder.json (W-D-L, not games): {', '.join(summary['recorded'])}")
    for name, count in sorted(summary["skipped"].items()):
        print(f"left out: {count} games of {name} (not the specs the levels play now)")
    for run in summary["runs"]:
        print(f"run: {run['command']} ({run['games_played']} games, load {run['load_start'][0]} -> {run['load_end'][0]}, "
              f"{run['jobs']} jobs on {run['cpus']} CPUs)")
    lobby = [f"{level}, {about(ratings[level]['elo'])}" for level in LEVELS
             if level in ratings and ratings[level]["elo"] is not None]
    if lobby:
        print(f"\nThe lobby will read: {'; '.join(lobby)}")


if __name__ == "__main__":
    sys.exit(main())
