"""The Towers state and its rules, compiled together where a compiler is at hand.

:class:`TowersState` is the game's state (the core's :class:`~boardlab.core.state.State`
protocol) and holds the position in machine integers: every stack is one int
(:func:`stack_code`), the board a list of 49 of them, each seat's squares and the bare castles a
bit mask, the hash a Zobrist key. Compiled by mypyc together with the core's State (setup.py
builds them as one group), move generation, apply, undo, copy and the evaluation are native
methods of one native class: a search's compiled loop applies a move with no interpreter in
between, and a copy or an undo is a handful of references. Run as plain Python
(``BOARDLAB_PURE=1``) the same source is the same state.

A move changes the state's list of stacks in place and makes a new :class:`Board` for the rest
(the masks, the hash, the turn), which then never changes: the undo snapshot is the board before
the move, and the board after it says which stacks to put back. A copy copies the stacks (49
ints) and shares the boards.

Compiled and pure, the answers must be the same bit for bit: moves in the same order, the same
hashes, floats computed in the same order. So the loops keep the exact order of the rules'
scans, and every type is concrete.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast, final

from boardlab.core import values
from boardlab.core.errors import PositionError
from boardlab.core.fitted import HAND_CHOICE, IN_FORCE
from boardlab.core.progress import ProgressTracker
from boardlab.core.state import State
from boardlab.core.values import Move, Result

from .board import CASTLE, MAX_HEIGHT, NUM_SQUARES, SIZE, STEP, TOKEN_KEYS, TURN_KEYS
from .legality import illegal_reason
from .moves import BUILD_ACTION, BUILDS, PUSHES, Build, Push, parse_move_text
from .position import TowersPosition, format_position
from .view import state_view

_Class = TypeVar("_Class")

try:
    from mypy_extensions import i64, mypyc_attr
except ImportError:  # the compiler's hints; without mypy the module runs as Python, where i64 is int

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_Class], _Class]:
        return lambda cls: cls

    i64 = int  # type: ignore[misc]

if TYPE_CHECKING:
    from boardlab.core.fitted import FittedEvaluation

    from .game import TowersGame
    from .rules import TowersRules

#: the protocol's sentinel as a compile-time constant (a plain module global is looked up on every use)
TERMINAL: Final = values.TERMINAL

# --- a stack as one int -------------------------------------------------------------------------
# The height in the low 3 bits, then 3 bits per token from the bottom up (a seat 0..3 or CASTLE):
# the empty square is 0, a castle with one white piece on it 2 | CASTLE << 3 | 0 << 6.

#: bits per token, and where the tokens start
TOKEN_BITS: Final = 3
HEIGHT_MASK: Final = 7


def stack_code(stack: Sequence[int]) -> int:
    """The int of a stack given bottom to top (a tuple of tokens)."""
    code = len(stack)
    for level, token in enumerate(stack):
        code |= token << (TOKEN_BITS + TOKEN_BITS * level)
    return code


def stack_tokens(code: int) -> tuple[int, ...]:
    """The tokens of a stack's int, bottom to top (:func:`stack_code`'s inverse)."""
    return tuple([(code >> (TOKEN_BITS + TOKEN_BITS * level)) & HEIGHT_MASK for level in range(code & HEIGHT_MASK)])


def top_token(code: i64) -> i64:
    """The top token of a stack that is not empty."""
    return (code >> (TOKEN_BITS * (code & HEIGHT_MASK))) & HEIGHT_MASK


def pushed_on(code: i64, token: i64) -> i64:
    """The stack ``code`` with ``token`` put on top."""
    return code + 1 + (token << (TOKEN_BITS + TOKEN_BITS * (code & HEIGHT_MASK)))


def lowest(code: i64, keep: i64) -> i64:
    """The ``keep`` lowest tokens of the stack ``code``, as a stack."""
    return ((code >> TOKEN_BITS) & (one_bit(TOKEN_BITS * keep) - 1)) << TOKEN_BITS | keep


def one_bit(place: i64) -> i64:
    """``1 << place`` as a machine integer, from a table: mypyc 2.4 shifts a literal 1 (or a
    variable it knows holds 1) as a 32-bit C int, which loses every bit from 32 on."""
    return _BITS[place]


# --- tables built once ----------------------------------------------------------------------------
#: 1 << place for every place of a machine word (:func:`one_bit`)
_BITS: Final[tuple[i64, ...]] = tuple([1 << place for place in range(63)])
#: a move's ``action`` is its square * 5 + the push direction 0..3 (N, E, S, W), or + BUILD (moves.py)
BUILD: Final = BUILD_ACTION
#: the shared move objects by action, typed as moves so that the lists handed out are ``list[Move]``
_MOVES: Final[tuple[Move, ...]] = tuple(
    [BUILDS[sq] if kind == BUILD else PUSHES[sq][kind] for sq in range(NUM_SQUARES) for kind in range(5)]
)
#: per direction N, E, S, W: the squares with a neighbour that way
_ON_BOARD_TOWARDS: Final[tuple[i64, ...]] = tuple(
    [sum(1 << sq for sq in range(NUM_SQUARES) if STEP[d][sq] >= 0) for d in range(4)]
)
_STEP: Final[tuple[tuple[i64, ...], ...]] = STEP
_TOKEN_KEYS: Final[tuple[i64, ...]] = TOKEN_KEYS
_TURN_KEYS: Final[tuple[i64, ...]] = TURN_KEYS
#: the square of a one-bit mask, by the mask modulo 67 (distinct for 2**0 .. 2**65: 2 generates
#: the integers modulo the prime 67)
_SQUARE_OF_BIT: Final[tuple[i64, ...]] = tuple(
    [next((sq for sq in range(NUM_SQUARES) if (1 << sq) % 67 == rest), -1) for rest in range(67)]
)

def stack_key(sq: i64, code: i64) -> i64:
    """The Zobrist key of the stack ``code`` on ``sq``: its tokens' keys, XORed."""
    key: i64 = 0
    base = sq * 25
    for level in range(code & HEIGHT_MASK):
        key ^= _TOKEN_KEYS[base + level * 5 + ((code >> (TOKEN_BITS + TOKEN_BITS * level)) & HEIGHT_MASK)]
    return key


def _key_change(sq: i64, old: i64, new: i64) -> i64:
    """The key of ``old`` XOR that of ``new``, where one of the two stacks is the other with
    tokens added on top (what every step of a move does to a square): the added tokens' keys."""
    old_height = old & HEIGHT_MASK
    new_height = new & HEIGHT_MASK
    longer = new
    low = old_height
    high = new_height
    if old_height > new_height:
        longer = old
        low = new_height
        high = old_height
    key: i64 = 0
    base = sq * 25
    for level in range(low, high):
        key ^= _TOKEN_KEYS[base + level * 5 + ((longer >> (TOKEN_BITS + TOKEN_BITS * level)) & HEIGHT_MASK)]
    return key


def board_key(stacks: Sequence[i64], to_move: i64) -> i64:
    """The Zobrist hash of a whole position, from scratch (cost: one key per token)."""
    key = _TURN_KEYS[to_move]
    for sq in range(NUM_SQUARES):
        key ^= stack_key(sq, stacks[sq])
    return key


#: castle_rays' answers by castle squares (every game of a layout has the same)
_RAYS: Final[dict[tuple[int, ...], tuple[i64, ...]]] = {}
#: a castle ray as one int: its direction, then its distance and the castle square (castle_rays)
RAY_DISTANCE_SHIFT: Final = 2
RAY_CASTLE_SHIFT: Final = 5


def castle_rays(castles: tuple[int, ...]) -> tuple[i64, ...]:
    """For each square, every castle 1-4 steps away in a line, as one int each (its direction,
    ``distance << RAY_DISTANCE_SHIFT``, ``castle << RAY_CASTLE_SHIFT``): the square's rays are
    the entries from ``rays[square]`` to ``rays[square + 1]`` of the tuple returned."""
    known = _RAYS.get(castles)
    if known is not None:
        return known
    starts: list[i64] = []
    codes: list[i64] = []
    for sq in range(NUM_SQUARES):
        starts.append(NUM_SQUARES + 1 + len(codes))
        for direction in range(4):
            cur = sq
            for distance in range(1, SIZE):
                cur = STEP[direction][cur]
                if cur < 0 or distance > 4:
                    break
                if cur in castles:
                    codes.append(direction | distance << RAY_DISTANCE_SHIFT | cur << RAY_CASTLE_SHIFT)
    starts.append(NUM_SQUARES + 1 + len(codes))
    made = tuple(starts + codes)
    if len(_RAYS) < 64:
        _RAYS[castles] = made
    return made


def popcount(mask: i64) -> i64:
    """The squares in a mask (of 49 bits, or any below 2**56)."""
    mask = mask - ((mask >> 1) & 0x5555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    mask += mask >> 8
    mask += mask >> 16
    mask += mask >> 32
    return mask & 0x7F


# --- the evaluation's weights (evaluation.py says how they are made) ------------------------------
#: one castle is the unit
WEIGHT_CASTLE: Final = 1.0
WEIGHT_CROWN: Final = 0.9
WEIGHT_THREAT: Final = 0.35
WEIGHT_SQUARE: Final = 0.04
#: softmax sharpness: one castle ahead in a 2-player game reads as about 0.73
SHARPNESS: Final = 1.0
#: the fitted evaluation's terms per seat, in the order evaluation.py names them
TERMS_PER_SEAT: Final = 13

#: what :func:`castle_winner` found: nothing, enough castles (rules 7.1-7.3), enough crowns (7.4)
NO_CASTLE_WIN: Final = 0
CASTLES_WIN: Final = 1
CROWNS_WIN: Final = 2


@final
class Board:
    """What a move changes beside the stacks: the control masks, the reserves, the hash, the seat
    to move and the result, and which stacks it changed (to undo it). Made by a move and never
    changed after it: the undo snapshot is the board before the move, and a copy shares it.

    ``control0`` to ``control3``: the squares whose top token is that seat's, ``bare``: the castles
    with nothing on them (rules 1.5). ``tall2`` to ``tall5``: the squares at least 2 to 5 pieces
    tall, from which move generation finds every legal push with a few operations on whole masks.
    ``castle_squares``: where the castles stand (they never move: the lowest piece always stays).
    ``current``: the player to decide, or TERMINAL once ``result`` is set.

    The move that made the board changed ``changed`` squares from ``changed_from`` on, one
    ``changed_step`` apart (a push's squares lie in a line): ``before0`` to ``before4`` are their
    stack ints before it. The stacks themselves are the state's list, changed in place.
    """

    __slots__ = ("bare", "before0", "before1", "before2", "before3", "before4", "castle_squares", "changed",
                 "changed_from", "changed_step", "control0", "control1", "control2", "control3", "current",
                 "reserves", "result", "tall2", "tall3", "tall4", "tall5", "to_move", "zobrist")

    def __new__(cls, *args: Any, **kwargs: Any) -> Board:
        # an instance without running __init__ (a move's successor, pickle): a compiled class's
        # own __new__ would run it, with no arguments
        return super().__new__(cls)

    def __init__(self, cells: list[i64], reserves: list[int], to_move: int) -> None:
        """A board from scratch: the masks and the hash derived from the stacks. Cost: one scan."""
        self.reserves = reserves
        self.to_move = to_move
        self.current = to_move
        self.result: Result | None = None
        self.control0: i64 = 0
        self.control1: i64 = 0
        self.control2: i64 = 0
        self.control3: i64 = 0
        self.bare: i64 = 0
        self.castle_squares: i64 = 0
        self.tall2: i64 = 0
        self.tall3: i64 = 0
        self.tall4: i64 = 0
        self.tall5: i64 = 0
        for sq in range(NUM_SQUARES):
            code = cells[sq]
            if code:
                token = top_token(code)
                self.set_control(token, self.control(token) | one_bit(sq))
                self.set_height(sq, 0, code & HEIGHT_MASK)
                if (code >> TOKEN_BITS) & HEIGHT_MASK == CASTLE:
                    self.castle_squares |= one_bit(sq)
        self.zobrist: i64 = board_key(cells, to_move)
        self.changed: i64 = 0
        self.changed_from: i64 = 0
        self.changed_step: i64 = 0
        self.before0: i64 = 0
        self.before1: i64 = 0
        self.before2: i64 = 0
        self.before3: i64 = 0
        self.before4: i64 = 0

    def successor(self) -> Board:
        """A board for the next move to change: the same masks, reserves and hash, no change yet."""
        board = Board.__new__(Board)
        board.reserves = self.reserves
        board.to_move = self.to_move
        board.current = self.current
        board.result = self.result
        board.control0 = self.control0
        board.control1 = self.control1
        board.control2 = self.control2
        board.control3 = self.control3
        board.bare = self.bare
        board.castle_squares = self.castle_squares
        board.tall2 = self.tall2
        board.tall3 = self.tall3
        board.tall4 = self.tall4
        board.tall5 = self.tall5
        board.zobrist = self.zobrist
        board.changed = 0
        board.changed_from = 0
        board.changed_step = 0
        board.before0 = 0
        board.before1 = 0
        board.before2 = 0
        board.before3 = 0
        board.before4 = 0
        return board

    def control(self, token: i64) -> i64:
        """The mask of the squares ``token`` (a seat, or CASTLE for bare castles) is on top of."""
        if token == 0:
            return self.control0
        if token == 1:
            return self.control1
        if token == 2:
            return self.control2
        if token == 3:
            return self.control3
        return self.bare

    def set_control(self, token: i64, mask: i64) -> None:
        if token == 0:
            self.control0 = mask
        elif token == 1:
            self.control1 = mask
        elif token == 2:
            self.control2 = mask
        elif token == 3:
            self.control3 = mask
        else:
            self.bare = mask

    def set_height(self, sq: i64, old: i64, new: i64) -> None:
        """``sq`` went from ``old`` pieces to ``new``: the masks of the tall squares follow."""
        bit = one_bit(sq)
        if new > old:
            if old < 2 <= new:
                self.tall2 |= bit
            if old < 3 <= new:
                self.tall3 |= bit
            if old < 4 <= new:
                self.tall4 |= bit
            if old < 5 <= new:
                self.tall5 |= bit
        elif new < old:
            if new < 2 <= old:
                self.tall2 ^= bit
            if new < 3 <= old:
                self.tall3 ^= bit
            if new < 4 <= old:
                self.tall4 ^= bit
            if new < 5 <= old:
                self.tall5 ^= bit

    # --- undo ------------------------------------------------------------------------------------
    def remember(self, sq: i64, before: i64) -> None:
        """The move changes ``sq`` (the next square of its line), which held ``before``."""
        changed = self.changed
        if changed == 0:
            self.before0 = before
            self.changed_from = sq
        elif changed == 1:
            self.before1 = before
            self.changed_step = sq - self.changed_from
        elif changed == 2:
            self.before2 = before
        elif changed == 3:
            self.before3 = before
        else:
            self.before4 = before
        self.changed = changed + 1

    def undo(self, cells: list[i64]) -> None:
        """Put back in ``cells`` the stacks the move that made this board changed."""
        sq = self.changed_from
        step = self.changed_step
        changed = self.changed
        if changed > 0:
            cells[sq] = self.before0
        if changed > 1:
            cells[sq + step] = self.before1
        if changed > 2:
            cells[sq + 2 * step] = self.before2
        if changed > 3:
            cells[sq + 3 * step] = self.before3
        if changed > 4:
            cells[sq + 4 * step] = self.before4

    # --- move generation (rules 4, 5.6, 7.5) -------------------------------------------------
    def pushes(self, seat: i64, direction: i64) -> i64:
        """The squares of ``seat`` with a legal push towards ``direction``: its first step moves a
        piece (rules 5.6), so the next square is on the board and lower. A square at least h tall
        (h >= 2) whose neighbour is not at least h tall is exactly one that is taller, 2 or more."""
        tall2 = self.tall2
        tall3 = self.tall3
        tall4 = self.tall4
        tall5 = self.tall5
        # each mask moved so that bit sq holds the neighbour's bit
        if direction == 0:
            taller = (tall2 & ~(tall2 >> SIZE)) | (tall3 & ~(tall3 >> SIZE)) | (tall4 & ~(tall4 >> SIZE)) | (
                tall5 & ~(tall5 >> SIZE)
            )
        elif direction == 1:
            taller = (tall2 & ~(tall2 >> 1)) | (tall3 & ~(tall3 >> 1)) | (tall4 & ~(tall4 >> 1)) | (tall5 & ~(tall5 >> 1))
        elif direction == 2:
            taller = (tall2 & ~(tall2 << SIZE)) | (tall3 & ~(tall3 << SIZE)) | (tall4 & ~(tall4 << SIZE)) | (
                tall5 & ~(tall5 << SIZE)
            )
        else:
            taller = (tall2 & ~(tall2 << 1)) | (tall3 & ~(tall3 << 1)) | (tall4 & ~(tall4 << 1)) | (tall5 & ~(tall5 << 1))
        return taller & self.control(seat) & _ON_BOARD_TOWARDS[direction]

    def builds(self, seat: i64) -> i64:
        """The squares ``seat`` may build on (rules 4.1): its own, under 5 tall, not a castle, while
        it has a piece in reserve."""
        if self.reserves[seat] <= 0:
            return 0
        return self.control(seat) & ~self.tall5 & ~self.castle_squares

    def legal_moves(self, seat: i64) -> list[Move]:
        """Builds and pushes of ``seat``, by square a1..g7 and within a square the build first,
        then pushes N, E, S, W (rules 4, 5.6)."""
        builds = self.builds(seat)
        north = self.pushes(seat, 0)
        east = self.pushes(seat, 1)
        south = self.pushes(seat, 2)
        west = self.pushes(seat, 3)
        squares = builds | north | east | south | west
        # the list made at its length (no growing as moves are appended), then filled in order
        moves: list[Move] = [_MOVES[0]] * (
            popcount(builds) + popcount(north) + popcount(east) + popcount(south) + popcount(west)
        )
        index = 0
        while squares:
            bit = squares & -squares
            squares ^= bit
            first = _SQUARE_OF_BIT[bit % 67] * 5
            if builds & bit:
                moves[index] = _MOVES[first + BUILD]
                index += 1
            if north & bit:
                moves[index] = _MOVES[first]
                index += 1
            if east & bit:
                moves[index] = _MOVES[first + 1]
                index += 1
            if south & bit:
                moves[index] = _MOVES[first + 2]
                index += 1
            if west & bit:
                moves[index] = _MOVES[first + 3]
                index += 1
        return moves

    def can_move(self, seat: i64) -> bool:
        """Whether ``seat`` has a legal build or push (rules 7.5)."""
        return bool(
            self.builds(seat) or self.pushes(seat, 0) or self.pushes(seat, 1) or self.pushes(seat, 2) or self.pushes(seat, 3)
        )

    # --- a move on a successor (rules 4, 5.3) ------------------------------------------------------
    def build(self, cells: list[i64], sq: i64, seat: i64) -> None:
        """Put a piece of ``seat`` on ``sq`` from its reserve (rules 4)."""
        old = cells[sq]
        new = pushed_on(old, seat)
        self.remember(sq, old)
        cells[sq] = new
        self.zobrist ^= _key_change(sq, old, new)
        self.set_height(sq, old & HEIGHT_MASK, new & HEIGHT_MASK)
        reserves = self.reserves = self.reserves.copy()
        reserves[seat] -= 1

    def push(self, cells: list[i64], start: i64, direction: i64) -> bool:
        """The push algorithm of rules 5.3 from ``start``; whether pieces dropped (rules 5.10).

        The original pieces are the top ``count`` pieces of ``cur``, above ``base`` pieces that
        were there before. At each step the pieces below the next square's height, and always
        the lowest one, stay; the rest drop onto the next square.
        """
        step = _STEP[direction]
        cur = start
        stack = cells[cur]
        before = stack  # what ``cur`` held before the push
        self.remember(cur, before)
        count = stack & HEIGHT_MASK
        base: i64 = 0
        dropped = False
        while True:
            nxt: i64 = step[cur]
            if nxt < 0:
                break  # off the board: every remaining piece is blocked (rules 5.5)
            target = cells[nxt]
            target_height = target & HEIGHT_MASK
            blocked = target_height - base
            if blocked < 1:
                blocked = 1  # the lowest original piece always stays (rules 5.3)
            if blocked >= count:
                break
            if target_height <= base:
                dropped = True  # the movers land lower than they stood (rules 5.10)
            cut = base + blocked
            left = lowest(stack, cut)
            cells[cur] = left
            # ``cur`` is final now: the push moves on and never comes back
            self.restack(cur, before, left)
            self.remember(nxt, target)
            # the tokens above the cut go on top of the target
            moved = stack >> (TOKEN_BITS + TOKEN_BITS * cut)
            stack = target + (stack & HEIGHT_MASK) - cut + (moved << (TOKEN_BITS + TOKEN_BITS * target_height))
            cells[nxt] = stack
            before = target
            cur = nxt
            base = target_height
            count -= blocked
        self.restack(cur, before, stack)
        return dropped

    def restack(self, sq: i64, old: i64, new: i64) -> None:
        """``sq`` went from ``old`` to ``new`` (not empty): its control bit and the hash follow."""
        bit = one_bit(sq)
        new_top = top_token(new)
        if old:
            old_top = top_token(old)
            if old_top != new_top:
                self.set_control(old_top, self.control(old_top) ^ bit)
                self.set_control(new_top, self.control(new_top) | bit)
        else:
            self.set_control(new_top, self.control(new_top) | bit)
        self.set_height(sq, old & HEIGHT_MASK, new & HEIGHT_MASK)
        self.zobrist ^= _key_change(sq, old, new)

    def next_mover(self, mover: int, players: int) -> int:
        """The seat after ``mover`` that can move (rules 7.5, 7.6; with 2 players only the other
        one is asked), or -1 when none can."""
        if players == 2:
            nxt = 1 - mover
            return nxt if self.can_move(nxt) else -1
        for offset in range(1, 4):
            nxt = (mover + offset) % players
            if self.can_move(nxt):
                return nxt
        return -1


# --- castles and the evaluation, on the stacks ------------------------------------------------------
def castle_counts(cells: list[i64], castles: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Castles and crowned castles controlled by each seat (lists of 5, index CASTLE unused).
    A castle is controlled by its top piece (rules 1.5) and crowned when 5 tall (rules 6.3)."""
    controlled = [0, 0, 0, 0, 0]
    crowned = [0, 0, 0, 0, 0]
    for sq in castles:
        code = cells[sq]
        height = code & HEIGHT_MASK
        if height > 1:
            owner = top_token(code)
            controlled[owner] += 1
            if height == MAX_HEIGHT:
                crowned[owner] += 1
    return controlled, crowned


def castle_count(cells: list[i64], castles: tuple[int, ...], seat: i64) -> tuple[i64, i64]:
    """The castles ``seat`` controls and the crowned ones among them (rules 1.5, 6.3)."""
    controlled: i64 = 0
    crowned: i64 = 0
    for sq in castles:
        code = cells[sq]
        height = code & HEIGHT_MASK
        if height > 1 and top_token(code) == seat:
            controlled += 1
            if height == MAX_HEIGHT:
                crowned += 1
    return controlled, crowned


def castle_winner(
    cells: list[i64], castles: tuple[int, ...], mover: int, players: int, castles_to_win: int, crowns_to_win: int
) -> tuple[int, int, int]:
    """The castle win of rules 7.1-7.4, ties going to ``mover`` then clockwise:
    (seat, CASTLES_WIN or CROWNS_WIN, castles counted), or (-1, NO_CASTLE_WIN, 0)."""
    for offset in range(players):
        seat = (mover + offset) % players
        controlled, crowned = castle_count(cells, castles, seat)
        if controlled >= castles_to_win:
            return seat, CASTLES_WIN, controlled
        if crowned >= crowns_to_win:
            return seat, CROWNS_WIN, crowned
    return -1, NO_CASTLE_WIN, 0


def push_end(cells: list[i64], start: i64, direction: i64) -> i64:
    """The square where the top piece of a push from ``start`` lands (rules 5.3, on heights only)."""
    step = _STEP[direction]
    cur = start
    count = cells[start] & HEIGHT_MASK
    base: i64 = 0
    while True:
        nxt: i64 = step[cur]
        if nxt < 0:
            return cur
        target_height = cells[nxt] & HEIGHT_MASK
        blocked = target_height - base
        if blocked < 1:
            blocked = 1
        if blocked >= count:
            return cur
        count -= blocked
        base = target_height
        cur = nxt


def squares_and_threats(cells: list[i64], mask: i64, tall: i64, seat: i64, rays: tuple[i64, ...]) -> tuple[i64, i64]:
    """The squares ``seat`` controls (``mask``; ``tall``: the squares 2 or more tall) and the
    castles it does not hold that one of its pushes would land on (each castle once)."""
    remaining = mask & tall  # only a stack of 2 or more pushes
    threatened: i64 = 0
    threats: i64 = 0
    while remaining:
        sq = _SQUARE_OF_BIT[(remaining & -remaining) % 67]
        remaining &= remaining - 1
        end = rays[sq + 1]
        index = rays[sq]
        if index == end:
            continue
        height = cells[sq] & HEIGHT_MASK
        while index < end:
            ray = rays[index]
            index += 1
            castle = ray >> RAY_CASTLE_SHIFT
            if (
                (ray >> RAY_DISTANCE_SHIFT) & 7 < height
                and not (threatened >> castle) & 1
                and top_token(cells[castle]) != seat
                and push_end(cells, sq, ray & 3) == castle
            ):
                threatened |= one_bit(castle)
                threats += 1
    return popcount(mask), threats


@final
class TowersState(State):
    """A Towers position with its history. Build with :class:`~.game.TowersGame`, not directly.

    ``cells`` are the 49 stacks (:func:`stack_code`, a1 = 0 to g7 = 48), the state's own list,
    which a move changes in place and its undo puts back; ``board`` is the rest of the position
    (:class:`Board`), replaced by each move; ``progress`` the positions reached since the last
    build or dropping push and the move counts: threefold repetition (rules 8.1), the
    no-progress draw (8.2) and the cap (8.3). The rest is fixed for the game: the rules and
    their numbers, the castle squares and the rays towards them.
    """

    __slots__ = ("board", "castle_rays", "castles", "castles_to_win", "cells", "crowns_to_win", "no_progress_limit",
                 "players", "ply_cap", "progress", "rules", "supply")

    def __new__(cls, *args: Any, **kwargs: Any) -> TowersState:
        # an instance without running __init__ (a copy, pickle): see Board.__new__
        return super().__new__(cls)

    def __init__(self, game: TowersGame, seed: int, position: TowersPosition) -> None:
        """Set up from a checked position; derives control, reserves and the hash, then settles
        the result of a position that is already finished (rules 10.4). Cost: one board scan."""
        super().__init__(game, seed)
        rules: TowersRules = game.rules
        self.rules = rules
        self.players = rules.players
        self.castles_to_win = rules.castles_to_win
        self.crowns_to_win = rules.crowns_to_win
        self.no_progress_limit = rules.no_progress_limit
        self.ply_cap = rules.ply_cap
        self.supply = rules.supply
        cells: list[i64] = []
        on_board = [0, 0, 0, 0]
        castles: list[int] = []
        for sq in range(NUM_SQUARES):
            stack = position.stacks[sq]
            cells.append(stack_code(stack))
            if stack and stack[0] == CASTLE:
                castles.append(sq)
            for token in stack:
                if token != CASTLE:
                    on_board[token] += 1
        self.castles = tuple(castles)
        self.castle_rays = castle_rays(self.castles)
        reserves = [rules.supply - on_board[seat] for seat in range(rules.players)]
        self.cells = cells
        self.board = Board(cells, reserves, position.to_move)
        self.progress = ProgressTracker(self.board.zobrist, quiet_moves=position.no_progress)
        self._settle_loaded_position()

    # --- the protocol's hooks ------------------------------------------------------------------
    def current_player(self) -> int:
        return self.board.current

    def result(self) -> Result | None:
        return self.board.result

    def _legal_moves(self) -> list[Move]:
        """Builds and pushes of the seat to move, by square a1..g7."""
        board = self.board
        return board.legal_moves(board.to_move)

    # apply, undo and copy written here, not the hooks the core's would call: one call less on
    # every move of a search, and the board before the move is the whole snapshot
    def apply(self, move: Move) -> None:
        board = self.board
        self._apply(move)
        self._trail = (self._trail, move, board)
        self._ply += 1

    def undo(self) -> Move:
        move, board = self._take_back()
        # the board the move made says which stacks it changed
        self.board.undo(self.cells)
        self.board = board
        self.progress.undo()
        return move

    def copy(self) -> TowersState:
        clone = TowersState.__new__(TowersState)
        self._copy_core_fields(clone)
        clone.rules = self.rules
        clone.players = self.players
        clone.castles_to_win = self.castles_to_win
        clone.crowns_to_win = self.crowns_to_win
        clone.no_progress_limit = self.no_progress_limit
        clone.ply_cap = self.ply_cap
        clone.supply = self.supply
        clone.castles = self.castles
        clone.castle_rays = self.castle_rays
        clone.cells = self.cells.copy()
        clone.board = self.board
        clone.progress = self.progress.copy()
        return clone

    def _apply(self, move: Move) -> None:
        """Rules 8.4: the build or push, the castle conditions, the turn, then the draws."""
        action: int = cast("Build | Push", move).action
        sq = action // 5
        kind = action - sq * 5
        old = self.board
        seat = old.to_move
        board = self.board = old.successor()
        players = self.players
        ending = ""
        if kind == BUILD:
            board.build(self.cells, sq, seat)
            progress = True
            # a build never touches a castle (rules 4.1), so no castle condition can change
        else:
            cells = self.cells
            progress = board.push(cells, sq, kind)
            if castle_winner(cells, self.castles, seat, players, self.castles_to_win, self.crowns_to_win)[0] >= 0:
                ending = "castles"
        if not ending:
            nxt = board.next_mover(seat, players)
            if nxt < 0:
                ending = "no_moves"
            else:
                board.zobrist ^= _TURN_KEYS[seat] ^ _TURN_KEYS[nxt]
                board.to_move = nxt
                board.current = nxt
        if ending:
            # the position then names the next seat (rules 10.4)
            shown = (seat + 1) % players
            board.zobrist ^= _TURN_KEYS[seat] ^ _TURN_KEYS[shown]
            board.to_move = shown
        tracker = self.progress
        # positions before the last build or dropping push cannot come back (rules 8.1)
        occurrences = tracker.record(board.zobrist, progress)
        if ending:
            board.result = self._ending(ending, seat)
            board.current = TERMINAL
            return
        # the draws of rules 8.4, step 5; a progress move leaves no quiet moves to count
        quiet = 0 if progress else tracker.quiet_moves
        if quiet >= self.no_progress_limit:
            board.result = Result.draw(
                range(players), players, f"{quiet} moves without a build or a dropping push", code="no_progress"
            )
        elif occurrences >= 3:
            board.result = Result.draw(range(players), players, "threefold repetition", code="repetition")
        elif self.ply_cap and self.ply + 1 >= self.ply_cap:
            board.result = Result.draw(range(players), players, f"the ply cap of {self.ply_cap} was reached", code="move_limit")
        else:
            return
        board.current = TERMINAL

    def _ending(self, ending: str, mover: int) -> Result:
        """The result of a move by ``mover`` that ended the game: by the castles, or because no
        opponent can move."""
        if ending == "castles":
            result = self._castle_winner(mover)
            assert result is not None
            return result
        if self.players == 2:
            return Result.win(mover, 2, f"{self.rules.names[1 - mover]} cannot move", code="no_moves")
        return Result.win(mover, self.players, "none of the opponents can move", code="no_moves")

    def _castle_winner(self, mover: int) -> Result | None:
        """The castle win of rules 7.1-7.4, ties going to ``mover`` then clockwise."""
        players = self.players
        seat, kind, count = castle_winner(self.cells, self.castles, mover, players, self.castles_to_win, self.crowns_to_win)
        names = self.rules.names
        if kind == CASTLES_WIN:
            return Result.win(seat, players, f"{names[seat]} controls {count} castles", code="castles")
        if kind == CROWNS_WIN:
            return Result.win(seat, players, f"{names[seat]} controls {count} crowned castles", code="crowns")
        return None

    def _settle_loaded_position(self) -> None:
        """Decide whether a loaded position is already over (rules 10.4)."""
        board = self.board
        players = self.players
        names = self.rules.names
        to_move = board.to_move
        previous = (to_move - 1) % players
        result = self._castle_winner(previous)
        if result is None and not board.can_move(to_move):
            if players == 2:
                result = Result.win(previous, 2, f"{names[to_move]} cannot move", code="no_moves")
            elif board.can_move((previous + 1) % players) or board.can_move((previous + 2) % players) or board.can_move(
                (previous + 3) % players
            ):
                raise PositionError(
                    f"towers position: {names[to_move]} is to move but cannot move; in a "
                    "4-player game such a player is skipped (rules 7.6), so this position cannot occur"
                )
            else:
                result = Result.win(previous, players, "none of the opponents can move", code="no_moves")
        quiet = self.progress.quiet_moves
        if result is None and quiet >= self.no_progress_limit:
            result = Result.draw(
                range(players), players, f"{quiet} moves without a build or a dropping push", code="no_progress"
            )
        if result is not None:
            board.result = result
            board.current = TERMINAL

    def _parse_move(self, text: str) -> Move:
        return parse_move_text(text)

    def _illegal_reason(self, move: Move) -> str | None:
        return illegal_reason(self, move)

    def _view(self, viewer: int | None) -> dict[str, Any]:
        """The whole board: Towers has no hidden information, so every seat sees the same."""
        return state_view(self, viewer)

    def position(self) -> str:
        return format_position(self)

    def position_key(self) -> int:
        """The Zobrist hash of the stacks and the seat to move: the position without its counter."""
        return self.board.zobrist

    # --- the position, read by the game's other modules (view, legality, position string) ------
    @property
    def stacks(self) -> list[tuple[int, ...]]:
        """The 49 stacks as tuples of tokens, bottom to top (a fresh list)."""
        return [stack_tokens(code) for code in self.cells]

    @property
    def control(self) -> list[int]:
        """The control masks: one per seat, then the bare castles' (a fresh list)."""
        board = self.board
        return [board.control0, board.control1, board.control2, board.control3, board.bare]

    @property
    def reserves(self) -> list[int]:
        """The pieces each seat still holds (rules 1.7; a fresh list)."""
        return self.board.reserves.copy()

    @property
    def to_move(self) -> int:
        """The seat to move, or once the game is over the seat the position names (rules 10.4)."""
        return self.board.to_move

    @property
    def zobrist(self) -> int:
        return self.board.zobrist

    @property
    def no_progress(self) -> int:
        """Moves since the last build or dropping push (rules 8.2)."""
        return self.progress.quiet_moves

    def can_move(self, seat: int) -> bool:
        """Whether ``seat`` has a legal build or push (rules 7.5). Stops at the first one found."""
        return self.board.can_move(seat)

    def castle_counts(self) -> tuple[list[int], list[int]]:
        """Castles and crowned castles controlled by each seat (lists of 5, index CASTLE unused)."""
        return castle_counts(self.cells, self.castles)

    # --- the evaluation (evaluation.py) ----------------------------------------------------------
    def evaluate(self) -> tuple[float, ...]:
        """Estimated returns per seat (see evaluation.py): by the fitted weights where they are in
        force, else the hand-set ones; the result's returns when over."""
        result = self.board.result
        if result is not None:
            return result.returns
        # evaluation_in_force(self.game) without a Python call at a leaf: the choice in force, and
        # the weights it judges this game by as last read (LeafWeights)
        choice = IN_FORCE.get()
        if choice is HAND_CHOICE:
            return self.hand_evaluation()
        read = _LEAF_WEIGHTS.current
        if read is None or read.choice is not choice or read.game is not self.game:
            read = LeafWeights(choice.for_game(self.game), choice, self.game)
            _LEAF_WEIGHTS.current = read
        if not read.fitted:
            return self.hand_evaluation()
        return self.weighted_evaluation(read)

    def hand_score(self, seat: i64) -> float:
        """``seat``'s score by the hand-set weights (evaluation.py says what they weigh)."""
        board = self.board
        cells = self.cells
        controlled, crowned = castle_count(cells, self.castles, seat)
        squares, threats = squares_and_threats(cells, board.control(seat), board.tall2, seat, self.castle_rays)
        return (
            WEIGHT_CASTLE * float(controlled)
            + WEIGHT_CROWN * float(crowned)
            + WEIGHT_THREAT * float(threats)
            + WEIGHT_SQUARE * float(squares)
        )

    def hand_evaluation(self) -> tuple[float, ...]:
        """Estimated returns per seat of a running game by the hand-set weights: the softmax of
        the seats' scores."""
        if self.players == 2:
            # the general case below written out for two seats, without its lists (a search's
            # leaf): the same operations in the same order, so the same floats
            first = self.hand_score(0)
            second = self.hand_score(1)
            best = first if first >= second else second
            first_weight = math.exp(SHARPNESS * (first - best))
            second_weight = math.exp(SHARPNESS * (second - best))
            total = first_weight + second_weight
            return first_weight / total, second_weight / total
        scores = [self.hand_score(seat) for seat in range(self.players)]
        best = max(scores)
        weights = [math.exp(SHARPNESS * (score - best)) for score in scores]
        total = sum(weights)
        return tuple([weight / total for weight in weights])

    def placed_share(self) -> float:
        """The share of all the pieces of the game already on the board (the game's progress, 0 to 1)."""
        reserves = self.board.reserves
        left = reserves[0] + reserves[1] if self.players == 2 else sum(reserves)  # a leaf's two seats without sum()
        return 1.0 - left / (self.supply * self.players)

    def terms(self) -> list[float]:
        """Every seat's terms of the fitted evaluation, seat after seat (TERMS_PER_SEAT each;
        evaluation.py says what they are)."""
        board = self.board
        rays = self.castle_rays
        placed = self.placed_share()
        mover = board.to_move
        castles_to_win = self.castles_to_win
        crowns_to_win = self.crowns_to_win
        cells = self.cells
        castles = self.castles
        values: list[float] = []
        for seat in range(self.players):
            controlled, crowned = castle_count(cells, castles, seat)
            squares, threats = squares_and_threats(cells, board.control(seat), board.tall2, seat, rays)
            to_move = 1.0 if seat == mover else 0.0
            one_short = 1.0 if controlled == castles_to_win - 1 or crowned == crowns_to_win - 1 else 0.0
            values.append(float(controlled))
            values.append(float(crowned))
            values.append(float(threats))
            values.append(float(squares))
            values.append(to_move)
            values.append(to_move * float(threats))
            values.append(one_short)
            values.append(to_move * one_short if threats > 0 else 0.0)
            values.append(float(controlled) * placed)
            values.append(float(threats) * placed)
            values.append(float(squares) * placed)
            values.append(placed if seat == 0 else 0.0)
            values.append(float(board.reserves[seat]))
        return values

    def fitted_evaluation(self, model: FittedEvaluation) -> tuple[float, ...]:
        """Estimated returns per seat of a running game by ``model``'s fitted weights (one per
        term), seat biases and curve: the softmax of the seats' weighted terms, each one's
        distance d from their mean bent to linear * d + square * d * |d|."""
        return self.weighted_evaluation(LeafWeights(model, None, None))

    def weighted_evaluation(self, read: LeafWeights) -> tuple[float, ...]:
        """:meth:`fitted_evaluation` by the model's numbers as ``read`` holds them."""
        linear = read.linear
        square = read.square
        placed = self.placed_share()
        players = self.players
        if players == 2:
            # the general case below written out for two seats, without its lists (a search's
            # leaf): the same operations in the same order (sum() starts from 0), so the same floats
            first = self.fitted_score(0, read, read.first_bias, placed)
            second = self.fitted_score(1, read, read.second_bias, placed)
            mean = (0.0 + first + second) / players
            distance = first - mean
            first_bent = linear * distance + square * distance * abs(distance)
            distance = second - mean
            second_bent = linear * distance + square * distance * abs(distance)
            best = first_bent if first_bent >= second_bent else second_bent
            first_exp = math.exp(first_bent - best)
            second_exp = math.exp(second_bent - best)
            total = first_exp + second_exp
            return first_exp / total, second_exp / total
        bias = read.seat_bias
        scores = [self.fitted_score(seat, read, bias[seat], placed) for seat in range(players)]
        mean = sum(scores) / players
        bent: list[float] = []
        for score in scores:
            distance = score - mean
            bent.append(linear * distance + square * distance * abs(distance))
        best = max(bent)
        exps = [math.exp(score - best) for score in bent]
        total = sum(exps)
        return tuple([value / total for value in exps])

    def fitted_score(self, seat: i64, read: LeafWeights, bias: float, placed: float) -> float:
        """``seat``'s weighted terms (:meth:`terms`, in its order, summed as they are made: no list)."""
        board = self.board
        cells = self.cells
        castles_held, crowned = castle_count(cells, self.castles, seat)
        squares, threats = squares_and_threats(cells, board.control(seat), board.tall2, seat, self.castle_rays)
        # float(): i64 and float do not mix; Python converts the ints alike
        held = float(castles_held)
        threat_count = float(threats)
        square_count = float(squares)
        score = (
            bias + read.castles * held + read.crowns * float(crowned) + read.threats * threat_count
            + read.squares * square_count
            + (read.castles_late * held + read.threats_late * threat_count + read.squares_late * square_count) * placed
            + read.in_hand * float(board.reserves[seat])
        )
        if seat == 0:
            score += read.first_seat_late * placed
        one_short = castles_held == self.castles_to_win - 1 or crowned == self.crowns_to_win - 1
        if one_short:
            score += read.one_short
        if seat == board.to_move:
            score += read.to_move + read.threats_to_move * threat_count
            if one_short and threats > 0:
                score += read.one_short_threat_to_move
        return score


@final
class LeafWeights:
    """A fitted model's numbers as a leaf reads them: each term's weight, the seat biases and the
    curve as plain floats (a tuple's items are read one call each), with the evaluation choice and
    game they were read for (``fitted`` False: that choice judges that game by hand).

    :meth:`TowersState.evaluate` keeps the last one read (``_LEAF_WEIGHTS``) and reads again when
    the choice in force or the game differs. It holds both, so neither's identity can be taken
    by a new object while it is kept; a game's weights do not change once read
    (:func:`~boardlab.core.fitted.shipped_evaluation` reads them once per Game object), and an
    evaluation choice is fixed when made."""

    __slots__ = ("castles", "castles_late", "choice", "crowns", "first_bias", "first_seat_late", "fitted", "game",
                 "in_hand", "linear", "one_short", "one_short_threat_to_move", "seat_bias", "second_bias", "square",
                 "squares", "squares_late", "threats", "threats_late", "threats_to_move", "to_move")

    def __init__(self, model: FittedEvaluation | None, choice: object, game: object) -> None:
        self.choice = choice
        self.game = game
        self.fitted = model is not None
        weights: tuple[float, ...] = model.weights if model is not None else (0.0,) * TERMS_PER_SEAT
        bias: tuple[float, ...] = model.seat_bias if model is not None else (0.0, 0.0)
        # the terms in the order of evaluation.TERMS, which is the weights file's order
        (self.castles, self.crowns, self.threats, self.squares, self.to_move, self.threats_to_move, self.one_short,
         self.one_short_threat_to_move, self.castles_late, self.threats_late, self.squares_late, self.first_seat_late,
         self.in_hand) = weights
        self.seat_bias: tuple[float, ...] = bias
        self.first_bias: float = bias[0]
        self.second_bias: float = bias[1] if len(bias) > 1 else 0.0
        self.linear: float = model.curve[0] if model is not None else 1.0
        self.square: float = model.curve[1] if model is not None else 0.0


@final
class _KeptWeights:
    """Where :meth:`TowersState.evaluate` keeps the last :class:`LeafWeights` it read: one
    attribute, replaced whole, so that a thread never sees one read's choice with another's weights."""

    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current: LeafWeights | None = None


_LEAF_WEIGHTS: Final = _KeptWeights()
