"""The position of Pebbles: the piles and whose turn it is (rules.md)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import xor
from typing import TYPE_CHECKING, Any

from boardlab.core import TERMINAL, Move, Player, Result, State
from boardlab.core.state import StateFields

from .moves import PILE_LETTERS, Take, parse_take

if TYPE_CHECKING:
    from .game import PebblesGame


class PebblesState(State):
    """``piles`` is a tuple that each move replaces, so snapshots and copies share it; the core
    makes snapshot, restore and copy from this declaration."""

    state_fields = StateFields(shared=("piles", "to_move"), fixed=("max_take",))
    __slots__ = state_fields.names

    def __init__(self, game: PebblesGame, seed: int, piles: tuple[int, ...], to_move: int = 0) -> None:
        super().__init__(game, seed)
        self.piles = piles
        self.to_move = to_move
        self.max_take: int = game.options["max_take"]

    def current_player(self) -> Player:
        return TERMINAL if not any(self.piles) else self.to_move

    def _legal_moves(self) -> list[Move]:
        return [
            Take(pile, count)
            for pile, pebbles in enumerate(self.piles)
            for count in range(1, min(self.max_take, pebbles) + 1)
        ]

    def _illegal_reason(self, move: Move) -> str | None:
        if not isinstance(move, Take):
            return f"{move} is not a take (rule P2)"
        if not 0 <= move.pile < len(self.piles):
            return f"there is no pile {PILE_LETTERS[move.pile]}: this game has {len(self.piles)} (rule P1)"
        if not 1 <= move.count <= self.max_take:
            return f"a take is 1 to {self.max_take} pebbles (rule P2)"
        if move.count > self.piles[move.pile]:
            held = self.piles[move.pile]
            return f"pile {PILE_LETTERS[move.pile]} holds {held} pebble{'s' if held != 1 else ''} (rule P2)"
        return None

    def _apply(self, move: Move) -> None:
        assert isinstance(move, Take)
        piles = list(self.piles)
        piles[move.pile] -= move.count
        self.piles = tuple(piles)
        self.to_move = 1 - self.to_move

    def _parse_move(self, text: str) -> Move:
        return parse_take(text)

    def result(self) -> Result | None:
        if any(self.piles):
            return None
        taker = 1 - self.to_move
        return Result.win(taker, 2, f"{self.game.player_name(taker)} took the last pebble (rule P4)", code="last_pebble")

    def _view(self, viewer: Player | None) -> dict[str, Any]:
        return {"piles": list(self.piles), "max_take": self.max_take}

    def position(self) -> str:
        return f"{','.join(str(pebbles) for pebbles in self.piles)} {self.to_move}"

    def evaluate(self) -> Sequence[float] | None:
        """Exact (rule P4 makes this a sum of subtraction games): the player to move loses
        with best play exactly when the piles' values ``pebbles mod (max_take + 1)`` xor to 0."""
        result = self.result()
        if result is not None:
            return result.returns
        mover_wins = reduce(xor, (pebbles % (self.max_take + 1) for pebbles in self.piles)) != 0
        winner = self.to_move if mover_wins else 1 - self.to_move
        return tuple(1.0 if seat == winner else 0.0 for seat in range(2))
