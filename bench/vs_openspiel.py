"""Our ``mcts`` agent against OpenSpiel's Python ``MCTSBot`` on the same games.

    python bench/vs_openspiel.py                                # every game, short
    python bench/vs_openspiel.py --games towers --simulations 1000 --match-games 4

Both search the same rules code: ours runs on boardlab states directly, OpenSpiel's on the
adapter (:mod:`boardlab.adapters.openspiel`) wrapping copies of the same states. Both do the
same work per simulation: UCT descent, one expansion, a random rollout cut after 3 moves and
scored by the game's ``evaluate()`` (OpenSpiel's bot gets an evaluator doing exactly that,
since its stock random rollout plays to the end and would not be comparable).

Per game it prints simulations per second of each from the same positions at the same
simulation count and their ratio, then a short match at equal time per move (OpenSpiel's
simulations per move set from its measured rate, as its bot takes no time limit), seats
alternating. A match game still running after ``--match-plies`` decisions is adjudicated by
``evaluate()`` (reported as such). Figures are from a shared, noisy machine: compare the
ratio, taken in one run. Needs the extra ``boardlab[openspiel]``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from open_spiel.python.algorithms import mcts as spiel_mcts

import boardlab
from boardlab.adapters import openspiel as adapter
from boardlab.agents import make_agent

ROLLOUT_DEPTH = 3
#: per-game options that keep a benchmark short without changing the rules (quick physics)
OPTIONS = {"honor": {"settle": "quick"}}


class TruncatedRolloutEvaluator(spiel_mcts.Evaluator):
    """OpenSpiel's evaluator interface doing what our ``mcts`` does at a leaf: a random rollout
    of at most ``depth`` moves, then the game's ``evaluate()`` (uniform returns without one)."""

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


def sample_positions(game: boardlab.Game, count: int, seed: int) -> list[boardlab.State]:
    """Decision positions from random games (for hidden information: the mover's resample)."""
    rng = random.Random(seed)
    found: list[boardlab.State] = []
    while len(found) < count:
        state = game.new_state(seed=rng.getrandbits(32))
        stop = rng.randint(4, 30)
        while not state.is_over() and state.ply < stop:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
        while state.is_chance():
            state.apply(state.sample_chance(rng))
        if not state.is_over():
            found.append(state.resample(state.current_player(), rng))
    return found


def spiel_bot(spiel_game, simulations: int, seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.RandomState(seed)
    evaluator = TruncatedRolloutEvaluator(ROLLOUT_DEPTH, rng)
    return spiel_mcts.MCTSBot(spiel_game, 0.5, max(1, simulations), evaluator, solve=False, random_state=rng)


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


def match(game_id: str, games: int, seconds: float, spiel_rate: float, plies: int, seed: int) -> dict[str, float]:
    """Ours against OpenSpiel's at equal time per move; scores are summed returns."""
    spiel_game = adapter.load(game_id, **OPTIONS.get(game_id, {}))
    game = spiel_game.boardlab_game
    per_move = max(1, int(spiel_rate * seconds))
    score = {"ours": 0.0, "openspiel": 0.0, "adjudicated": 0}
    for number in range(games):
        rng = random.Random(seed + number)
        ours_seat = number % game.num_players
        state = game.new_state(seed=seed + number)
        decisions = 0
        while not state.is_over() and decisions < plies:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player()
            view = state.resample(seat, rng)
            if seat == ours_seat:
                agent = make_agent(f"mcts:seconds={seconds},rollout_depth={ROLLOUT_DEPTH}", seed=rng.getrandbits(32),
                                   game=game_id)
                move = agent.choose(view)
            else:
                spiel_state = spiel_game.from_boardlab_state(view)
                action = spiel_bot(spiel_game, per_move, rng.getrandbits(31)).step(spiel_state)
                move = game.action_encoding().move_for(view, action)
            state.play(move)
            decisions += 1
        returns = state.returns() if state.is_over() else (state.evaluate() or [1 / game.num_players] * game.num_players)
        if not state.is_over():
            score["adjudicated"] += 1
        score["ours"] += returns[ours_seat]
        score["openspiel"] += sum(r for seat, r in enumerate(returns) if seat != ours_seat)
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="towers,sovereign,overseer,territories,honor")
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--match-games", type=int, default=2)
    parser.add_argument("--move-seconds", type=float, default=0.2)
    parser.add_argument("--match-plies", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':12} {'ours sims/s':>12} {'openspiel':>10} {'ratio':>6}   match at {args.move_seconds}s/move")
    for game_id in args.games.split(","):
        game = boardlab.load(game_id, **OPTIONS.get(game_id, {}))
        positions = sample_positions(game, args.positions, args.seed)
        ours, theirs = speed(game_id, positions, args.simulations)
        score = match(game_id, args.match_games, args.move_seconds, theirs, args.match_plies, args.seed)
        print(f"{game_id:12} {ours:12.0f} {theirs:10.0f} {ours / theirs:6.1f}   "
              f"ours {score['ours']:.1f} - openspiel {score['openspiel']:.1f} "
              f"({args.match_games} games, {score['adjudicated']} adjudicated by evaluate())", flush=True)


if __name__ == "__main__":
    main()
