"""Honor's speed: placement resolutions and agent decisions.

    python bench/honor_speed.py                      # 2 players, 3 games, normal agents
    python bench/honor_speed.py --players 4 --games 2 --level hard

Plays whole games between ``honor`` agents (tremor on, the ruled settle rule) and
reports, per measurement, the count, median, 90th percentile and maximum:

* resolution: one resolving move (the tremor outcome, which runs the physics:
  first-contact sweep, segments, canonicalisation, pickling), by bodies on the table;
* decision: one agent decision per phase (the agent gets a resampled state, as in play),
  in wall time and in the process's CPU time (what it would take on an idle core);
* drawing: the view of a state with a piece in hand (its aim: a first-contact sweep) and
  the terminal drawing of it.

``--uncapped`` plays the levels by their simulation counts alone (``seconds=0``), as the
lab's strength matches do; by default each decision also stops at the level's time cap.

Targets (docs/rules/honor.md, section 13): a resolution under 0.3 s; decisions within the
levels' caps (easy 1 s, normal 2.5 s, hard 8 s) in CPU time. Figures come from a shared,
noisy machine: compare ratios from one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

import boardlab
from boardlab.core.agent import registered_agents


def summary(label: str, samples: list[float]) -> str:
    if not samples:
        return f"{label:<28} (none)"
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"{label:<28} n={len(samples):<4} median {statistics.median(samples) * 1000:8.1f} ms   "
            f"p90 {p90 * 1000:8.1f} ms   max {max(samples) * 1000:8.1f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-placements", type=int, default=40, help="stop a game after this many")
    parser.add_argument("--uncapped", action="store_true", help="simulation counts only (seconds=0)")
    args = parser.parse_args(argv)

    game = boardlab.load("honor", players=args.players)
    agent_class = registered_agents()["honor"]
    resolutions: dict[str, list[float]] = defaultdict(list)
    decisions: dict[str, list[float]] = defaultdict(list)
    drawings: dict[str, list[float]] = defaultdict(list)
    placements = []
    for number in range(args.games):
        seed = args.seed + number
        rng = random.Random(seed)
        extra = {"seconds": 0} if args.uncapped else {}
        agents = [agent_class(seed=seed * 10 + p, level=args.level, **extra) for p in range(args.players)]
        state = game.new_state(seed=seed)
        while not state.is_over() and state.placement_index < args.max_placements:
            if state.is_chance():
                bodies = len(state.table) + 1
                started = time.perf_counter()
                state.play(state.sample_chance())
                elapsed = time.perf_counter() - started
                bucket = "1-10" if bodies <= 10 else "11-20" if bodies <= 20 else "21-30"
                resolutions[f"resolution, {bucket} bodies"].append(elapsed)
                resolutions["resolution, all"].append(elapsed)
                continue
            player = state.current_player()
            phase = state.phase
            if phase == "PLACE":
                started = time.perf_counter()
                envelope = state.copy().view(player)
                drawings["view with the aim (sweep)"].append(time.perf_counter() - started)
                started = time.perf_counter()
                game.render_view(envelope)
                drawings["terminal drawing"].append(time.perf_counter() - started)
            view = state.resample(player, rng)
            started, cpu = time.perf_counter(), time.process_time()
            move = agents[player].choose(view)
            decisions[f"decision {args.level} {phase}"].append(time.perf_counter() - started)
            decisions[f"decision {args.level} {phase} (cpu)"].append(time.process_time() - cpu)
            state.play(move)
        placements.append(state.placement_index)
        result = state.result()
        print(f"game {number + 1}: {state.placement_index} placements, "
              f"{'unfinished' if result is None else result.reason + ' ' + str(list(result.winners))}")
    print(f"\nHonor, {args.players} players, {args.games} games, agents at level {args.level}")
    for label in sorted(resolutions):
        print(summary(label, resolutions[label]))
    for label in sorted(decisions):
        print(summary(label, decisions[label]))
    for label in sorted(drawings):
        print(summary(label, drawings[label]))


if __name__ == "__main__":
    main()
