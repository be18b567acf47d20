"""One turn of the loop that keeps improving a game's evaluation (docs/evaluation.md):

1. **Generate** games with the current best: ``SPEC`` judging by the game's shipped weights
   in every seat, as a resumable lab study. ``--evaluation fitted`` (the default) improves
   ``evaluation.json``, the judge that the analysis and ``evaluation=fitted`` read;
   ``--evaluation search`` improves ``search-evaluation.json``, a search's own weights
   (``evaluation=search``; by hand while the game has none), leaving the judge alone.
2. **Fit** a candidate to them (boardlab.lab.training) and measure it on their held-out games.
3. **Ladder** the candidate against the current weights: ``SPEC`` with each, seats rotated,
   ``--match-games`` games (bench/levels.py's machinery: CPU per decision, runs recorded).
4. **Gate**: the candidate replaces those shipped weights only if it wins, that is if the lower
   end of the 95% Wilson interval of its score is above 50%. Otherwise it is left in the
   folder and the shipped weights stay.

    python bench/evaluation_gate.py towers --spec mcts:iterations=300,leaf_eval=true,widen=1,c=0.2 \\
        --games 300 --match-games 200 --jobs 16 --out gate-towers
    python bench/evaluation_gate.py towers ... --backend ray --address auto    # on a Ray cluster

Every step resumes: run the same command again after an interruption. The folder keeps the
games, the candidate (``candidate.json``, with ``report.json`` and ``reliability.png``: its
held-out calibration, as ``boardlab train`` writes them), the match and a ``decision.json``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import boardlab
from boardlab.core.errors import OptionError
from boardlab.core.fitted import FITTED, SHIPPED_FILES, shipped_path, write_evaluation
from boardlab.lab.executors import BACKENDS, make_executor
from boardlab.lab.ladder import LadderFolder, ladder_study, play_ladder
from boardlab.lab.stats import wilson_interval
from boardlab.lab.store import StudyFolder
from boardlab.lab.study import run_study
from boardlab.lab.training import TrainingSetup, plot_reliability, split_records, train_and_measure


def judged(spec: str, evaluation: str) -> str:
    """``spec`` judging by ``evaluation`` (an ``evaluation`` it names is replaced)."""
    name, _, params = spec.partition(":")
    kept = [part for part in params.split(",") if part and not part.startswith("evaluation=")]
    return f"{name}:{','.join([*kept, f'evaluation={evaluation}'])}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--spec", required=True, help="the search that generates games and plays the match")
    parser.add_argument("--games", type=int, default=300, help="training games (default 300; one in 5 held out)")
    parser.add_argument("--match-games", type=int, default=200, help="games of the match (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--backend", choices=BACKENDS, default="process")
    parser.add_argument("--address")
    parser.add_argument("--out", required=True, help="the folder of this turn of the loop")
    parser.add_argument("--evaluation", choices=tuple(SHIPPED_FILES), default=FITTED,
                        help="the shipped weights this turn improves: fitted (evaluation.json, the analysis' judge; "
                             "the default) or search (search-evaluation.json, a search's own; by hand until it exists)")
    args = parser.parse_args(argv)
    command = shlex.join(["python", "bench/evaluation_gate.py", *(sys.argv[1:] if argv is None else argv)])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    game = boardlab.load(args.game)
    executor = make_executor(args.backend, args.jobs, args.address)
    current = judged(args.spec, args.evaluation)
    shipped_file = SHIPPED_FILES[args.evaluation]

    # 1. games of the current best
    setup = TrainingSetup(game.id, pairings=((current, current),), games=args.games, seed=args.seed)
    study = setup.study()
    folder = StudyFolder(out / "games", study)
    train, held_out = split_records(study, folder, run_study(study, executor, folder))

    # 2. the candidate
    report = train_and_measure(game, train, held_out, {"command": command, "loop": "evaluation_gate"})
    candidate = out / "candidate.json"
    if candidate.exists():
        candidate.unlink()
    write_evaluation(candidate, report.model)
    (out / "report.json").write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")
    try:
        plot_reliability(report, out / "reliability.png")
    except OptionError as exc:  # no matplotlib: the candidate and its report stand without the plot
        print(f"no plot: {exc}")
    print(f"candidate fitted on {report.train_games} games; held out ({report.held_out_games} games): "
          f"log loss {report.hand.log_loss:.4f} by hand, {report.fitted.log_loss:.4f} fitted")

    # 3. the match: current (weaker side of the pair's name) against the candidate
    agents = {"current": current, "candidate": judged(args.spec, str(candidate.resolve()))}
    match = ladder_study(game.id, agents, [("current", "candidate")], args.match_games, args.seed + 1)
    match_folder = LadderFolder(out / "match", match)
    play_ladder(match, executor, match_folder, command, args.jobs)
    played = match_folder.done()
    points = 0.0
    for outcome in played.values():
        seat = outcome.seat_agents.index(1)  # the candidate's seat: agent 1 of the pair
        points += outcome.returns[seat]
    games = len(played)
    low, high = wilson_interval(points, games)

    # 4. the gate
    kept = games > 0 and low > 0.5
    if kept:
        write_evaluation(shipped_path(game, shipped_file), report.model)
    decision = {
        "game": game.id, "spec": args.spec, "evaluation": args.evaluation, "shipped_file": shipped_file,
        "games": games, "candidate_points": points,
        "score": points / games if games else None, "interval": [low, high], "kept": kept,
        "held_out_log_loss": {"hand": report.hand.log_loss, "fitted": report.fitted.log_loss},
    }
    (out / "decision.json").write_text(json.dumps(decision, indent=1) + "\n", encoding="utf-8")
    if kept:
        verdict = f"kept: written to the game's {shipped_file}"
    elif shipped_path(game, shipped_file).exists():
        verdict = f"not kept: the shipped {shipped_file} stays"
    else:
        verdict = f"not kept: the game ships no {shipped_file}, so evaluation={args.evaluation} stays the hand-set evaluation"
    print(f"candidate against current: {points:g} of {games} ({100 * points / max(games, 1):.1f}%, "
          f"95% interval {100 * low:.1f}% to {100 * high:.1f}%): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
