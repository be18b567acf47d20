"""The Pebbles game: its options, set-up and position strings (rules.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardlab.core import Game, Option, OptionError, PositionError, check_position_fields, register

from .encoding import PebblesActions, PebblesObservation
from .moves import PILE_LETTERS
from .state import PebblesState

#: rule P1's limits
MAX_PILES = len(PILE_LETTERS)
MAX_PEBBLES = 20


def parse_piles(text: str, what: str) -> tuple[int, ...]:
    """``"3,4,5"`` -> ``(3, 4, 5)``; ValueError naming ``what`` when it is not whole numbers."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"{what} {text!r}: piles are whole numbers separated by commas, e.g. 3,4,5") from None


def render_view(view: Mapping[str, Any]) -> str:
    """The piles of a view envelope, for the terminal (rich markup)."""
    rows = [
        f"[bold]{letter}[/bold] {'o' * pebbles or '-'} ({pebbles})"
        for letter, pebbles in zip(PILE_LETTERS, view["board"]["piles"])
    ]
    return "\n".join(rows)


@register
class PebblesGame(Game):
    id = "pebbles"
    name = "Pebbles"
    summary = "Take 1 to 3 pebbles from one pile; whoever takes the last pebble wins."
    options_spec = (
        Option("piles", "3,4,5", "the pebbles in each pile at the start (1-6 piles of 1-20)"),
        Option("max_take", 3, "the most pebbles one turn may take", kind=int, minimum=1, maximum=9),
    )
    result_codes = ("last_pebble",)
    state_class = PebblesState
    seat_names = ("First", "Second")
    action_encoding_class = PebblesActions
    observation_encoding_class = PebblesObservation
    view_renderer = staticmethod(render_view)

    def _check_options(self) -> None:
        try:
            piles = parse_piles(self.options["piles"], "option piles")
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        if not 1 <= len(piles) <= MAX_PILES or not all(1 <= pebbles <= MAX_PEBBLES for pebbles in piles):
            raise OptionError(
                f"option piles={self.options['piles']!r}: 1 to {MAX_PILES} piles of 1 to {MAX_PEBBLES} pebbles (rule P1)"
            )
        self.start_piles: tuple[int, ...] = piles

    @property
    def max_moves(self) -> int:
        # every take removes at least one pebble, and no position holds more than the set-up
        return sum(self.start_piles)

    def _new_state(self, seed: int) -> PebblesState:
        return PebblesState(self, seed, self.start_piles)

    def _state_from_position(self, text: str) -> PebblesState:
        piles_text, to_move_text = check_position_fields(self.id, text, 2)
        try:
            piles = parse_piles(piles_text, "pebbles position")
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        if len(piles) != len(self.start_piles):
            raise PositionError(f"pebbles position {text!r}: {len(piles)} piles, this game has {len(self.start_piles)}")
        for letter, pebbles, start in zip(PILE_LETTERS, piles, self.start_piles):
            if not 0 <= pebbles <= start:
                raise PositionError(f"pebbles position {text!r}: pile {letter} must hold 0 to {start} pebbles")
        if to_move_text not in ("0", "1"):
            raise PositionError(f"pebbles position {text!r}: the player to move is 0 or 1")
        return PebblesState(self, 0, piles, int(to_move_text))
