"""Towers as integer actions and a numeric observation, for the OpenSpiel and PettingZoo
adapters (docs/rules/towers.md, rules 13).

Actions (245): ``Build(sq)`` is ``sq`` (0..48, a1 = 0, b1 = 1, ... g7 = 48); ``Push(sq, d)``
is ``49 + sq * 4 + d`` with d = 0..3 for N, E, S, W. No chance.

Observation, from the seat's view: the envelope's 4 features, then per square (a1..g7)
the height / 5, a castle piece in the stack, and per seat counted from the viewer the
share of its tokens in the stack, whether it is on top, and whether it crowns a castle;
then per seat (from the viewer) castles / castles to win, crowns / crowns to win, the
reserve / supply; and no-progress / its limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardlab.core import ActionEncoding, ActionError, Move, ObservationEncoding
from boardlab.core.encoding import ENVELOPE_FEATURES, envelope_features, scaled, seats_from

from .board import MAX_HEIGHT, NUM_SQUARES, SIZE, SQUARE_BY_NAME, SUPPLY
from .moves import Build, Push

if TYPE_CHECKING:
    from boardlab.core import Game, State

PUSH_BASE = NUM_SQUARES


class TowersActions(ActionEncoding):
    num_actions = NUM_SQUARES * 5

    def action_index(self, state: State, move: Move) -> int:
        if isinstance(move, Build):
            return move.square
        if isinstance(move, Push):
            return PUSH_BASE + move.square * 4 + move.direction_index
        raise ActionError(f"towers: {move!r} is not a Towers move")


class TowersObservation(ObservationEncoding):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.players = game.num_players
        self.per_square = 2 + 3 * self.players
        self.size = ENVELOPE_FEATURES + NUM_SQUARES * self.per_square + 3 * self.players + 1

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        board = view["board"]
        order = seats_from(view["viewer"], self.players)
        letters = board["letters"]
        place = {letters[seat]: k for k, seat in enumerate(order)}
        crowned = {SQUARE_BY_NAME[name]: seat for name, seat in board["crowned"].items()}
        out = envelope_features(view)
        rows = board["stacks"]
        for sq in range(NUM_SQUARES):
            # the view lists ranks from 7 down to 1
            stack = rows[SIZE - 1 - sq // SIZE][sq % SIZE]
            cell = [0.0] * self.per_square
            cell[0] = scaled(len(stack), MAX_HEIGHT)
            cell[1] = 1.0 if "C" in stack else 0.0
            for token in stack:
                if token != "C":
                    cell[2 + 3 * place[token]] += 1.0 / MAX_HEIGHT
            if stack and stack[-1] != "C":
                cell[3 + 3 * place[stack[-1]]] = 1.0
            if sq in crowned:
                cell[4 + 3 * order.index(crowned[sq])] = 1.0
            out.extend(cell)
        supply = SUPPLY[self.players]
        for seat in order:
            out.append(scaled(board["castle_counts"][seat], board["castles_to_win"]))
            out.append(scaled(board["crown_counts"][seat], board["crowns_to_win"]))
            out.append(scaled(board["reserves"][seat], supply))
        out.append(scaled(board["no_progress"], board["no_progress_limit"]))
        return out


__all__ = ["TowersActions", "TowersObservation"]
