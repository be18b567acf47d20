"""How much work the alpha-beta agent does to reach a depth: positions scored and CPU seconds.

    python bench/alphabeta_work.py                                # Sovereign at 4 and 5 plies, Towers, Overseer
    python bench/alphabeta_work.py --game sovereign --depth 4 --positions 12 --json

Each game's positions come from games played from a fixed seed, 60% of the moves greedy's
and the rest random, stopped after 16 to 70 plies, so every run searches the same positions.
For each position the agent searches to ``--depth`` with no node budget; the table gives the
positions scored (the same on any machine: compare this figure between two versions of the
search) and the CPU seconds (compare only within one run on one machine), and a digest of
the moves chosen, so that two versions can be checked to choose alike.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

import boardlab
from boardlab.agents import make_agent

#: the games and depths measured by default: (game, depth, positions)
DEFAULT_RUNS = (("sovereign", 4, 12), ("sovereign", 5, 4), ("towers", 4, 8), ("overseer", 4, 8))


def positions(game: boardlab.Game, count: int, seed: int) -> list[boardlab.State]:
    """``count`` decision positions with a choice, from games played greedily and at random."""
    rng = random.Random(seed)
    greedy = make_agent("greedy", seed=1, game=game)
    found: list[boardlab.State] = []
    while len(found) < count:
        state = game.new_state(rng.getrandbits(32))
        stop = rng.randint(16, 70)
        while not state.is_over() and state.ply < stop:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(greedy.choose(state) if rng.random() < 0.6 else rng.choice(state.legal_moves()))
        if not state.is_over() and not state.is_chance() and len(state.legal_moves()) > 1:
            found.append(state)
    return found


def measure(game_id: str, depth: int, count: int, seed: int) -> dict[str, object]:
    game = boardlab.load(game_id)
    scored = 0
    cpu = 0.0
    chosen = []
    for index, state in enumerate(positions(game, count, seed)):
        agent = make_agent(f"alphabeta:depth={depth}", seed=index, game=game)
        began = time.process_time()
        chosen.append(str(agent.choose(state.copy())))
        cpu += time.process_time() - began
        scored += agent.last_nodes
    digest = hashlib.blake2b("\n".join(chosen).encode(), digest_size=6).hexdigest()
    return {"game": game_id, "depth": depth, "positions": count, "scored": scored, "cpu_s": round(cpu, 3),
            "moves_digest": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", help="one game (default: the default runs)")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of a table")
    args = parser.parse_args()
    runs = ((args.game, args.depth, args.positions),) if args.game else DEFAULT_RUNS
    if not args.json:
        print(f"{'game':<10} {'depth':>5} {'positions':>9} {'scored':>10} {'CPU s':>8}  moves digest")
    for game_id, depth, count in runs:
        row = measure(game_id, depth, count, args.seed)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{game_id:<10} {depth:>5} {count:>9} {row['scored']:>10,} {row['cpu_s']:>8.2f}  {row['moves_digest']}",
                  flush=True)


if __name__ == "__main__":
    main()
