"""Towers' random play against the same rules in plain C, as a ratio of CPU time taken in one run.

    python bench/c_limit.py                       # 3 rounds of 2 CPU-seconds each side
    python bench/c_limit.py --seconds 3 --rounds 5
    CC=clang python bench/c_limit.py

The C program (bench/towers_random.c) is built here with the machine's C compiler (``$CC``,
else ``cc``, with ``-O2``) into a temporary folder. Before anything is timed, both sides
count the leaves of the move tree from the start (perft, depth 4 by default) and must agree:
the C program then plays the rules boardlab plays. Each round times the C program's random
games, then boardlab's, each for about ``--seconds`` of CPU time; boardlab plays as
bench/speed.py does (the protocol's ``legal_moves()`` and ``apply()``, one random move a
ply, inside the lab's collector setting). It prints per round and as medians: plies per
CPU-second of each, the mean plies of a finished game (both sides must play the same
games, statistically), and the ratio C / boardlab; then the load average (the machine is
shared: the ratio, taken in one run, is the figure to quote, with the load).

Besides the protocol's random play, ``--rollout`` also times the search's rollout loop
(``boardlab.agents.kernel.rollout``, compiled with the search), which plays the same random
games with no interpreted loop around each move.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import boardlab
from boardlab.core.collector import fewer_collections
from boardlab.testing import perft

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import CLOCK_EVERY, random_step  # the measured loop, one copy of it

SOURCE = Path(__file__).resolve().parent / "towers_random.c"


def build(folder: Path) -> Path:
    """The C program compiled into ``folder``; SystemExit naming the compiler when it fails."""
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        raise SystemExit(f"c_limit: no C compiler {compiler!r} on the PATH (set CC)")
    program = folder / "towers_random"
    done = subprocess.run([compiler, "-O2", "-o", str(program), str(SOURCE)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"c_limit: {compiler} failed to build {SOURCE.name}:\n{done.stderr}")
    return program


def c_perft(program: Path, depth: int) -> int:
    return int(subprocess.run([str(program), "perft", str(depth)], capture_output=True, text=True, check=True).stdout)


def c_play(program: Path, seconds: float, seed: int) -> tuple[float, float]:
    """(plies per CPU-second, mean plies of a finished game) of the C program's random games."""
    done = subprocess.run([str(program), "play", str(seconds), str(seed)], capture_output=True, text=True, check=True)
    _plies, _games, _spent, rate, length = done.stdout.split()
    return float(rate), float(length)


def boardlab_play(game: boardlab.Game, seconds: float, rng: random.Random) -> tuple[float, float]:
    """(plies per CPU-second, mean plies of a finished game) of boardlab's random games, played
    by the protocol as bench/speed.py plays them, for about ``seconds`` of this process's CPU."""
    plies = 0
    finished_plies = 0
    games = 0
    with fewer_collections():
        began = time.process_time()
        deadline = began + seconds
        while True:
            state = game.new_state(rng.getrandbits(64))
            while not state.is_over():
                random_step(state, rng)
                plies += 1
            games += 1
            finished_plies += state.ply
            if plies >= CLOCK_EVERY and time.process_time() >= deadline:
                break
        spent = time.process_time() - began
    return plies / spent, finished_plies / games


def rollout_play(game: boardlab.Game, seconds: float, rng: random.Random) -> tuple[float, float]:
    """The same, played by the search's compiled rollout loop to the end of each game."""
    from boardlab.agents.kernel import rollout

    plies = 0
    games = 0
    with fewer_collections():
        began = time.process_time()
        deadline = began + seconds
        while True:
            state = game.new_state(rng.getrandbits(64))
            rollout(state, rng, 0)
            plies += state.ply
            games += 1
            if time.process_time() >= deadline:
                break
        spent = time.process_time() - began
    return plies / spent, plies / games


def load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per side and round (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each timing both sides in turn (default 3)")
    parser.add_argument("--perft", type=int, default=4, help="depth of the perft both sides must agree on (default 4)")
    parser.add_argument("--rollout", action="store_true", help="also time the search's compiled rollout loop")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from boardlab import compiled

    game = boardlab.load("towers")
    print(f"boardlab {boardlab.__version__} ({compiled.summary()}); {load_text()}")
    with tempfile.TemporaryDirectory(prefix="c_limit-") as folder:
        program = build(Path(folder))
        expected = c_perft(program, args.perft)
        found = perft(game.new_state(1), args.perft)
        if found != expected:
            print(f"perft {args.perft}: C {expected:,}, boardlab {found:,}: the two do not play the same rules")
            return 1
        print(f"perft {args.perft}: {found:,} leaves on both sides")
        sides = ["C", "boardlab", *(["rollout"] if args.rollout else [])]
        rates: dict[str, list[float]] = {side: [] for side in sides}
        lengths: dict[str, list[float]] = {side: [] for side in sides}
        rng = random.Random(args.seed)
        for number in range(1, args.rounds + 1):
            measured = {"C": c_play(program, args.seconds, args.seed + number)}
            measured["boardlab"] = boardlab_play(game, args.seconds, rng)
            if args.rollout:
                measured["rollout"] = rollout_play(game, args.seconds, rng)
            for side, (rate, length) in measured.items():
                rates[side].append(rate)
                lengths[side].append(length)
            ratios = ", ".join(f"C / {side} {measured['C'][0] / measured[side][0]:.1f}x" for side in sides[1:])
            cells = "; ".join(
                f"{side} {rate:,.0f} plies/CPU-s ({length:.0f} a game)" for side, (rate, length) in measured.items()
            )
            print(f"round {number}: {cells}; {ratios}")
        print("medians:")
        c_rate = statistics.median(rates["C"])
        for side in sides:
            rate = statistics.median(rates[side])
            ratio = "" if side == "C" else f"   C / {side}: {c_rate / rate:.1f}x"
            print(f"  {side:9} {rate:>12,.0f} plies per CPU-second, {statistics.median(lengths[side]):.1f} plies a game{ratio}")
    print(load_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
