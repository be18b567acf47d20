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

from typing import TYPE_CHECKING, Any, Sequence

from boardlab.core import TERMINAL, Move, PositionError, ProgressTracker, Result, State
from boardlab.core.state import StateFields

from .board import (
    CASTLE,
    MAX_HEIGHT,
    NEIGHBOURS,
    SQUARE_BIT,
    STEP,
    TURN_KEYS,
    ZOBRIST_TABLES,
    board_hash,
    castle_counts,
    zobrist_miss,
)
from .evaluation import evaluate
from .legality import illegal_reason
from .moves import BUILDS, NEIGHBOUR_PUSHES, Build, Push, parse_move_text
from .position import TowersPosition, format_position
from .rules import TowersRules
from .view import state_view

if TYPE_CHECKING:
    from .game import TowersGame


class TowersState(State):
    """A Towers position with its history. Build with :class:`TowersGame`, not directly."""

    state_fields = StateFields(
        shared=("stacks", "control", "reserves", "to_move", "_current", "zobrist", "_result"),
        fixed=("rules", "castles", "castle_mask"),
        trackers=("progress",),
    )
    __slots__ = state_fields.names

    def __init__(self, game: "TowersGame", seed: int, position: TowersPosition) -> None:
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
        self.castle_mask = sum(SQUARE_BIT[sq] for sq in castles)
        self.reserves = [rules.supply - on_board[seat] for seat in range(rules.players)]
        self.zobrist = board_hash(self.stacks, to_move)
        self.progress = ProgressTracker(self.zobrist, quiet_moves=position.no_progress)
        self._result: Result | None = None
        self._current = to_move
        self._settle_loaded_position()

    # --- the rules ---------------------------------------------------------------
    def can_move(self, seat: int) -> bool:
        """Whether ``seat`` has a legal build or push (rules 7.5). Stops at the first one found."""
        mask = self.control[seat]
        if not mask:
            return False
        stacks = self.stacks
        may_build = self.reserves[seat] > 0
        while mask:
            low = mask & -mask
            mask ^= low
            sq = low.bit_length() - 1
            stack = stacks[sq]
            height = len(stack)
            if may_build and height < MAX_HEIGHT and stack[0] != CASTLE:
                return True
            if height >= 2:
                for nxt in NEIGHBOURS[sq]:
                    # a push is legal iff its first step moves a piece (rules 5.6)
                    if len(stacks[nxt]) < height:
                        return True
        return False

    def _legal_moves(self) -> list[Move]:
        """Builds and pushes of the seat to move, by square a1..g7. Cost: ~1 us per tower."""
        seat = self.to_move
        mask = self.control[seat]
        stacks = self.stacks
        may_build = self.reserves[seat] > 0
        moves: list[Move] = []
        append = moves.append
        while mask:
            low = mask & -mask
            mask ^= low
            sq = low.bit_length() - 1
            stack = stacks[sq]
            height = len(stack)
            if may_build and height < MAX_HEIGHT and stack[0] != CASTLE:
                append(BUILDS[sq])
            if height >= 2:
                for nxt, push in NEIGHBOUR_PUSHES[sq]:
                    if len(stacks[nxt]) < height:
                        append(push)
        return moves

    def _apply(self, move: Move) -> None:
        seat = self.to_move
        stacks = self.stacks = self.stacks.copy()
        if type(move) is Build:
            sq = move.square
            old = stacks[sq]
            new = stacks[sq] = old + (seat,)
            table = ZOBRIST_TABLES[sq]
            self.zobrist ^= (table.get(old) or zobrist_miss(sq, old)) ^ (
                table.get(new) or zobrist_miss(sq, new)
            )
            reserves = self.reserves = self.reserves.copy()
            reserves[seat] -= 1
            # a build never touches a castle (rules 4.1), so no castle condition can change
            self._pass_turn(seat, False, True)
            return
        assert type(move) is Push
        dropped = self._push(move.square, move.direction_index)
        self._pass_turn(seat, True, dropped)

    def _push(self, start: int, direction: int) -> bool:
        """Run the push algorithm of rules 5.3 on ``self.stacks`` (already a private copy).

        The original pieces are the top ``count`` pieces of ``cur``, above ``base`` pieces
        that were there before. At each step the pieces below the next square's height,
        and always the lowest one, stay; the rest drop onto the next square.
        Updates control masks and the hash; returns whether pieces dropped (rules 5.10).
        """
        stacks = self.stacks
        step = STEP[direction]
        cur = start
        stack = stacks[cur]
        count = len(stack)
        base = 0
        dropped = False
        touched = [cur]
        originals = [stack]
        while True:
            nxt = step[cur]
            if nxt < 0:
                break  # off the board: every remaining piece is blocked (rules 5.5)
            target = stacks[nxt]
            target_height = len(target)
            blocked = target_height - base
            if blocked < 1:
                blocked = 1  # the lowest original piece always stays (rules 5.3)
            if blocked >= count:
                break
            if target_height <= base:
                dropped = True  # the movers land lower than they stood (rules 5.10)
            cut = base + blocked
            movers = stack[cut:]
            stacks[cur] = stack[:cut]
            stack = stacks[nxt] = target + movers
            touched.append(nxt)
            originals.append(target)
            cur = nxt
            base = target_height
            count -= blocked
        control = self.control = self.control.copy()
        zobrist = self.zobrist
        for sq, old in zip(touched, originals):
            new = stacks[sq]
            table = ZOBRIST_TABLES[sq]
            zobrist ^= (table.get(old) or zobrist_miss(sq, old)) ^ (table.get(new) or zobrist_miss(sq, new))
            if old:
                old_top = old[-1]
                if old_top != new[-1]:
                    bit = SQUARE_BIT[sq]
                    control[old_top] ^= bit
                    control[new[-1]] |= bit
            else:
                control[new[-1]] |= SQUARE_BIT[sq]
        self.zobrist = zobrist
        return dropped

    def _pass_turn(self, mover: int, check_castles: bool, progress: bool) -> None:
        """Rules 8.4, steps 3-5: castle conditions, passing the turn, then the draws.
        ``progress``: the move was a build or a dropping push (rules 5.10, 8.2)."""
        rules = self.rules
        players = rules.players
        if check_castles:
            winner = self._castle_winner(mover)
            if winner is not None:
                self._finish(mover, (mover + 1) % players, winner, progress)
                return
        if players == 2:
            nxt = 1 - mover
            if not self.can_move(nxt):
                reason = f"{rules.names[nxt]} cannot move"
                self._finish(mover, nxt, Result.win(mover, 2, reason, code="no_moves"), progress)
                return
        else:
            for offset in (1, 2, 3):
                nxt = (mover + offset) % players
                if self.can_move(nxt):
                    break
            else:
                self._finish(
                    mover, (mover + 1) % players,
                    Result.win(mover, players, "none of the opponents can move", code="no_moves"),
                    progress,
                )
                return
        zobrist = self.zobrist = self.zobrist ^ TURN_KEYS[mover] ^ TURN_KEYS[nxt]
        tracker = self.progress
        tracker.record(zobrist, progress)
        self.to_move = nxt
        quiet = tracker.quiet_moves
        if quiet >= rules.no_progress_limit:
            reason, code = f"{quiet} moves without a build or a dropping push", "no_progress"
        elif quiet >= 2 and tracker.repetitions() >= 3:
            # positions before the last build or dropping push cannot come back (rules 8.1)
            reason, code = "threefold repetition", "repetition"
        elif rules.ply_cap and self.ply + 1 >= rules.ply_cap:
            reason, code = f"the ply cap of {rules.ply_cap} was reached", "move_limit"
        else:
            self._current = nxt
            return
        self._result = Result.draw(range(players), players, reason, code=code)
        self._current = TERMINAL

    def _finish(self, mover: int, shown_to_move: int, result: Result, progress: bool) -> None:
        """End the game. The position string then names ``shown_to_move`` (rules 10.4)."""
        self.zobrist ^= TURN_KEYS[mover] ^ TURN_KEYS[shown_to_move]
        self.progress.record(self.zobrist, progress)
        self.to_move = shown_to_move
        self._result = result
        self._current = TERMINAL

    def _castle_winner(self, mover: int) -> Result | None:
        """The castle win of rules 7.1-7.4, ties going to ``mover`` then clockwise."""
        rules = self.rules
        controlled, crowned = castle_counts(self.stacks, self.castles)
        players = rules.players
        for offset in range(players):
            seat = (mover + offset) % players
            if controlled[seat] >= rules.castles_to_win:
                return Result.win(
                    seat, players, f"{rules.names[seat]} controls {controlled[seat]} castles", code="castles"
                )
            if crowned[seat] >= rules.crowns_to_win:
                return Result.win(
                    seat, players, f"{rules.names[seat]} controls {crowned[seat]} crowned castles", code="crowns"
                )
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
        return state_view(self)

    def position(self) -> str:
        return format_position(self)

    def evaluate(self) -> Sequence[float]:
        """Estimated returns per seat (see evaluation.py); the result's returns when over."""
        return evaluate(self)
