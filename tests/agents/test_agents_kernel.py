"""The search kernel (boardlab/agents/kernel.py): the details a port to compiled code could get
wrong, and the same searches compiled and in pure Python.

A seeded search is reproducible only if every random number is drawn in the same order, every
float is summed in the same order and every tie goes the same way; these tests pin those
details on small trees whose right answer is known.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.agents import kernel, make_agent
from boardlab.agents.kernel import Node, Tree, Vertex, backpropagate, uct_index
from boardlab.core import CHANCE, State
from tests.agents.toy_games import Decide, End, Pick, dicenim_at, secret_guess_at, tree_game
from tests.support.kernels import skip_unless_compiled

ROOT = Path(__file__).resolve().parents[2]

#: a root with a one-move decision to each of twelve drawn leaves (no win, so nothing ends the search);
#: the first player's share at leaf ``m<i>`` is its one-ply score there
LEAF_SHARES = (0.30, 0.55, 0.40, 0.55, 0.20, 0.45, 0.60, 0.35, 0.50, 0.25, 0.45, 0.52)
WIDE_ROOT = Decide(0, {f"m{i}": End((share, 1.0 - share)) for i, share in enumerate(LEAF_SHARES)})


def _parent_of(children: list[tuple[int, float]], visits: int) -> tuple[Tree, Vertex]:
    """A root visited ``visits`` times whose children (the first player's moves) were each backed
    up ``visits`` times with equal shares of ``value``, made in the order given."""
    tree = Tree(CHANCE)
    root = tree.vertices[0]
    tree.open(root, [Pick(f"c{index}") for index in range(len(children))])
    for child_visits, value in children:
        slot = root.edge_start + root.untried() - 1
        move = tree.edge_moves[slot]
        child = tree.add(root, move, 0, 1)
        for _ in range(child_visits):
            backpropagate([child], (value / child_visits, 1.0 - value / child_visits))
        tree.link(root, slot, move, child)
    root.visits = visits
    return tree, root


def test_uct_prefers_the_first_child_on_a_tie_and_the_higher_score_otherwise() -> None:
    twins = [(4, 2.0), (4, 2.0), (4, 2.0)]
    assert uct_index(*_parent_of(twins, 12), 0.5) == 0
    # a better mean later in the list wins; so does a less visited child with the same mean
    better = [(4, 2.0), (4, 2.0), (4, 2.5)]
    assert uct_index(*_parent_of(better, 12), 0.5) == 2
    rarer = [(8, 4.0), (2, 1.0)]
    assert uct_index(*_parent_of(rarer, 10), 0.5) == 1
    # without exploration only the mean counts (and a child's score -1 never wins over the first)
    assert uct_index(*_parent_of(rarer, 10), 0.0) == 0


def test_uct_scores_are_ucb1_to_the_last_bit() -> None:
    children = [(3, 1.7), (5, 2.9), (2, 1.1)]
    scale = 0.7 * math.sqrt(math.log(10))
    scores = [value / visits + scale / math.sqrt(visits) for visits, value in children]
    assert uct_index(*_parent_of(children, 10), 0.7) == scores.index(max(scores))


def test_a_parent_lists_its_children_in_the_order_it_made_them() -> None:
    tree, _root = _parent_of([(1, 0.5), (2, 1.0), (3, 1.5)], 6)
    node = tree.root()
    assert [str(move) for move in node.child_moves] == ["c2", "c1", "c0"]  # each took the last untried slot
    assert [child.visits for child in node.children] == [1, 2, 3] and node.untried == []
    assert node.children[1] is tree.view(node.children[1].index)  # one view per vertex


def _walk(node: Node) -> list[Node]:
    return [node] + [descendant for child in node.children for descendant in _walk(child)]


@pytest.mark.parametrize("spec", ["mcts:iterations=400", "mcts:iterations=300,leaf_eval=true,widen=1,jitter=0.03"])
def test_every_node_keeps_its_mean_and_root_of_visits_as_ucb1_would_compute_them(spec: str) -> None:
    state = boardlab.load("towers").new_state(seed=2)
    root = make_agent(spec, seed=1).search(state)  # type: ignore[attr-defined]
    nodes = _walk(root)
    assert len(nodes) > 50
    for node in nodes:
        assert node.visits_root == math.sqrt(node.visits)
        if node.mover >= 0:
            assert node.mean == node.value / node.visits


@pytest.mark.parametrize(
    "spec", ["mcts:iterations=500", "mcts:iterations=300,widen=1", "mcts:iterations=400,transpositions=true"]
)
def test_a_vertex_holds_each_legal_move_once_as_a_child_or_untried(spec: str) -> None:
    """A vertex's slots hold its untried moves, then its children from the last slot backwards:
    together they are its position's legal moves, each once, whatever was tried in what order."""
    state = boardlab.load("towers").new_state(seed=3)
    root = make_agent(spec, seed=4).search(state)  # type: ignore[attr-defined]
    checked = 0
    pending: list[tuple[Node, State]] = [(root, state)]
    while pending:
        node, position = pending.pop()
        if node.untried is None:
            continue  # never expanded: its moves were not generated
        held = [str(move) for move in [*node.untried, *node.child_moves]]
        assert sorted(held) == sorted(str(move) for move in position.legal_moves()), position.position()
        assert len(node.children) == len(node.child_moves) == root.tree.vertices[node.index].expanded
        checked += 1
        for move, child in zip(node.child_moves, node.children):
            after = position.copy()
            after.apply(move)
            pending.append((child, after))
    assert checked > 20


def _children_after(iterations: int, spec: str) -> list[str]:
    agent = make_agent(f"mcts:iterations={iterations},{spec}", seed=3)
    root = agent.search(tree_game(WIDE_ROOT).new_state(seed=0))  # type: ignore[attr-defined]
    assert root.visits == iterations
    return [str(child.move) for child in root.children]


@pytest.mark.parametrize(
    "iterations, children",
    # widen=1: a new child while children < 1 + sqrt(visits), so the k-th (k >= 2) comes at visit (k-2)^2 + 1
    [(1, 1), (2, 2), (3, 3), (5, 3), (6, 4), (10, 4), (11, 5), (17, 5), (18, 6), (27, 7)],
)
def test_widening_opens_a_child_only_below_one_plus_widen_times_root_visits(iterations: int, children: int) -> None:
    assert len(_children_after(iterations, "widen=1")) == children


def test_widening_tries_the_best_by_one_ply_first_and_the_later_of_equals_first() -> None:
    # stable sort, best last, popped from the end: of equal scores the later move in legal order comes first
    by_score = sorted(range(len(LEAF_SHARES)), key=lambda i: LEAF_SHARES[i])[::-1]
    assert _children_after(60, "widen=2") == [f"m{i}" for i in by_score]
    assert _children_after(60, "widen=2")[:3] == ["m6", "m3", "m1"]


def test_jitter_draws_one_number_per_move_in_legal_order() -> None:
    jitter = 0.1
    draws = random.Random(3)
    scores = [share + jitter * draws.random() for share in LEAF_SHARES]
    by_score = sorted(range(len(scores)), key=lambda i: scores[i])[::-1]
    assert _children_after(60, f"widen=2,jitter={jitter}") == [f"m{i}" for i in by_score]


# --- compiled against pure Python -------------------------------------------------------------------------------
#: searches whose trees are compared: chance nodes, hidden information, the solver, widening with jitter
DIFFERENTIAL_SPECS = (
    "mcts:iterations=300",
    "mcts:iterations=300,rollout_depth=0",
    "mcts:iterations=200,leaf_eval=true,widen=1,c=0.2,jitter=0.03",
    "ismcts:iterations=300,rollout_depth=1",
    "ismcts:iterations=200,determinizations=0",
)


def _tree(root: Any) -> list[Any]:
    children = root.children.values() if isinstance(root.children, dict) else root.children
    return [[str(child.move), child.visits, child.value.hex(), _tree(child)] for child in children]


def search_transcript() -> dict[str, Any]:
    """Every differential search's whole tree (values as exact hex floats) and iteration count."""
    states = {"dicenim": dicenim_at(11), "dicenim-short": dicenim_at(4)}
    states["secret"] = secret_guess_at(1, "bet").resample(0, random.Random(1))
    for game_id in ("towers", "sovereign"):
        state = boardlab.load(game_id).new_state(seed=5)
        moves = random.Random(5)
        for _ in range(12):
            legal = state.legal_moves()
            state.apply(legal[int(moves.random() * len(legal))])
        states[game_id] = state
    transcript: dict[str, Any] = {}
    for spec in DIFFERENTIAL_SPECS:
        for name, state in states.items():
            agent = make_agent(spec, seed=7)
            root = agent.search(state)  # type: ignore[attr-defined]
            transcript[f"{spec} {name}"] = [agent.last_iterations, _tree(root)]  # type: ignore[attr-defined]
    return transcript


@skip_unless_compiled(kernel)
def test_compiled_and_pure_searches_grow_the_same_trees() -> None:
    def transcript(pure: bool) -> dict[str, Any]:
        environment = {key: value for key, value in os.environ.items() if key != "BOARDLAB_PURE"}
        if pure:
            environment["BOARDLAB_PURE"] = "1"
        ran = subprocess.run(
            [sys.executable, "-m", "tests.agents.test_agents_kernel"],
            cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600,
        )
        assert ran.returncode == 0, ran.stderr[-4000:]
        return json.loads(ran.stdout)

    compiled, pure = transcript(pure=False), transcript(pure=True)
    assert compiled.keys() == pure.keys()
    for key in compiled:
        assert compiled[key] == pure[key], f"compiled and pure searches differ: {key}"


if __name__ == "__main__":
    print(json.dumps(search_transcript()))
