"""Search budgets and proofs: iterative deepening with a node budget, the MCTS solver, and
searches cut short by a deadline, which play the search's own best move."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.agents import search as search_module
from boardlab.core.values import CHANCE
from tests.agents.toy_games import Decide, End, tree_game


def _forced_win_in_two() -> Decide:
    """Player 0 to move. "trap" leaves player 1 only replies after which player 0 wins at once;
    "safe" keeps a better estimate (0.7) but no win. One ply ahead "safe" looks best."""
    trap = Decide(
        1,
        {f"r{k}": Decide(0, {"win": End((1.0, 0.0)), "meh": End((0.5, 0.5))}, estimate=(0.2, 0.8)) for k in range(3)},
        estimate=(0.2, 0.8),
    )
    safe = Decide(
        1,
        {f"s{k}": Decide(0, {"end": End((0.5, 0.5))}, estimate=(0.7, 0.3)) for k in range(3)},
        estimate=(0.7, 0.3),
    )
    return Decide(0, {"safe": safe, "trap": trap})


def _choose(spec: str, tree: Decide, seed: int = 0) -> tuple[str, object]:
    agent = make_agent(spec, seed=seed)
    return str(agent.choose(tree_game(tree).new_state(seed=0))), agent


def test_iterative_deepening_finds_the_forced_win_and_stops_deepening() -> None:
    move, agent = _choose("alphabeta:depth=8", _forced_win_in_two())
    assert move == "trap"
    assert agent.last_depth == 3  # the win is proven at depth 3: deeper passes cannot change it


def test_a_node_budget_keeps_the_last_complete_pass() -> None:
    # with room for the first pass only, the agent plays depth 1's (greedy's) choice
    move, agent = _choose("alphabeta:depth=8,nodes=3", _forced_win_in_two())
    assert move == "safe" and agent.last_depth == 1
    move, agent = _choose("alphabeta:depth=8,nodes=1000", _forced_win_in_two())
    assert move == "trap"


def test_a_sooner_win_is_preferred_to_a_later_one() -> None:
    # "now" wins at once; "later" wins two plies on: both are proven, the sooner ranks first
    later = Decide(1, {"r": Decide(0, {"win": End((1.0, 0.0))}, estimate=(0.9, 0.1))}, estimate=(0.9, 0.1))
    tree = Decide(0, {"later": later, "now": End((1.0, 0.0))})
    assert all(_choose("alphabeta:depth=4", tree, seed)[0] == "now" for seed in range(6))


def test_the_same_seed_gives_the_same_alphabeta_moves_through_a_towers_game() -> None:
    game = boardlab.load("towers")

    def moves(seed: int) -> list[str]:
        state = game.new_state(seed)
        agents = [make_agent("alphabeta:depth=3,nodes=4000", seed=seed + seat, game=game) for seat in range(2)]
        played = []
        for _ in range(12):
            move = agents[state.current_player()].choose(state.copy())
            played.append(str(move))
            state.apply(move)
        return played

    assert moves(3) == moves(3)


def test_the_mcts_solver_proves_a_win_two_plies_deep_and_stops_searching() -> None:
    move, agent = _choose("mcts:iterations=5000", _forced_win_in_two(), seed=1)
    assert move == "trap"
    # every reply to "trap" loses: once all three are proven the root's win is proven, and the
    # search ends far inside its budget
    assert agent.last_iterations < 200


def test_without_two_alternating_players_nothing_is_proven_beyond_a_win_on_the_spot() -> None:
    # three players: a reply that lets player 0 win is not proof that player 1 loses the game
    tree = _forced_win_in_two()
    agent = make_agent("mcts:iterations=300", seed=1)
    root = agent.search(tree_game(tree, players=3).new_state(seed=0))
    assert root.winning is None
    two = make_agent("mcts:iterations=300", seed=1).search(tree_game(tree).new_state(seed=0))
    assert two.winning is not None and str(two.winning.move) == "trap"


class _FakeClock:
    """A clock that moves 1 ms each time it is read: a deadline in a test, without real time."""

    def __init__(self) -> None:
        self.ticks = itertools.count()

    def __call__(self) -> float:
        return next(self.ticks) / 1000.0


@pytest.mark.parametrize("spec", ["mcts:iterations=20000", "mcts:iterations=20000,leaf_eval=true,widen=1,c=0.2"])
def test_a_search_cut_at_one_percent_plays_its_own_best_move(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = boardlab.load("towers")
    state = game.new_state(4)
    for pick in (0, 5, 2, 7):  # a few plies into the game, the same every run
        state.apply(state.legal_moves()[pick])
    monkeypatch.setattr(search_module.time, "perf_counter", _FakeClock())
    cut = make_agent(spec, seed=9, game=game)
    cut.limit_time(0.2)  # the fake clock passes 0.2 s after about 200 reads: 1% of the budget
    chosen = cut.choose(state.copy())
    done = cut.last_iterations
    assert 0 < done <= 200
    # the same search given exactly that many iterations, uncut, makes the same choice: the cut
    # search played its own best move, not a random or fallback one
    monkeypatch.undo()
    whole = make_agent(spec.replace("iterations=20000", f"iterations={done}"), seed=9, game=game)
    assert whole.choose(state.copy()) == chosen
    assert whole.last_iterations == done


def test_a_time_cap_never_lengthens_the_own_cap_and_none_lifts_only_the_deadline() -> None:
    agent = make_agent("mcts:iterations=50,seconds=2", seed=1)
    agent.limit_time(5.0)
    assert agent.budget.seconds == 2.0
    agent.limit_time(0.5)
    assert agent.budget.seconds == 0.5
    agent.limit_time(None)
    assert agent.budget.seconds == 2.0
    searcher = make_agent("alphabeta:depth=4", seed=1)
    searcher.limit_time(0.25)
    assert searcher.time_cap == 0.25


@pytest.mark.parametrize(
    ("spec", "game_id", "cap"),
    [
        ("mcts:iterations=50,seconds=2", None, 2.0),
        ("alphabeta:depth=4,seconds=0.5", None, 0.5),
        ("mcts:iterations=50", None, None),
        ("greedy", None, None),
        # Honor's own player caps each decision at its level's ruled time unless the spec says
        ("honor:level=easy", "honor", 4.0),
        ("honor:level=hard", "honor", 30.0),
        ("honor:level=hard,seconds=5", "honor", 5.0),
        ("honor:level=hard,seconds=0", "honor", None),
    ],
)
def test_an_agents_own_time_cap_counts_a_levels_cap_that_its_spec_leaves_unsaid(
    spec: str, game_id: str | None, cap: float | None
) -> None:
    game = None if game_id is None else boardlab.load(game_id)
    agent = make_agent(spec, seed=1, game=game)
    assert agent.own_time_cap() == cap
    agent.limit_time(1.0)  # a deadline changes what the next decision may take, not the agent's own cap
    assert agent.own_time_cap() == cap


@pytest.mark.parametrize(
    ("game_id", "spec"),
    [
        ("towers", "mcts:iterations=10000000"),
        ("territories", "mcts:iterations=10000000,worlds=3"),  # each world's share is stopped too
        ("territories", "ismcts:iterations=10000000"),
        ("towers", "alphabeta:depth=30,nodes=100000000"),
    ],
)
def test_an_interrupt_from_another_thread_ends_the_search_with_its_own_move(game_id: str, spec: str) -> None:
    # the terminal's "move now" and Ctrl-C: a search with no time cap ends at once and plays a
    # legal move; the next decision searches its whole budget again
    game = boardlab.load(game_id)
    state = game.new_state(3)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(random.Random(0)))
    agent = make_agent(spec, seed=2, game=game)
    chosen: list[object] = []
    thread = threading.Thread(target=lambda: chosen.append(agent.choose(state.copy())), daemon=True)
    thread.start()
    time.sleep(0.3)
    agent.interrupt()
    thread.join(timeout=30)
    assert not thread.is_alive(), f"{spec} went on searching after interrupt()"
    assert chosen[0] in state.legal_moves()
    small = spec.replace("iterations=10000000", "iterations=40").replace("depth=30", "depth=1")
    again = make_agent(small, seed=2, game=game)
    again.interrupt()  # before a search starts: forgotten when the next one starts
    again.choose(state.copy())
    if spec.startswith("alphabeta"):
        assert again.last_depth == 1
    else:
        assert again.last_iterations == 40
