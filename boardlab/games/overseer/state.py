"""The Overseer state: a flat board, incrementally updated, cheap to snapshot and copy.

Representation (the hot path of random play and MCTS):

* ``board``: a list of 96 piece codes (0 = empty; see board.py);
* ``squares``: per seat, the sorted list of the squares its pieces stand on;
* ``counts``: a tuple of 16, the number of pieces of each piece code;
* ``army``: per seat, its pieces other than the Overseer and Barricades (rules 7.2);
* ``overseers``: the square of each seat's Overseer (-1 once captured);
* ``zobrist``: the hash of the pieces and the side to move;
* ``progress``: the core's :class:`~boardlab.core.ProgressTracker`: the positions since the
  last capture (threefold repetition, rules 7.3) and the plies without a capture (7.4);
* ``moves``: the legal moves of the side to move, listed on first demand (None until then;
  whether there is one at all, rule 7.5, is settled cheaply when the turn passes) and then
  handed out as copies.

Lists and tuples are copy-on-write: ``_apply`` builds fresh ones and never changes one a
snapshot or a copy may hold. So they are declared ``shared``
(:class:`~boardlab.core.state.StateFields`): a snapshot is one tuple of references and a copy
copies only ``progress``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core import TERMINAL, IllegalMoveError, Move, ProgressTracker, Result, State
from boardlab.core.state import StateFields

from .board import (
    BLACK,
    CAPTAIN,
    ENEMY,
    GENERAL,
    KIND_LETTERS,
    KIND_NAMES,
    OVERSEER,
    PILOT,
    SEAT_NAMES,
    SOLDIER,
    SQUARE_BY_NAME,
    SQUARE_CLASS,
    SQUARE_NAMES,
    WHITE,
    board_hash,
    describe_piece,
)
from .evaluation import evaluate
from .kernel import PIECE_VALUE, generate_moves, has_move, is_attacked, move_piece
from .legality import illegal_reason
from .moves import OVERSEER_MARK, PieceMove, move_between, parse_marks, parse_move_text
from .position import OverseerPosition, format_position
from .rules import OverseerRules
from .view import state_view

if TYPE_CHECKING:
    from .game import OverseerGame

#: a repetition needs at least 8 plies since the last capture: 4 to come back once, 4 again
_PLIES_FOR_THIRD_OCCURRENCE = 8
#: the pieces that make the one extra drawn ending of the option extended_material_draw (rules 7.2)
_LONE_MINOR_KINDS = (SOLDIER, CAPTAIN, GENERAL, PILOT)


class OverseerState(State):
    """An Overseer position with its history. Build with :class:`OverseerGame`, not directly."""

    state_fields = StateFields(
        shared=("board", "squares", "counts", "army", "overseers", "to_move", "_current", "zobrist", "_result", "moves"),
        fixed=("rules",),
        trackers=("progress",),
    )
    __slots__ = state_fields.names

    def __init__(self, game: OverseerGame, seed: int, position: OverseerPosition) -> None:
        """Set up from a checked position; derives the piece lists, counts and hash, then settles
        a position that is already finished (rules 10.4). Cost: one board scan."""
        super().__init__(game, seed)
        self.rules: OverseerRules = game.rules
        self.board = list(position.board)
        to_move = self.to_move = position.to_move
        since_capture, move_number = position.since_capture, position.move_number
        squares: tuple[list[int], ...] = ([], [])
        counts = [0] * 16
        overseers = [-1, -1]
        for sq, piece in enumerate(self.board):
            if piece:
                squares[piece >> 3].append(sq)
                counts[piece] += 1
                if piece & 7 == OVERSEER:
                    overseers[piece >> 3] = sq
        self.squares = squares
        self.counts = tuple(counts)
        self.army = tuple(
            sum(counts[seat * 8 + kind] for kind in range(2, 7)) for seat in (WHITE, BLACK)
        )
        self.overseers = tuple(overseers)
        self.zobrist = board_hash(self.board, to_move)
        # the plies before this position count in ``moves``, so the move number goes on (rules 10.1)
        self.progress = ProgressTracker(
            self.zobrist, quiet_moves=since_capture, moves=2 * (move_number - 1) + to_move
        )
        self._result: Result | None = None
        self._current = to_move
        self.moves: list[PieceMove] | None = None
        self._settle_loaded_position()

    # --- the rules ---------------------------------------------------------------
    def _legal_moves(self) -> list[Move]:
        """The moves of the side to move (a copy of the list kept for this position). The body
        of :meth:`mover_moves` is repeated here: this is called once per ply of every search."""
        moves = self.moves
        if moves is None:
            moves = self.moves = generate_moves(self.board, self.squares[self.to_move], self.to_move)
        return list(moves)

    def mover_moves(self) -> list[PieceMove]:
        """The legal moves of the side to move, listed once per position and shared: do not
        change the list. Empty once the game is over."""
        moves = self.moves
        if moves is None:
            moves = self.moves = generate_moves(self.board, self.squares[self.to_move], self.to_move)
        return moves

    def _apply(self, move: Move) -> None:
        assert type(move) is PieceMove
        target = move.target
        seat = self.to_move
        other = 1 - seat
        board, self.squares, self.counts, self.army, self.overseers, captured, zobrist = move_piece(
            self.board, self.squares, self.counts, self.army, self.overseers, seat, move.origin, target, self.zobrist
        )
        self.board = board
        self.zobrist = zobrist
        self.to_move = other
        tracker = self.progress
        tracker.record(zobrist, captured != 0)
        # the endings, in the order of rules 7.6
        if captured & 7 == OVERSEER:
            self._end(Result.win(
                seat, 2, f"{SEAT_NAMES[seat]} captured {SEAT_NAMES[other]}'s Overseer on {SQUARE_NAMES[target]}",
                code="overseer_captured",
            ))
            return
        result = self._draw_by_material() if self.army[0] + self.army[1] <= 1 else None
        if result is None:
            quiet = tracker.quiet_moves
            if quiet >= _PLIES_FOR_THIRD_OCCURRENCE and tracker.repetitions() >= 3:
                result = Result.draw((0, 1), 2, "the same position came up a third time", code="repetition")
            elif quiet >= self.rules.no_capture_limit:
                result = self._no_capture_result(quiet)
        if result is not None:
            self._end(result)
            return
        self.moves = None
        if has_move(board, self.squares[other], other):
            self._current = other
        else:
            self._end(self._no_moves_result(other))

    def _end(self, result: Result) -> None:
        self._result = result
        self._current = TERMINAL
        self.moves = []

    def _draw_by_material(self) -> Result | None:
        """Rules 7.2: nothing but Overseers and Barricades (or, with the option, one Soldier,
        Captain, General or Pilot against a bare Overseer), and the side to move cannot
        capture the enemy Overseer at once."""
        white, black = self.army
        if white or black:
            if not self.rules.extended_material_draw:
                return None
            lone = WHITE if white else BLACK
            if not any(self.counts[lone * 8 + kind] for kind in _LONE_MINOR_KINDS):
                return None  # the one piece is a Commander: that wins (rules 7.2)
            reason = "insufficient material: one minor piece and the Overseers"
        else:
            reason = "insufficient material: only the Overseers and Barricades are left"
        mover = self.to_move
        if is_attacked(self.board, self.overseers[1 - mover], mover):
            return None  # the side to move can capture the Overseer and win
        return Result.draw((0, 1), 2, reason, code="insufficient_material")

    def _no_capture_result(self, quiet: int) -> Result:
        """Rules 7.4: a draw; with no_capture_ending=material a win for the side ahead in
        material (the values of rule 7.4), and a draw when the counts are equal."""
        reason = f"{quiet} plies without a capture"
        if self.rules.no_capture_material:
            white, black = self.material()
            if white != black:
                leader = WHITE if white > black else BLACK
                high, low = max(white, black), min(white, black)
                return Result.win(
                    leader, 2, f"{reason}: {SEAT_NAMES[leader]} is ahead in material, {high:g} to {low:g}",
                    code="no_capture_material",
                )
            reason += f", and material is equal ({white:g} each)"
        return Result.draw((0, 1), 2, reason, code="no_capture_limit")

    def _no_moves_result(self, stuck: int) -> Result:
        reason = f"{SEAT_NAMES[stuck]} has no legal move"
        if self.rules.no_moves_loses:
            return Result.win(1 - stuck, 2, reason, code="no_moves")
        return Result.draw((0, 1), 2, reason, code="no_moves")

    def _settle_loaded_position(self) -> None:
        """Decide whether a loaded position is already over (rules 10.4), in the order of 7.6."""
        mover = self.to_move
        result: Result | None = None
        if self.overseers[mover] < 0:
            winner = 1 - mover
            result = Result.win(
                winner, 2, f"{SEAT_NAMES[winner]} has captured {SEAT_NAMES[mover]}'s Overseer", code="overseer_captured"
            )
        if result is None and self.army[0] + self.army[1] <= 1:
            result = self._draw_by_material()
        quiet = self.progress.quiet_moves
        if result is None and quiet >= self.rules.no_capture_limit:
            result = self._no_capture_result(quiet)
        if result is None and not has_move(self.board, self.squares[mover], mover):
            result = self._no_moves_result(mover)
        if result is not None:
            self._end(result)

    # --- protocol hooks ------------------------------------------------------------
    def current_player(self) -> int:
        return self._current

    def result(self) -> Result | None:
        return self._result

    def _parse_move(self, text: str) -> Move:
        """Notation to a move (rules 9.2): a leading piece letter must name the piece that stands
        there, and a ``#`` an Overseer captured. ``x`` must match the board unless the option
        loose_capture_marks reads ``-`` and ``x`` alike."""
        written, marks = parse_move_text(text), parse_marks(text)
        board = self.board
        origin, target = written.origin, written.target
        if marks.kind and board[origin] & 7 != marks.kind:
            held = f"holds {describe_piece(board[origin])}" if board[origin] else "is empty"
            raise IllegalMoveError(
                f"{text.strip()}: {SQUARE_NAMES[origin]} {held}, not a {KIND_NAMES[marks.kind]} "
                f"('{KIND_LETTERS[marks.kind]}', rule 9.2)"
            )
        capture = written.capture
        if self.rules.loose_capture_marks:
            capture = SQUARE_CLASS[self.to_move][board[target]] == ENEMY
        if marks.overseer_mark and not (
            board[target] & 7 == OVERSEER and board[target] >> 3 != self.to_move
        ):
            held = f"holds {describe_piece(board[target])}" if board[target] else "is empty"
            raise IllegalMoveError(
                f"{text.strip()}: '{OVERSEER_MARK}' marks the capture of the enemy Overseer, and "
                f"{SQUARE_NAMES[target]} {held} (rule 9.2)"
            )
        return move_between(origin, target, capture) or PieceMove(origin, target, capture)

    def _illegal_reason(self, move: Move) -> str | None:
        return illegal_reason(self, move)

    def _view(self, viewer: int | None) -> dict[str, Any]:
        """The whole board: Overseer has no hidden information, so every seat sees the same."""
        return state_view(self, viewer)

    def position(self) -> str:
        return format_position(self)

    def winning_move(self) -> Move | None:
        """A capture of the enemy Overseer, if the side to move has one (rule 7.1): the search
        agents play it at once. Cost: one attack test; the move list only when it succeeds."""
        if self._result is not None:
            return None
        target = self.overseers[1 - self.to_move]
        if not is_attacked(self.board, target, self.to_move):
            return None
        for move in self.mover_moves():
            if move.target == target:
                return move
        return None

    def position_key(self) -> int:
        """The Zobrist hash of the pieces and the side to move: the position without its
        counters (what rule 7.3 compares)."""
        return self.zobrist

    def evaluate(self) -> Sequence[float]:
        """Estimated returns per seat (see evaluation.py); the result's returns when over."""
        return evaluate(self)

    # --- read-only facts for views, tests and agents -------------------------------
    @property
    def since_capture(self) -> int:
        """Plies since the last capture (rules 7.4)."""
        return self.progress.quiet_moves

    def material(self) -> tuple[float, float]:
        """Each side's material in Soldier units, as rule 7.4 counts it: Soldier 1, Captain 2.5,
        General 3, Pilot 3, Commander 7; Barricades and the Overseer count nothing."""
        totals = [0.0, 0.0]
        for code, count in enumerate(self.counts):
            if count:
                totals[code >> 3] += PIECE_VALUE[code] * count
        return totals[0], totals[1]

    @property
    def move_number(self) -> int:
        """The move number of the position string: 1 at the start, +1 after each Black move (rules 10.1)."""
        return self.progress.moves // 2 + 1

    def piece_at(self, name: str) -> str:
        """The letter of the piece on the square ``name`` ('' when empty), as in a position string."""
        piece = self.board[SQUARE_BY_NAME[name.upper()]]
        if not piece:
            return ""
        letter = KIND_LETTERS[piece & 7]
        return letter if piece >> 3 == WHITE else letter.lower()
