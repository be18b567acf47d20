"""MCTS: budgets, reproducibility, tactics, chance, n players and truncated rollouts."""

from __future__ import annotations

import math
import random

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.agents.mcts import MctsAgent
from boardlab.agents.search import SearchBudget, rollout
from boardlab.core import OptionError
from tests.agents.toy_games import Chance, Decide, End, dicenim_at, tree_game
from tests.support.dicenim import DiceNim
from tests.support.play import played_record

SEEDS = range(5)


def mcts(spec: str = "mcts:iterations=600", seed: int = 0) -> MctsAgent:
    agent = make_agent(spec, seed=seed)
    assert isinstance(agent, MctsAgent)
    return agent


def never_settle(patch: pytest.MonkeyPatch) -> None:
    """Searches run their whole budget: the budget always reports room enough to overtake the most
    visited move, so no decision is ever settled early (patched on the budget, which stays plain
    Python, since the compiled search loop does not look ``settled`` up in a module)."""
    patch.setattr(SearchBudget, "remaining", lambda self, done: math.inf)


@pytest.fixture
def never_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches run their whole budget (no early stop once the decision is settled)."""
    never_settle(monkeypatch)


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_iteration_budget_is_honoured_exactly(name: str, never_settled: None) -> None:
    for iterations in (1, 37, 400):
        agent = make_agent(f"{name}:iterations={iterations}", seed=1)
        agent.choose(dicenim_at(9))
        assert agent.last_iterations == iterations


# a wall-clock bound: one rerun on a stalled machine (docs/server.md, Tests)
@pytest.mark.flaky(reruns=1, reruns_delay=2)
@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_time_budget_stops_the_search(name: str, never_settled: None) -> None:
    agent = make_agent(f"{name}:seconds=0.05", seed=1)
    agent.choose(dicenim_at(40))
    assert agent.last_iterations > 0
    assert 0.05 <= agent.last_seconds < 1.0


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_a_settled_decision_stops_early_and_is_the_same_decision(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # an obvious decision does not take the whole budget, and stopping early
    # never changes it (the most visited move could no longer be overtaken)
    stopped = []
    for seed in range(4):
        agent = make_agent(f"{name}:iterations=3000", seed=seed)
        early = str(agent.choose(dicenim_at(9)))
        stopped.append(agent.last_iterations < 3000)
        with monkeypatch.context() as patch:
            never_settle(patch)
            full = make_agent(f"{name}:iterations=3000", seed=seed)
            assert str(full.choose(dicenim_at(9))) == early
            assert full.last_iterations == 3000
    assert any(stopped)


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_nan_and_infinite_parameters_are_refused(name: str) -> None:
    # mcts:seconds=nan or inf (and c=nan/inf) made the computer think forever
    for spec in ("seconds=nan", "seconds=inf", "c=nan", "c=inf", "seconds=-1"):
        with pytest.raises(OptionError, match=r"finite number|must be"):
            make_agent(f"{name}:{spec}")


@pytest.mark.parametrize("name", ["mcts:iterations=200", "ismcts:iterations=200", "greedy", "random"])
def test_same_seed_same_game_and_other_seed_other_game(name: str) -> None:
    """In a match the match's seed decides everything, so agents built with other seeds play the same
    game, and another match seed plays another one."""
    game = DiceNim(pile=15)

    def moves(match_seed: int, agent_seed: int = 5) -> list[str]:
        agents = [make_agent(name, seed=agent_seed), make_agent(name, seed=agent_seed + 1)]
        return played_record(game, agents, seed=match_seed).moves

    assert moves(11) == moves(11) == moves(11, agent_seed=99)
    assert any(moves(11) != moves(other) for other in range(12, 18))


@pytest.mark.parametrize("name", ["mcts:iterations=50", "ismcts:iterations=50", "random"])
def test_an_agent_on_its_own_follows_its_own_seed(name: str) -> None:
    """Outside a match (an agent asked directly), the agent's seed is what makes it repeatable."""
    state = dicenim_at(11)

    def choices(seed: int) -> list[str]:
        agent = make_agent(name, seed=seed)
        return [str(agent.choose(state.copy())) for _ in range(6)]

    assert choices(3) == choices(3)
    assert any(choices(3) != choices(other) for other in range(4, 12))


def test_search_tree_statistics_are_reproducible() -> None:
    def root_visits(seed: int) -> list[tuple[str, int]]:
        root = mcts(seed=seed).search(dicenim_at(11))
        return [(str(child.move), child.visits) for child in root.children]

    assert root_visits(3) == root_visits(3)
    assert sum(visits for _, visits in root_visits(3)) == 600


@pytest.mark.parametrize("pile", [1, 2, 3])
def test_takes_an_immediate_win(pile: int) -> None:
    for seed in SEEDS:
        assert str(mcts(seed=seed).choose(dicenim_at(pile))) == f"take{pile}"


def test_avoids_leaving_an_immediate_win() -> None:
    # From 5 counters, taking 2 or 3 leaves 2-3 (the opponent takes them unless a 6 adds one);
    # taking 1 leaves 4 or 5, out of the opponent's reach.
    for seed in SEEDS:
        assert str(mcts(seed=seed).choose(dicenim_at(5, to_move=1))) == "take1"


def _gamble(win_chance: float) -> Decide:
    """Player 0: ``safe`` draws (0.5 each) or ``gamble`` wins with ``win_chance``."""
    return Decide(
        0,
        {
            "safe": End((0.5, 0.5)),
            "gamble": Chance((("won", win_chance, End((1.0, 0.0))), ("lost", 1 - win_chance, End((0.0, 1.0))))),
        },
    )


@pytest.mark.parametrize(("win_chance", "best"), [(0.8, "gamble"), (0.2, "safe"), (0.65, "gamble"), (0.35, "safe")])
def test_chance_nodes_are_weighted_by_probability(win_chance: float, best: str) -> None:
    state = tree_game(_gamble(win_chance)).new_state(seed=0)
    for seed in SEEDS:
        assert str(mcts("mcts:iterations=1500", seed=seed).choose(state)) == best


def test_outcomes_are_sampled_with_the_agents_generator_not_the_state_seed() -> None:
    # The state's seed would always pick the same outcome; the agent must see both.
    state = tree_game(_gamble(0.5)).new_state(seed=0)
    state.play("gamble")
    root = mcts("mcts:iterations=200").search(state)
    assert root.outcome_children is not None
    assert set(map(str, root.outcome_children)) == {"won", "lost"}


# Three players. Player 0 moves, then player 2 or player 1 answers; each answers for itself.
# "trust" lets player 1 choose between its own win and player 0's: player 1 takes its win (0 for player 0).
# "share" lets player 2 choose between a draw with player 0 and a draw with player 1: it gets 1/2 either
# way, so player 0 expects 1/4. A search that let every player maximise player 0's return would "trust".
THREE_PLAYERS = Decide(
    0,
    {
        "trust": Decide(1, {"mine": End((0.0, 1.0, 0.0)), "gift": End((1.0, 0.0, 0.0))}),
        "share": Decide(2, {"with0": End((0.5, 0.0, 0.5)), "with1": End((0.0, 0.5, 0.5))}),
    },
)


def test_three_players_each_maximise_their_own_return() -> None:
    game = tree_game(THREE_PLAYERS, players=3)
    for seed in SEEDS:
        assert str(mcts("mcts:iterations=800", seed=seed).choose(game.new_state(seed=0))) == "share"
    after_trust = game.new_state(seed=0)
    after_trust.play("trust")
    assert after_trust.current_player() == 1
    assert str(mcts(seed=1).choose(after_trust)) == "mine"


def test_three_player_returns_are_backed_up_to_the_right_player() -> None:
    game = tree_game(THREE_PLAYERS, players=3)
    root = mcts("mcts:iterations=2000", seed=2).search(game.new_state(seed=0))
    values = {str(child.move): child.value / child.visits for child in root.children}
    assert values["trust"] < 0.15  # player 1 nearly always takes its own win
    assert values["share"] == pytest.approx(0.25, abs=0.1)


def test_plays_a_full_three_player_game_against_random() -> None:
    # A chain of chance and decisions by players out of turn order: 2 decides, then chance, then 0.
    game = tree_game(
        Decide(2, {"a": Chance((("x", 0.5, Decide(0, {"p": End((1.0, 0.0, 0.0)), "q": End((0.0, 0.0, 1.0))})),
                                ("y", 0.5, End((0.0, 0.0, 1.0))))),
                   "b": End((0.0, 0.0, 1.0))}),
        players=3,
    )
    start = game.new_state(seed=0)
    assert str(mcts(seed=0).choose(start)) == "b"  # a sure win beats a coin flip


def test_truncated_rollout_is_scored_by_evaluate() -> None:
    chain = Decide(0, {"go": Decide(1, {"on": End((0.0, 1.0))}, estimate=(0.9, 0.1))}, estimate=(0.3, 0.7))
    game = tree_game(chain)
    assert tuple(rollout(game.new_state(seed=0), random.Random(0), 1)) == (0.9, 0.1)
    assert tuple(rollout(game.new_state(seed=0), random.Random(0), 0)) == (0.0, 1.0)  # 0: play it out


def test_rollout_without_evaluation_plays_to_the_end() -> None:
    state = dicenim_at(30)
    returns = rollout(state, random.Random(4), 2)
    assert state.is_over()
    assert sorted(returns) == [0.0, 1.0]


def test_evaluation_steers_the_search_when_rollouts_are_truncated() -> None:
    # Both moves lead to long unresolved play; only evaluate() tells them apart.
    # One rollout move ("on") is played after the new node, then evaluate() scores the position.
    deep = End((0.5, 0.5))
    for _ in range(6):
        deep = Decide(0, {"wait": deep})
    game = tree_game(
        Decide(0, {"good": Decide(1, {"on": Decide(0, {"wait": deep}, estimate=(0.8, 0.2))}),
                   "bad": Decide(1, {"on": Decide(0, {"wait": deep}, estimate=(0.2, 0.8))})})
    )
    for seed in SEEDS:
        assert str(mcts("mcts:iterations=100,rollout_depth=1", seed=seed).choose(game.new_state(seed=0))) == "good"


def test_root_state_is_left_unchanged() -> None:
    state = dicenim_at(12)
    before = (state.position(), state.history)
    mcts().choose(state)
    assert (state.position(), state.history) == before


def test_single_legal_move_needs_no_search() -> None:
    agent = mcts()
    assert str(agent.choose(dicenim_at(1))) == "take1"
    assert agent.last_iterations == 0


def test_an_immediate_win_ends_the_search() -> None:
    # From 2 counters take2 wins; the search stops as soon as it is expanded.
    agent = mcts("mcts:iterations=300", seed=4)
    root = agent.search(dicenim_at(2))
    assert root.winning is not None and str(root.winning.move) == "take2"
    assert agent.last_iterations == len(root.children) <= 2


def test_once_found_a_win_below_the_root_takes_every_later_visit() -> None:
    # Player 0 can play "open" (player 1 then wins at once with "win") or "shut" (a draw).
    tree = Decide(0, {
        "open": Decide(1, {f"pass{k}": End((0.5, 0.5)) for k in range(5)} | {"win": End((0.0, 1.0))}),
        "shut": End((0.5, 0.5)),
    })
    root = mcts("mcts:iterations=400", seed=2).search(tree_game(tree).new_state(seed=0))
    opened = next(child for child in root.children if str(child.move) == "open")
    assert opened.winning is not None and str(opened.winning.move) == "win"
    assert all(child.visits == 1 for child in opened.children if child is not opened.winning)
    assert str(mcts("mcts:iterations=400", seed=2).choose(tree_game(tree).new_state(seed=0))) == "shut"


def test_a_move_that_allows_an_immediate_win_is_valued_as_lost() -> None:
    # From 4 counters, taking 1 leaves 3 (4 after a 6): the opponent then takes them all.
    root = mcts("mcts:iterations=2000", seed=1).search(dicenim_at(4))
    values = {str(child.move): child.value / child.visits for child in root.children}
    assert values["take1"] < 0.3


def test_jitter_makes_a_widened_evaluation_search_differ_between_seeds() -> None:
    # leaf_eval with widen uses no random numbers, so every seed picks the same move and a study
    # of it against itself would replay one game; jitter breaks that (the lab's strong preset).
    state = boardlab.load("towers").new_state(seed=0)
    plain = "mcts:iterations=60,leaf_eval=true,widen=1"
    assert len({str(make_agent(plain, seed=seed).choose(state)) for seed in range(8)}) == 1
    jittered = {str(make_agent(plain + ",jitter=0.03", seed=seed).choose(state)) for seed in range(8)}
    assert len(jittered) > 1
    with pytest.raises(OptionError, match="jitter"):
        make_agent(plain + ",jitter=-0.1")
