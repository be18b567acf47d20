"""CPU seconds of a fixed search workload: the same positions, the same iterations, the same moves.

    python bench/search_work.py territories                       # mcts at 8,000 iterations, 12 positions
    python bench/search_work.py towers --spec "mcts:iterations=4000" --games 4 --plies 20,60

A rate measured over a few seconds (bench/speed.py) swings by 15% or more between runs on a
shared machine. A fixed piece of work timed by CPU seconds, repeated and compared by the
median of pairs, tells a change of a few per cent apart: run this in two checkouts in turn
(``PYTHONPATH=OLD python bench/search_work.py ...``, then ``PYTHONPATH=. ...``, several
times) and compare the medians. The positions are decision positions at the given plies of
seeded random games; a game with hidden information is searched from the mover's resample,
as an agent is handed it. Prints the CPU seconds of the searches alone (not of the setup).
"""

from __future__ import annotations

import argparse
import random
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
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
