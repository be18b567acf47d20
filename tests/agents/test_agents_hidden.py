"""Hidden information: no agent reads what its seat may not see; ISMCTS reasons over resamples."""

from __future__ import annotations

import random

import pytest

from boardlab.agents import make_agent
from boardlab.core import State
from tests.agents.toy_games import SecretGuess, dicenim_at, secret_guess_at
from tests.support.dicenim import DiceNim
from tests.support.play import played_record

AGENT_SPECS = ["random", "greedy", "mcts:iterations=300", "ismcts:iterations=300"]


def _decision_as_driver_would(spec: str, real: State, agent_seed: int, view_seed: int) -> str:
    """What ``spec`` plays in ``real`` when handed the driver's resample (see boardlab.Match.agent_input)."""
    seat = real.current_player()
    agent = make_agent(spec, seed=agent_seed)
    return str(agent.choose(real.resample(seat, random.Random(view_seed))))


@pytest.mark.parametrize("spec", AGENT_SPECS)
@pytest.mark.parametrize("choice", [None, "bet"])
def test_no_peeking_decision_ignores_the_hidden_card(spec: str, choice: str | None) -> None:
    # Two real states that differ only in player 1's face-down card: player 0 must decide the same.
    for seed in range(8):
        decisions = {_decision_as_driver_would(spec, secret_guess_at(card, choice), seed, seed) for card in (0, 1)}
        assert len(decisions) == 1, f"{spec} (seed {seed}) decided by the hidden card: {decisions}"


@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_no_peeking_in_dicenim_secrets(spec: str) -> None:
    for seed in range(4):
        decisions = {
            _decision_as_driver_would(spec, dicenim_at(9, secrets=(1, hidden), seed=seed), seed, seed)
            for hidden in range(3)
        }
        assert len(decisions) == 1


def test_the_no_peeking_check_would_catch_a_peeking_search() -> None:
    # Handed the real state, a search reads the card and always guesses it: the check above must see that.
    guesses = {str(make_agent("mcts:iterations=300", seed=0).choose(secret_guess_at(card, "bet"))) for card in (0, 1)}
    assert guesses == {"guess0", "guess1"}


def test_ismcts_does_not_bet_on_a_card_it_cannot_see() -> None:
    # Betting is worth 1/2 over the possible cards, the public coin 0.6. A single determinization
    # (plain mcts) believes it knows the card and bets; ismcts pools the cards and plays safe.
    ismcts_choices = [_decision_as_driver_would("ismcts:iterations=3000", secret_guess_at(s % 2), s, s) for s in range(6)]
    mcts_choices = [_decision_as_driver_would("mcts:iterations=3000", secret_guess_at(s % 2), s, s) for s in range(6)]
    assert ismcts_choices == ["safe"] * 6
    assert mcts_choices == ["bet"] * 6


def test_ismcts_values_each_guess_at_about_one_half() -> None:
    # Over the determinizations each card is as likely, so neither guess looks better than 1/2;
    # one determinization (plain mcts) would value the "right" guess near 1.
    agent = make_agent("ismcts:iterations=2000,determinizations=20", seed=1)
    root = agent.search(secret_guess_at(1, "bet").resample(0, random.Random(1)))
    assert len(root.children) == 2
    busiest = max(root.children.values(), key=lambda child: child.visits)
    assert busiest.value / busiest.visits == pytest.approx(0.5, abs=0.05)
    plain = make_agent("mcts:iterations=2000", seed=1).search(secret_guess_at(1, "bet").resample(0, random.Random(1)))
    assert max(child.value / child.visits for child in plain.children) > 0.95


def test_ismcts_draws_determinizations_through_resample() -> None:
    state = secret_guess_at(0).resample(0, random.Random(2))
    calls: list[int] = []
    original = type(state).resample

    def counting_resample(self: State, player: int, rng: random.Random) -> State:
        calls.append(player)
        return original(self, player, rng)

    type(state).resample = counting_resample  # type: ignore[method-assign]
    try:
        make_agent("ismcts:iterations=100,determinizations=7", seed=0).choose(state)
        assert calls == [0] * 7
        calls.clear()
        make_agent("ismcts:iterations=100,determinizations=0", seed=0).choose(state)
        assert calls == [0] * 100
    finally:
        type(state).resample = original  # type: ignore[method-assign]


@pytest.mark.parametrize("pile", [1, 2, 3])
def test_ismcts_takes_an_immediate_win(pile: int) -> None:
    for seed in range(4):
        assert str(make_agent("ismcts:iterations=400", seed=seed).choose(dicenim_at(pile))) == f"take{pile}"


def test_ismcts_avoids_leaving_an_immediate_win() -> None:
    for seed in range(4):
        assert str(make_agent("ismcts:iterations=600", seed=seed).choose(dicenim_at(5, to_move=1))) == "take1"


def test_ismcts_beats_random_at_dice_nim() -> None:
    game = DiceNim(pile=12)
    score = 0.0
    for seed in range(10):
        agents = [make_agent("ismcts:iterations=200", seed=seed), make_agent("random", seed=seed)]
        seat = seed % 2
        if seat:
            agents.reverse()
        result = played_record(game, agents, seed=seed).result
        assert result is not None
        score += result.returns[seat]
    assert score >= 8


def test_secret_guess_game_hides_the_card_from_player_0() -> None:
    state = secret_guess_at(1)
    assert "card1" in state.secrets(0)
    assert state.view(0)["board"]["card"] is None and state.view(1)["board"]["card"] == 1
    assert SecretGuess().has_hidden_information
