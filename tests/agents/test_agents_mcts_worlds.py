"""MCTS over several deals (``mcts:worlds=K``): the budget split over the deal handed over and
K-1 more drawn with ``resample()``, and the move most visited over all K trees played."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core import OptionError, State
from tests.agents.test_agents_mcts import never_settle
from tests.agents.toy_games import SecretGuessState, secret_guess_at


def spy_on_resample(monkeypatch: pytest.MonkeyPatch, state: State) -> list[State]:
    """Every state ``resample`` hands out from now on, in order."""
    drawn: list[State] = []
    original = type(state).resample

    def recording(self: State, player: int, rng: random.Random) -> State:
        deal = original(self, player, rng)
        drawn.append(deal)
        return deal

    monkeypatch.setattr(type(state), "resample", recording)
    return drawn


@pytest.mark.parametrize("seed", range(6))
def test_the_move_played_is_the_one_most_of_the_deals_favour(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    # After a bet, each deal's tree is sure of its own card and spends nearly every visit on
    # guessing it: summed over five deals, the guess is the card most of them hold
    handed = secret_guess_at(seed % 2, "bet").resample(0, random.Random(seed))
    drawn = spy_on_resample(monkeypatch, handed)
    move = make_agent("mcts:iterations=1000,worlds=5", seed=seed).choose(handed)
    deals = [handed, *drawn]
    assert len(deals) == 5 and all(isinstance(deal, SecretGuessState) for deal in deals)
    cards = Counter(deal.card for deal in deals)  # type: ignore[attr-defined]
    assert str(move) == f"guess{cards.most_common(1)[0][0]}"


def test_one_world_searches_the_state_handed_over_only(monkeypatch: pytest.MonkeyPatch) -> None:
    handed = secret_guess_at(1, "bet").resample(0, random.Random(4))
    drawn = spy_on_resample(monkeypatch, handed)
    move = make_agent("mcts:iterations=300", seed=0).choose(handed)
    assert drawn == [] and str(move) == f"guess{handed.card}"  # type: ignore[attr-defined]


def test_the_iteration_budget_is_split_over_the_deals_not_multiplied(monkeypatch: pytest.MonkeyPatch) -> None:
    never_settle(monkeypatch)
    state = boardlab.load("territories").new_state(3)
    while state.current_player() < 0:
        state.apply(state.sample_chance(random.Random(3)))
    handed = state.resample(state.current_player(), random.Random(3))
    agent = make_agent("mcts:iterations=100,worlds=3,leaf_eval=true", seed=2)
    first = agent.choose(handed)
    assert agent.last_iterations == 100  # 33 + 33 + 34
    assert first in handed.legal_moves()
    # seeded: the same deals are drawn and the same move played
    assert make_agent("mcts:iterations=100,worlds=3,leaf_eval=true", seed=2).choose(handed) == first


def test_a_game_without_hidden_information_ignores_worlds() -> None:
    state = boardlab.load("towers").new_state(1)
    plain = make_agent("mcts:iterations=200", seed=5)
    ensemble = make_agent("mcts:iterations=200,worlds=4", seed=5)
    assert plain.choose(state) == ensemble.choose(state)
    assert plain.last_iterations == ensemble.last_iterations


def test_worlds_must_be_positive_and_are_described() -> None:
    with pytest.raises(OptionError, match="worlds=0"):
        make_agent("mcts:worlds=0")
    agent = make_agent("mcts:iterations=300,worlds=4,leaf_eval=true")
    assert "over 4 draws of what it cannot see" in agent.describe({"iterations": "300", "worlds": "4"})
