"""Sovereign as integer actions and a numeric observation, for the OpenSpiel and PettingZoo
adapters (docs/rules/sovereign.md, rules 9).

Squares are 0..48 (a1 = 0, b1 = 1, ... g7 = 48); a neighbour is one of 8 directions
(:data:`KING_DELTAS`). Actions (65415), in blocks:

| block | moves | index |
| --- | --- | --- |
| 0 | placement ``K@sq`` | ``kind * 49 + sq`` (kind 0..3 = S, D, C, B) |
| 196 | third Contractor with its tower ``B@sq^tower`` | ``196 + sq * 8 + direction(sq, tower)`` |
| 588 | Sovereign / Diplomat ``Kfrom-to`` | ``588 + kind * 2401 + from * 49 + to`` |
| 5390 | Consultant ``Cfrom-to`` / ``Cfromxto`` | ``5390 + from * 49 + to`` (a capture follows from the position) |
| 7791 | Contractor ``Bfrom-to^build`` | ``7791 + ((from * 49 + to) * 8 + direction(to, build)) * 3 + levels - 1`` |

Observation, from the seat's view: the envelope's 4 features, then per square the tower
height / 3 and 8 piece planes (the viewer's S, D, C, B, then the opponent's); then per seat
(the viewer first) whether its Sovereign is threatened; setup or play; the two supply counts
/ 64; and play ply / the ply limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardlab.core import ActionEncoding, ActionError, Move, ObservationEncoding
from boardlab.core.encoding import ENVELOPE_FEATURES, envelope_features, scaled, seats_from

from .board import MAX_HEIGHT, NUM_SQUARES, SIZE
from .moves import ConsultantJump, ContractorMove, Placement, Slide

if TYPE_CHECKING:
    from boardlab.core import State

KING_DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_DIRECTION = {delta: d for d, delta in enumerate(KING_DELTAS)}
PAIRS = NUM_SQUARES * NUM_SQUARES
PLACEMENT_BASE = 0
TOWER_BASE = 4 * NUM_SQUARES
SLIDE_BASE = TOWER_BASE + 8 * NUM_SQUARES
JUMP_BASE = SLIDE_BASE + 2 * PAIRS
CONTRACTOR_BASE = JUMP_BASE + PAIRS
NUM_ACTIONS = CONTRACTOR_BASE + PAIRS * 8 * 3
#: supply counts are scaled by this (more than the pool ever holds)
SUPPLY_SCALE = 64


def direction(origin: int, target: int) -> int:
    """The king direction 0..7 from ``origin`` to the neighbouring ``target``."""
    delta = (target % SIZE - origin % SIZE, target // SIZE - origin // SIZE)
    found = _DIRECTION.get(delta)
    if found is None:
        raise ActionError(f"sovereign: squares {origin} and {target} are not neighbours")
    return found


class SovereignActions(ActionEncoding):
    num_actions = NUM_ACTIONS

    def action_index(self, state: State, move: Move) -> int:
        if isinstance(move, ContractorMove):
            pair = move.origin * NUM_SQUARES + move.target
            return CONTRACTOR_BASE + (pair * 8 + direction(move.target, move.build)) * 3 + move.levels - 1
        if isinstance(move, ConsultantJump):
            return JUMP_BASE + move.origin * NUM_SQUARES + move.target
        if isinstance(move, Slide):
            return SLIDE_BASE + move.kind * PAIRS + move.origin * NUM_SQUARES + move.target
        if isinstance(move, Placement):
            if move.tower < 0:
                return PLACEMENT_BASE + move.kind * NUM_SQUARES + move.square
            return TOWER_BASE + move.square * 8 + direction(move.square, move.tower)
        raise ActionError(f"sovereign: {move!r} is not a Sovereign move")


class SovereignObservation(ObservationEncoding):
    size = ENVELOPE_FEATURES + NUM_SQUARES * 9 + 2 + 1 + 2 + 1

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        board = view["board"]
        order = seats_from(view["viewer"], 2)
        planes = {}
        for k, seat in enumerate(order):
            for kind, letter in enumerate(board["letters"][seat]):
                planes[letter] = 1 + k * 4 + kind
        out = envelope_features(view)
        heights, pieces = board["heights"], board["pieces"]
        for sq in range(NUM_SQUARES):
            row, file = SIZE - 1 - sq // SIZE, sq % SIZE
            cell = [0.0] * 9
            cell[0] = scaled(heights[row][file], MAX_HEIGHT)
            letter = pieces[row][file]
            if letter:
                cell[planes[letter]] = 1.0
            out.extend(cell)
        out.extend(1.0 if board["threatened"][seat] else 0.0 for seat in order)
        out.append(1.0 if board["phase"] == "setup" else 0.0)
        out.append(scaled(board["supply"]["lower"], SUPPLY_SCALE))
        out.append(scaled(board["supply"]["top"], SUPPLY_SCALE))
        out.append(scaled(board["play_ply"], board["ply_limit"] or 1))
        return out


__all__ = ["NUM_ACTIONS", "SovereignActions", "SovereignObservation", "direction"]
