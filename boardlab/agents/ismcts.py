"""Information-set MCTS (single observer, with determinization) for hidden-information games.

The searching player ("the observer") does not know the other players' hidden
parts, so the search must not rely on any one guess. Each iteration therefore
starts from a *determinization*: a full state drawn with
``state.resample(observer, rng)``, consistent with everything the observer may
see. All iterations share one tree whose edges are moves (the move value objects
are the keys), so statistics are pooled over determinizations:

* A move that is legal only in some determinizations is a child that is
  *available* only in those; UCB uses the child's availability count (how often
  it could have been chosen) in place of the parent's visit count.
* Chance outcomes are drawn with the agent's own generator and keyed like moves.
* Rollouts are truncated and scored by ``evaluate()`` as in :mod:`.mcts`.

Single-observer limitation (by design, cheap): other players' moves are keyed by
the move itself even when the observer would not see it, so the search treats
the observer as seeing them from then on. Real hidden information is never read:
the agent only ever handles the state it is given and resamples of it.
The search loop and the tree's nodes are in :mod:`.kernel` (compiled where a compiler is at hand).

``resample`` may be expensive (re-dealing, consistency checks), so the agent
draws a pool of ``determinizations`` once per decision and cycles through it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from ..core.collector import fewer_collections
from ..core.state import State
from ..core.values import CHANCE, Move
from .kernel import InfoNode, run_ismcts
from .mcts import DEFAULT_ITERATIONS, SEARCH_PARAMS
from .search import BudgetedAgent, SearchBudget, check_positive, decision_moves


class IsmctsAgent(BudgetedAgent):
    """Single-observer ISMCTS over determinizations drawn with ``State.resample``.

    Cost: per iteration one ``copy()`` of a pooled determinization, one
    ``legal_moves()`` and one ``apply()`` per tree and rollout move, one
    ``evaluate()`` per truncated rollout; per decision ``determinizations``
    calls of ``resample()``. ``last_iterations``/``last_seconds`` describe the last search.
    """

    name = "ismcts"
    summary = "information-set MCTS: one tree searched over many resampled hidden states"

    @classmethod
    def describe(cls, params: Mapping[str, str]) -> str:
        return f"a search of {cls.count_text(params, 'iterations')} positions over many guesses of the hidden cards"
    params = {
        **SEARCH_PARAMS,
        "determinizations": (
            int,
            50,
            "resampled states drawn per decision and cycled through (0 = a fresh one every iteration); "
            "50 samples the hidden parts well while resample() costs stay small next to the search",
        ),
    }

    #: the iteration budget when neither ``iterations`` nor ``seconds`` is given (as mcts)
    default_iterations = DEFAULT_ITERATIONS

    def _configure(self) -> None:
        self.budget = SearchBudget.from_settings(self.name, self.settings, self.default_iterations)
        for key in ("c", "rollout_depth", "determinizations"):
            check_positive(self.name, key, self.settings[key], allow_zero=True)
        self.exploration: float = self.settings["c"]
        self.rollout_depth: int = self.settings["rollout_depth"]
        self.pool_size: int = self.settings["determinizations"]
        self.last_iterations = 0
        self.last_seconds = 0.0

    def choose(self, state: State) -> Move:
        _observer, moves = decision_moves(self.name, state)
        if len(moves) == 1:
            self.last_iterations, self.last_seconds = 0, 0.0
            return moves[0]
        root = self.search(state)
        # the observer's own moves are known to it, so every root move is available in every determinization;
        # a continuous game's candidate set may still vary with the hidden parts: then any searched move will do
        candidates = [root.children[m] for m in moves if m in root.children] or list(root.children.values())
        best = max(candidates, key=lambda child: (child.visits, child.value / max(child.visits, 1)))
        assert best.move is not None
        return best.move

    def search(self, state: State) -> InfoNode:
        """Run the budgeted search for ``state.current_player()`` and return the root."""
        began = time.perf_counter()
        observer = state.current_player()
        rng = self.rng
        # without hidden information every determinization is the state itself (new seed only)
        pool_size = self.pool_size if state.game.has_hidden_information else 1
        root = InfoNode(None, None, CHANCE)
        with fewer_collections():
            pool = [state.resample(observer, rng) for _ in range(pool_size)]
            root_moves = state.legal_moves()  # the observer's own moves: the same in every determinization
            self.budget.start()
            self.last_iterations = run_ismcts(
                state, observer, pool, root, root_moves, rng, self.budget,
                exploration=self.exploration, depth_limit=self.rollout_depth,
            )
        self.last_seconds = time.perf_counter() - began
        return root
