"""What a lab study costs, and how strong its agents are: the figures behind the presets.

    python bench/lab_speed.py                                  # the presets on Towers
    python bench/lab_speed.py --game honor --cpu-games 10      # Honor's own presets
    python bench/lab_speed.py --agents greedy "mcts:iterations=100,rollout_depth=1" --games 200
    python bench/lab_speed.py --study 1000 --jobs 2            # also time a 1,000-game study

For each agent setting (by default the game's presets, as ``--preset`` expands them) it prints:

* CPU seconds per self-play game (both seats the setting), played in this
  process through the lab's engine (tracing included), and what 1,000 such
  games would take on 2 fully free cores (CPU / 2);
* its score against ``--against`` (default: the game's ``quick`` preset) over
  ``--games`` games with seats rotated (``--jobs`` processes), with its 95% Wilson interval:
  the setting is the stronger when the interval lies above 50%.

``--study N`` also times ``boardlab lab GAME --players S,S -n N --jobs J`` as a
whole (wall clock and the CPU of every process), which is what a designer waits.
The machine is shared and noisy: repeat, and compare figures from one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import boardlab
from boardlab.lab.play import SimulationPlan
from boardlab.lab.presets import PRESETS, expand
from boardlab.lab.simulate import simulate
from boardlab.lab.stats import wilson_interval


def self_play_cpu(game: str, spec: str, games: int, seed: int) -> float:
    """CPU seconds per game with ``spec`` in both seats (this process only)."""
    plan = SimulationPlan(game, agents=(spec, spec), games=games, seed=seed, rotate=True)
    began = time.process_time()
    simulate(plan)
    return (time.process_time() - began) / games


def score_against(game: str, spec: str, other: str, games: int, seed: int, jobs: int) -> tuple[float, float, float]:
    """``spec``'s mean score against ``other`` (seats rotated) with its 95% interval."""
    plan = SimulationPlan(game, agents=(spec, other), games=games, seed=seed, rotate=True)
    outcomes = simulate(plan, jobs=jobs)
    scores = [sum(o.returns[s] for s, a in enumerate(o.seat_agents) if a == 0) for o in outcomes]
    low, high = wilson_interval(sum(scores), len(scores))  # a draw counts half, as the ladder counts it
    return sum(scores) / len(scores), low, high


def time_study(game: str, spec: str, games: int, jobs: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of every process) of a whole ``boardlab lab`` run."""
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "boardlab", "lab", game, "--players", f"{spec},{spec}", "-n", str(games),
             "--jobs", str(jobs), "--out", str(Path(folder) / "study"), "--json"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="towers")
    parser.add_argument("--agents", nargs="+", help="agent specs (default: the game's presets)")
    parser.add_argument("--against", help="the setting each is scored against (default: the game's quick preset)")
    parser.add_argument("--games", type=int, default=100, help="games against --against per setting")
    parser.add_argument("--cpu-games", type=int, default=30, help="self-play games timed per setting")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--study", type=int, default=0, help="also time a whole study of this many games")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the scoring games and --study")
    args = parser.parse_args()
    game = boardlab.load(args.game)
    agents = args.agents or [expand(preset, game) for preset in PRESETS]
    against = args.against or expand("quick", game)
    print(f"{args.game}; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
    for spec in agents:
        cpu = self_play_cpu(args.game, spec, args.cpu_games, args.seed)
        line = f"{spec:40s} {cpu:.3f} CPU s/game -> 1,000 games ~{cpu * 1000 / 2:.0f} s on 2 free cores"
        if spec != against and args.games:
            mean, low, high = score_against(args.game, spec, against, args.games, args.seed + 1, args.jobs)
            line += f"; vs {against} {mean:.1%} [{low:.1%}, {high:.1%}] over {args.games} games"
        print(line, flush=True)
        if args.study:
            wall, cpu_all = time_study(args.game, spec, args.study, args.jobs)
            print(f"    boardlab lab -n {args.study} --jobs {args.jobs}: {wall:.1f} s wall, {cpu_all:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
