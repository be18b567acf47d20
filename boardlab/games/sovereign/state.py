"""The Sovereign state: flat, incrementally updated, cheap to snapshot and copy.

Representation (the hot path of random play and search):

* ``heights``, ``pieces``: 49 ints each (tower levels; piece codes, 0 = empty, see board.py);
* ``level_sets[h]``: the set of squares of height h; ``piece_sets[code]``: the squares of
  each piece code; ``occupied``: every piece's square (sets are 49-bit ints);
* ``pool_lower``, ``pool_top``: the supply; ``placements``: setup placements made (14 in
  play); ``play_ply``: plies of play made (rule 1.11.4);
* ``zobrist``: the hash of heights, pieces and the player to move; ``progress``: the core's
  :class:`~boardlab.core.ProgressTracker` of those hashes, for threefold repetition (1.11.3);
* ``threatened``: whether the player to move has a threatened Sovereign (rule 1.9.1);
* ``_moves``: the legal moves of the player to move, made when first asked for (None until
  then) and handed out as copies; whether any exists is settled when the turn begins;
* ``flags``: the rules as the kernel takes them (:meth:`SovereignRules.kernel_flags`).

The rules live in kernel.py (move generation, the board changes of a move, the end-of-turn
checks), flat functions over these fields that may be compiled; this class keeps the
history, the endings and the protocol. Lists are copy-on-write: the kernel returns a fresh
copy of a list it changes and never mutates a list that a snapshot or a copy may hold: they
are declared ``shared`` (:class:`~boardlab.core.state.StateFields`), so a snapshot is one
tuple of references and a copy copies only the tracker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core import TERMINAL, IllegalMoveError, Move, PositionError, ProgressTracker, Result, State
from boardlab.core.state import StateFields

from . import kernel
from .board import (
    ALL_SQUARES,
    BIT,
    CONSULTANT,
    CONTRACTOR,
    NUM_SQUARES,
    SEAT_NAMES,
    SETUP_LOWER_PER_PLAYER,
    SETUP_PLACEMENTS,
    SETUP_TOP_PER_PLAYER,
    SQUARE_NAMES,
    board_hash,
    setup_item,
)
from .evaluation import evaluate
from .kernel import MOVE_CAPTURES, MOVE_WINS, TURN_FLIP
from .legality import illegal_reason
from .moves import (
    CHECK_SUFFIX,
    WIN_SUFFIX,
    ConsultantJump,
    ContractorMove,
    Placement,
    Slide,
    consultant_jump,
    parse_marks,
    parse_move_text,
)
from .position import SovereignPosition, format_position, winner_on_board
from .rules import SovereignRules
from .view import state_view

if TYPE_CHECKING:
    from .game import SovereignGame


class SovereignState(State):
    """A Sovereign position with its history. Made by :class:`SovereignGame`, not directly."""

    state_fields = StateFields(
        shared=(
            "heights", "pieces", "level_sets", "piece_sets", "occupied", "pool_lower", "pool_top", "to_move",
            "placements", "play_ply", "zobrist", "threatened", "_result", "_current", "_moves", "_scan",
        ),
        fixed=("rules", "flags"),
        trackers=("progress",),
    )
    __slots__ = state_fields.names

    def __init__(self, game: SovereignGame, seed: int, position: SovereignPosition | None = None) -> None:
        """The empty board before setup, or a checked position; settles whether it is already over."""
        super().__init__(game, seed)
        rules: SovereignRules = game.rules
        self.rules = rules
        self.flags = rules.kernel_flags()
        if position is None:
            position = SovereignPosition(
                [0] * NUM_SQUARES, [0] * NUM_SQUARES, 0, 0,
                rules.supply_lower - 2 * SETUP_LOWER_PER_PLAYER, rules.supply_top - 2 * SETUP_TOP_PER_PLAYER, 0, None,
            )
        self.heights = list(position.heights)
        self.pieces = list(position.pieces)
        level_sets = [0, 0, 0, 0]
        piece_sets = [0] * 9
        for square in range(NUM_SQUARES):
            level_sets[self.heights[square]] |= BIT[square]
            piece_sets[self.pieces[square]] |= BIT[square]
        self.level_sets = level_sets
        piece_sets[0] = 0
        self.piece_sets = piece_sets
        self.occupied = sum(piece_sets)
        self.pool_lower = position.pool_lower
        self.pool_top = position.pool_top
        self.to_move = position.to_move
        self.placements = position.placements
        self.play_ply = position.ply
        self.zobrist = board_hash(self.heights, self.pieces, self.to_move)
        self.progress = ProgressTracker(self.zobrist, moves=position.ply)
        self.threatened = False
        self._result: Result | None = None
        self._current = self.to_move
        self._moves: list[Move] | None = None
        self._scan: tuple[int, int, int] | None = None
        self._settle_loaded(position.ending)

    # --- turns ------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        """Settle whether the player to move can move; end the game if not (rule 6, step 6).
        The list of moves itself is made when first asked for."""
        if self.placements < SETUP_PLACEMENTS:
            self._moves = None
            self.threatened = False  # every setup step has a free square (rule 1.2.5)
            self._current = self.to_move
            return
        self._take_turn(*kernel.turn_status(
            self.to_move, self.heights, self.piece_sets, self.level_sets, self.occupied,
            self.pool_lower, self.pool_top, self.flags,
        ))

    def _take_turn(
        self, threatened: bool, has_move: bool, has_sovereign_move: bool, reach: int, protection: int, targets: int
    ) -> None:
        """The turn of the player to move begins, given its :func:`kernel.turn_status`."""
        self._moves = None
        self._scan = (reach, protection, targets)
        self.threatened = threatened
        seat = self.to_move
        if has_move and (has_sovereign_move or not self.rules.stalemate_any_time):
            self._current = seat
            return
        name = SEAT_NAMES[seat]
        if self.rules.stalemate_any_time and not has_sovereign_move:
            self._end(Result.draw((0, 1), 2, f"{name}'s Sovereign has no legal move", code="sovereign_stalemate"))
        elif threatened:
            self._end(Result.draw(
                (0, 1), 2, f"{name}'s Sovereign is threatened and has no legal move", code="sovereign_stalemate"
            ))
        elif self.rules.no_moves_loses:
            self._end(Result.win(1 - seat, 2, f"{name} has no legal move", code="no_moves"))
        else:
            self._end(Result.draw((0, 1), 2, f"{name} has no legal move", code="no_moves"))

    def move_list(self) -> list[Move]:
        """The legal moves of the player to move (shared, do not change it); made once per position."""
        moves = self._moves
        if moves is None:
            if self._current == TERMINAL:
                moves = []
            elif self.placements < SETUP_PLACEMENTS:
                seat, kind, with_tower = setup_item(self.placements)
                moves = kernel.setup_moves(seat, kind, with_tower, self.level_sets, self.occupied)
            else:
                reach, protection, targets = self._scan or kernel.sovereign_scan(
                    self.to_move, self.heights, self.piece_sets, self.level_sets, self.occupied, self.flags
                )
                moves = kernel.play_moves(
                    self.to_move, self.heights, self.piece_sets, self.level_sets, self.occupied,
                    self.pool_lower, self.pool_top, self.flags, reach, protection, targets,
                )[0]
            self._moves = moves
        return moves

    def _end(self, result: Result) -> None:
        self._result = result
        self._current = TERMINAL
        self._moves = []

    def _settle_loaded(self, ending: str | None) -> None:
        """Decide whether a loaded position is over (rule 5.4.6): a win shows on the board, a
        repetition only in the written ending, the move limit in the ply."""
        rules = self.rules
        winners = winner_on_board(self.heights, self.pieces) if self.placements >= SETUP_PLACEMENTS else []
        if winners:
            self._end(self._win_result(winners[0]))
            return
        if ending == "repetition":
            self._end(Result.draw((0, 1), 2, "threefold repetition", code="repetition"))
            return
        if self.placements >= SETUP_PLACEMENTS and self.play_ply >= rules.ply_limit:
            self._end(self._limit_result())
            return
        self._begin_turn()
        derived = None if self._result is None else self._result.code
        if ending is not None and ending != derived:
            raise PositionError(
                f"sovereign position: the ending {ending!r} does not fit the position, which "
                f"{'is not over' if derived is None else f'ends by {derived!r}'} (rule 5.4.6)"
            )

    def _win_result(self, seat: int) -> Result:
        square = (self.piece_sets[seat * 4 + 1]).bit_length() - 1
        return Result.win(
            seat, 2, f"{SEAT_NAMES[seat]}'s Sovereign stands on the 3-level tower on {SQUARE_NAMES[square]}",
            code="objective",
        )

    def _limit_result(self) -> Result:
        return Result.draw((0, 1), 2, f"{self.rules.ply_limit} plies of play without a result", code="move_limit")

    # --- applying moves ------------------------------------------------------------------------
    def _apply(self, move: Move) -> None:
        seat = self.to_move
        kind = type(move)
        if kind is Slide:
            piece, build, levels = move.kind, -1, 0  # type: ignore[attr-defined]
        elif kind is ContractorMove:
            piece, build, levels = CONTRACTOR, move.build, move.levels  # type: ignore[attr-defined]
        elif kind is ConsultantJump:
            piece, build, levels = CONSULTANT, -1, 0
        else:
            self._place(move)  # type: ignore[arg-type]
            return
        (
            self.heights, self.pieces, self.level_sets, self.piece_sets, self.occupied, zobrist,
            self.pool_lower, self.pool_top, outcome, threatened, has_move, has_sovereign_move, reach, protection, targets,
        ) = kernel.play_move(
            seat, piece, move.origin, move.target, build, levels,  # type: ignore[attr-defined]
            self.heights, self.pieces, self.level_sets, self.piece_sets, self.occupied, self.zobrist,
            self.pool_lower, self.pool_top, self.flags,
        )
        self.zobrist = zobrist
        self.play_ply += 1
        self.to_move = 1 - seat
        tracker = self.progress
        # a capture can never be undone, so no earlier position comes back
        occurrences = tracker.record(zobrist, bool(outcome & MOVE_CAPTURES))
        if outcome & MOVE_WINS:
            self._end(self._win_result(seat))
            return
        count = self.rules.repetition_count
        if count and occurrences >= count and tracker.quiet_moves >= 4 * (count - 1):
            self._end(Result.draw((0, 1), 2, "threefold repetition" if count == 3 else
                                  f"the same position {count} times", code="repetition"))
            return
        if self.play_ply >= self.rules.ply_limit:
            self._end(self._limit_result())
            return
        self._take_turn(threatened, has_move, has_sovereign_move, reach, protection, targets)

    def _place(self, move: Placement) -> None:
        """A setup placement (rules 1.2.3-1.2.6); the supply does not change (rule 1.2.1)."""
        seat = self.to_move
        self.heights, self.pieces, self.level_sets, self.piece_sets, self.occupied, self.zobrist = kernel.place(
            seat, move.kind, move.square, move.tower, self.heights, self.pieces, self.level_sets, self.piece_sets,
            self.occupied, self.zobrist,
        )
        self.placements += 1
        self.to_move = 1 - seat
        self.zobrist ^= TURN_FLIP
        self.progress.record(self.zobrist, True)  # repetition counts from the start of play (rule 1.11.3)
        self._begin_turn()

    # --- protocol hooks -------------------------------------------------------------------------
    def current_player(self) -> int:
        return self._current

    def result(self) -> Result | None:
        return self._result

    def _legal_moves(self) -> list[Move]:
        moves = self._moves
        return (self.move_list() if moves is None else moves).copy()

    def _parse_move(self, text: str) -> Move:
        move, suffix = parse_move_text(text), parse_marks(text)
        if type(move) is ConsultantJump:
            move = consultant_jump(move.origin, move.target, move.capture, self.heights[move.target] > 0)
        if suffix and move in self.move_list():
            self._check_suffix(move, suffix)
        return move

    def _check_suffix(self, move: Move, suffix: str) -> None:
        """A written '+' must threaten the opponent's Sovereign and '#' must win (rule 5.2)."""
        mover = self.to_move
        self.apply(move)
        try:
            won = self._result is not None and self._result.code == "objective"
            threatens = self._current != TERMINAL and self.threatened
        finally:
            self.undo()
        if suffix == WIN_SUFFIX and not won:
            raise IllegalMoveError(f"{move}{suffix}: '#' marks a winning move, and {move} does not win (rule 5.2)")
        if suffix == CHECK_SUFFIX and not threatens:
            raise IllegalMoveError(
                f"{move}{suffix}: '+' marks a move that threatens {SEAT_NAMES[1 - mover]}'s Sovereign, "
                f"and {move} does not{' (it wins: write #)' if won else ''} (rule 5.2)"
            )

    def _illegal_reason(self, move: Move) -> str | None:
        if move in self.move_list():
            return None
        return illegal_reason(self, move)

    def _view(self, viewer: int | None) -> dict[str, Any]:
        """The whole board: Sovereign hides nothing, so every seat sees the same."""
        return state_view(self, viewer)

    def position(self) -> str:
        return format_position(self)

    def position_key(self) -> int:
        """The Zobrist hash of heights, pieces and the player to move: the position without its
        ply count (what rule 1.11.3 compares). Placements change the pieces, so setup positions
        never collide with each other or with play."""
        return self.zobrist

    def evaluate(self) -> Sequence[float]:
        """Estimated returns per seat (evaluation.py); the result's returns once over."""
        return evaluate(self)

    # --- reading the position -------------------------------------------------------------------
    @property
    def in_setup(self) -> bool:
        return self.placements < SETUP_PLACEMENTS

    def square_set(self, seat: int, kind: int) -> int:
        """The squares of ``seat``'s pieces of ``kind`` (a 49-bit set)."""
        return self.piece_sets[seat * 4 + kind + 1]

    def free_squares(self) -> int:
        return ALL_SQUARES ^ self.occupied


__all__ = ["SovereignState"]
