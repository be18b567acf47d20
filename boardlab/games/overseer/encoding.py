"""Overseer as integer actions and a numeric observation, for the OpenSpiel and PettingZoo
adapters (docs/rules/overseer.md, rules 13).

Squares are 0..95 as in the position string's order (:data:`SQUARE_NAMES`). Actions (9216):
a move from ``origin`` to ``target`` is ``origin * 96 + target``; whether it captures follows
from the position, so a quiet move and a capture never share a position. No chance.

Observation, from the seat's view: the envelope's 4 features, then per square 14 planes (the
viewer's Barricade, Soldier, Captain, General, Pilot, Commander, Overseer, then the opponent's);
then per seat (the viewer first) whether its Overseer is in danger; plies since the last
capture / the limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardlab.core import ActionEncoding, ActionError, Move, ObservationEncoding
from boardlab.core.encoding import ENVELOPE_FEATURES, envelope_features, scaled, seats_from

from .board import KIND_BY_LETTER, NUM_SQUARES, SQUARE_BY_NAME
from .moves import PieceMove

if TYPE_CHECKING:
    from boardlab.core import State

KINDS = len(KIND_BY_LETTER)


class OverseerActions(ActionEncoding):
    num_actions = NUM_SQUARES * NUM_SQUARES

    def action_index(self, state: State, move: Move) -> int:
        if isinstance(move, PieceMove):
            return move.origin * NUM_SQUARES + move.target
        raise ActionError(f"overseer: {move!r} is not an Overseer move")


class OverseerObservation(ObservationEncoding):
    size = ENVELOPE_FEATURES + NUM_SQUARES * 2 * KINDS + 2 + 1

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        board = view["board"]
        order = seats_from(view["viewer"], 2)
        out = envelope_features(view)
        planes = [0.0] * (NUM_SQUARES * 2 * KINDS)
        for name, piece in board["pieces"].items():
            side = order.index(piece["seat"])
            planes[SQUARE_BY_NAME[name] * 2 * KINDS + side * KINDS + KIND_BY_LETTER[piece["letter"].upper()] - 1] = 1.0
        out.extend(planes)
        out.extend(1.0 if board["overseer_in_danger"][seat] else 0.0 for seat in order)
        out.append(scaled(board["plies_since_capture"], board["no_capture_limit"] or 1))
        return out


__all__ = ["OverseerActions", "OverseerObservation"]
