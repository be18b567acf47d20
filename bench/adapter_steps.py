"""What a random step costs through each adapter, per game, with the ratio to Towers.

    python bench/adapter_steps.py --steps 500 --repeats 3

**PettingZoo**: a random agent's step as an RL loop takes it: ``last()`` (the observation and
its action mask), a uniform choice among the mask's legal actions, ``step``. **OpenSpiel**: a
uniform choice among ``legal_actions()``, ``apply_action`` and the observation tensor of the
next player to decide (OpenSpiel sends no mask). Chance is drawn by the adapter as any caller would
(``chance_outcomes()`` in OpenSpiel; PettingZoo's environment draws it itself). A game that
ends starts again from the next seed. Each figure is the median over ``--repeats`` runs of
``--steps`` steps; compare the ratios, taken in one run: the machine is shared and noisy, so
the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import numpy

GAMES = ("towers", "sovereign", "overseer", "territories")


def pettingzoo_steps(game_id: str, steps: int, seed: int) -> float:
    """Seconds a random PettingZoo step takes, on average over ``steps``."""
    from boardlab.adapters.pettingzoo import env

    rng = random.Random(seed)
    environment = env(game_id)
    environment.reset(seed=seed)
    began = time.perf_counter()
    for step in range(steps):
        observation, _reward, terminated, truncated, _info = environment.last()
        if terminated or truncated:
            environment.reset(seed=seed + step)
            continue
        # the legal actions read from the mask as an RL loop would, in numpy: a Python loop over
        # Territories' 1,458,122 entries would measure the loop, not the adapter
        legal = numpy.flatnonzero(observation["action_mask"])
        environment.step(int(legal[rng.randrange(len(legal))]))
    return (time.perf_counter() - began) / steps


def openspiel_steps(game_id: str, steps: int, seed: int) -> float:
    """Seconds a random OpenSpiel step (with the next decider's observation tensor) takes, on average."""
    from boardlab.adapters.openspiel import load

    rng = random.Random(seed)
    game = load(game_id)
    state = game.new_initial_state()
    began = time.perf_counter()
    for _ in range(steps):
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        if state.current_player() >= 0:  # the next decider's view (not at chance or the end)
            state.observation_tensor(state.current_player())
    return (time.perf_counter() - began) / steps


def measure(step: Callable[[str, int, int], float], games: Sequence[str], steps: int, repeats: int) -> dict[str, float]:
    """Per game, the median of ``repeats`` runs' seconds a step."""
    return {game: statistics.median(step(game, steps, seed) for seed in range(repeats)) for game in games}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/adapter_steps.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=500, help="steps a run (default 500)")
    parser.add_argument("--repeats", type=int, default=3, help="runs a figure, their median (default 3)")
    parser.add_argument("--games", default=",".join(GAMES), help=f"games, comma-separated (default {','.join(GAMES)})")
    args = parser.parse_args(argv)
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    load_before = os.getloadavg()
    results = {
        "PettingZoo": measure(pettingzoo_steps, games, args.steps, args.repeats),
        "OpenSpiel": measure(openspiel_steps, games, args.steps, args.repeats),
    }
    print(f"{'adapter':11} {'game':12} {'ms a step':>10} {'x towers':>9}")
    for adapter, figures in results.items():
        for game, seconds in figures.items():
            ratio = f"{seconds / figures['towers']:.1f}" if "towers" in figures else "-"
            print(f"{adapter:11} {game:12} {1000 * seconds:10.3f} {ratio:>9}")
    load_after = os.getloadavg()
    print(f"{args.steps} steps a run, median of {args.repeats}; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after, on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
