"""Greedy: one ply on the game's evaluation, chance averaged, wins first, random ties."""

from __future__ import annotations

import pytest

from boardlab.agents import make_agent
from tests.agents.toy_games import Chance, Decide, End, dicenim_at, tree_game


def _choice(tree: Decide, seed: int = 0, players: int = 2) -> str:
    return str(make_agent("greedy", seed=seed).choose(tree_game(tree, players).new_state(seed=0)))


@pytest.mark.parametrize(("left", "right", "best"), [(0.7, 0.4, "left"), (0.4, 0.7, "right")])
def test_uses_the_evaluation_of_the_resulting_position(left: float, right: float, best: str) -> None:
    tree = Decide(
        0,
        {
            "left": Decide(1, {"end": End((0.5, 0.5))}, estimate=(left, 1 - left)),
            "right": Decide(1, {"end": End((0.5, 0.5))}, estimate=(right, 1 - right)),
        },
    )
    assert all(_choice(tree, seed) == best for seed in range(6))


def test_scores_from_the_movers_viewpoint() -> None:
    # Player 1 decides: the estimate that is good for player 0 is bad for it.
    tree = Decide(
        1,
        {
            "helps0": Decide(0, {"end": End((0.5, 0.5))}, estimate=(0.9, 0.1)),
            "helps1": Decide(0, {"end": End((0.5, 0.5))}, estimate=(0.3, 0.7)),
        },
    )
    assert all(_choice(tree, seed) == "helps1" for seed in range(6))


def test_a_win_beats_any_evaluation_and_a_loss_is_avoided() -> None:
    tree = Decide(
        0,
        {
            "lose": End((0.0, 1.0)),
            "promising": Decide(1, {"end": End((0.5, 0.5))}, estimate=(0.95, 0.05)),
            "win": End((1.0, 0.0)),
        },
    )
    assert all(_choice(tree, seed) == "win" for seed in range(6))
    del tree.options["win"]
    assert all(_choice(tree, seed) == "promising" for seed in range(6))


def test_averages_a_chance_node_exactly_over_its_outcomes() -> None:
    # "dice" is worth 0.9 * 1/3 + 0.3 * 2/3 = 0.5 < 0.55; looking at one outcome could say 0.9.
    after = {
        f"roll{k}": Decide(1, {"end": End((0.5, 0.5))}, estimate=(0.9, 0.1) if k == 0 else (0.3, 0.7))
        for k in range(3)
    }
    dice = Chance(tuple((label, 1 / 3, node) for label, node in after.items()))
    steady = Decide(1, {"end": End((0.5, 0.5))}, estimate=(0.55, 0.45))
    tree = Decide(0, {"dice": dice, "steady": steady})
    assert all(_choice(tree, seed) == "steady" for seed in range(6))
    steady_worse = Decide(0, {"dice": dice, "steady": Decide(1, {"end": End((0.5, 0.5))}, estimate=(0.45, 0.55))})
    assert all(_choice(steady_worse, seed) == "dice" for seed in range(6))


def test_samples_a_chance_node_with_many_outcomes() -> None:
    # 100 outcomes (more than exact_chance): sampled, and still clearly worse than 0.8.
    dice = Chance(tuple((f"o{k}", 0.01, End((1.0, 0.0)) if k < 30 else End((0.0, 1.0))) for k in range(100)))
    tree = Decide(0, {"dice": dice, "steady": Decide(1, {"end": End((0.5, 0.5))}, estimate=(0.8, 0.2))})
    assert all(_choice(tree, seed) == "steady" for seed in range(6))


def test_without_evaluation_takes_the_win_else_plays_at_random() -> None:
    # Dice Nim has no evaluate(): from 3 counters take3 wins; from 10 any move is a guess.
    assert all(str(make_agent("greedy", seed=s).choose(dicenim_at(3))) == "take3" for s in range(6))
    guesses = {str(make_agent("greedy", seed=s).choose(dicenim_at(10))) for s in range(30)}
    assert guesses == {"take1", "take2", "take3"}


def test_three_players_scored_for_the_mover() -> None:
    tree = Decide(
        2,
        {
            "a": Decide(0, {"end": End((1 / 3, 1 / 3, 1 / 3))}, estimate=(0.6, 0.3, 0.1)),
            "b": Decide(0, {"end": End((1 / 3, 1 / 3, 1 / 3))}, estimate=(0.1, 0.5, 0.4)),
        },
    )
    assert all(_choice(tree, seed, players=3) == "b" for seed in range(6))


def test_a_proven_win_beats_an_evaluation_of_certain_victory() -> None:
    tree = Decide(
        0,
        {
            "sure": Decide(1, {"end": End((0.5, 0.5))}, estimate=(1.0, 0.0)),
            "win": End((1.0, 0.0)),
            "lose": End((0.0, 1.0)),
            "hopeless": Decide(1, {"end": End((0.5, 0.5))}, estimate=(0.0, 1.0)),
        },
    )
    assert all(_choice(tree, seed) == "win" for seed in range(6))
    del tree.options["win"], tree.options["sure"]
    assert all(_choice(tree, seed) == "hopeless" for seed in range(6))
