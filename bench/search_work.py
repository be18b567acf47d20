"""CPU seconds of a fixed search workload: the same positions, the same iterations, the same moves.

    python bench/search_work.py territories                       # mcts at 8,000 iterations, 12 positions
    python bench/search_work.py towers --spec "mcts:iterations=4000" --games 4 --plies 20,60
    python bench/search_work.py towers --trees OLD,. --rounds 5   # two checkouts in turn, the median ratio

A rate measured over a few seconds (bench/speed.py) swings by 15% or more between runs on a
shared machine. A fixed piece of work timed by CPU seconds, repeated and compared by the
median of pairs, tells a change of a few per cent apart: run this in two checkouts in turn
(``PYTHONPATH=OLD python bench/search_work.py ...``, then ``PYTHONPATH=. ...``, several
times) and compare the medians. The positions are decision positions at the given plies of
seeded random games; a game with hidden information is searched from the mover's resample,
as an agent is handed it. Prints the CPU seconds of the searches alone (not of the setup).

``--trees A,B,...`` does those runs itself: each round runs the workload once in every tree
(each built as it builds, first on ``PYTHONPATH``), forwards in odd rounds and backwards in
even ones, and it prints the median CPU seconds of each tree, its ratio to the first (the
first's seconds over its own: above 1 is faster) and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

import boardlab
from boardlab.agents import make_agent
from boardlab.core import CHANCE, State
from boardlab.core.collector import fewer_collections


def positions(game: boardlab.Game, games: int, plies: list[int]) -> list[State]:
    """The positions at ``plies`` of ``games`` seeded random games where a player is to decide
    (a game that ends sooner, or chance due at that ply, gives none)."""
    rng = random.Random(3)
    found: list[State] = []
    for seed in range(games):
        state = game.new_state(seed)
        while not state.is_over():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if state.ply in plies:
                found.append(state.copy())
            moves = state.legal_moves()
            state.apply(moves[int(rng.random() * len(moves))])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="game id")
    parser.add_argument("--spec", default="mcts:iterations=8000", help="the searching agent (an iteration budget)")
    parser.add_argument("--games", type=int, default=6, help="seeded random games the positions come from")
    parser.add_argument("--plies", default="150,250", help="the plies of each game searched from (comma-separated)")
    parser.add_argument("--trees", default="", help="source trees to compare, comma-separated (the first is the base)")
    parser.add_argument("--rounds", type=int, default=3, help="with --trees: rounds, each tree once per round")
    args = parser.parse_args()
    if args.trees:
        compare_trees(args)
        return
    game = boardlab.load(args.game)
    found = positions(game, args.games, [int(ply) for ply in args.plies.split(",")])
    if not found:
        raise SystemExit(f"no game of {args.game} reached the plies {args.plies}: give earlier ones")
    handed = [
        p.resample(p.current_player(), random.Random(index)) if game.has_hidden_information else p
        for index, p in enumerate(found)
    ]
    began = time.process_time()
    with fewer_collections():
        for index, state in enumerate(handed):
            make_agent(args.spec, seed=index).choose(state)
    print(f"{time.process_time() - began:.3f} CPU s: {args.spec}, {len(handed)} positions of {args.game}")


def compare_trees(args: argparse.Namespace) -> None:
    """The workload in each tree in turn, ``--rounds`` times; medians and ratios to the first tree."""
    trees = [tree.strip() for tree in args.trees.split(",") if tree.strip()]
    command = [sys.executable, __file__, args.game, "--spec", args.spec, "--games", str(args.games), "--plies", args.plies]
    seconds: dict[str, list[float]] = {tree: [] for tree in trees}
    for number in range(args.rounds):
        for tree in trees if number % 2 == 0 else trees[::-1]:
            environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [tree, os.environ.get("PYTHONPATH")])))
            environment.pop("BOARDLAB_PURE", None)
            done = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
            seconds[tree].append(float(done.stdout.split()[0]))
    base = statistics.median(seconds[trees[0]])
    for tree in trees:
        median = statistics.median(seconds[tree])
        print(f"{tree}: {median:.3f} CPU s (median of {args.rounds}), {base / median:.2f}x the first tree")
    one, five, fifteen = os.getloadavg()
    print(f"{args.spec}, {args.game}; load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
