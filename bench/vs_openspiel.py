"""Our agents against OpenSpiel's Python ``MCTSBot`` on the same games, through the adapter.

Two modes:

    python bench/vs_openspiel.py --game towers --simulations 1000      # speed (the default mode)
    python bench/vs_openspiel.py --match --games 20 --level hard --jobs 2 --out vs.json --markdown

**Speed.** Our ``mcts`` and OpenSpiel's bot from the same positions at the same simulation
count, with the same work per simulation: UCT descent, one expansion, a random rollout cut
after 3 moves and scored by the game's ``evaluate()``. Prints simulations per second of each
and their ratio (compare the ratio, taken in one run: the machine is shared and noisy).

**Match** (``--match``). For each game, ``--games`` games of one of our levels against
OpenSpiel's bot at equal CPU time per move, seats rotated (game ``i`` puts ours in seat
``i mod players``). The bot takes a simulation count, not a time, so each game id starts with
a calibration: on the same positions we time our level's decisions (``time.process_time``)
and the bot's simulations per CPU-second. In a game, the bot's count for a move is its
simulations per CPU-second so far times the time it is owed: our mean CPU time per move so far
times its moves including this one, less the time it has spent (:class:`EqualTime`; the means
start from the calibration). So its mean time per move follows ours through the game, where
our time per move grows in the middle game, and a move on which it over- or under-spent is
made up on the next. Both sides' CPU time per move is measured and reported, so equal time is
checked, not assumed.
``--seconds-per-move auto`` plays the level as it is; a number
sets the level's own time cap (its ``seconds`` parameter) to that many seconds, for a run that
has to fit a time box; the spec each row used is recorded.

The games are driven by :class:`boardlab.Match` (chance drawn from the game's seed). Each
decision gets ``Match.agent_input(seat)``: the real state for perfect-information games, and
for hidden information a state resampled for that seat, for both sides alike: OpenSpiel's bot
searches the adapter's state over that sample, so it never sees the other seat's secrets
(it treats the sample as the truth, as any single-determinisation search does). A decision
with a single legal move is played without asking either side and left out of the timing.
A game still running after ``--max-decisions`` decisions is stopped and counted as a draw
(reported as ``unfinished``). Needs the extra ``boardlab[openspiel]``.

**The bot's leaves** (``--bot-evaluator``). ``game`` (the default, the comparison that
counts): a random rollout of 3 moves, then the game's ``evaluate()``, the same heuristic our
searches use. ``stock``: the bot as OpenSpiel ships it, with ``RandomRolloutEvaluator``
(one random rollout to the end of the game per simulation), which is what a game-AI user
gets without writing an evaluator; in these long games it affords few simulations a move.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts as spiel_mcts

import boardlab
from boardlab.adapters import openspiel as adapter
from boardlab.agents import agent_class, make_agent
from boardlab.agents.levels import LEVELS, is_level, level_spec, top_level
from boardlab.core.agent import parse_spec
from boardlab.core.errors import BoardlabError
from boardlab.core.seeds import derive_seed
from boardlab.lab.stats import wilson_interval

ROLLOUT_DEPTH = 3
GAME_IDS = ("towers", "sovereign", "overseer", "territories", "honor")
#: per-game options that keep a run short without changing the rules (quick physics settles)
OPTIONS = {"honor": {"settle": "quick"}}
#: the OpenSpiel bot's exploration constant for returns in [0, 1]
SPIEL_UCT_C = 0.5
#: the fewest simulations OpenSpiel's MCTSBot can choose a move with (see spiel_bot)
MIN_SPIEL_SIMULATIONS = 2
TARGET_SCORE = 0.90
#: the calibration's weight in a game's running means, in moves
PRIOR_MOVES = 2


class TruncatedRolloutEvaluator(spiel_mcts.Evaluator):
    """OpenSpiel's evaluator interface doing what our ``mcts`` does at a leaf: a random rollout
    of at most ``depth`` moves, then the game's ``evaluate()`` (uniform returns without one).
    OpenSpiel's stock random rollout plays to the end, which in these games is hundreds of
    moves: this gives its bot the same heuristic our searches use."""

    def __init__(self, depth: int, rng: np.random.RandomState) -> None:
        self.depth = depth
        self.rng = rng

    def evaluate(self, state):  # type: ignore[no-untyped-def]
        working = state.clone()
        for _ in range(self.depth):
            if working.is_terminal():
                break
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes())
                working.apply_action(int(self.rng.choice(actions, p=probs)))
            else:
                legal = working.legal_actions()
                working.apply_action(legal[self.rng.randint(len(legal))])
        if working.is_terminal():
            return np.array(working.returns())
        estimate = working.boardlab_state.evaluate()
        players = working.num_players()
        return np.array(estimate if estimate is not None else [1.0 / players] * players)

    def prior(self, state):  # type: ignore[no-untyped-def]
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def sample_positions(game: boardlab.Game, count: int, seed: int, last_ply: int = 30) -> list[boardlab.State]:
    """Decision positions from random games (for hidden information: the mover's resample),
    each with more than one legal move."""
    rng = random.Random(seed)
    found: list[boardlab.State] = []
    while len(found) < count:
        state = game.new_state(seed=rng.getrandbits(32))
        stop = rng.randint(4, last_ply)
        while not state.is_over() and state.ply < stop:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
        while state.is_chance():
            state.apply(state.sample_chance(rng))
        if not state.is_over() and len(state.legal_moves()) > 1:
            found.append(state.resample(state.current_player(), rng))
    return found


#: what the OpenSpiel bot does at a leaf (``--bot-evaluator``)
BOT_EVALUATORS = {
    "game": f"random rollout of {ROLLOUT_DEPTH} moves, then the game's evaluate()",
    "stock": "OpenSpiel's RandomRolloutEvaluator: one random rollout to the end of the game",
}


def spiel_bot(spiel_game, simulations: int, seed: int, evaluator: str = "game"):  # type: ignore[no-untyped-def]
    rng = np.random.RandomState(seed % 2**32)
    if evaluator == "stock":
        leaf: spiel_mcts.Evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    else:
        leaf = TruncatedRolloutEvaluator(ROLLOUT_DEPTH, rng)
    # OpenSpiel's bot spends its first simulation evaluating the root and only expands the root
    # on the second; with one simulation it has no child to choose and raises.
    return spiel_mcts.MCTSBot(spiel_game, SPIEL_UCT_C, max(MIN_SPIEL_SIMULATIONS, simulations), leaf,
                              solve=False, random_state=rng)


# --- speed mode -------------------------------------------------------------------------------

def speed(game_id: str, positions: list[boardlab.State], simulations: int) -> tuple[float, float]:
    spiel_game = adapter.load(game_id, **OPTIONS.get(game_id, {}))
    ours_time = spiel_time = 0.0
    for k, state in enumerate(positions):
        agent = make_agent(f"mcts:iterations={simulations},rollout_depth={ROLLOUT_DEPTH}", seed=k, game=game_id)
        began = time.perf_counter()
        agent.choose(state.copy())
        ours_time += time.perf_counter() - began
        bot = spiel_bot(spiel_game, simulations, k)
        spiel_state = spiel_game.from_boardlab_state(state)
        began = time.perf_counter()
        bot.step(spiel_state)
        spiel_time += time.perf_counter() - began
    total = simulations * len(positions)
    return total / ours_time, total / spiel_time


def speed_main(args: argparse.Namespace) -> None:
    print(f"{'game':12} {'ours sims/s':>12} {'openspiel':>10} {'ratio':>6}")
    for game_id in args.game:
        game = boardlab.load(game_id, **OPTIONS.get(game_id, {}))
        positions = sample_positions(game, args.positions, args.seed)
        ours, theirs = speed(game_id, positions, args.simulations)
        print(f"{game_id:12} {ours:12.0f} {theirs:10.0f} {ours / theirs:6.1f}", flush=True)


# --- match mode -------------------------------------------------------------------------------

def capped_spec(spec: str, seconds: float | None) -> str:
    """``spec`` with its time cap set to ``seconds`` (None, or an agent without a time
    parameter such as ``greedy``: unchanged)."""
    name, params = parse_spec(spec)
    if seconds is None or "seconds" not in agent_class(name).params:
        return spec
    params["seconds"] = f"{seconds:g}"
    return name + ":" + ",".join(f"{key}={value}" for key, value in params.items())


@dataclass
class Calibration:
    positions: int
    ours_mean_s: float
    spiel_sims_per_cpu_s: float
    spiel_simulations: int


def calibrate(game_id: str, spec: str, positions: int, seed: int, evaluator: str = "game") -> Calibration:
    """Our mean CPU time per decision and the bot's simulations per CPU-second, on the same
    positions; the bot's simulation count per move is their product."""
    options = OPTIONS.get(game_id, {})
    game = boardlab.load(game_id, **options)
    spiel_game = adapter.load(game_id, **options)
    found = sample_positions(game, positions, seed, last_ply=60)
    ours = []
    for k, state in enumerate(found):
        agent = make_agent(spec, seed=derive_seed(seed, k), game=game)
        began = time.process_time()
        agent.choose(state.copy())
        ours.append(time.process_time() - began)
    target = statistics.fmean(ours)
    # a first short probe sizes the real one, so that the rate is measured near the count used
    probe = 8
    for _ in range(2):
        sims = cpu = 0.0
        for k, state in enumerate(found):
            bot = spiel_bot(spiel_game, probe, derive_seed(seed, 1000 + k), evaluator)
            spiel_state = spiel_game.from_boardlab_state(state)
            began = time.process_time()
            bot.step(spiel_state)
            cpu += time.process_time() - began
            sims += probe
        rate = sims / max(cpu, 1e-6)
        probe = max(8, int(rate * target))
    return Calibration(len(found), target, rate, max(MIN_SPIEL_SIMULATIONS, round(rate * target)))


@dataclass
class EqualTime:
    """One game's CPU time on each side, and the bot's simulation count for its next move.

    The bot is owed our mean time per move (the calibration's until we have moved) times its
    moves so far, this one included, less what it has spent: its mean follows ours as ours
    changes over the game, and a move that took more or less time than meant is made up on
    the next. Its simulations per CPU-second are a running figure of the game, started from
    the calibration as if that had been PRIOR_MOVES moves."""

    calibrated_s: float
    rate_sims: float
    rate_s: float
    ours_s: float = 0.0
    ours_moves: int = 0
    spiel_s: float = 0.0
    spiel_moves: int = 0

    @classmethod
    def start(cls, calibration: Calibration) -> EqualTime:
        prior_s = PRIOR_MOVES * calibration.ours_mean_s
        return cls(calibration.ours_mean_s, prior_s * calibration.spiel_sims_per_cpu_s, prior_s)

    def ours_moved(self, seconds: float) -> None:
        self.ours_s += seconds
        self.ours_moves += 1

    def spiel_moved(self, simulations: int, seconds: float) -> None:
        self.rate_sims += simulations
        self.rate_s += seconds
        self.spiel_s += seconds
        self.spiel_moves += 1

    def simulations(self) -> int:
        mean = self.ours_s / self.ours_moves if self.ours_moves else self.calibrated_s
        owed = mean * (self.spiel_moves + 1) - self.spiel_s
        return max(MIN_SPIEL_SIMULATIONS, round(self.rate_sims / max(self.rate_s, 1e-9) * owed))


@dataclass
class GameOutcome:
    index: int
    seed: int
    ours_seat: int
    outcome: str  # win | draw | loss, from our side
    ours_return: float
    finished: bool
    code: str
    decisions: int
    forced: int
    ours_cpu: list[float] = field(default_factory=list)
    spiel_cpu: list[float] = field(default_factory=list)
    spiel_sims: list[int] = field(default_factory=list)
    #: the evaluate() of the position where an unfinished game stopped, for our seat
    stopped_estimate: float | None = None


_SPIEL_GAMES: dict[str, Any] = {}


def _spiel_game(game_id: str):  # type: ignore[no-untyped-def]
    if game_id not in _SPIEL_GAMES:
        _SPIEL_GAMES[game_id] = adapter.load(game_id, **OPTIONS.get(game_id, {}))
    return _SPIEL_GAMES[game_id]


def play_one(game_id: str, spec: str, calibration: Calibration, index: int, base_seed: int,
             max_decisions: int, evaluator: str = "game") -> GameOutcome:
    spiel_game = _spiel_game(game_id)
    game = spiel_game.boardlab_game
    encoding = game.action_encoding()
    seed = derive_seed(base_seed, index)
    ours_seat = index % game.num_players
    ours = make_agent(spec, seed=derive_seed(seed, 1), game=game)
    seats: list[Any] = [ours if seat == ours_seat else None for seat in range(game.num_players)]
    match = boardlab.Match(game, seats, seed=seed, undo="never")
    bot_seeds = random.Random(derive_seed(seed, 2))
    result = GameOutcome(index, seed, ours_seat, "draw", 1.0 / game.num_players, False, "unfinished", 0, 0)
    clock = EqualTime.start(calibration)
    while not match.is_over() and result.decisions < max_decisions:
        seat = match.to_move()
        view = match.agent_input(seat)
        legal = view.legal_moves()
        if len(legal) == 1 and not game.continuous_moves:
            move = legal[0]
            result.forced += 1
        elif seat == ours_seat:
            began = time.process_time()
            move = ours.choose(view)
            result.ours_cpu.append(time.process_time() - began)
            clock.ours_moved(result.ours_cpu[-1])
        else:
            simulations = clock.simulations()
            bot = spiel_bot(spiel_game, simulations, bot_seeds.getrandbits(31), evaluator)
            spiel_state = spiel_game.from_boardlab_state(view)
            began = time.process_time()
            action = bot.step(spiel_state)
            result.spiel_cpu.append(time.process_time() - began)
            result.spiel_sims.append(simulations)
            clock.spiel_moved(simulations, result.spiel_cpu[-1])
            move = encoding.move_for(view, action)
        match.play(seat, move)
        result.decisions += 1
    ending = match.result()
    if ending is None:
        estimate = match.agent_input(ours_seat).evaluate()
        result.stopped_estimate = None if estimate is None else float(estimate[ours_seat])
        return result
    returns = ending.returns
    best_other = max(r for seat, r in enumerate(returns) if seat != ours_seat)
    result.ours_return = float(returns[ours_seat])
    result.outcome = "win" if returns[ours_seat] > best_other else "loss" if returns[ours_seat] < best_other else "draw"
    result.finished = True
    result.code = ending.code
    return result


def _play_task(task: tuple[str, str, Calibration, int, int, int, str]) -> GameOutcome:
    return play_one(*task)


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def summarise(game_id: str, level: str, spec: str, calibration: Calibration, outcomes: list[GameOutcome],
              wall_s: float) -> dict[str, Any]:
    wins = sum(o.outcome == "win" for o in outcomes)
    draws = sum(o.outcome == "draw" for o in outcomes)
    losses = sum(o.outcome == "loss" for o in outcomes)
    games = len(outcomes)
    points = wins + 0.5 * draws
    low, high = wilson_interval(points, games)  # type: ignore[arg-type]  # a draw is half a success
    ours_cpu = [t for o in outcomes for t in o.ours_cpu]
    spiel_cpu = [t for o in outcomes for t in o.spiel_cpu]
    score = points / games if games else 0.0
    return {
        "game": game_id,
        "options": OPTIONS.get(game_id, {}),
        "level": level,
        "spec": spec,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "unfinished": sum(not o.finished for o in outcomes),
        "score": score,
        "score_ci95": [low, high],
        "ours_cpu_s_per_move": _mean(ours_cpu),
        "ours_moves": len(ours_cpu),
        "spiel_cpu_s_per_move": _mean(spiel_cpu),
        "spiel_moves": len(spiel_cpu),
        "spiel_simulations_per_move": _mean([float(n) for o in outcomes for n in o.spiel_sims]),
        "calibration": asdict(calibration),
        "passes": score >= TARGET_SCORE,
        "wall_s": wall_s,
        "outcomes": [asdict(o) for o in sorted(outcomes, key=lambda o: o.index)],
    }


def _seconds(value: str) -> float | None:
    if value == "auto":
        return None
    seconds = float(value)
    if not seconds > 0:
        raise argparse.ArgumentTypeError("a positive number of seconds, or auto")
    return seconds


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(rows: list[dict[str, Any]], markdown: bool) -> str:
    head = ["game", "level", "games", "W-D-L", "score", "95% CI", "ours s/move", "OpenSpiel s/move",
            "OpenSpiel sims/move", f">= {TARGET_SCORE:.0%}"]
    body = []
    for row in rows:
        low, high = row["score_ci95"]
        unfinished = f" ({row['unfinished']} unfinished)" if row["unfinished"] else ""
        body.append([
            row["game"], row["level"], str(row["games"]),
            f"{row['wins']}-{row['draws']}-{row['losses']}{unfinished}",
            f"{row['score']:.1%}", f"{low:.1%}-{high:.1%}",
            _fmt(row["ours_cpu_s_per_move"]), _fmt(row["spiel_cpu_s_per_move"]),
            _fmt(row["spiel_simulations_per_move"], 0), "pass" if row["passes"] else "FAIL",
        ])
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(cells) + " |" for cells in body]
        return "\n".join(lines)
    widths = [max(len(cells[i]) for cells in [head, *body]) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(cells, widths)) for cells in [head, *body])


def match_main(args: argparse.Namespace, argv: list[str]) -> dict[str, Any]:
    report: dict[str, Any] = {
        "command": " ".join(["python", "bench/vs_openspiel.py", *argv]),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_start": list(os.getloadavg()),
        "seed": args.seed,
        "jobs": args.jobs,
        "seconds_per_move": "auto" if args.seconds_per_move is None else args.seconds_per_move,
        "max_decisions": args.max_decisions,
        "openspiel_bot": {"class": "open_spiel.python.algorithms.mcts.MCTSBot", "uct_c": SPIEL_UCT_C,
                          "evaluator": BOT_EVALUATORS[args.bot_evaluator],
                          "solve": False},
        "rows": [],
    }
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for game_id in args.game:
            game = boardlab.load(game_id, **OPTIONS.get(game_id, {}))
            level = args.level or top_level(game)
            try:
                named = level_spec(game, level) if is_level(level) else level
            except BoardlabError as exc:
                raise SystemExit(f"--level {level}: {exc}") from None
            spec = capped_spec(named, args.seconds_per_move)
            try:
                make_agent(spec, game=game)  # a bad spec fails here, before any game is played
            except BoardlabError as exc:
                raise SystemExit(f"--level {level}: {exc}") from None
            calibration = calibrate(game_id, spec, args.calibration_positions, derive_seed(args.seed, 7),
                                    args.bot_evaluator)
            print(f"{game_id}: {spec}; calibration: ours {calibration.ours_mean_s:.3f} s/move, OpenSpiel "
                  f"{calibration.spiel_sims_per_cpu_s:.0f} sims/s -> {calibration.spiel_simulations} sims/move",
                  file=sys.stderr, flush=True)
            base = derive_seed(args.seed, GAME_IDS.index(game_id) if game_id in GAME_IDS else 99)
            tasks = [(game_id, spec, calibration, i, base, args.max_decisions, args.bot_evaluator)
                     for i in range(args.games)]
            began = time.perf_counter()
            outcomes = []
            results = pool.imap_unordered(_play_task, tasks) if pool else map(_play_task, tasks)
            for outcome in results:
                outcomes.append(outcome)
                print(f"  {game_id} game {outcome.index}: ours seat {outcome.ours_seat} {outcome.outcome} "
                      f"({outcome.code}, {outcome.decisions} decisions)", file=sys.stderr, flush=True)
            row = summarise(game_id, level, spec, calibration, outcomes, time.perf_counter() - began)
            row["bot_evaluator"] = args.bot_evaluator
            report["rows"].append(row)
            print(table([row], False).splitlines()[-1], file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    report["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    report["load_end"] = list(os.getloadavg())
    print(table(report["rows"], args.markdown))
    print(f"load average (1, 5, 15 min): start {' '.join(f'{x:.2f}' for x in report['load_start'])}, "
          f"end {' '.join(f'{x:.2f}' for x in report['load_end'])}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=1)
    return report


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parse.add_argument("--match", action="store_true", help="play matches (default: compare speed)")
    parse.add_argument("--game", nargs="+", default=list(GAME_IDS), choices=GAME_IDS, help="games (default: all)")
    parse.add_argument("--seed", type=int, default=1)
    speed_args = parse.add_argument_group("speed")
    speed_args.add_argument("--positions", type=int, default=3)
    speed_args.add_argument("--simulations", type=int, default=300)
    match_args = parse.add_argument_group("match")
    match_args.add_argument("--games", type=int, default=20, help="games per game id (default 20)")
    match_args.add_argument("--level", default=None,
                            help=f"our level ({', '.join(LEVELS)}; default: each game's strongest), or an agent spec")
    match_args.add_argument("--seconds-per-move", type=_seconds, default=None,
                            help="auto: the level's own budget; X: the level with its time cap set to X s")
    match_args.add_argument("--calibration-positions", type=int, default=6)
    match_args.add_argument("--max-decisions", type=int, default=400,
                            help="a game still running after this many decisions counts as a draw")
    match_args.add_argument("--bot-evaluator", choices=sorted(BOT_EVALUATORS), default="game",
                            help="the bot's leaf: game (default), a short rollout and our evaluate(); stock, "
                                 "OpenSpiel's random rollout to the end")
    match_args.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    match_args.add_argument("--out", help="write the report as JSON here")
    match_args.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    return parse


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    if args.match:
        match_main(args, argv)
    else:
        speed_main(args)


if __name__ == "__main__":
    main()
