"""The alpha-beta agent: a fixed-depth search on the game's evaluation function.

The deciding player maximises its own estimated return and assumes every other
player minimises it (the "paranoid" reading, exact for two players whose returns
sum to 1). The search stops at the depth limit, at the end of the game and at a
chance node, and scores those positions as the greedy agent does: a finished game
by its result (a proven win or loss ranked past any estimate), any other position
by ``evaluate()``. At depth 1 it plays as greedy; at depth 2 it also sees the
opponent's best reply, for about three to five times greedy's cost per move once
the moves are tried in greedy's order.
"""

from __future__ import annotations

from ..core.agent import Agent, register_agent
from ..core.state import State
from ..core.values import CHANCE, TERMINAL, Move, Player
from .greedy import PROVEN_MARGIN, TIE
from .search import check_positive, decision_moves, pick_random

#: outside any return: the starting bounds of the window
_INFINITY = 2.0


@register_agent
class AlphaBetaAgent(Agent):
    """Depth-limited alpha-beta (paranoid for more than two players).

    Cost per decision: at most b^depth positions evaluated for b legal moves,
    usually far fewer: each level's moves are tried best first by a one-ply score.
    Equal best moves are broken at random with the agent's own generator.
    """

    name = "alphabeta"
    summary = "alpha-beta search to a fixed depth on the game's evaluation (depth 1 plays as greedy)"
    params = {
        "depth": (int, 2, "plies searched; chance nodes and the end of the game stop a line earlier"),
    }

    def _configure(self) -> None:
        check_positive(self.name, "depth", self.settings["depth"])
        self._killers: dict[int, Move] = {}

    def choose(self, state: State) -> Move:
        mover, moves = decision_moves(self.name, state)
        if len(moves) == 1:
            return moves[0]
        work = state.copy()
        depth = self.settings["depth"]
        # the reply that last cut a line short, per depth: it often refutes the next move too
        self._killers = {}
        ordered = self._ordered(work, moves, mover, maximising=True)
        best: list[Move] = []
        alpha = -_INFINITY
        for move in ordered:
            work.apply(move)
            # a window just below alpha still tells a move equal to the best from a worse one
            value = self._value(work, mover, depth - 1, alpha - TIE, _INFINITY)
            work.undo()
            if value > alpha + TIE:
                best, alpha = [move], value
            elif value >= alpha - TIE:
                best.append(move)
        return pick_random(self.rng, best)

    def _value(self, state: State, mover: Player, depth: int, alpha: float, beta: float) -> float:
        """The position's value for ``mover`` within (alpha, beta); ``state`` is restored."""
        player = state.current_player()
        if player == TERMINAL or player == CHANCE or depth == 0:
            return self._static(state, mover, player)
        maximising = player == mover
        moves = self._ordered(state, state.legal_moves(), mover, maximising) if depth > 1 else state.legal_moves()
        killer = self._killers.get(depth)
        if killer is not None and killer in moves:
            moves = [killer, *(move for move in moves if move != killer)]
        if maximising:
            value = -_INFINITY
            for move in moves:
                state.apply(move)
                value = max(value, self._value(state, mover, depth - 1, alpha, beta))
                state.undo()
                alpha = max(alpha, value)
                if alpha >= beta:
                    self._killers[depth] = move
                    break
            return value
        value = _INFINITY
        for move in moves:
            state.apply(move)
            value = min(value, self._value(state, mover, depth - 1, alpha, beta))
            state.undo()
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    def _ordered(self, state: State, moves: list[Move], mover: Player, maximising: bool) -> list[Move]:
        """``moves`` best first for the player to move, by a one-ply score (cuts come early)."""
        scored = []
        for move in moves:
            state.apply(move)
            scored.append((self._static(state, mover, state.current_player()), move))
            state.undo()
        scored.sort(key=lambda item: item[0], reverse=maximising)
        return [move for _, move in scored]

    @staticmethod
    def _static(state: State, mover: Player, player: Player) -> float:
        if player == TERMINAL:
            value = state.returns()[mover]
            if value == 1.0:
                return value + PROVEN_MARGIN
            return value - PROVEN_MARGIN if value == 0.0 else value
        estimate = state.evaluate()
        if estimate is None:
            return 1.0 / state.game.num_players
        return float(estimate[mover])
