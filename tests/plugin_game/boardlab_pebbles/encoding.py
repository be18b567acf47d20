"""Integer actions and observations of Pebbles (rules.md, "Encodings")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardlab.core import ActionEncoding, ActionError, Move, ObservationEncoding, State
from boardlab.core.encoding import ENVELOPE_FEATURES, envelope_features, scaled

from .moves import Take

if TYPE_CHECKING:
    from .game import PebblesGame


class PebblesActions(ActionEncoding):
    """Action ``pile * max_take + count - 1``: one per pile and count."""

    def __init__(self, game: PebblesGame) -> None:
        super().__init__(game)
        self.max_take: int = game.options["max_take"]
        self.num_actions = len(game.start_piles) * self.max_take

    def action_index(self, state: State, move: Move) -> int:
        if not isinstance(move, Take):
            raise ActionError(f"pebbles: {move} is not a take")
        return move.pile * self.max_take + move.count - 1


class PebblesObservation(ObservationEncoding):
    """The envelope's four values, then each pile's pebbles over its size at the start."""

    def __init__(self, game: PebblesGame) -> None:
        super().__init__(game)
        self.start_piles = game.start_piles
        self.size = ENVELOPE_FEATURES + len(self.start_piles)

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        piles = view["board"]["piles"]
        return [*envelope_features(view), *(scaled(now, start) for now, start in zip(piles, self.start_piles))]
