"""Which of a level's games not won were won positions let go: play them again and judge them.

    python bench/levels.py overseer --games 100 --jobs 2 --seed 61 --pairs normal-expert
    python bench/conversion.py ladder-runs/overseer/normal-vs-expert.jsonl expert --jobs 2

Every game of a ladder file (bench/levels.py) that LEVEL did not win is played again from its
seed: a ladder game's decisions are all seeded by the game's seed, so it replays move for move
while no decision reaches its time cap, and each replay is checked against the stored ending.
Each position before the end is judged by the game's fitted evaluation (docs/evaluation.md),
whose chances are calibrated. A game LEVEL did not win counts as a won position let go when
LEVEL's chance stood at ``--won`` (0.9) or more at some point; the conversion is LEVEL's wins
over its wins and those games (a won game passes that mark the move before it ends wherever the
evaluation sees the win coming, as Overseer's does a capture away). A game that does not replay
alike is not judged: it is listed and counted apart, with why, read from the ladder file's and
the replay's ``cut`` (a decision that reached its time cap, in the stored game or in the replay,
played another move than its budget would), and the conversion is over the games that did. Also printed per game: the
chance ``--before`` plies before the end (100: right after the last capture of a game drawn by
a 100-ply no-capture limit). Costs what the games cost to play, for the games not won only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.core.fitted import judging_by
from boardlab.lab.ladder import ladder_study, read_lines
from boardlab.lab.play import play_one
from boardlab.lab.stats import wilson_interval


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/conversion.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a ladder file: ladder-runs/GAME/WEAKER-vs-STRONGER.jsonl")
    parser.add_argument("level", help="the label whose games are judged (one of the pair's two)")
    parser.add_argument("--won", type=float, default=0.9, help="the chance that makes a position won (default 0.9)")
    parser.add_argument("--before", type=int, default=100, help="also report the chance this many plies before the end")
    parser.add_argument("--jobs", type=int, default=1, help="games replayed at once (processes)")
    parser.add_argument("--json", action="store_true", help="print one JSON line per game and the summary")
    return parser.parse_args(argv)


def won_by(line: Mapping[str, Any], level: str) -> bool:
    return list(line["winners"]) == [line["seats"].index(level)]


def judge(line: Mapping[str, Any], level: str, before: int) -> dict[str, Any]:
    """Replay one stored game and read LEVEL's fitted chance along it."""
    pair = tuple(line["pair"])
    study = ladder_study(line["game"], dict(zip(pair, line["specs"], strict=True)), [pair], games=line["index"] + 1,
                         seed=line["seed"], players=line["players"])
    played = play_one(study.plan(study.variants[0]), line["index"])
    seat = line["seats"].index(level)
    chances: list[float] = []
    with judging_by("fitted"):
        for _number, _move, state in played.record.states():
            values = None if state.is_over() else state.evaluate()
            if values is not None:
                chances.append(float(values[seat]))
    if not chances:
        raise BoardlabError(f"{line['game']} has no evaluation to judge its positions by")
    replayed = played.outcome.code == line["code"] and played.outcome.moves == line["moves"]
    return {
        "index": line["index"], "code": line["code"], "moves": line["moves"], "replayed": replayed,
        "peak": round(max(chances), 3), "before_end": round(chances[max(0, len(chances) - before)], 3),
        "cut_when_stored": sum(line.get("cut", ())), "cut_in_replay": sum(played.decisions_cut),
    }


def why_otherwise(row: Mapping[str, Any]) -> str:
    """Why a game did not replay alike, from the decisions its time cap cut."""
    if row["cut_when_stored"] or row["cut_in_replay"]:
        return (f"game {row['index']}: {row['cut_when_stored']} decisions cut by the time cap when stored, "
                f"{row['cut_in_replay']} in the replay")
    return f"game {row['index']}: no decision cut by its time cap, so the search did not repeat itself: a defect"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    path = Path(args.file)
    if not path.is_file():
        print(f"{args.file}: no such file", file=sys.stderr)
        return 2
    lines, _runs = read_lines([path])
    if not lines:
        print(f"{args.file}: no ladder games in it", file=sys.stderr)
        return 2
    if any(args.level not in line["pair"] for line in lines):
        pairs = sorted({"-".join(line["pair"]) for line in lines})
        print(f"{args.file}: {args.level!r} did not play every game (pairs: {', '.join(pairs)})", file=sys.stderr)
        return 2
    wins = sum(won_by(line, args.level) for line in lines)
    others = sorted((line for line in lines if not won_by(line, args.level)), key=lambda line: -line["moves"])
    try:
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            judged = list(pool.map(judge, others, [args.level] * len(others), [args.before] * len(others)))
    except BoardlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    judged.sort(key=lambda row: row["index"])
    # a game that played otherwise than it was stored says nothing about the stored one
    unjudged = [row["index"] for row in judged if not row["replayed"]]
    let_go = [row for row in judged if row["replayed"] and row["peak"] >= args.won]
    low, high = wilson_interval(wins, wins + len(let_go))
    summary = {
        "games": len(lines), "wins": wins, "not_won": dict(Counter(row["code"] for row in judged)),
        "let_go": len(let_go), "let_go_endings": dict(Counter(row["code"] for row in let_go)),
        "conversion": wins / max(1, wins + len(let_go)), "interval": [low, high],
        "replayed_alike": len(judged) - len(unjudged), "not_replayed_alike": unjudged,
    }
    if args.json:
        for row in judged:
            print(json.dumps(row))
        print(json.dumps(summary))
        return 0
    print(f"{'game':>5} {'ending':24} {'moves':>5}  highest chance  {args.before} plies before the end  replayed alike")
    for row in judged:
        print(f"{row['index']:>5} {row['code']:24} {row['moves']:>5}  {row['peak']:14.3f}  {row['before_end']:25.3f}  "
              f"{'yes' if row['replayed'] else 'NO: not judged'}")
    endings = ", ".join(f"{count} {code}" for code, count in summary["let_go_endings"].items()) or "none"
    print(f"\n{args.level}: {wins} won of {len(lines)}; of the {summary['replayed_alike']} not won that replayed alike, "
          f"{len(let_go)} had stood at {args.won:.0%} or more ({endings})")
    if unjudged:
        print(f"not judged: {len(unjudged)} not won that did not replay alike ("
              + "; ".join(why_otherwise(row) for row in judged if not row["replayed"]) + ")")
    print(f"converted: {wins} of {wins + len(let_go)}, {summary['conversion']:.1%} (95% interval {low:.1%} to {high:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
