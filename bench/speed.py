"""Speed of every registered game and of MCTS on it.

    python bench/speed.py                          # every game, 2 s per measurement
    python bench/speed.py --games towers --seconds 5
    python bench/speed.py --games towers --mcts "mcts:rollout_depth=0"
    python bench/speed.py --games towers --compare-pure      # compiled kernels against BOARDLAB_PURE=1
    python bench/speed.py --games towers --compare-collector # the lab's collector setting against Python's
    python bench/speed.py --games towers --compare-trees OLD,NEW   # two checkouts, interleaved

Per game (default player count and options) it prints:

* random plies/s: moves applied per second in random self-play (chance
  outcomes count as plies), and the mean plies per finished game;
* legal-move generations/s: ``legal_moves()`` calls per second over decision
  positions sampled along random games;
* MCTS iterations/s: the agent's search from the start position (after any
  opening chance, and resampled for the first player when information is hidden),
  and from decision positions in the middle of random games (the opening is often
  a phase of its own: Territories' set-up, Honor's first choice).

Each measurement runs for about ``--seconds`` (at least one unit of work), so
slow games (Honor runs physics) cost time, not correctness. Figures are from a
shared, noisy machine: compare ratios taken in one run, and use one core.
A game whose import or load fails (a missing extra) is reported and skipped.

``--compare-pure`` measures each game ``--rounds`` times in subprocesses, alternately as
installed (the compiled kernels) and with ``BOARDLAB_PURE=1``, and prints the median of each
figure on both sides and their ratio (docs/speed.md). ``--compare-collector`` does the same
with the lab's collector setting against Python's own (``BOARDLAB_COLLECTOR=python``). ``--compare-trees`` does the same for
source trees (checkouts of two commits, each built as it builds): each round measures every
tree once, in turn, with the tree first on ``PYTHONPATH``; the ratios are against the first tree.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TextIO

import boardlab
from boardlab.agents import Agent, make_agent
from boardlab.core import CHANCE, Game, OptionError, State

#: how many decision positions the legal-move measurement cycles through
POSITION_SAMPLE = 200


@dataclass
class GameSpeed:
    """One game's figures; ``None`` where nothing could be measured in the time given."""

    game_id: str
    players: int
    random_plies_per_second: float
    plies_per_game: float | None
    finished_games: int
    legal_generations_per_second: float | None
    mcts_iterations_per_second: float | None
    mcts_iterations: int
    mid_game_mcts_iterations_per_second: float | None = None


def random_step(state: State, rng: random.Random) -> None:
    """Apply one random move (or a chance outcome drawn with ``rng``); the draw is
    :func:`~boardlab.agents.search.pick_random`'s, written out (this is the measured loop)."""
    if state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    else:
        moves = state.legal_moves()
        state.apply(moves[int(rng.random() * len(moves))])


#: random play reads the clock once in this many plies, not after each: the figure is the
#: game's speed, not the clock's (the loop's cost counts alike for every tree compared)
CLOCK_EVERY = 32


def lab_collector() -> contextlib.AbstractContextManager[None]:
    """The collector setting the lab plays its games under (:mod:`boardlab.core.collector`; the
    searches set it themselves), or none in a checkout from before it."""
    try:
        from boardlab.core.collector import fewer_collections
    except ImportError:
        return contextlib.nullcontext()
    return fewer_collections()


def measure_random_play(game: Game, seconds: float, rng: random.Random) -> tuple[float, float | None, int]:
    """Random self-play for ``seconds``, as the lab plays games (:func:`lab_collector`): (plies
    per second, mean plies per finished game, finished games)."""
    with lab_collector():
        return _random_play(game, seconds, rng)


def _random_play(game: Game, seconds: float, rng: random.Random) -> tuple[float, float | None, int]:
    plies = 0
    finished = 0
    finished_plies = 0
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        state = game.new_state(rng.getrandbits(64))
        while not state.is_over():
            random_step(state, rng)
            plies += 1
            if plies % CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
                break
        if state.is_over():
            finished += 1
            finished_plies += state.ply
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - began
    mean_length = finished_plies / finished if finished else None
    return plies / elapsed, mean_length, finished


def sample_positions(game: Game, seconds: float, rng: random.Random) -> list[State]:
    """Up to POSITION_SAMPLE decision positions spread along random games (about ``seconds`` spent)."""
    positions: list[State] = []
    deadline = time.perf_counter() + seconds
    while len(positions) < POSITION_SAMPLE:
        state = game.new_state(rng.getrandbits(64))
        while not state.is_over() and len(positions) < POSITION_SAMPLE:
            if state.current_player() >= 0 and rng.random() < 0.2:
                positions.append(state.copy())
            random_step(state, rng)
            if time.perf_counter() >= deadline:
                return positions
    return positions


def measure_legal_moves(positions: Sequence[State], seconds: float) -> float | None:
    """``legal_moves()`` calls per second, cycling over ``positions``."""
    if not positions:
        return None
    calls = 0
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        for state in positions:
            state.legal_moves()
        calls += len(positions)
        if time.perf_counter() >= deadline:
            break
    return calls / (time.perf_counter() - began)


def search_start(game: Game, rng: random.Random) -> State:
    """The start position as an agent would get it: opening chance drawn, hidden parts resampled."""
    state = game.new_state(rng.getrandbits(64))
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    if game.has_hidden_information and not state.is_over():
        state = state.resample(state.current_player(), rng)
    return state


def measure_mcts(game: Game, spec: str, seconds: float, rng: random.Random) -> tuple[float | None, int]:
    """MCTS iterations per second from the start position: (rate, iterations run)."""
    state = search_start(game, rng)
    if state.is_over() or len(state.legal_moves()) < 2:
        return None, 0
    agent = timed_search_agent(spec, seconds, seed=rng.getrandbits(32))
    agent.search(state)  # type: ignore[attr-defined]
    return agent.last_iterations / agent.last_seconds, agent.last_iterations  # type: ignore[attr-defined]


#: how many mid-game positions the mid-game search rate averages over
MID_GAME_POSITIONS = 4


def measure_mid_game_mcts(
    game: Game, spec: str, seconds: float, positions: Sequence[State], rng: random.Random
) -> float | None:
    """MCTS iterations per second over decision positions from the middle of random games
    (each handed over as an agent gets it: resampled for the player to move)."""
    middle = [p for p in positions[len(positions) // 4 : 3 * len(positions) // 4] if len(p.legal_moves()) >= 2]
    if not middle:
        return None
    chosen = [middle[int(i * len(middle) / MID_GAME_POSITIONS)] for i in range(min(MID_GAME_POSITIONS, len(middle)))]
    iterations = 0
    spent = 0.0
    for position in chosen:
        agent = timed_search_agent(spec, seconds / len(chosen), seed=rng.getrandbits(32))
        agent.search(position.resample(position.current_player(), rng))  # type: ignore[attr-defined]
        iterations += agent.last_iterations  # type: ignore[attr-defined]
        spent += agent.last_seconds  # type: ignore[attr-defined]
    return iterations / spent if spent else None


def timed_search_agent(spec: str, seconds: float, seed: int | None = None) -> Agent:
    """The search agent of ``spec`` with a ``seconds`` budget; OptionError if it is not a search agent."""
    separator = "," if ":" in spec else ":"
    try:
        agent = make_agent(f"{spec}{separator}seconds={seconds}", seed=seed)
    except OptionError as exc:
        raise OptionError(f"--mcts {spec!r} must name a search agent with a seconds budget (mcts, ismcts): {exc}") from None
    if not hasattr(agent, "search"):
        raise OptionError(f"--mcts {spec!r} has no search() to measure; use mcts or ismcts")
    return agent


def measure_game(game: Game, seconds: float, mcts_spec: str, seed: int) -> GameSpeed:
    # each measurement draws from a generator of its own: a faster tree plays more random games
    # in the same seconds, and that must not change the positions the next measurement searches
    plies_rate, mean_length, finished = measure_random_play(game, seconds, random.Random(f"{seed}:random play"))
    positions = sample_positions(game, seconds, random.Random(f"{seed}:positions"))
    legal_rate = measure_legal_moves(positions, seconds)
    mcts_rate, iterations = measure_mcts(game, mcts_spec, seconds, random.Random(f"{seed}:search start"))
    mid_rate = measure_mid_game_mcts(game, mcts_spec, seconds, positions, random.Random(f"{seed}:mid-game"))
    return GameSpeed(
        game.id, game.num_players, plies_rate, mean_length, finished, legal_rate, mcts_rate, iterations, mid_rate
    )


def _figure(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def print_table(
    rows: Sequence[GameSpeed],
    skipped: Sequence[tuple[str, str]],
    out: TextIO | None = None,
    search_spec: str = "mcts",
) -> None:
    """The figures as an aligned text table, then one line per skipped game."""
    out = sys.stdout if out is None else out
    header = (
        "game", "players", "random plies/s", "plies/game", "games", "legal gens/s",
        f"{search_spec} it/s start", "mid-game",
    )
    lines = [header]
    for row in rows:
        lines.append((
            row.game_id,
            str(row.players),
            _figure(row.random_plies_per_second),
            _figure(row.plies_per_game, 1),
            str(row.finished_games),
            _figure(row.legal_generations_per_second),
            _figure(row.mcts_iterations_per_second),
            _figure(row.mid_game_mcts_iterations_per_second),
        ))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for number, line in enumerate(lines):
        cells = [line[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(line[1:], widths[1:])]
        print("  ".join(cells), file=out)
        if number == 0:
            print("  ".join("-" * width for width in widths), file=out)
    for game_id, reason in skipped:
        print(f"{game_id}: skipped ({reason})", file=out)


def registered_game_ids(skipped: list[tuple[str, str]]) -> list[str]:
    """Every registered game. When one of boardlab's own games fails to load, the registry
    refuses them all (the install is broken): the cause is added to ``skipped``."""
    try:
        return boardlab.game_ids()
    except ImportError as exc:
        skipped.append(("every game", f"import failed: {exc}"))
        return []


#: the figures --compare-pure sets side by side: (GameSpeed field, label)
COMPARED = (
    ("random_plies_per_second", "random plies/s"),
    ("legal_generations_per_second", "legal gens/s"),
    ("mcts_iterations_per_second", "it/s start"),
    ("mid_game_mcts_iterations_per_second", "it/s mid-game"),
)


def kernel_summary() -> str:
    """Which kernels run compiled; a checkout from before the kernels has none (its own folder
    is asked: an editable install elsewhere would otherwise answer for it)."""
    if not os.path.exists(os.path.join(os.path.dirname(boardlab.__file__), "compiled.py")):
        return "no kernels (a boardlab from before them)"
    from boardlab import compiled

    return compiled.summary()


#: the switch to pure Python (boardlab.compiled.PURE_VARIABLE, named here for checkouts without it)
PURE_VARIABLE = "BOARDLAB_PURE"


#: the switch to Python's own collector (boardlab.core.collector.COLLECTOR_VARIABLE)
COLLECTOR_VARIABLE = "BOARDLAB_COLLECTOR"


def measure_in_subprocess(
    game_id: str, side: dict[str, str], args: argparse.Namespace, tree: str | None = None
) -> tuple[GameSpeed | None, str]:
    """One game measured by this script in a fresh interpreter, with the variables of ``side``
    set (neither switch otherwise) and the source tree ``tree`` first on its path, if given:
    (its figures or None, the subprocess's kernel summary or its error)."""
    environment = {key: value for key, value in os.environ.items() if key not in (PURE_VARIABLE, COLLECTOR_VARIABLE)}
    environment.update(side)
    if tree is not None:
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [tree, environment.get("PYTHONPATH")]))
    command = [
        sys.executable, __file__, "--games", game_id, "--seconds", str(args.seconds), "--mcts", args.mcts,
        "--seed", str(args.seed), "--json",
    ]
    done = subprocess.run(command, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit status {done.returncode}"
    answer = json.loads(done.stdout)
    if not answer["rows"]:
        return None, "; ".join(f"{game}: {reason}" for game, reason in answer["skipped"])
    return GameSpeed(**answer["rows"][0]), answer["kernels"]


def compare_pure(game_ids: Sequence[str], args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Each game measured compiled and pure, alternately, ``args.rounds`` times; the medians
    and their ratio per figure."""
    out = sys.stdout if out is None else out
    print(f"compiled side: {kernel_summary()}; {args.rounds} rounds of {args.seconds} s per figure", file=out, flush=True)
    return compare_sides(game_ids, args, ("compiled", "pure"), {PURE_VARIABLE: "1"}, out, _ran_pure)


def _ran_pure(note: str) -> str | None:
    """Why the pure side's run does not count (its kernels ran compiled), or None."""
    return None if PURE_VARIABLE in note or "no kernels" in note else f"the pure side ran {note}"


def compare_collector(game_ids: Sequence[str], args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Each game measured with the lab's collector setting and with Python's own, alternately,
    ``args.rounds`` times; the medians and their ratio per figure."""
    out = sys.stdout if out is None else out
    print(f"kernels: {kernel_summary()}; {args.rounds} rounds of {args.seconds} s per figure", file=out, flush=True)
    return compare_sides(game_ids, args, ("lab collector", "python's"), {COLLECTOR_VARIABLE: "python"}, out)


def compare_sides(
    game_ids: Sequence[str],
    args: argparse.Namespace,
    labels: tuple[str, str],
    slow_side: dict[str, str],
    out: TextIO,
    refuse_second: Callable[[str], str | None] = lambda note: None,
) -> int:
    """Each game measured as installed and with the variables of ``slow_side``, alternately,
    ``args.rounds`` times each; the medians and the first side's ratio to the second.
    ``refuse_second`` reads the second side's kernel summary and says why a run does not count."""
    lines = [("game", "figure", *labels, "ratio")]
    for game_id in game_ids:
        samples: dict[bool, list[GameSpeed]] = {False: [], True: []}
        failure = ""
        for round_number in range(args.rounds * 2):
            # alternate the sides (first, second, second, first, ...), so a change of the
            # machine's load hits both alike
            second = round_number % 4 in (1, 2)
            speed, note = measure_in_subprocess(game_id, slow_side if second else {}, args)
            if speed is None:
                failure = note
                break
            refused = refuse_second(note) if second else None
            if refused:
                failure = refused
                break
            samples[second].append(speed)
        if failure:
            print(f"{game_id}: skipped ({failure})", file=out)
            continue
        for name, label in COMPARED:
            fast = _median([getattr(speed, name) for speed in samples[False]])
            slow = _median([getattr(speed, name) for speed in samples[True]])
            ratio = "-" if fast is None or not slow else f"{fast / slow:.2f}x"
            lines.append((game_id, label, _figure(fast), _figure(slow), ratio))
    _print_comparison(lines, out)
    return 0


def compare_trees(trees: Sequence[str], game_ids: Sequence[str], args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Each game measured in each source tree, ``args.rounds`` times, the trees in turn (forwards,
    then backwards, so a change of the machine's load hits all alike); the medians, and each
    tree's ratio to the first."""
    out = sys.stdout if out is None else out
    print(f"{args.rounds} rounds of {args.seconds} s per figure, the trees in turn", file=out, flush=True)
    notes: dict[str, str] = {}
    lines = [("game", "figure", *trees, *(f"ratio {number + 2}:1" for number in range(len(trees) - 1)))]
    for game_id in game_ids:
        samples: dict[str, list[GameSpeed]] = {tree: [] for tree in trees}
        failure = ""
        for round_number in range(args.rounds):
            order = trees if round_number % 2 == 0 else list(reversed(trees))
            for tree in order:
                speed, note = measure_in_subprocess(game_id, {}, args, tree)
                if speed is None:
                    failure = f"{tree}: {note}"
                    break
                notes[tree] = note
                samples[tree].append(speed)
            if failure:
                break
        if failure:
            print(f"{game_id}: skipped ({failure})", file=out)
            continue
        for name, label in COMPARED:
            medians = [_median([getattr(speed, name) for speed in samples[tree]]) for tree in trees]
            first = medians[0]
            ratios = ["-" if first is None or value is None or not first else f"{value / first:.2f}x" for value in medians[1:]]
            lines.append((game_id, label, *(_figure(value) for value in medians), *ratios))
    for tree, note in notes.items():
        print(f"{tree}: {note}", file=out)
    _print_comparison(lines, out)
    return 0


def _print_comparison(lines: Sequence[tuple[str, ...]], out: TextIO) -> None:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for number, line in enumerate(lines):
        cells = [line[0].ljust(widths[0]), line[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(line[2:], widths[2:])]
        print("  ".join(cells), file=out)
        if number == 0:
            print("  ".join("-" * width for width in widths), file=out)


def _median(values: Sequence[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--mcts", default="mcts", help="agent spec searched for MCTS iterations/s (default mcts)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games and the search")
    parser.add_argument(
        "--compare-pure", action="store_true",
        help="measure compiled and with BOARDLAB_PURE=1 (subprocesses, alternating); medians and ratios",
    )
    parser.add_argument(
        "--compare-collector", action="store_true",
        help="measure with the lab's collector setting and with BOARDLAB_COLLECTOR=python (subprocesses, alternating)",
    )
    parser.add_argument(
        "--compare-trees", default="",
        help="comma-separated source trees (checkouts, built as they build): each measured in turn; ratios to the first",
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="with a --compare option: measurements per side (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON (what --compare-pure reads)")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be > 0")
    if args.rounds < 1:
        parser.error("--rounds must be >= 1")
    try:
        timed_search_agent(args.mcts, args.seconds)
    except OptionError as exc:
        parser.error(str(exc))
    rows: list[GameSpeed] = []
    skipped: list[tuple[str, str]] = []
    game_ids = [g.strip() for g in args.games.split(",") if g.strip()] or registered_game_ids(skipped)
    if args.compare_trees:
        trees = [tree.strip() for tree in args.compare_trees.split(",") if tree.strip()]
        missing = [tree for tree in trees if not os.path.isdir(os.path.join(tree, "boardlab"))]
        if missing:
            parser.error(f"--compare-trees: no boardlab folder in {', '.join(missing)}")
        if len(trees) < 2:
            parser.error("--compare-trees takes two source trees or more")
        for game_id, reason in skipped:
            print(f"{game_id}: skipped ({reason})")
        return compare_trees(trees, game_ids, args)
    if args.compare_pure or args.compare_collector:
        for game_id, reason in skipped:
            print(f"{game_id}: skipped ({reason})")
        return compare_pure(game_ids, args) if args.compare_pure else compare_collector(game_ids, args)
    for game_id in game_ids:
        try:
            game = boardlab.load(game_id)
        except ImportError as exc:
            skipped.append((game_id, f"needs an extra: {exc}"))
            continue
        except boardlab.BoardlabError as exc:
            skipped.append((game_id, str(exc)))
            continue
        try:
            rows.append(measure_game(game, args.seconds, args.mcts, args.seed))
        except ImportError as exc:  # an extra needed only once play starts (physics, ...)
            skipped.append((game_id, f"needs an extra: {exc}"))
        except Exception as exc:  # a game that breaks mid-measurement must not hide the others' figures
            skipped.append((game_id, f"failed while measuring: {type(exc).__name__}: {exc}"))
    if not rows and not skipped:
        print("no registered games", file=sys.stderr)
        return 1
    if args.json:
        json.dump({"rows": [asdict(row) for row in rows], "skipped": skipped, "kernels": kernel_summary()}, sys.stdout)
        return 0
    print(f"kernels: {kernel_summary()}")
    print_table(rows, skipped, search_spec=args.mcts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
