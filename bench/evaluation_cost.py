"""The cost of one evaluation, hand-set against fitted, per game (docs/evaluation.md).

For each game: positions from seeded games of the `beginner` level (its moves drawn from the
evaluation's own ranking, so the positions are those a search meets), then ``evaluate()``
timed on every one of them, by the hand-set weights and by the game's shipped fitted
weights, alternately in rounds so that a change of the machine's load touches both alike.
Each measurement loops over the positions until it has spent at least a tenth of a second of
this process's CPU time (not wall time: waiting for a core on a busy machine is not the
evaluation's cost; the first pass, which fills the states' caches, is not counted), and the
least-disturbed round counts: the minimum over the rounds. Prints microseconds per call and the ratio (fitted /
hand), with the load average.

    python bench/evaluation_cost.py                    # every game
    python bench/evaluation_cost.py towers --rounds 9  # one game, more rounds

The machine is shared and noisy: compare the ratio, measured in one run, not the microseconds.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import boardlab
from boardlab import compiled
from boardlab.agents import seat_agents
from boardlab.core.fitted import FITTED, HAND, judging_by, shipped_evaluation
from boardlab.core.match import Match

GAMES = ("towers", "sovereign", "overseer", "territories", "honor")


def positions(game_id: str, games: int, seed: int) -> list[boardlab.State]:
    """Every decision position of ``games`` games between two `beginner` computers."""
    game = boardlab.load(game_id)
    found: list[boardlab.State] = []
    for index in range(games):
        match = Match(game, seat_agents(game, ["beginner", "beginner"], seed + index), seed=seed + index)
        match.play_out(before_decision=lambda state: found.append(state.copy()))
    return found


#: each measurement spends at least this much CPU time (seconds), so that a disturbance weighs little
LEAST_SECONDS = 0.1


def per_call(states: list[boardlab.State], choice: str) -> float:
    """Seconds per ``evaluate()`` over ``states``, judging by ``choice``."""
    with judging_by(choice):
        calls = 0
        began = time.process_time()
        while True:
            for state in states:
                state.evaluate()
            calls += len(states)
            spent = time.process_time() - began
            if spent >= LEAST_SECONDS:
                return spent / calls


def measure(game_id: str, games: int, rounds: int, seed: int) -> dict[str, float | int | str]:
    states = positions(game_id, games, seed)
    fitted = shipped_evaluation(states[0].game) is not None
    for choice in (HAND, FITTED):  # fill the states' caches (move lists, castle rays) before timing
        with judging_by(choice):
            for state in states:
                state.evaluate()
    hand: list[float] = []
    learned: list[float] = []
    for _ in range(rounds):
        hand.append(per_call(states, HAND))
        learned.append(per_call(states, FITTED))
    hand_us = min(hand) * 1e6
    fitted_us = min(learned) * 1e6
    return {
        "game": game_id,
        "positions": len(states),
        "weights": "shipped" if fitted else "none (fitted = hand)",
        "hand_us": round(hand_us, 2),
        "fitted_us": round(fitted_us, 2),
        "ratio": round(fitted_us / hand_us, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(GAMES), help="game ids (default: all five)")
    parser.add_argument("--matches", type=int, default=4, help="games whose positions are timed (default 4)")
    parser.add_argument("--rounds", type=int, default=7,
                        help="timed rounds of each evaluation (the least disturbed counts; default 7)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"{platform.python_implementation()} {platform.python_version()}, {compiled.summary()}, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'game':<12} {'positions':>9} {'hand µs':>9} {'fitted µs':>10} {'ratio':>6}  weights")
    for game_id in args.games:
        row = measure(game_id, args.matches, args.rounds, args.seed)
        print(f"{row['game']:<12} {row['positions']:>9} {row['hand_us']:>9} {row['fitted_us']:>10} "
              f"{row['ratio']:>6}  {row['weights']}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
