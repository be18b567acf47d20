"""No peeking, for every registered game with hidden information.

Two real states that differ only in what the deciding seat may not see must get
the same decision from every agent when handed as the driver hands them
(``state.resample(seat, rng)``, see lab.arena.play_game) with the same seeds.
This checks the agents and the game's ``resample`` together: a resample that
carried over real hidden parts would let a search read them.
"""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core import CHANCE, Game, State
from tests.agents.toy_games import SecretGuessState, secret_guess_at

SPECS = ["random", "greedy", "mcts:iterations=15", "ismcts:iterations=15,determinizations=3"]


def _hidden_information_games() -> list[str]:
    return [entry["id"] for entry in boardlab.catalog() if entry["hidden_information"]]


def _decision_position(game: Game, seed: int) -> State:
    """A decision position a few random moves into a game (the driver's chance draws)."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    target = rng.randrange(2, 25)
    while True:
        while state.current_player() == CHANCE:
            state.apply(state.sample_chance())
        if state.is_over():
            state = game.new_state(rng.getrandbits(32))
            continue
        if state.ply >= target:
            return state
        state.apply(rng.choice(state.legal_moves()))


def decisions_for_twins(spec: str, real: State, twin: State, seed: int) -> tuple[str, str]:
    """What ``spec`` decides in ``real`` and in ``twin``, each handed over as the driver does."""
    seat = real.current_player()
    decisions = []
    for state in (real, twin):
        agent = make_agent(spec, seed=seed)
        decisions.append(str(agent.choose(state.resample(seat, random.Random(seed)))))
    return decisions[0], decisions[1]


@pytest.mark.parametrize("game_id", _hidden_information_games())
def test_twins_are_handed_over_identically(game_id: str) -> None:
    # What an agent receives (position, history: undo included) must not depend on the hidden parts.
    game = boardlab.load(game_id)
    for seed in range(3):
        real = _decision_position(game, seed)
        seat = real.current_player()
        twin = real.resample(seat, random.Random(1000 + seed))
        handed = [state.resample(seat, random.Random(seed)) for state in (real, twin)]
        assert handed[0].position() == handed[1].position()
        assert [str(m) for m in handed[0].history] == [str(m) for m in handed[1].history]


@pytest.mark.parametrize("game_id", _hidden_information_games())
@pytest.mark.parametrize("spec", SPECS)
def test_decision_is_the_same_whatever_the_hidden_parts(game_id: str, spec: str) -> None:
    game = boardlab.load(game_id)
    seeds = range(1) if game.continuous_moves else range(2)  # continuous games simulate physics: slow
    for seed in seeds:
        real = _decision_position(game, seed)
        seat = real.current_player()
        twin = real.resample(seat, random.Random(1000 + seed))  # other hidden parts, same view
        assert twin.view(seat) == real.view(seat)
        first, second = decisions_for_twins(spec, real, twin, seed)
        assert first == second, f"{spec} on {game_id} (seed {seed}) decided by hidden parts"


class LeakyGuessState(SecretGuessState):
    """A broken resample that keeps the real card: the check above must notice."""

    def _resample(self, player: int, rng: random.Random) -> LeakyGuessState:
        clone = LeakyGuessState.__new__(LeakyGuessState)
        State.__init__(clone, self.game, rng.getrandbits(64))
        clone._ply = clone._base_ply = self.ply
        clone.card, clone.choice, clone.winner = self.card, self.choice, self.winner
        return clone


def _leaky(card: int) -> LeakyGuessState:
    real = secret_guess_at(card, "bet")
    leaky = LeakyGuessState.__new__(LeakyGuessState)
    State.__init__(leaky, real.game, real.seed)
    leaky.card, leaky.choice, leaky.winner = real.card, real.choice, real.winner
    return leaky


def test_the_check_catches_a_resample_that_leaks() -> None:
    assert decisions_for_twins("mcts:iterations=200", _leaky(0), _leaky(1), seed=0) == ("guess0", "guess1")
    honest = decisions_for_twins("mcts:iterations=200", secret_guess_at(0, "bet"), secret_guess_at(1, "bet"), 0)
    assert honest[0] == honest[1]
