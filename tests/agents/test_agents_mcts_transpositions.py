"""MCTS with transpositions shared (``mcts:transpositions=true``): one node per position
(``position_key()`` and the player who moved into it), linked from every path that reaches it.

The graph games of toy_games make a position an object: a node listed under two parents is
one position reached two ways, and an option that leads back to an earlier node is a cycle.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.agents.kernel import Node
from boardlab.core import Move, State
from tests.agents.toy_games import Decide, End, Pick, graph_game

SEARCH = "mcts:iterations=600,leaf_eval=true,c=0.3"


def _child(node: Node, label: str) -> Node:
    return node.children[node.child_moves.index(Pick(label))]


def _diamond() -> tuple[Decide, Decide]:
    """Player 0 plays a or b, player 1 answers x in both cases and reaches the same position
    (``middle``); y and z are each line's own way out."""
    middle = Decide(0, {f"m{i}": End((share, 1.0 - share)) for i, share in enumerate((0.3, 0.6, 0.45))},
                    estimate=(0.5, 0.5))
    root = Decide(0, {
        "a": Decide(1, {"x": middle, "y": End((0.2, 0.8))}, estimate=(0.5, 0.5)),
        "b": Decide(1, {"x": middle, "z": End((0.25, 0.75))}, estimate=(0.5, 0.5)),
    })
    return root, middle


def test_two_paths_to_one_position_share_one_node_and_its_visits() -> None:
    root_position, _ = _diamond()
    state = graph_game(root_position, max_moves=3).new_state(seed=0)
    agent = make_agent(SEARCH + ",transpositions=true", seed=1)
    root = agent.search(state)  # type: ignore[attr-defined]
    after_a, after_b = _child(root, "a"), _child(root, "b")
    shared = _child(after_a, "x")
    assert _child(after_b, "x") is shared
    # every visit through a or b after its first goes on to one child; the shared position
    # gets them from both lines, the ends y and z from one each
    assert (after_a.visits - 1) + (after_b.visits - 1) == shared.visits + _child(after_a, "y").visits + _child(
        after_b, "z"
    ).visits
    assert root.visits == agent.last_iterations  # type: ignore[attr-defined]


def test_without_the_option_each_path_keeps_its_own_node() -> None:
    root_position, _ = _diamond()
    state = graph_game(root_position, max_moves=3).new_state(seed=0)
    root = make_agent(SEARCH, seed=1).search(state)  # type: ignore[attr-defined]
    assert _child(_child(root, "a"), "x") is not _child(_child(root, "b"), "x")


@pytest.mark.timeout(60)  # without the stop, the descent goes round for ever
def test_a_path_that_comes_back_to_a_node_on_it_stops_there() -> None:
    # go and back lead round forever; only "stop" ends the game
    here = Decide(0, {}, estimate=(0.5, 0.5))
    there = Decide(1, {}, estimate=(0.5, 0.5))
    here.options.update({"go": there, "stop": End((0.4, 0.6))})
    there.options.update({"back": here, "stop": End((0.7, 0.3))})
    state = graph_game(here, max_moves=40).new_state(seed=0)
    agent = make_agent("mcts:iterations=300,leaf_eval=true,c=0.3,transpositions=true", seed=2)
    root = agent.search(state)  # type: ignore[attr-defined]
    # (it may stop early once the decision is settled, but not before going round)
    assert root.visits == agent.last_iterations > 100  # type: ignore[attr-defined]
    # go, back, go again: the second "go" links to the node the path started its round from
    went = _child(root, "go")
    came_back = _child(went, "back")
    assert _child(came_back, "go") is went
    # and the answer is still right: after "go", player 1's best is to stop (0.3 for them, going
    # back only comes round again), which leaves player 0 0.7 against 0.4 for stopping at once
    assert agent.choose(state) == Pick("go")


def test_the_move_played_is_the_roots_own_edge_to_a_node_another_path_made() -> None:
    # The root tries b first (best by one ply), then c; a, its worst by one ply, only after
    # about 100 visits (widen 0.1). By then b, p (which looks good for player 1), q has made
    # the node of ``target`` with the move q; a then links to that node. The right move is a:
    # player 1 answers b by o.
    target = Decide(1, {"r": End((0.9, 0.1)), "s": End((0.95, 0.05))}, estimate=(0.25, 0.75))
    root_position = Decide(0, {
        "a": target,
        "b": Decide(1, {
            "o": End((0.2, 0.8)),
            "p": Decide(0, {"q": target, "w": End((0.1, 0.9))}, estimate=(0.1, 0.9)),
        }, estimate=(0.9, 0.1)),
        "c": End((0.3, 0.7)),
    })
    state = graph_game(root_position, max_moves=4).new_state(seed=0)
    agent = make_agent("mcts:iterations=2000,leaf_eval=true,widen=0.1,c=0.2,transpositions=true", seed=3)
    root = agent.search(state)  # type: ignore[attr-defined]
    reached = _child(root, "a")
    assert reached.parent is not root and str(reached.move) == "q"  # made by the other path
    assert agent.choose(state) == Pick("a")


def _random_position(game_id: str, plies: int, seed: int) -> State:
    state = boardlab.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            state.apply(moves[int(rng.random() * len(moves))])
    return state


@pytest.mark.parametrize(("game_id", "plies"), [("towers", 20), ("overseer", 10)])
def test_every_edge_of_the_graph_leads_to_its_nodes_position(game_id: str, plies: int) -> None:
    """Walk the searched graph from the root with a state: each edge's move, applied to its
    parent's position, gives the position every other path to the node gives, and the node's
    mover is the player who made the move."""
    state = _random_position(game_id, plies, seed=4)
    root = make_agent(
        "mcts:iterations=1500,leaf_eval=true,widen=1,c=0.2,transpositions=true", seed=1, game=state.game
    ).search(state)
    key_of: dict[int, Any] = {}
    parents: dict[int, int] = {}
    pending: list[tuple[Node, State]] = [(root, state)]
    while pending:
        node, position = pending.pop()
        mover = position.current_player()
        move: Move
        for move, child in zip(node.child_moves, node.children):
            after = position.copy()
            after.apply(move)
            assert child.mover == mover
            parents[id(child)] = parents.get(id(child), 0) + 1
            if id(child) in key_of:
                assert key_of[id(child)] == after.position_key()
                continue
            key_of[id(child)] = after.position_key()
            pending.append((child, after))
    shared = sum(1 for count in parents.values() if count > 1)
    assert shared > 0, "no transposition was found: the table never linked a node"


def test_a_key_that_leaves_out_the_player_to_move_never_joins_two_turns() -> None:
    # a: player 1 answers; b: player 0 moves again. The game's key says both are "the same
    # position", but a node is one player's decision, so b must not link to a's node
    from tests.agents.toy_games import GraphState, _game_of

    class TurnBlindState(GraphState):
        def position_key(self) -> int:
            return 0

    root_position = Decide(0, {
        "a": Decide(1, {"p": End((0.0, 1.0)), "q": End((1.0, 0.0))}, estimate=(0.5, 0.5)),
        "b": Decide(0, {"r": End((1.0, 0.0)), "s": End((0.0, 1.0))}, estimate=(0.5, 0.5)),
    })
    state = _game_of(root_position, 2, TurnBlindState, 2).new_state(seed=0)
    root = make_agent(SEARCH + ",transpositions=true", seed=1).search(state)  # type: ignore[attr-defined]
    after_a, after_b = _child(root, "a"), _child(root, "b")
    assert after_a is not after_b
    assert (after_a.to_move, after_b.to_move) == (1, 0)
    # b's node searches player 0's own moves, not a's answers
    assert after_b.child_moves and {move.label for move in after_b.child_moves} <= {"r", "s"}  # type: ignore[attr-defined]
