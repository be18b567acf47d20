"""Monte Carlo tree search (UCT) for any boardlab game.

One iteration: copy the root state, descend the tree with UCB1, add one node,
play a random rollout (truncated after ``rollout_depth`` moves and scored by the
game's ``evaluate()`` when it has one), and add the per-player returns to every
node on the path.

* **n players.** A node's value is the sum of returns of the player who moved
  into it, so every player maximises their own return (max^n, not negamax).
  ``current_player()`` decides who that is at each node: nothing assumes turns
  alternate or that the decider is the "active" player.
* **Immediate wins.** A move found to win on the spot is the only one searched
  further at its node, so a blunder that allows it is valued as the loss it is.
  A game that names such moves (the optional ``State.winning_move`` hook) gets them
  searched alone from a node's second visit, and played at once in rollouts.
* **Chance.** Chance nodes live in the tree; an outcome is drawn with the agent's
  own generator from ``chance_outcomes()`` each time the node is passed, and each
  distinct outcome gets its own child, so frequent outcomes are searched most.
* **Hidden information.** The agent searches the state it is handed, which the
  driver made with ``resample()`` (one determinization). ``ismcts`` searches many.
* **Continuous moves.** ``legal_moves()`` is then a candidate set; it is the action set.

The tree is not kept between moves: the next state comes from a fresh
``resample()`` and may disagree with the old tree's hidden parts.
"""

from __future__ import annotations

import math
import time

from ..core.agent import Agent, register_agent
from ..core.state import State
from ..core.values import CHANCE, TERMINAL, Move, Player
from .search import (
    SETTLE_CHECK_EVERY, SearchBudget, backpropagate, check_positive, decision_moves, names_winning_moves, rollout,
    settled,
)


# Why these defaults. Tuned by self-play on Towers (2 players, seats alternating, one core;
# figures are the first agent's score):
# * c: 0.7 beat 1.4 13/20; 0.4 against 0.7 scored 24/40; 0.3 against 0.5 scored 9/24. Evaluated,
#   truncated rollouts are far less noisy than random play-outs, so less exploration pays.
# * rollout_depth: at equal iterations 3 lost to 8 (9/24) and 16 tied 8 (11/24), but 3 runs
#   1.7x as many iterations per second, and at equal time 3 beat 8 16.5/24 (1 tied 3, 11.5/24).
# * iterations: Towers runs about 25,000 iterations/s at depth 3 on an unloaded core, so 20,000
#   is about 1 s per move (2 s on a busy machine), while staying reproducible (a time budget is not).
DEFAULT_ITERATIONS = 20_000
DEFAULT_C = 0.5
DEFAULT_ROLLOUT_DEPTH = 3

#: the parameters every UCT-style search here takes (ismcts adds its own to these)
SEARCH_PARAMS: dict[str, tuple[type, object, str]] = {
    "iterations": (
        int,
        None,
        f"iterations per move (default {DEFAULT_ITERATIONS} when seconds is not given; "
        "with both, the first limit reached)",
    ),
    "seconds": (float, None, "thinking time per move in seconds (not reproducible: depends on machine speed)"),
    "c": (float, DEFAULT_C, "UCB1 exploration constant for returns in [0, 1] (tuned by self-play on Towers)"),
    "rollout_depth": (
        int,
        DEFAULT_ROLLOUT_DEPTH,
        "random moves per rollout before evaluate() scores it (0 = play to the end; games without evaluate do)",
    ),
}


class _Node:
    """A position reached by a sequence of moves from the root.

    ``mover`` is the player whose move (or CHANCE, whose outcome) led here, and
    ``value`` sums that player's returns over the ``visits`` through this node.
    Decision nodes keep ``children`` and the ``untried`` moves (generated on the
    first visit, once); chance nodes keep ``outcome_children`` by outcome.
    ``winning`` is a child whose move ends the game with a win for the player to
    move here: once one is found, that player is assumed to play it.
    """

    __slots__ = (
        "parent", "move", "mover", "to_move", "children", "untried", "outcome_children", "winning", "lost", "visits",
        "value",
    )

    def __init__(self, parent: "_Node | None", move: Move | None, mover: Player, to_move: Player) -> None:
        self.parent = parent
        self.move = move
        self.mover = mover
        self.to_move = to_move
        self.children: list[_Node] = []
        self.untried: list[Move] | None = None
        self.outcome_children: dict[Move, _Node] | None = {} if to_move == CHANCE else None
        self.winning: _Node | None = None
        #: proven: the move into this node loses for its mover (two-player games, see _prove_loss)
        self.lost = False
        self.visits = 0
        self.value = 0.0


def _prove_loss(node: _Node) -> None:
    """The solver step, for two players taking turns: ``node`` was just proven lost for its
    mover. When every move at its parent is proven lost, the parent is won for whoever moved
    into it, which makes the grandparent's move into it a win there, and so on up the tree.
    A chance node, or a move that does not pass the turn, ends the proof."""
    while True:
        parent = node.parent
        if parent is None or parent.to_move < 0 or parent.untried is None or parent.untried:
            return
        if not all(child.lost for child in parent.children):
            return
        grandparent = parent.parent
        if grandparent is None or parent.mover < 0 or parent.mover == parent.to_move:
            return
        if grandparent.winning is None:
            grandparent.winning = parent
        if grandparent.mover < 0 or grandparent.mover == grandparent.to_move or grandparent.lost:
            return
        grandparent.lost = True
        node = grandparent


def one_ply(state: State, move: Move, mover: Player) -> float:
    """``mover``'s return after ``move`` by the result or ``evaluate()`` (a draw's share when
    the game cannot say); ``state`` is left as it was."""
    state.apply(move)
    if state.current_player() == TERMINAL:
        value = state.returns()[mover]
    else:
        estimate = state.evaluate()
        value = estimate[mover] if estimate is not None else 1.0 / state.num_players
    state.undo()
    return value


@register_agent
class MctsAgent(Agent):
    """UCT search with per-player returns, chance nodes and truncated rollouts.

    Cost: per iteration one ``copy()`` of the root, one ``apply()`` per tree
    and rollout move, one ``legal_moves()`` per rollout move and per newly
    visited tree node, and one ``evaluate()`` per truncated rollout.
    After :meth:`choose`, ``last_iterations`` and ``last_seconds`` describe the search.
    """

    name = "mcts"
    summary = "Monte Carlo tree search (UCT) with chance nodes, n players and truncated rollouts"
    params = {
        **SEARCH_PARAMS,
        "leaf_eval": (
            bool,
            False,
            "score each new node by evaluate() at once, with no random moves (games with evaluate; "
            "then rollout_depth is unused)",
        ),
        "widen": (
            float,
            0.0,
            "progressive widening (0 = off: every move is tried once, in random order): a node's moves are "
            "ordered by their one-ply evaluate() and tried best first, a new one only while the node has fewer "
            "than 1 + widen * sqrt(visits) children",
        ),
        "jitter": (
            float,
            0.0,
            "with widen: a random amount up to this is added to each move's one-ply score before ordering, "
            "so that games between searches that are otherwise deterministic differ (0 = none)",
        ),
    }


    #: the iteration budget when neither ``iterations`` nor ``seconds`` is given
    default_iterations = DEFAULT_ITERATIONS

    def _configure(self) -> None:
        self.budget = SearchBudget.from_settings(self.name, self.settings, self.default_iterations)
        check_positive(self.name, "c", self.settings["c"], allow_zero=True)
        check_positive(self.name, "rollout_depth", self.settings["rollout_depth"], allow_zero=True)
        self.exploration: float = self.settings["c"]
        self.rollout_depth: int = self.settings["rollout_depth"]
        self.leaf_eval: bool = self.settings["leaf_eval"]
        check_positive(self.name, "widen", self.settings["widen"], allow_zero=True)
        self.widen: float = self.settings["widen"]
        check_positive(self.name, "jitter", self.settings["jitter"], allow_zero=True)
        self.jitter: float = self.settings["jitter"]
        self.last_iterations = 0
        self.last_seconds = 0.0

    def limit_time(self, seconds: float | None) -> None:
        """Cap the next searches at ``seconds`` of wall time: a search cut short plays the best
        move found so far (the most visited), never a random one."""
        self.budget.limit_time(seconds)

    def interrupt(self) -> None:
        """End the search in progress at its next iteration and play the best move so far."""
        self.budget.stop_requested = True

    def choose(self, state: State) -> Move:
        _mover, moves = decision_moves(self.name, state)
        if len(moves) == 1:
            self.last_iterations, self.last_seconds = 0, 0.0
            return moves[0]
        root = self.search(state)
        if root.winning is not None and root.winning.move is not None:
            return root.winning.move
        best = max(root.children, key=lambda child: (child.visits, child.value / child.visits))
        assert best.move is not None
        return best.move

    def search(self, root_state: State) -> _Node:
        """Run the budgeted search from ``root_state`` (left unchanged) and return the root node."""
        began = time.perf_counter()
        root = _Node(None, None, CHANCE, root_state.current_player())
        rng = self.rng
        uniform_random = rng.random
        exploration = self.exploration
        depth_limit = self.rollout_depth
        decisive = names_winning_moves(root_state)
        leaf_eval = self.leaf_eval
        widen = self.widen
        jitter = self.jitter
        log = math.log
        sqrt = math.sqrt
        budget = self.budget
        # the solver's proofs assume two players taking turns; a chance node ends a proof (_prove_loss)
        solver = root_state.num_players == 2
        budget.start()
        done = 0
        while not budget.exhausted(done) and root.winning is None:  # a win on the spot ends the thinking
            state = root_state.copy()
            node = root
            # selection and expansion: stop at the first new node (or the end of the game)
            while True:
                to_move = node.to_move
                if to_move == TERMINAL:
                    break
                if to_move == CHANCE:
                    outcome = state.sample_chance(rng)
                    state.apply(outcome)
                    outcome_children = node.outcome_children
                    assert outcome_children is not None
                    child = outcome_children.get(outcome)
                    if child is None:
                        child = _Node(node, outcome, CHANCE, state.current_player())
                        outcome_children[outcome] = child
                        node = child
                        break
                    node = child
                    continue
                if node.winning is not None:
                    # a player who can win on the spot does: no need to search the alternatives
                    node = node.winning
                    state.apply(node.move)  # type: ignore[arg-type]
                    continue
                untried = node.untried
                if untried is None:
                    win = state.winning_move() if decisive else None
                    # a win the game names is the only move worth searching here
                    if win is not None:
                        untried = node.untried = [win]
                    else:
                        untried = node.untried = list(state.legal_moves())
                        if widen:
                            if jitter:
                                untried.sort(  # best last
                                    key=lambda move: one_ply(state, move, to_move) + jitter * uniform_random()
                                )
                            else:
                                untried.sort(key=lambda move: one_ply(state, move, to_move))  # best last
                if untried and (not widen or len(node.children) < 1 + widen * sqrt(node.visits)):
                    if widen:
                        move = untried.pop()  # the best untried move by one ply
                    else:
                        # a random untried move: swap it to the end and pop it
                        index = int(uniform_random() * len(untried))
                        move = untried[index]
                        untried[index] = untried[-1]
                        untried.pop()
                    state.apply(move)
                    child = _Node(node, move, to_move, state.current_player())
                    node.children.append(child)
                    if child.to_move == TERMINAL:
                        result = state.returns()[to_move]
                        if result == 1.0:
                            node.winning = child
                            if solver and node.mover >= 0 and node.mover != to_move and not node.lost:
                                node.lost = True  # whoever moved here let the player to move win
                                _prove_loss(node)
                        elif result == 0.0 and solver:
                            child.lost = True
                            _prove_loss(child)
                    node = child
                    break
                scale = exploration * sqrt(log(node.visits))
                best_child = node.children[0]
                best_score = -1.0
                for child in node.children:
                    visits = child.visits
                    score = child.value / visits + scale / sqrt(visits)
                    if score > best_score:
                        best_score = score
                        best_child = child
                node = best_child
                state.apply(node.move)  # type: ignore[arg-type]
            estimate = state.evaluate() if leaf_eval and node.to_move >= 0 else None
            backpropagate(node, estimate if estimate is not None else rollout(state, rng, depth_limit, decisive))
            done += 1
            if done % SETTLE_CHECK_EVERY == 0 and not root.untried and settled(
                [child.visits for child in root.children], budget, done
            ):
                break
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - began
        return root
