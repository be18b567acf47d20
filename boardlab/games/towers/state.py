"""The Towers state: flat, incrementally updated, cheap to snapshot and copy.

Representation (the hot path of random play and MCTS):

* ``stacks``: a list of 49 tuples (bottom -> top), tokens are seats ``0..3`` or CASTLE.
* ``control``: five bit masks, one per seat plus one for bare castles (index CASTLE),
  of the squares whose top token is that seat's.
* ``reserves``: pieces each seat still holds (rules 1.7).
* ``zobrist``: the position hash (stacks + seat to move).
* ``progress``: the core's :class:`~boardlab.core.ProgressTracker` with the hash of every
  position reached, the moves since the last build or dropping push, and the move
  count: threefold repetition (rules 8.1), the no-progress draw (8.2) and the cap (8.3).

The lists are copy-on-write: ``_apply`` replaces them by fresh copies before it
changes them and never mutates a list a snapshot or a copy may hold. So they are
declared ``shared`` (:class:`~boardlab.core.state.StateFields`): a snapshot is one tuple
of references and a copy copies only ``progress``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core import TERMINAL, Move, PositionError, ProgressTracker, Result, State
from boardlab.core.state import StateFields

from . import kernel
from .board import CASTLE, SQUARE_BIT, board_hash
from .evaluation import castle_rays, evaluate
from .legality import illegal_reason
from .moves import Build, Push, parse_move_text
from .position import TowersPosition, format_position
from .rules import TowersRules
from .view import state_view

if TYPE_CHECKING:
    from .game import TowersGame


class TowersState(State):
    """A Towers position with its history. Build with :class:`TowersGame`, not directly."""

    state_fields = StateFields(
        shared=("stacks", "control", "reserves", "to_move", "_current", "zobrist", "_result"),
        fixed=("rules", "castles", "castle_rays"),
        trackers=("progress",),
    )
    __slots__ = state_fields.names

    def __init__(self, game: TowersGame, seed: int, position: TowersPosition) -> None:
        """Set up from a checked position; derives control, reserves and the hash, then settles
        the result of a position that is already finished (rules 10.4). Cost: one board scan."""
        super().__init__(game, seed)
        rules: TowersRules = game.rules
        self.rules = rules
        self.stacks = list(position.stacks)
        to_move = self.to_move = position.to_move
        control = [0, 0, 0, 0, 0]
        on_board = [0, 0, 0, 0]
        castles = []
        for sq, stack in enumerate(self.stacks):
            if stack:
                control[stack[-1]] |= SQUARE_BIT[sq]
                if stack[0] == CASTLE:
                    castles.append(sq)
                for token in stack:
                    if token != CASTLE:
                        on_board[token] += 1
        self.control = control
        self.castles = tuple(castles)
        self.castle_rays = castle_rays(self.castles)
        self.reserves = [rules.supply - on_board[seat] for seat in range(rules.players)]
        self.zobrist = board_hash(self.stacks, to_move)
        self.progress = ProgressTracker(self.zobrist, quiet_moves=position.no_progress)
        self._result: Result | None = None
        self._current = to_move
        self._settle_loaded_position()

    # --- the rules (the hot parts live in kernel.py) --------------------------------
    def can_move(self, seat: int) -> bool:
        """Whether ``seat`` has a legal build or push (rules 7.5). Stops at the first one found."""
        return kernel.can_move(self.stacks, self.control[seat], self.reserves[seat] > 0)

    def _legal_moves(self) -> list[Move]:
        """Builds and pushes of the seat to move, by square a1..g7. Cost: ~1 us per tower."""
        seat = self.to_move
        return kernel.legal_moves(self.stacks, self.control[seat], self.reserves[seat] > 0)

    def _apply(self, move: Move) -> None:
        seat = self.to_move
        stacks = self.stacks = self.stacks.copy()
        # copy-on-write: a build changes the reserves, a push the control masks
        if type(move) is Build:
            control = self.control
            reserves = self.reserves = self.reserves.copy()
            direction = -1
        else:
            assert type(move) is Push
            control = self.control = self.control.copy()
            reserves = self.reserves
            direction = move.direction_index
        rules = self.rules
        zobrist, to_move, ending, progress = kernel.play(
            stacks, control, reserves, seat, move.square, direction, self.zobrist, self.castles,
            rules.players, rules.castles_to_win, rules.crowns_to_win,
        )
        self.zobrist = zobrist
        self.to_move = to_move
        tracker = self.progress
        # positions before the last build or dropping push cannot come back (rules 8.1)
        occurrences = tracker.record(zobrist, progress)
        if ending:
            self._result = self._ending(ending, seat)
            self._current = TERMINAL
            return
        # the draws of rules 8.4, step 5; a progress move leaves no quiet moves to count
        quiet = 0 if progress else tracker.quiet_moves
        if quiet >= rules.no_progress_limit:
            reason, code = f"{quiet} moves without a build or a dropping push", "no_progress"
        elif occurrences >= 3:
            reason, code = "threefold repetition", "repetition"
        elif rules.ply_cap and self.ply + 1 >= rules.ply_cap:
            reason, code = f"the ply cap of {rules.ply_cap} was reached", "move_limit"
        else:
            self._current = to_move
            return
        self._result = Result.draw(range(rules.players), rules.players, reason, code=code)
        self._current = TERMINAL

    def _ending(self, ending: int, mover: int) -> Result:
        """The result of a move by ``mover`` that ended the game as ``kernel.play`` said."""
        rules = self.rules
        players = rules.players
        if ending == kernel.CASTLE_ENDING:
            result = self._castle_winner(mover)
            assert result is not None
            return result
        if players == 2:
            return Result.win(mover, 2, f"{rules.names[1 - mover]} cannot move", code="no_moves")
        return Result.win(mover, players, "none of the opponents can move", code="no_moves")

    def _castle_winner(self, mover: int) -> Result | None:
        """The castle win of rules 7.1-7.4, ties going to ``mover`` then clockwise."""
        rules = self.rules
        players = rules.players
        seat, kind, count = kernel.castle_winner(
            self.stacks, self.castles, mover, players, rules.castles_to_win, rules.crowns_to_win
        )
        if kind == kernel.CASTLES_WIN:
            return Result.win(seat, players, f"{rules.names[seat]} controls {count} castles", code="castles")
        if kind == kernel.CROWNS_WIN:
            return Result.win(seat, players, f"{rules.names[seat]} controls {count} crowned castles", code="crowns")
        return None

    def _settle_loaded_position(self) -> None:
        """Decide whether a loaded position is already over (rules 10.4)."""
        rules = self.rules
        players = rules.players
        previous = (self.to_move - 1) % players
        result = self._castle_winner(previous)
        if result is None and not self.can_move(self.to_move):
            if players == 2:
                result = Result.win(previous, 2, f"{rules.names[self.to_move]} cannot move", code="no_moves")
            elif any(self.can_move((previous + offset) % players) for offset in (1, 2, 3)):
                raise PositionError(
                    f"towers position: {rules.names[self.to_move]} is to move but cannot move; in a "
                    "4-player game such a player is skipped (rules 7.6), so this position cannot occur"
                )
            else:
                result = Result.win(previous, players, "none of the opponents can move", code="no_moves")
        quiet = self.progress.quiet_moves
        if result is None and quiet >= rules.no_progress_limit:
            result = Result.draw(
                range(players), players, f"{quiet} moves without a build or a dropping push", code="no_progress"
            )
        if result is not None:
            self._result = result
            self._current = TERMINAL

    # --- protocol hooks ------------------------------------------------------------
    def current_player(self) -> int:
        return self._current

    def result(self) -> Result | None:
        return self._result

    def _parse_move(self, text: str) -> Move:
        return parse_move_text(text)

    def _illegal_reason(self, move: Move) -> str | None:
        return illegal_reason(self, move)

    @property
    def no_progress(self) -> int:
        """Moves since the last build or dropping push (rules 8.2)."""
        return self.progress.quiet_moves

    def position_key(self) -> int:
        """The Zobrist hash of the stacks and the seat to move: the position without its counter."""
        return self.zobrist

    def _view(self, viewer: int | None) -> dict[str, Any]:
        """The whole board: Towers has no hidden information, so every seat sees the same."""
        return state_view(self, viewer)

    def position(self) -> str:
        return format_position(self)

    def evaluate(self) -> Sequence[float]:
        """Estimated returns per seat (see evaluation.py): by the fitted weights where they are in
        force, else the hand-set ones; the result's returns when over."""
        return evaluate(self)
