"""How far from an even share each evaluation puts its chances, on the positions of seeded games.

    python bench/chance_spread.py overseer --spec "mcts:iterations=50,leaf_eval=true,widen=1,c=0.2,jitter=0.03" --games 6

A search that scores its leaves by chances adds them up against an exploration term (UCT's
``c``) and breaks near-ties by a ``jitter``, both tuned on the hand-set evaluation. An
evaluation whose chances lie much nearer an even share gives the search smaller differences
to go on, so the same ``c`` and ``jitter`` weigh more against them (docs/evaluation.md, *How
sharp each judge is*). This plays ``--games`` seeded games of ``--spec`` in every seat (the
lab's driver, seats as the lab seats them), takes every decision position, and prints for each
evaluation the game has (hand-set, fitted, the search's weights where shipped, and each
``--weights`` file): the mean distance of a seat's chance from an even share, the standard
deviation of the logit of the first seat's chance, and each one's ratio to the hand-set figure.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Sequence

from boardlab.core.fitted import FITTED, HAND, SEARCH, EvaluationChoice, evaluation_choice, judging_by
from boardlab.lab.play import SimulationPlan, play_one

#: chances are clipped to this distance from 0 and 1 before their logit is taken
CLIP = 1e-4


def decision_positions(game_id: str, spec: str, games: int, seed: int) -> list[object]:
    """Every position of ``games`` seeded games of ``spec`` where a player is to decide."""
    plan = SimulationPlan(game_id=game_id, agents=(spec,), games=games, seed=seed)
    found: list[object] = []
    for index in range(games):
        record = play_one(plan, index).record
        state = record.initial_state()
        if state.current_player() >= 0:
            found.append(state.copy())
        for _number, _text, position in record.states():  # one state, moved on in place
            if position.current_player() >= 0 and not position.is_over():
                found.append(position.copy())
    return found


def spread(positions: Sequence[object], choice: str | EvaluationChoice) -> tuple[float, float]:
    """(mean distance of a seat's chance from an even share, sd of the first seat's logit)."""
    distances: list[float] = []
    logits: list[float] = []
    with judging_by(choice):
        for position in positions:
            chances = list(position.evaluate())  # type: ignore[attr-defined]
            even = 1.0 / len(chances)
            distances.extend(abs(chance - even) for chance in chances)
            first = min(max(chances[0], CLIP), 1.0 - CLIP)
            logits.append(math.log(first / (1.0 - first)))
    return statistics.fmean(distances), statistics.pstdev(logits)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="game id")
    parser.add_argument("--spec", default="greedy", help="the player in every seat (default greedy)")
    parser.add_argument("--games", type=int, default=6, help="seeded games played (default 6)")
    parser.add_argument("--seed", type=int, default=0, help="base seed of the games (default 0)")
    parser.add_argument(
        "--weights",
        action="append",
        default=[],
        metavar="FILE",
        help="a weights file to judge by as well (boardlab train --weights; repeatable)",
    )
    args = parser.parse_args(argv)
    positions = decision_positions(args.game, args.spec, args.games, args.seed)
    if not positions:
        raise SystemExit(f"{args.game}: the games had no decision position")
    print(f"{args.game}: {len(positions)} decision positions of {args.games} games of {args.spec}")
    base: tuple[float, float] | None = None
    for name in (HAND, FITTED, SEARCH, *args.weights):
        choice = evaluation_choice(name)
        if name != HAND and choice.for_game(positions[0].game) is None:  # type: ignore[attr-defined]
            continue  # the game ships no such weights: the choice would judge by hand again
        distance, deviation = spread(positions, choice)
        base = base or (distance, deviation)
        print(
            f"  {name:<7} mean |chance - even share| {distance:.3f} ({distance / base[0]:.2f}x hand)   "
            f"sd of the logit {deviation:.3f} ({deviation / base[1]:.2f}x hand)"
        )


if __name__ == "__main__":
    main()
