"""The hot paths of Towers as flat, typed functions over plain data, compiled when a compiler is at hand.

This module is the one source of the rules it holds (move generation, builds and pushes,
the castle win, who moves next, the static evaluation): :class:`~.state.TowersState` keeps
the position and the history and calls these functions. They take the state's own
data: ``stacks`` (49 tuples of tokens, bottom -> top), ``control`` (one bit mask per seat
plus one for bare castles) and ``reserves``; they change only the lists they are told to,
which the caller has already copied (the state's lists are copy-on-write).

Compiled (mypyc) and run as plain Python they must give the same answers bit for bit:
moves in the same order, the same hashes, floats computed in the same order. So the
loops below keep the exact order of the rules' scans, and every type is concrete.
"""

from __future__ import annotations

import math
from typing import Final

from boardlab.core import Move

from .board import CASTLE, MAX_HEIGHT, NUM_SQUARES, STEP, TURN_KEYS, ZOBRIST_TABLES, zobrist_miss
from .moves import BUILDS, PUSHES

#: a stack of tokens, bottom -> top (seats 0..3 or CASTLE)
Stack = tuple[int, ...]

#: the shared move objects, typed as moves so that the lists handed out are ``list[Move]``
_BUILDS: Final[tuple[Move, ...]] = BUILDS
#: per square, (next square, push) for each on-board direction in notation order N, E, S, W
_NEIGHBOUR_PUSHES: Final[tuple[tuple[tuple[int, Move], ...], ...]] = tuple(
    tuple((STEP[d][sq], PUSHES[sq][d]) for d in range(4) if STEP[d][sq] >= 0) for sq in range(NUM_SQUARES)
)
#: per square, its on-board neighbours
_NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(nxt for nxt, _push in pairs) for pairs in _NEIGHBOUR_PUSHES
)
_STEP: Final[tuple[tuple[int, ...], ...]] = STEP
_ZOBRIST_TABLES: Final[tuple[dict[Stack, int], ...]] = ZOBRIST_TABLES
_TURN_KEYS: Final[tuple[int, ...]] = TURN_KEYS

#: evaluation weights: one castle is the unit (see evaluation.py)
WEIGHT_CASTLE: Final = 1.0
WEIGHT_CROWN: Final = 0.9
WEIGHT_THREAT: Final = 0.35
WEIGHT_SQUARE: Final = 0.04
#: softmax sharpness: one castle ahead in a 2-player game reads as about 0.73
SHARPNESS: Final = 1.0

#: what :func:`castle_winner` found: nothing, enough castles (rules 7.1-7.3), enough crowns (7.4)
NO_CASTLE_WIN: Final = 0
CASTLES_WIN: Final = 1
CROWNS_WIN: Final = 2

#: how :func:`play` left the game: going on, won by castles or crowns (rules 7.1-7.4), won
#: because no opponent can move (rules 7.5, 7.6)
GOING_ON: Final = 0
CASTLE_ENDING: Final = 1
NO_MOVES_ENDING: Final = 2


def legal_moves(stacks: list[Stack], mask: int, may_build: bool) -> list[Move]:
    """Builds and pushes from the squares of ``mask`` (the mover's), by square a1..g7 and
    within a square the build first, then pushes N, E, S, W (rules 4, 5.6)."""
    moves: list[Move] = []
    while mask:
        low = mask & -mask
        mask ^= low
        sq = low.bit_length() - 1
        stack = stacks[sq]
        height = len(stack)
        if may_build and height < MAX_HEIGHT and stack[0] != CASTLE:
            moves.append(_BUILDS[sq])
        if height >= 2:
            for nxt, push in _NEIGHBOUR_PUSHES[sq]:
                # a push is legal iff its first step moves a piece (rules 5.6)
                if len(stacks[nxt]) < height:
                    moves.append(push)
    return moves


def can_move(stacks: list[Stack], mask: int, may_build: bool) -> bool:
    """Whether the squares of ``mask`` give a legal build or push (rules 7.5); stops at the first."""
    while mask:
        low = mask & -mask
        mask ^= low
        sq = low.bit_length() - 1
        stack = stacks[sq]
        height = len(stack)
        if may_build and height < MAX_HEIGHT and stack[0] != CASTLE:
            return True
        if height >= 2:
            for nxt in _NEIGHBOURS[sq]:
                if len(stacks[nxt]) < height:
                    return True
    return False


def stack_key(sq: int, stack: Stack) -> int:
    """The Zobrist key of ``stack`` on ``sq`` (computed and cached on first use)."""
    key = _ZOBRIST_TABLES[sq].get(stack)
    if key is None:
        return zobrist_miss(sq, stack)
    return key


def build(stacks: list[Stack], sq: int, seat: int, zobrist: int) -> int:
    """Put a piece of ``seat`` on ``sq`` in ``stacks`` (rules 4); returns the updated hash."""
    old = stacks[sq]
    new = old + (seat,)
    stacks[sq] = new
    return zobrist ^ stack_key(sq, old) ^ stack_key(sq, new)


def push(stacks: list[Stack], control: list[int], start: int, direction: int, zobrist: int) -> tuple[int, bool]:
    """Run the push algorithm of rules 5.3 in ``stacks`` and ``control`` (private copies).

    The original pieces are the top ``count`` pieces of ``cur``, above ``base`` pieces
    that were there before. At each step the pieces below the next square's height,
    and always the lowest one, stay; the rest drop onto the next square.
    Returns the updated hash and whether pieces dropped (rules 5.10).
    """
    step = _STEP[direction]
    cur = start
    stack = stacks[cur]
    before = stack  # what ``cur`` held before the push
    count = len(stack)
    base = 0
    dropped = False
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
        left = stack[:cut]
        stacks[cur] = left
        # ``cur`` is final now: the push moves on and never comes back
        zobrist = restack(control, cur, before, left, zobrist)
        stack = target + stack[cut:]
        stacks[nxt] = stack
        before = target
        cur = nxt
        base = target_height
        count -= blocked
    return restack(control, cur, before, stack, zobrist), dropped


def restack(control: list[int], sq: int, old: Stack, new: Stack, zobrist: int) -> int:
    """``sq`` went from ``old`` to ``new`` (not empty): updates its bit in ``control`` and
    returns the hash ``zobrist`` updated."""
    bit = 1 << sq
    new_top = new[-1]
    if old:
        old_top = old[-1]
        if old_top != new_top:
            control[old_top] ^= bit
            control[new_top] |= bit
    else:
        control[new_top] |= bit
    return zobrist ^ stack_key(sq, old) ^ stack_key(sq, new)


def castle_counts(stacks: list[Stack], castles: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Castles and crowned castles controlled by each seat (lists of 5, index CASTLE unused).

    A castle is controlled by its top piece (rules 1.5) and crowned when 5 tall (rules 6.3).
    """
    controlled = [0, 0, 0, 0, 0]
    crowned = [0, 0, 0, 0, 0]
    for sq in castles:
        stack = stacks[sq]
        height = len(stack)
        if height > 1:
            owner = stack[-1]
            controlled[owner] += 1
            if height == MAX_HEIGHT:
                crowned[owner] += 1
    return controlled, crowned


def castle_winner(
    stacks: list[Stack], castles: tuple[int, ...], mover: int, players: int, castles_to_win: int, crowns_to_win: int
) -> tuple[int, int, int]:
    """The castle win of rules 7.1-7.4, ties going to ``mover`` then clockwise:
    (seat, CASTLES_WIN or CROWNS_WIN, castles counted), or (-1, NO_CASTLE_WIN, 0)."""
    controlled, crowned = castle_counts(stacks, castles)
    for offset in range(players):
        seat = (mover + offset) % players
        if controlled[seat] >= castles_to_win:
            return seat, CASTLES_WIN, controlled[seat]
        if crowned[seat] >= crowns_to_win:
            return seat, CROWNS_WIN, crowned[seat]
    return -1, NO_CASTLE_WIN, 0


def next_mover(stacks: list[Stack], control: list[int], reserves: list[int], mover: int, players: int) -> int:
    """The seat after ``mover`` that can move (rules 7.5, 7.6; with 2 players only the other
    one is asked), or -1 when none can."""
    if players == 2:
        nxt = 1 - mover
        return nxt if can_move(stacks, control[nxt], reserves[nxt] > 0) else -1
    for offset in range(1, 4):
        nxt = (mover + offset) % players
        if can_move(stacks, control[nxt], reserves[nxt] > 0):
            return nxt
    return -1


def play(
    stacks: list[Stack],
    control: list[int],
    reserves: list[int],
    seat: int,
    sq: int,
    direction: int,
    zobrist: int,
    castles: tuple[int, ...],
    players: int,
    castles_to_win: int,
    crowns_to_win: int,
) -> tuple[int, int, int, bool]:
    """Rules 8.4, steps 1-4: ``seat`` builds on ``sq`` (``direction`` -1) or pushes it that
    way, then the castle conditions are checked and the turn passes.

    Changes ``stacks`` and, for a build, ``reserves``, for a push, ``control``: the caller
    hands in private copies of those. Returns (the new hash, the seat to move or, when the
    game ended, the seat the position names, GOING_ON or how it ended, whether the move was
    a build or a dropping push). The draws (rules 8.1-8.3) are the caller's.
    """
    if direction < 0:
        zobrist = build(stacks, sq, seat, zobrist)
        reserves[seat] -= 1
        progress = True
        # a build never touches a castle (rules 4.1), so no castle condition can change
    else:
        zobrist, progress = push(stacks, control, sq, direction, zobrist)
        winner, _kind, _count = castle_winner(stacks, castles, seat, players, castles_to_win, crowns_to_win)
        if winner >= 0:
            shown = (seat + 1) % players
            return zobrist ^ _TURN_KEYS[seat] ^ _TURN_KEYS[shown], shown, CASTLE_ENDING, progress
    nxt = next_mover(stacks, control, reserves, seat, players)
    if nxt < 0:
        # the position then names the next seat (rules 10.4)
        shown = (seat + 1) % players
        return zobrist ^ _TURN_KEYS[seat] ^ _TURN_KEYS[shown], shown, NO_MOVES_ENDING, progress
    return zobrist ^ _TURN_KEYS[seat] ^ _TURN_KEYS[nxt], nxt, GOING_ON, progress


def push_end(stacks: list[Stack], start: int, direction: int) -> int:
    """The square where the top piece of a push from ``start`` lands (rules 5.3, on heights only)."""
    step = _STEP[direction]
    cur = start
    count = len(stacks[start])
    base = 0
    while True:
        nxt = step[cur]
        if nxt < 0:
            return cur
        target_height = len(stacks[nxt])
        blocked = target_height - base
        if blocked < 1:
            blocked = 1
        if blocked >= count:
            return cur
        count -= blocked
        base = target_height
        cur = nxt


def _squares_and_threats(
    stacks: list[Stack], mask: int, rays: tuple[tuple[tuple[int, int, int], ...], ...], seat: int
) -> tuple[int, int]:
    """The squares ``seat`` controls (``mask``) and the castles it does not hold that one of
    its pushes would land on (each castle once)."""
    remaining = mask
    squares = 0
    threatened = 0
    threats = 0
    while remaining:
        low = remaining & -remaining
        remaining ^= low
        squares += 1
        sq = low.bit_length() - 1
        height = len(stacks[sq])
        if height < 2:
            continue
        for direction, distance, castle in rays[sq]:
            if (
                distance < height
                and not (threatened >> castle) & 1
                and stacks[castle][-1] != seat
                and push_end(stacks, sq, direction) == castle
            ):
                threatened |= 1 << castle
                threats += 1
    return squares, threats


def evaluate(
    stacks: list[Stack],
    control: list[int],
    castles: tuple[int, ...],
    rays: tuple[tuple[tuple[int, int, int], ...], ...],
    players: int,
) -> tuple[float, ...]:
    """Estimated returns per seat of a running game by the hand-set weights (evaluation.py
    says how they are made).

    ``rays`` are the castle rays of ``castles`` (:func:`~.evaluation.castle_rays`).
    """
    controlled, crowned = castle_counts(stacks, castles)
    scores: list[float] = []
    for seat in range(players):
        squares, threats = _squares_and_threats(stacks, control[seat], rays, seat)
        scores.append(
            WEIGHT_CASTLE * controlled[seat]
            + WEIGHT_CROWN * crowned[seat]
            + WEIGHT_THREAT * threats
            + WEIGHT_SQUARE * squares
        )
    best = max(scores)
    weights = [math.exp(SHARPNESS * (score - best)) for score in scores]
    total = sum(weights)
    return tuple([weight / total for weight in weights])


#: the fitted evaluation's terms per seat, in the order evaluation.py names them
TERMS_PER_SEAT: Final = 11


def terms(
    stacks: list[Stack],
    control: list[int],
    castles: tuple[int, ...],
    rays: tuple[tuple[tuple[int, int, int], ...], ...],
    players: int,
    mover: int,
    castles_to_win: int,
    crowns_to_win: int,
    placed: float,
) -> list[float]:
    """Every seat's terms, seat after seat (TERMS_PER_SEAT each; evaluation.py says what they
    are); ``placed``: the share of the pieces already on the board (0 to 1)."""
    controlled, crowned = castle_counts(stacks, castles)
    values: list[float] = []
    for seat in range(players):
        squares, threats = _squares_and_threats(stacks, control[seat], rays, seat)
        to_move = 1.0 if seat == mover else 0.0
        one_short = (
            1.0 if controlled[seat] == castles_to_win - 1 or crowned[seat] == crowns_to_win - 1 else 0.0
        )
        values.append(float(controlled[seat]))
        values.append(float(crowned[seat]))
        values.append(float(threats))
        values.append(float(squares))
        values.append(to_move)
        values.append(to_move * threats)
        values.append(one_short)
        values.append(to_move * one_short if threats > 0 else 0.0)
        values.append(controlled[seat] * placed)
        values.append(threats * placed)
        values.append(squares * placed)
    return values


def fitted_evaluate(
    stacks: list[Stack],
    control: list[int],
    castles: tuple[int, ...],
    rays: tuple[tuple[tuple[int, int, int], ...], ...],
    players: int,
    mover: int,
    castles_to_win: int,
    crowns_to_win: int,
    placed: float,
    weights: tuple[float, ...],
    bias: tuple[float, ...],
    linear: float,
    square: float,
) -> tuple[float, ...]:
    """Estimated returns per seat of a running game by fitted ``weights`` (one per term),
    ``bias`` (one per seat) and curve (``linear``, ``square``): the softmax of the seats'
    weighted terms, each one's distance d from their mean bent to linear * d + square * d * |d|."""
    # the terms of :func:`terms`, in its order, summed as they are made (a search's leaf: no list)
    controlled, crowned = castle_counts(stacks, castles)
    scores: list[float] = []
    for seat in range(players):
        squares, threats = _squares_and_threats(stacks, control[seat], rays, seat)
        castles_held = controlled[seat]
        score = (
            bias[seat] + weights[0] * castles_held + weights[1] * crowned[seat] + weights[2] * threats
            + weights[3] * squares
            + (weights[8] * castles_held + weights[9] * threats + weights[10] * squares) * placed
        )
        one_short = castles_held == castles_to_win - 1 or crowned[seat] == crowns_to_win - 1
        if one_short:
            score += weights[6]
        if seat == mover:
            score += weights[4] + weights[5] * threats
            if one_short and threats > 0:
                score += weights[7]
        scores.append(score)
    mean = sum(scores) / players
    bent: list[float] = []
    for score in scores:
        distance = score - mean
        bent.append(linear * distance + square * distance * abs(distance))
    best = max(bent)
    exps = [math.exp(score - best) for score in bent]
    total = sum(exps)
    return tuple([value / total for value in exps])
