"""Honor as integer actions and a numeric observation, for the OpenSpiel and PettingZoo
adapters (docs/rules/honor.md, rule 15).

Pieces are numbered in catalogue order (:data:`ALL_PIECES`, 0..29); bids run 0..10 (a pool
never grows past its start, rule 1.2). Actions (395):

| index | move |
| --- | --- |
| ``piece * 11 + bid`` | ``build PID BID`` |
| ``330 + piece`` | ``push PID`` |
| ``360 + bid`` | ``raise BID`` |
| 371, 372, 373, 374 | ``pass``, ``acc``, ``passon``, ``resign`` |
| ``375 + orientation * 5 + column`` | a release of the candidate set (rule 10.4) |

A release's index names its place in the candidate set, not its x: ``orientation`` is the
place of its rotation among the piece's rest orientations, ``column`` the first of the five
evenly spaced columns that gives its x. Only the candidate set is encoded: a release
elsewhere (legal through ``play(text)``) has no index. Chance (9): the tremor outcomes in the
order of the 3 x 3 grid ``chance_outcomes()`` lists.

Observation, from the seat's view: the envelope's 4 features; per piece: in the supply, on the
table, owned by each seat (the viewer first), a foundation, x / the table's width, y / 100 cm,
and the angle as (1 + sin) / 2 and (1 + cos) / 2; per seat (the viewer first): its pool / 10,
still standing, to act in the auction, holding the pushed piece, placing; the bank / 40; the
phase; the piece in play (auctioned, pushed or placed) and the high bid / 10.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardlab.core import ActionEncoding, ActionError, Move, ObservationEncoding
from boardlab.core.encoding import ENVELOPE_FEATURES, envelope_features, one_hot, scaled, seats_from

from .catalogue import ALL_PIECES, rest_angles_decidegrees
from .moves import Accept, Build, Pass, PassOn, Push, Raise, Release, Resign, Tremor
from .placement import candidate_columns
from .rules import CANDIDATE_COLUMNS, START_POOL
from .tremor import TREMOR_GRID

if TYPE_CHECKING:
    from boardlab.core import Game, State

PIECE_NUMBER = {pid: number for number, pid in enumerate(ALL_PIECES)}
BIDS = START_POOL + 1
PUSH_BASE = len(ALL_PIECES) * BIDS
RAISE_BASE = PUSH_BASE + len(ALL_PIECES)
PASS, ACCEPT, PASS_ON, RESIGN = range(RAISE_BASE + BIDS, RAISE_BASE + BIDS + 4)
RELEASE_BASE = RESIGN + 1
MAX_ORIENTATIONS = max(len(rest_angles_decidegrees(pid[:2])) for pid in ALL_PIECES)
NUM_ACTIONS = RELEASE_BASE + MAX_ORIENTATIONS * CANDIDATE_COLUMNS
TREMOR_NUMBER = {(dxq, dthetaq): number for number, ((dxq, dthetaq), _) in enumerate(TREMOR_GRID)}
PHASES = ("CHOOSE", "AUCTION", "PUSH", "PLACE", "TREMOR", "OVER")
#: the bank never holds more than every seat's starting pool
BANK_SCALE = 4 * START_POOL
HEIGHT_SCALE_CM = 100.0


class HonorActions(ActionEncoding):
    num_actions = NUM_ACTIONS
    num_chance_outcomes = len(TREMOR_GRID)

    def action_index(self, state: State, move: Move) -> int:
        if isinstance(move, Release):
            return RELEASE_BASE + self._release_slot(state, move)
        if isinstance(move, Build):
            return PIECE_NUMBER[move.pid] * BIDS + move.bid
        if isinstance(move, Push):
            return PUSH_BASE + PIECE_NUMBER[move.pid]
        if isinstance(move, Raise):
            return RAISE_BASE + move.bid
        if isinstance(move, Pass):
            return PASS
        if isinstance(move, Accept):
            return ACCEPT
        if isinstance(move, PassOn):
            return PASS_ON
        if isinstance(move, Resign):
            return RESIGN
        raise ActionError(f"honor: {move!r} is not a decision of Honor")

    def chance_index(self, state: State, outcome: Move) -> int:
        number = TREMOR_NUMBER.get((outcome.dxq, outcome.dthetaq)) if isinstance(outcome, Tremor) else None
        if number is None:
            raise ActionError(f"honor: {outcome} is not a tremor of the 3 x 3 grid (rule 10.6)")
        return number

    def _release_slot(self, state: State, move: Release) -> int:
        placing = state.placing  # type: ignore[attr-defined]
        if placing is None:
            raise ActionError(f"honor: {move}: no piece is being placed")
        columns = candidate_columns(state.table, state.rules.layout, placing.placer, placing.pid)  # type: ignore[attr-defined]
        for orientation, column, release in columns:
            if release == move:
                return orientation * CANDIDATE_COLUMNS + column
        raise ActionError(
            f"honor: {move} is not in the candidate set of {placing.pid} (rule 10.4), so it has no action index"
        )


class HonorObservation(ObservationEncoding):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.players = game.num_players
        self.per_piece = 2 + self.players + 5
        self.size = (ENVELOPE_FEATURES + len(ALL_PIECES) * self.per_piece + 5 * self.players + 1
                     + len(PHASES) + len(ALL_PIECES) + 1)

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        board = view["board"]
        order = seats_from(view["viewer"], self.players)
        out = envelope_features(view)
        zones = board["zones"]
        width = max(end for _, end in zones) or 1.0
        pieces = [[0.0] * self.per_piece for _ in ALL_PIECES]
        for pid in board["supply"]:
            pieces[PIECE_NUMBER[pid]][0] = 1.0
        for piece in board["table"]:
            cell = pieces[PIECE_NUMBER[piece["pid"]]]
            cell[1] = 1.0
            cell[2 + order.index(piece["owner"])] = 1.0
            base = 2 + self.players
            cell[base] = 1.0 if piece["foundation"] else 0.0
            cell[base + 1] = scaled(piece["x"], width)
            cell[base + 2] = scaled(piece["y"], HEIGHT_SCALE_CM)
            cell[base + 3] = (1.0 + math.sin(piece["angle"])) / 2
            cell[base + 4] = (1.0 + math.cos(piece["angle"])) / 2
        for cell in pieces:
            out.extend(cell)
        auction, push, placing = board["auction"], board["push"], board["placing"]
        for seat in order:
            out.append(scaled(board["pools"][seat], START_POOL))
            out.append(1.0 if board["standing"][seat] else 0.0)
            out.append(1.0 if auction is not None and auction["to_act"] == seat else 0.0)
            out.append(1.0 if push is not None and push["holder"] == seat else 0.0)
            out.append(1.0 if placing is not None and placing["placer"] == seat else 0.0)
        out.append(scaled(board["bank"], BANK_SCALE))
        out.extend(one_hot(PHASES.index(board["phase"]) if board["phase"] in PHASES else -1, len(PHASES)))
        in_play = auction or push or placing
        out.extend(one_hot(PIECE_NUMBER[in_play["pid"]] if in_play else -1, len(ALL_PIECES)))
        out.append(scaled(auction["high"], START_POOL) if auction else 0.0)
        return out


__all__ = ["NUM_ACTIONS", "HonorActions", "HonorObservation"]
