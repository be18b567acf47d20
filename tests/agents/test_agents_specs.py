"""Agent spec strings, parameters and the errors for bad ones."""

from __future__ import annotations

import pytest

from boardlab.agents import agent_class, agent_names, make_agent
from boardlab.core import BoardlabError, GameOverError, IllegalMoveError, OptionError
from tests.agents.toy_games import dicenim_at


def test_builtin_agents_are_registered() -> None:
    assert {"random", "greedy", "mcts", "ismcts"} <= set(agent_names())


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("mcts", {"iterations": None, "seconds": None, "c": 0.5, "rollout_depth": 3}),
        ("mcts:iterations=2000", {"iterations": 2000, "seconds": None}),
        ("mcts:seconds=1.5", {"iterations": None, "seconds": 1.5}),
        (" mcts : seconds = 0.25 , c = 1.2 ", {"seconds": 0.25, "c": 1.2}),
        ("ismcts:determinizations=0,rollout_depth=0", {"determinizations": 0, "rollout_depth": 0}),
        ("greedy:exact_chance=6,chance_samples=3", {"exact_chance": 6, "chance_samples": 3}),
    ],
)
def test_spec_sets_typed_parameters(spec: str, expected: dict[str, object]) -> None:
    agent = make_agent(spec, seed=1)
    for key, value in expected.items():
        assert agent.settings[key] == value
        assert type(agent.settings[key]) is type(value)


def test_spec_round_trips_through_spec_string() -> None:
    agent = make_agent("mcts:iterations=300,c=1.1", seed=4)
    assert agent.spec() == "mcts:iterations=300,c=1.1"
    rebuilt = make_agent(agent.spec(), seed=4)
    assert rebuilt.settings == agent.settings
    assert make_agent("mcts").spec() == "mcts"


def test_default_budget_is_iterations_and_seconds_alone_is_time_only() -> None:
    default = make_agent("mcts")
    assert default.budget.iterations == agent_class("mcts").default_iterations
    assert default.budget.seconds is None
    timed = make_agent("mcts:seconds=0.5")
    assert timed.budget.iterations is None and timed.budget.seconds == 0.5
    both = make_agent("ismcts:seconds=0.5,iterations=10")
    assert both.budget.iterations == 10 and both.budget.seconds == 0.5


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("montecarlo", ["unknown agent 'montecarlo'", "mcts", "random"]),
        ("noraml", ["unknown agent 'noraml' (did you mean normal?)", "levels: beginner, easy, normal, hard, expert"]),
        ("mcts:depth=3", ["unknown parameter 'depth'", "rollout_depth"]),
        ("mcts:iterations=many", ["iterations='many' is not a whole number"]),
        ("mcts:transpositions=maybe", ["transpositions='maybe' is not true or false"]),
        ("mcts:iterations=0", ["iterations=0", "> 0"]),
        ("mcts:seconds=-1", ["seconds=-1.0", "> 0"]),
        ("mcts:c=-0.5", ["c=-0.5", ">= 0"]),
        ("ismcts:determinizations=-2", ["determinizations=-2", ">= 0"]),
        ("greedy:chance_samples=0", ["chance_samples=0", "> 0"]),
        ("mcts:iterations", ["expected key=value"]),
        ("", ["empty agent spec"]),
        ("random:seed=3", ["unknown parameter 'seed'", "(none)"]),
    ],
)
def test_bad_specs_raise_option_error_naming_the_problem(spec: str, words: list[str]) -> None:
    with pytest.raises(OptionError) as caught:
        make_agent(spec)
    assert isinstance(caught.value, BoardlabError)
    for word in words:
        assert word in str(caught.value)


@pytest.mark.parametrize("name", ["random", "greedy", "mcts", "ismcts"])
def test_agents_refuse_chance_and_finished_states(name: str) -> None:
    agent = make_agent(name, seed=0)
    after_take = dicenim_at(5)
    after_take.play("take1")  # the die is rolled next: a chance node
    with pytest.raises(IllegalMoveError, match="chance node"):
        agent.choose(after_take)
    finished = dicenim_at(2)
    finished.play("take2")
    assert finished.is_over()
    with pytest.raises(GameOverError, match="finished game"):
        agent.choose(finished)


@pytest.mark.parametrize("name", ["random", "greedy", "mcts:iterations=50", "ismcts:iterations=50"])
def test_every_choice_is_legal(name: str) -> None:
    agent = make_agent(name, seed=3)
    for pile in (1, 2, 3, 7):
        state = dicenim_at(pile, to_move=pile % 2)
        assert agent.choose(state) in state.legal_moves()
