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
  driver made with ``resample()`` (one determinization). With ``worlds=K`` it splits its
  budget over that state and K-1 more drawn with ``resample()`` for the player to move, and
  plays the move with the largest share of visits over all K trees, each deal one vote (an
  ensemble of determinizations: a move good only where the hidden cards fall one way loses
  its weight). ``ismcts`` searches one tree over many.
* **Continuous moves.** ``legal_moves()`` is then a candidate set; it is the action set.
* **Transpositions** (``transpositions=true``). Two paths that reach the same position
  (the same ``position_key()``, the same player having moved into it) share one node and
  its statistics: the tree becomes a graph, each node's moves to its children are kept on
  the node (``child_moves``), and the returns go back along the path taken, not the
  ``parent`` links. A path that comes back to a node already on it stops there and scores
  the position it reached. The key leaves out repetition counters, so positions that differ
  only in how often they occurred share a node (the usual price of a transposition table).

The tree is not kept between moves: the next state comes from a fresh
``resample()`` and may disagree with the old tree's hidden parts.

The agent holds the settings; the search loop itself, the tree's nodes and the rollouts
are in :mod:`.kernel`, which is compiled where a compiler is at hand.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from ..core.collector import fewer_collections
from ..core.fitted import EVALUATION_PARAM, evaluation_choice, judging_by
from ..core.state import State
from ..core.values import Move
from .kernel import Node, Tree, run_mcts
from .search import BudgetedAgent, SearchBudget, check_positive, decision_moves, names_winning_moves

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


class MctsAgent(BudgetedAgent):
    """UCT search with per-player returns, chance nodes and truncated rollouts.

    Cost: per iteration one ``copy()`` of the root, one ``apply()`` per tree
    and rollout move, one ``legal_moves()`` per rollout move and per newly
    visited tree node, and one ``evaluate()`` per truncated rollout.
    After :meth:`choose`, ``last_iterations`` and ``last_seconds`` describe the search.
    """

    name = "mcts"
    summary = "Monte Carlo tree search (UCT) with chance nodes, n players and truncated rollouts"

    @classmethod
    def describe(cls, params: Mapping[str, str]) -> str:
        leaves = ", judging where it stops by the game's evaluation" if params.get("leaf_eval") == "true" else ""
        worlds = int(params.get("worlds", "1"))
        deals = f" over {worlds} draws of what it cannot see" if worlds > 1 else ""
        return f"a search of {cls.count_text(params, 'iterations')} positions{deals}{leaves}"
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
        "transpositions": (
            bool,
            False,
            "share one node between the paths that reach the same position (by position_key(), "
            "with the same player having moved into it), so that what one path learns of a "
            "position counts on every path to it",
        ),
        "worlds": (
            int,
            1,
            "games with hidden information: the budget is split over this many deals drawn for the player "
            "to move (the one handed over first), one tree each, and the move with the largest share of visits "
            "over all is played (1 = search the state handed over only)",
        ),
        "evaluation": EVALUATION_PARAM,
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
        check_positive(self.name, "worlds", self.settings["worlds"])
        self.worlds: int = self.settings["worlds"]
        self.transpositions: bool = self.settings["transpositions"]
        self.judge = evaluation_choice(self.settings["evaluation"])
        #: the budget of the tree being searched: the agent's, or one world's share of it
        self._searching = self.budget
        self.last_iterations = 0
        self.last_seconds = 0.0

    def interrupt(self) -> None:
        super().interrupt()
        self._searching.stop_requested = True  # a world's share of the budget, when split

    def choose(self, state: State) -> Move:
        with judging_by(self.judge):
            return self._choose(state)

    def _choose(self, state: State) -> Move:
        mover, moves = decision_moves(self.name, state)
        if len(moves) == 1:
            self.last_iterations, self.last_seconds = 0, 0.0
            return moves[0]
        if self.worlds > 1 and state.game.has_hidden_information:
            return self._choose_over_worlds(state, mover)
        root = self.search(state)
        if root.winning is not None and root.winning.move is not None:
            return root.winning.move
        return most_visited(root)

    def _choose_over_worlds(self, state: State, mover: int) -> Move:
        """The move with the largest share of visits summed over ``worlds`` trees, each searched
        on its own deal with an equal share of what is left of the budget. Each deal has one vote
        to share out: a tree that finds a win on the spot (in its deal, which may be wrong about
        the hidden parts) gives that move its whole vote."""
        budget = self.budget
        budget.start()
        began = time.perf_counter()
        votes: dict[Move, float] = {}
        iterations = 0
        try:
            for world in range(self.worlds):
                left = self.worlds - world
                share = SearchBudget(
                    None if budget.iterations is None else max(1, (budget.iterations - iterations) // left),
                    None if budget.seconds is None else max(0.0, budget.seconds - (time.perf_counter() - began)) / left,
                )
                self._searching = share
                if budget.stop_requested:
                    share.stop_requested = True
                deal = state if world == 0 else state.resample(mover, self.rng)
                root = self._search_tree(deal, share)
                iterations += self.last_iterations
                winning = root.winning
                if winning is not None and winning.move is not None:
                    votes[winning.move] = votes.get(winning.move, 0.0) + 1.0
                else:
                    visited = max(1, sum(child.visits for child in root.children))
                    for move, child in zip(root.child_moves, root.children):
                        votes[move] = votes.get(move, 0.0) + child.visits / visited
                if budget.stop_requested:
                    break
        finally:
            self._searching = budget
            self.last_iterations = iterations
            self.last_seconds = time.perf_counter() - began
        # ties go to the move met first: the first deal's order of trial, fixed by the seed
        return max(votes, key=votes.__getitem__)

    def search(self, root_state: State) -> Node:
        """Run the budgeted search from ``root_state`` (left unchanged) and return the root node."""
        with judging_by(self.judge):
            return self._search_tree(root_state, self.budget)

    def _search_tree(self, root_state: State, budget: SearchBudget) -> Node:
        """One tree searched from ``root_state`` within ``budget``; sets ``last_iterations``."""
        began = time.perf_counter()
        tree = Tree(root_state.current_player())
        budget.start()
        with fewer_collections():
            self.last_iterations = run_mcts(
                root_state,
                tree,
                self.rng,
                budget,
                exploration=self.exploration,
                depth_limit=self.rollout_depth,
                decisive=names_winning_moves(root_state),
                leaf_eval=self.leaf_eval,
                widen=self.widen,
                jitter=self.jitter,
                # the solver's proofs assume two players taking turns; a chance node ends a proof (prove_loss)
                solver=root_state.num_players == 2,
                transpositions=self.transpositions,
            )
        self.last_seconds = time.perf_counter() - began
        return tree.root()


def most_visited(root: Node) -> Move:
    """The move from ``root`` to its most visited child (ties: the higher mean, then the first tried)."""
    children = root.children
    best = max(range(len(children)), key=lambda index: (children[index].visits, children[index].value / children[index].visits))
    return root.child_moves[best]
