"""The alpha-beta agent: iterative deepening on the game's evaluation, with a transposition table.

The deciding player maximises its own estimated return and assumes every other player
minimises it (the "paranoid" reading, exact for two players whose returns sum to 1). A
line stops at the depth limit, at the end of the game and at a chance node, and is scored
as the greedy agent scores it: a finished game by its result, any other position by
``evaluate()``. A proven win ranks past any estimate, and a sooner win past a later one
(a later loss past a sooner one), so the search goes straight for a win it can force
instead of wandering while the 100-move rules run out.

The search deepens one ply at a time up to ``depth``. Each pass starts with the moves the
last pass found best (the transposition table, keyed by ``position_key()``, remembers the
best move and a bound for every position searched), then the reply that last cut a line
short at that depth (the killer), then the rest by their one-ply score, worked out only when
the first moves did not already cut the line short (scoring every move where the remembered
one refutes the line is wasted work, a large share of a deep search's: docs/speed.md).
``nodes`` caps the positions scored per decision: a pass that would exceed it is abandoned and the last
complete pass decides. The count is the budget, so a seeded search plays the same move on
a busy machine as on an idle one; ``seconds`` is only a cap for a machine far slower than
expected, and a search cut short by it plays the best move of its last complete pass.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Mapping

from ..core.agent import Agent
from ..core.decisions import PROVEN_MARGIN
from ..core.fitted import EVALUATION_PARAM, evaluation_choice, judging_by
from ..core.state import State
from ..core.values import CHANCE, TERMINAL, Move, Player
from .greedy import TIE
from .search import check_positive, decision_moves, pick_random

#: outside any return: the starting bounds of the window
_INFINITY = 4.0
#: transposition-table bound kinds
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: how often (in scored positions) the search looks at the clock
_CLOCK_EVERY = 256


class _OutOfBudget(Exception):
    """Raised inside the search when the node budget or the time cap runs out."""


class AlphaBetaAgent(Agent):
    """Iterative-deepening alpha-beta (paranoid for more than two players) with a
    transposition table, killer moves and one-ply move ordering.

    Cost per decision: at most ``nodes`` evaluations (and their apply/undo), usually far fewer
    than b^depth for b legal moves because the best move is tried first.
    Equal best moves are broken at random with the agent's own generator.
    After :meth:`choose`, ``last_depth`` is the deepest complete pass and ``last_nodes`` the
    positions scored.
    """

    name = "alphabeta"
    summary = (
        "alpha-beta search with iterative deepening and a transposition table on the game's evaluation "
        "(depth 1 plays as greedy)"
    )

    @classmethod
    def describe(cls, params: Mapping[str, str]) -> str:
        # with a budget of positions the depth is a ceiling: a pass that would exceed it is abandoned
        if "nodes" in params:
            return (f"looks up to {params.get('depth', 'several')} moves ahead, as far as "
                    f"{cls.count_text(params, 'nodes')} positions allow")
        return f"looks {params.get('depth', 'several')} moves ahead"
    params = {
        "depth": (int, 2, "deepest pass in plies; chance nodes and the end of the game stop a line earlier"),
        "nodes": (int, None, "positions scored per decision at most (the budget; default: no limit)"),
        "seconds": (float, None, "wall-time cap per decision (a machine far slower than expected): the last "
                    "complete pass decides"),
        "evaluation": EVALUATION_PARAM,
    }

    def _configure(self) -> None:
        check_positive(self.name, "depth", self.settings["depth"])
        check_positive(self.name, "nodes", self.settings["nodes"])
        check_positive(self.name, "seconds", self.settings["seconds"])
        self.time_cap: float | None = self.settings["seconds"]
        self.judge = evaluation_choice(self.settings["evaluation"])
        self._killers: dict[int, Move] = {}
        self._table: dict[Hashable, tuple[int, float, int, Move | None]] = {}
        self._deadline = 0.0
        self._stop = False
        self.last_depth = 0
        self.last_nodes = 0

    def limit_time(self, seconds: float | None) -> None:
        """Cap the next decisions at ``seconds`` of wall time (the spec's own cap if smaller)."""
        own = self.settings["seconds"]
        self.time_cap = seconds if own is None else (own if seconds is None else min(own, seconds))

    def interrupt(self) -> None:
        """End the search in progress: the last complete pass decides."""
        self._stop = True

    def choose(self, state: State) -> Move:
        with judging_by(self.judge):
            return self._choose(state)

    def _choose(self, state: State) -> Move:
        mover, moves = decision_moves(self.name, state)
        if len(moves) == 1:
            return moves[0]
        work = state.copy()
        self._killers = {}
        self._table = {}
        self._stop = False
        self.last_nodes = 0
        self._node_limit = self.settings["nodes"]
        self._deadline = time.perf_counter() + self.time_cap if self.time_cap is not None else 0.0
        ordered = self._ordered(work, moves, mover, maximising=True)
        best: list[Move] = [ordered[0]]
        self.last_depth = 0
        for depth in range(1, self.settings["depth"] + 1):
            try:
                found, ordered = self._root(work, mover, ordered, depth)
            except _OutOfBudget:
                break  # the last complete pass decides (depth 1 never runs out: see _count)
            best = found
            self.last_depth = depth
            if self._proven(best[0]):
                break  # a forced win (or every move loses): deeper passes cannot change the choice
        return pick_random(self.rng, best)

    def _proven(self, move: Move) -> bool:
        """Whether the last pass proved ``move`` a win or a loss (a value past any estimate)."""
        entry = self._table.get(("root", move))
        return entry is not None and abs(entry[1] - 0.5) > 0.5

    def _root(self, state: State, mover: Player, ordered: list[Move], depth: int) -> tuple[list[Move], list[Move]]:
        """One pass to ``depth``: the equal-best moves, and every move re-ordered best first."""
        best: list[Move] = []
        scored: list[tuple[float, int, Move]] = []
        alpha = -_INFINITY
        for index, move in enumerate(ordered):
            state.apply(move)
            try:
                # a window just below alpha still tells a move equal to the best from a worse one
                value = self._value(state, mover, depth - 1, alpha - TIE, _INFINITY)
            finally:
                state.undo()
            if value > alpha + TIE:
                best, alpha = [move], value
            elif value >= alpha - TIE:
                best.append(move)
            self._table[("root", move)] = (depth, value, _EXACT, None)
            scored.append((value, -index, move))
        scored.sort(key=lambda item: item[:2], reverse=True)
        return best, [move for _, _, move in scored]

    def _count(self) -> None:
        """One more position scored; raise when the budget is spent (never during the first pass)."""
        self.last_nodes += 1
        if self.last_depth == 0:
            return  # depth 1 is greedy's search: always completed, so there is always a move
        limit = self._node_limit
        if limit is not None and self.last_nodes > limit:
            raise _OutOfBudget
        if self._stop:
            raise _OutOfBudget
        if self._deadline and self.last_nodes % _CLOCK_EVERY == 0 and time.perf_counter() > self._deadline:
            raise _OutOfBudget

    def _value(self, state: State, mover: Player, depth: int, alpha: float, beta: float) -> float:
        """The position's value for ``mover`` within (alpha, beta); ``state`` is restored."""
        player = state.current_player()
        if player in (TERMINAL, CHANCE) or depth == 0:
            return self._static(state, mover, player, depth)
        key = state.position_key()
        entry = self._table.get(key)
        table_move = None
        if entry is not None:
            entry_depth, entry_value, flag, table_move = entry
            if entry_depth >= depth:
                if flag == _EXACT:
                    return entry_value
                if flag == _LOWER and entry_value >= beta:
                    return entry_value
                if flag == _UPPER and entry_value <= alpha:
                    return entry_value
        maximising = player == mover
        moves = self._in_order(state, state.legal_moves(), mover, maximising, depth, table_move)
        original_alpha, original_beta = alpha, beta
        best_move = None
        if maximising:
            value = -_INFINITY
            for move in moves:
                state.apply(move)
                try:
                    child = self._value(state, mover, depth - 1, alpha, beta)
                finally:
                    state.undo()
                if child > value:
                    value, best_move = child, move
                alpha = max(alpha, value)
                if alpha >= beta:
                    self._killers[depth] = move
                    break
        else:
            value = _INFINITY
            for move in moves:
                state.apply(move)
                try:
                    child = self._value(state, mover, depth - 1, alpha, beta)
                finally:
                    state.undo()
                if child < value:
                    value, best_move = child, move
                beta = min(beta, value)
                if alpha >= beta:
                    self._killers[depth] = move
                    break
        flag = _UPPER if value <= original_alpha else _LOWER if value >= original_beta else _EXACT
        self._table[key] = (depth, value, flag, best_move)
        return value

    def _in_order(
        self, state: State, moves: list[Move], mover: Player, maximising: bool, depth: int, table_move: Move | None
    ) -> Iterator[Move]:
        """``moves`` in the order to search them: the remembered best move and the killer
        first, then (with more than one ply left) the rest by their one-ply score. The rest
        are scored only when the first moves did not cut the line short: at a node where the
        remembered move refutes the line, the one-ply scores of every move would be wasted."""
        first = [move for move in (table_move, self._killers.get(depth)) if move is not None and move in moves]
        if first:
            first = list(dict.fromkeys(first))
            yield from first
            moves = [move for move in moves if move not in first]
        if depth > 1:
            moves = self._ordered(state, moves, mover, maximising)
        yield from moves

    def _ordered(self, state: State, moves: list[Move], mover: Player, maximising: bool) -> list[Move]:
        """``moves`` best first for the player to move, by their one-ply score."""
        scored = []
        for move in moves:
            state.apply(move)
            try:
                scored.append((self._static(state, mover, state.current_player(), 0), move))
            finally:
                state.undo()
        scored.sort(key=lambda item: item[0], reverse=maximising)
        return [move for _, move in scored]

    def _static(self, state: State, mover: Player, player: Player, depth_left: int) -> float:
        """A leaf's value for ``mover``: a finished game's result (a win sooner, a loss later,
        ranked past any estimate), else ``evaluate()``."""
        self._count()
        if player == TERMINAL:
            value = state.returns()[mover]
            if value == 1.0:
                return value + PROVEN_MARGIN * (1 + depth_left)
            return value - PROVEN_MARGIN * (1 + depth_left) if value == 0.0 else value
        estimate = state.evaluate()
        if estimate is None:
            return 1.0 / state.game.num_players
        return float(estimate[mover])
