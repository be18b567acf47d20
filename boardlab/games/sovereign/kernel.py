"""The hot paths of Sovereign as flat, typed functions over plain data, compiled when a compiler is at hand.

This module is the one source of the rules it holds: move generation (rules 1.2-1.9), the
end-of-turn checks (rule 6), the board changes of a move of play (rules 1.5-1.7) and the
static evaluation's numbers (evaluation.py explains them). :class:`~.state.SovereignState`
keeps the position and the history and calls these functions with its own data:

* ``heights``, ``pieces``: 49 ints each; ``level_sets[h]``: the squares of height h;
  ``piece_sets[code]``: the squares of each piece code; ``occupied``: every piece's square
  (sets are 49-bit ints, bit ``square``, see board.py);
* ``flags``: the game's rule options as one int of the ``RULE_*`` bits below
  (:meth:`SovereignRules.kernel_flags`).

Lists are never changed in place: a function that changes one returns a fresh copy, so a
snapshot holding the old list stays valid (the state's lists are copy-on-write).

Compiled (mypyc) and run as plain Python they give the same answers bit for bit: moves in
the same order, the same hashes, floats computed in the same order. So every loop keeps the
order of the scan it replaces, and every type is concrete.
"""

from __future__ import annotations

import math
from typing import Final

from boardlab.core import Move

from .board import (
    GOAL_RANKS,
    HEIGHT_KEYS,
    HOME_RANKS,
    KING_MASK,
    KNIGHT_MASK,
    PIECE_KEYS,
    RAYS,
    SETUP_TOWER,
    THIRD_RANK,
    TURN_KEYS,
)
from .moves import (
    JUMPS,
    PLACEMENTS,
    SLIDES,
    STEP_BUILDS,
    TOWER_PLACEMENTS,
    ConsultantJump,
    Slide,
    contractor_move,
    step_builds,
)

#: the rule options (rules 8) as bits of one int
RULE_CASTLE_HEIGHTS: Final = 1
RULE_TOWERS_BLOCK_SLIDES: Final = 2
RULE_STRAIGHT_TRANSIT: Final = 4
RULE_CONTRACTOR_TRANSIT: Final = 8
RULE_DIPLOMAT_SELF_PROTECT: Final = 16
RULE_STRICT_PIN: Final = 32
RULE_ANY_RESOLVING_MOVE: Final = 64
RULE_WIN_IGNORES_THREAT: Final = 128
RULE_PATH_BAN_DIPLOMAT: Final = 256
RULE_BUILD_WHOLE_TOWER: Final = 512
RULE_BUILD_MULTI_LEVEL: Final = 1024

#: the board's geometry (board.py), repeated as literals so that the compiler inlines them
SIZE: Final = 7
NUM_SQUARES: Final = 49
ALL_SQUARES: Final = (1 << 49) - 1
#: every square but those of file a (g): where a step east (west) may land
NOT_FILE_A: Final = 0x1FBF7EFDFBF7E
NOT_FILE_G: Final = 0x0FDFBF7EFDFBF

_KING_MASK: Final[tuple[int, ...]] = KING_MASK
_KNIGHT_MASK: Final[tuple[int, ...]] = KNIGHT_MASK
_RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = RAYS
_GOAL_RANKS: Final[tuple[int, ...]] = GOAL_RANKS
_HOME_RANKS: Final[tuple[int, ...]] = HOME_RANKS
_THIRD_RANK: Final[tuple[int, ...]] = THIRD_RANK
_HEIGHT_KEYS: Final[tuple[int, ...]] = HEIGHT_KEYS
_PIECE_KEYS: Final[tuple[int, ...]] = PIECE_KEYS
_SETUP_TOWER: Final[tuple[int, ...]] = SETUP_TOWER
#: the key to flip when the turn passes
TURN_FLIP: Final[int] = TURN_KEYS[0] ^ TURN_KEYS[1]

#: the shared move objects (moves.py), typed as moves so that the lists handed out are ``list[Move]``
_SOVEREIGN_SLIDES: Final[tuple[Move, ...]] = SLIDES[0]
_DIPLOMAT_SLIDES: Final[tuple[Move, ...]] = SLIDES[1]
_PLACEMENTS: Final[tuple[tuple[Move, ...], ...]] = PLACEMENTS
#: TOWER_PLACEMENTS as a flat table: [square * 49 + tower]
_TOWER_PLACEMENTS: Final[list[Move | None]] = [
    TOWER_PLACEMENTS[square].get(tower) for square in range(49) for tower in range(49)
]
_JUMPS: Final[list[ConsultantJump | None]] = JUMPS
#: the one-level Contractor moves of a king step, flat: the builds of the step ``origin -> target``
#: are ``_STEP_BUILD_MOVES[_STEP_BUILD_START[i]:_STEP_BUILD_START[i + 1]]``, i = origin * 49 + target
_STEP_BUILD_BITS: Final[list[int]] = []
_STEP_BUILD_MOVES: Final[list[Move]] = []
_STEP_BUILD_START: Final[list[int]] = []
for _index in range(49 * 49):
    _STEP_BUILD_START.append(len(_STEP_BUILD_BITS))
    for _bit, _move in STEP_BUILDS[_index] or ():
        _STEP_BUILD_BITS.append(_bit)
        _STEP_BUILD_MOVES.append(_move)
_STEP_BUILD_START.append(len(_STEP_BUILD_BITS))

#: the evaluation (evaluation.py): the bridge distance when no path exists within the search depth
FAR_AWAY: Final = 14
WEIGHT_DIPLOMAT: Final = 1.0
CONSULTANT_VALUES: Final[tuple[float, ...]] = (0.0, 1.8, 3.0)
CONTRACTOR_VALUES: Final[tuple[float, ...]] = (0.0, 2.0, 3.2, 4.0)
WEIGHT_THREATENED: Final = 0.6
CAPTURE_SHARE_TO_MOVE: Final = 1.0
CAPTURE_SHARE_WAITING: Final = 0.3
TEMPO: Final = 0.5
WIN_NOW: Final = 0.97
SOFTNESS: Final = 6.0
#: what :func:`estimate` found besides its number: an ordinary estimate, a sure win for the
#: player to move, a draw in all but name
ESTIMATE: Final = 0
WINNING: Final = 1
DEAD_DRAW: Final = 2


# --- reach, protection, threat (rules 1.8, 1.9) ------------------------------------------
def consultant_reach(consultants: int, heights: list[int], low_squares: int) -> int:
    """The squares the Consultants in ``consultants`` could jump to by geometry and height
    (rule 1.7.2: height at most the Consultant's level + 2), ignoring who stands there.
    ``low_squares``: the squares below height 3 (all a Consultant on the ground can reach)."""
    reach = 0
    while consultants:
        low = consultants & -consultants
        consultants ^= low
        square = low.bit_length() - 1
        reach |= _KNIGHT_MASK[square] if heights[square] else _KNIGHT_MASK[square] & low_squares
    return reach


def protected_squares(diplomat: int, heights: list[int], self_protect: bool) -> int:
    """The squares a Diplomat (a set of at most one square) protects (rule 1.8.1): the eight
    around it while it stands at level 2 or more, and its own with ``diplomat_self_protect``."""
    if not diplomat:
        return 0
    square = diplomat.bit_length() - 1
    if heights[square] < 2:
        return 0
    return _KING_MASK[square] | diplomat if self_protect else _KING_MASK[square]


def seat_threatened(seat: int, heights: list[int], piece_sets: list[int], low_squares: int, flags: int) -> bool:
    """Whether an enemy Consultant could move onto ``seat``'s Sovereign now (rule 1.9.1)."""
    sovereign = piece_sets[seat * 4 + 1]
    enemy = 4 - seat * 4
    if not consultant_reach(piece_sets[enemy + 3], heights, low_squares) & sovereign:
        return False
    self_protect = bool(flags & RULE_DIPLOMAT_SELF_PROTECT)
    return not protected_squares(piece_sets[seat * 4 + 2], heights, self_protect) & sovereign


# --- walking ----------------------------------------------------------------------------
def transit(start: int, passable: int, banned: int, exempt: bool) -> int:
    """The squares reachable from the square set ``start`` by orthogonal steps onto
    ``passable`` squares (empty tower squares), ``start`` included. A ``banned`` square may be
    reached but not walked through (rule 1.9.4); ``exempt``: the start is the mover's own
    square, which is never checked. Cost: one loop per step of the longest walk."""
    reached = start
    frontier = start if exempt or not start & banned else 0
    while frontier:
        new = (
            ((frontier << 1) & NOT_FILE_A) | ((frontier >> 1) & NOT_FILE_G) | (frontier << SIZE) | (frontier >> SIZE)
        ) & passable & ~reached
        reached |= new
        frontier = new & ~banned
    return reached


def straight_walk(ray: tuple[int, ...], passable: int, banned: int) -> int:
    """The squares of ``ray`` reached by walking straight over ``passable`` squares,
    stopping after a banned one (``transit_shape=straight``)."""
    reached = 0
    for square in ray:
        bit = 1 << square
        if not passable & bit:
            break
        reached |= bit
        if banned & bit:
            break
    return reached


def at_most(level_sets: list[int], height: int) -> int:
    """The squares of height ``height`` or less."""
    if height == 0:
        return level_sets[0]
    if height == 1:
        return level_sets[0] | level_sets[1]
    if height == 2:
        return ALL_SQUARES ^ level_sets[3]
    return ALL_SQUARES


def slider_targets(
    origin: int, level: int, banned: int, empty: int, towers: int, level_sets: list[int], flags: int
) -> int:
    """Where a Sovereign or Diplomat on ``origin`` (at ``level``) can go (rule 1.5), before the
    Sovereign's safety rules. ``level_sets``: the squares of each height (``[ALL_SQUARES, 0, 0,
    0]``, every square open ground, lifts the height rules; ``towers`` still says where to walk)."""
    passable = towers & empty
    climb_to = at_most(level_sets, level + 1 if level < 3 else 3)
    ground_ok = at_most(level_sets, 1) if flags & RULE_CASTLE_HEIGHTS else climb_to
    straight = bool(flags & RULE_STRAIGHT_TRANSIT)
    targets = 0
    rays = _RAYS[origin]
    if flags & RULE_TOWERS_BLOCK_SLIDES:
        for direction in range(4):
            ray = rays[direction]
            first = True
            for index in range(len(ray)):
                bit = 1 << ray[index]
                if not empty & bit:
                    break
                if towers & bit:
                    if not first or not level:  # stepping onto a tower from open ground (1.5 a)
                        if straight:
                            reached = straight_walk(ray[index:], passable, banned)
                        else:
                            reached = transit(bit, passable, banned, False)
                        targets |= reached & ground_ok
                    break  # a tower always ends the straight line (A11)
                targets |= bit
                if banned & bit:
                    break
                first = False
    else:
        # towers are transparent: the line runs on over empty squares of any height
        for direction in range(4):
            for square in rays[direction]:
                bit = 1 << square
                if not empty & bit:
                    break
                if towers & bit and not straight:
                    targets |= transit(bit, passable, banned, False) & ground_ok
                else:
                    targets |= bit & ground_ok
                if banned & bit:
                    break
    if level:
        # a castle move: through the piece's own castle, climbing from its level (1.5 b)
        own = 1 << origin
        if straight:
            reached = 0
            for direction in range(4):
                reached |= straight_walk(rays[direction], passable, banned)
        else:
            reached = transit(own, passable, banned, True) ^ own
        targets |= reached & climb_to
    return targets


# --- the moves of a turn ------------------------------------------------------------------
def setup_moves(seat: int, kind: int, with_tower: bool, level_sets: list[int], occupied: int) -> list[Move]:
    """The placements of ``seat``'s ``kind`` now (rules 1.2.3-1.2.5): by square, then by the
    square of the 1-level tower when the piece comes with it."""
    ground = level_sets[0] & (ALL_SQUARES ^ occupied)
    squares = _HOME_RANKS[seat] & ground
    moves: list[Move] = []
    if not with_tower:
        row = _PLACEMENTS[kind]
        while squares:
            low = squares & -squares
            squares ^= low
            moves.append(row[low.bit_length() - 1])
        return moves
    tower_region = (_HOME_RANKS[seat] | _THIRD_RANK[seat]) & ground
    while squares:
        low = squares & -squares
        squares ^= low
        square = low.bit_length() - 1
        towers = _KING_MASK[square] & tower_region
        base = square * NUM_SQUARES
        while towers:
            bit = towers & -towers
            towers ^= bit
            placement = _TOWER_PLACEMENTS[base + bit.bit_length() - 1]
            assert placement is not None
            moves.append(placement)
    return moves


def sovereign_scan(
    seat: int, heights: list[int], piece_sets: list[int], level_sets: list[int], occupied: int, flags: int
) -> tuple[int, int, int]:
    """(enemy Consultant reach, the mover's Diplomat protection, the squares the mover's
    Sovereign may legally move to): what both the end-of-turn check and the move list need."""
    own = seat * 4
    reach = consultant_reach(piece_sets[7 - own], heights, ALL_SQUARES ^ level_sets[3])
    protection = protected_squares(piece_sets[own + 2], heights, bool(flags & RULE_DIPLOMAT_SELF_PROTECT))
    sovereign = piece_sets[own + 1].bit_length() - 1
    empty = ALL_SQUARES ^ occupied
    towers = ALL_SQUARES ^ level_sets[0]
    targets = slider_targets(sovereign, heights[sovereign], reach, empty, towers, level_sets, flags)
    safe = (ALL_SQUARES ^ reach) | protection
    if flags & RULE_WIN_IGNORES_THREAT:
        safe |= level_sets[3] & _GOAL_RANKS[seat]  # the winning move may end on an attacked square (rule 1.10)
    return reach, protection, targets & safe


def play_moves(
    seat: int, heights: list[int], piece_sets: list[int], level_sets: list[int], occupied: int,
    pool_lower: int, pool_top: int, flags: int, reach: int, protection: int, sovereign_targets: int,
) -> tuple[list[Move], bool, bool]:
    """The legal moves of ``seat`` in play, whether its Sovereign is threatened (rule 1.9.1),
    and whether any Sovereign move is among the moves. ``reach``, ``protection``,
    ``sovereign_targets``: the :func:`sovereign_scan` of this position. The order: the
    Sovereign's moves, the Diplomat's, the Consultants', the Contractors' (each by square)."""
    own = seat * 4
    foe = 4 - own
    sovereign_set = piece_sets[own + 1]
    diplomat_set = piece_sets[own + 2]
    empty = ALL_SQUARES ^ occupied
    towers = ALL_SQUARES ^ level_sets[0]
    below_top = ALL_SQUARES ^ level_sets[3]
    self_protect = bool(flags & RULE_DIPLOMAT_SELF_PROTECT)
    attacked = reach & sovereign_set
    threatened = bool(attacked) and not protection & sovereign_set
    moves: list[Move] = []

    # the Sovereign (rules 1.5, 1.9, 1.10)
    sovereign = sovereign_set.bit_length() - 1
    has_sovereign_move = bool(sovereign_targets)
    targets = sovereign_targets
    base = sovereign * NUM_SQUARES
    while targets:
        low = targets & -targets
        targets ^= low
        moves.append(_SOVEREIGN_SLIDES[base + low.bit_length() - 1])
    if threatened and not flags & RULE_ANY_RESOLVING_MOVE:
        return moves, True, has_sovereign_move  # the Sovereign must move (rule 1.9.2)

    # the Diplomat (rules 1.5, 1.8.2)
    if diplomat_set and not (attacked and protection & sovereign_set and flags & RULE_STRICT_PIN):
        diplomat = diplomat_set.bit_length() - 1
        banned = reach if flags & RULE_PATH_BAN_DIPLOMAT else 0
        targets = slider_targets(diplomat, heights[diplomat], banned, empty, towers, level_sets, flags)
        if attacked:
            # keep-protection (or a threat to resolve): only squares from which it still protects
            keeps = 0
            rest = targets
            while rest:
                low = rest & -rest
                rest ^= low
                square = low.bit_length() - 1
                if heights[square] >= 2 and _KING_MASK[square] & sovereign_set:
                    keeps |= low
            targets = keeps
        base = diplomat * NUM_SQUARES
        while targets:
            low = targets & -targets
            targets ^= low
            moves.append(_DIPLOMAT_SLIDES[base + low.bit_length() - 1])

    # the Consultants (rule 1.7)
    consultants = piece_sets[own + 3]
    if consultants:
        own_pieces = sovereign_set | diplomat_set | consultants | piece_sets[own + 4]
        foe_pieces = occupied ^ own_pieces
        shielded = protected_squares(piece_sets[foe + 2], heights, self_protect) & foe_pieces
        open_targets = ALL_SQUARES ^ own_pieces ^ shielded
        while consultants:
            low = consultants & -consultants
            consultants ^= low
            square = low.bit_length() - 1
            jumps = _KNIGHT_MASK[square] & open_targets
            if not heights[square]:
                jumps &= below_top
            base = square * NUM_SQUARES * 4
            while jumps:
                bit = jumps & -jumps
                jumps ^= bit
                index = base + (bit.bit_length() - 1) * 4
                if foe_pieces & bit:
                    index += 2
                if towers & bit:
                    index += 1
                jump = _JUMPS[index]
                assert jump is not None
                moves.append(jump)

    # the Contractors (rule 1.6)
    contractors = piece_sets[own + 4]
    if contractors:
        if pool_lower:
            supply_ok = below_top if pool_top else at_most(level_sets, 1)
        else:
            supply_ok = level_sets[2] if pool_top else 0
        if supply_ok:
            if flags & (RULE_BUILD_WHOLE_TOWER | RULE_BUILD_MULTI_LEVEL | RULE_CONTRACTOR_TRANSIT):
                _contractor_variants(
                    moves, contractors, heights, level_sets, empty, towers, supply_ok, pool_lower, pool_top, flags
                )
            else:
                while contractors:
                    low = contractors & -contractors
                    contractors ^= low
                    square = low.bit_length() - 1
                    buildable = (empty | low) & supply_ok
                    level = heights[square]
                    steps = _KING_MASK[square] & empty & at_most(level_sets, level + 1 if level < 3 else 3)
                    base = square * NUM_SQUARES
                    while steps:
                        bit = steps & -steps
                        steps ^= bit
                        target = bit.bit_length() - 1
                        if _KING_MASK[target] & buildable:
                            step = base + target
                            for entry in range(_STEP_BUILD_START[step], _STEP_BUILD_START[step + 1]):
                                if buildable & _STEP_BUILD_BITS[entry]:
                                    moves.append(_STEP_BUILD_MOVES[entry])

    if threatened:
        # any_resolving_move: every move that leaves the Sovereign safe (or wins)
        resolving: list[Move] = []
        has_sovereign_move = False
        for move in moves:
            if resolves_threat(seat, heights, piece_sets, level_sets, flags, move, reach, sovereign_set):
                resolving.append(move)
                if type(move) is Slide and move.kind == 0:
                    has_sovereign_move = True
        moves = resolving
    return moves, threatened, has_sovereign_move


def _contractor_variants(
    moves: list[Move], contractors: int, heights: list[int], level_sets: list[int], empty: int, towers: int,
    supply_ok: int, pool_lower: int, pool_top: int, flags: int,
) -> None:
    """Contractor moves under the build and transit options (rules 8), appended to ``moves``:
    every destination, then every build on a square around it of the allowed number of levels."""
    passable = towers & empty
    below_top = ALL_SQUARES ^ level_sets[3]
    one_level = not flags & (RULE_BUILD_WHOLE_TOWER | RULE_BUILD_MULTI_LEVEL)
    while contractors:
        low = contractors & -contractors
        contractors ^= low
        square = low.bit_length() - 1
        level = heights[square]
        climb_to = at_most(level_sets, level + 1 if level < 3 else 3)
        destinations = _KING_MASK[square] & empty & climb_to
        if flags & RULE_CONTRACTOR_TRANSIT:
            walk_from = destinations & towers
            while walk_from:
                bit = walk_from & -walk_from
                walk_from ^= bit
                destinations |= transit(bit, passable, 0, False) & climb_to
        buildable = (empty | low) & below_top
        while destinations:
            bit = destinations & -destinations
            destinations ^= bit
            target = bit.bit_length() - 1
            if one_level:
                for build_bit, move in step_builds(square, target):
                    if buildable & supply_ok & build_bit:
                        moves.append(move)
                continue
            around = _KING_MASK[target] & buildable
            while around:
                build_low = around & -around
                around ^= build_low
                build = build_low.bit_length() - 1
                height = heights[build]
                if flags & RULE_BUILD_WHOLE_TOWER and height:
                    continue
                for levels in range(1, 4 - height):
                    top = height + levels
                    lower_needed = (top if top < 2 else 2) - (height if height < 2 else 2)
                    top_needed = 1 if top == 3 else 0
                    if lower_needed <= pool_lower and top_needed <= pool_top:
                        moves.append(contractor_move(square, target, build, levels))


def resolves_threat(
    seat: int, heights: list[int], piece_sets: list[int], level_sets: list[int], flags: int,
    move: Move, reach: int, sovereign_set: int,
) -> bool:
    """Whether ``move`` leaves the mover's Sovereign unthreatened, or wins (``any_resolving_move``).

    Only three kinds of move change a threat: the Sovereign moving, the Diplomat moving (its
    protection moves with it), and a Consultant capturing an attacking Consultant.
    """
    protection = protected_squares(piece_sets[seat * 4 + 2], heights, bool(flags & RULE_DIPLOMAT_SELF_PROTECT))
    if isinstance(move, Slide):
        if move.kind == 0:  # the Sovereign: its target was filtered for safety already
            return True
        target = move.target
        protection = _KING_MASK[target] if heights[target] >= 2 else 0
    elif isinstance(move, ConsultantJump) and move.capture:
        foe_consultants = piece_sets[7 - seat * 4] & ~(1 << move.target)
        reach = consultant_reach(foe_consultants, heights, ALL_SQUARES ^ level_sets[3])
    return not (reach & sovereign_set) or bool(protection & sovereign_set)


def turn_status(
    seat: int, heights: list[int], piece_sets: list[int], level_sets: list[int], occupied: int,
    pool_lower: int, pool_top: int, flags: int,
) -> tuple[bool, bool, bool, int, int, int]:
    """(threatened, has a legal move, has a legal Sovereign move, then the three numbers of
    :func:`sovereign_scan`) for ``seat`` to move in play: what the end-of-turn checks of rule 6
    need, usually without listing every move (a Sovereign, Consultant or Contractor move found
    is enough). Cost: about a third of :func:`play_moves`."""
    own = seat * 4
    foe = 4 - own
    sovereign_set = piece_sets[own + 1]
    reach, protection, targets = sovereign_scan(seat, heights, piece_sets, level_sets, occupied, flags)
    threatened = bool(reach & sovereign_set) and not protection & sovereign_set
    has_sovereign_move = bool(targets)
    if threatened:
        if flags & RULE_ANY_RESOLVING_MOVE:
            moves = play_moves(
                seat, heights, piece_sets, level_sets, occupied, pool_lower, pool_top, flags, reach, protection, targets
            )[0]
            return True, bool(moves), has_sovereign_move, reach, protection, targets
        return True, has_sovereign_move, has_sovereign_move, reach, protection, targets
    if has_sovereign_move:
        return False, True, True, reach, protection, targets
    empty = ALL_SQUARES ^ occupied
    below_top = ALL_SQUARES ^ level_sets[3]
    own_pieces = sovereign_set | piece_sets[own + 2] | piece_sets[own + 3] | piece_sets[own + 4]
    foe_pieces = occupied ^ own_pieces
    shielded = protected_squares(piece_sets[foe + 2], heights, bool(flags & RULE_DIPLOMAT_SELF_PROTECT)) & foe_pieces
    open_targets = ALL_SQUARES ^ own_pieces ^ shielded
    consultants = piece_sets[own + 3]
    while consultants:
        low = consultants & -consultants
        consultants ^= low
        square = low.bit_length() - 1
        if _KNIGHT_MASK[square] & open_targets & (ALL_SQUARES if heights[square] else below_top):
            return False, True, False, reach, protection, targets
    contractors = piece_sets[own + 4]
    if contractors and not flags & (RULE_BUILD_WHOLE_TOWER | RULE_BUILD_MULTI_LEVEL | RULE_CONTRACTOR_TRANSIT):
        if pool_lower:
            supply_ok = below_top if pool_top else at_most(level_sets, 1)
        else:
            supply_ok = level_sets[2] if pool_top else 0
        while supply_ok and contractors:
            low = contractors & -contractors
            contractors ^= low
            square = low.bit_length() - 1
            buildable = (empty | low) & supply_ok
            level = heights[square]
            steps = _KING_MASK[square] & empty & at_most(level_sets, level + 1 if level < 3 else 3)
            while steps:
                bit = steps & -steps
                steps ^= bit
                if _KING_MASK[bit.bit_length() - 1] & buildable:
                    return False, True, False, reach, protection, targets
    moves = play_moves(
        seat, heights, piece_sets, level_sets, occupied, pool_lower, pool_top, flags, reach, protection, targets
    )[0]
    return False, bool(moves), False, reach, protection, targets


# --- the board changes of a move of play (rules 1.5-1.7) ------------------------------------
#: what :func:`play_move` reports besides the board: the mover won (rule 1.10), the move
#: captured (so no earlier position can come back, rule 1.11.3)
MOVE_WINS: Final = 1
MOVE_CAPTURES: Final = 2


def play_move(
    seat: int, kind: int, origin: int, target: int, build: int, levels: int,
    heights: list[int], pieces: list[int], level_sets: list[int], piece_sets: list[int],
    occupied: int, zobrist: int, pool_lower: int, pool_top: int, flags: int,
) -> tuple[list[int], list[int], list[int], list[int], int, int, int, int, int, bool, bool, bool, int, int, int]:
    """``seat``'s piece of ``kind`` (0-3, board.py) moves from ``origin`` to ``target``; a
    Contractor then builds ``levels`` levels on ``build`` (rule 1.6.2), a Consultant takes what
    stands on ``target`` and lowers its tower (rule 1.7.3); then the turn passes. Returns the new
    (heights, pieces, level_sets, piece_sets, occupied, zobrist, pool_lower, pool_top), the
    ``MOVE_*`` bits of what happened, and the :func:`turn_status` of the other player (one call
    instead of two: the caller ignores it when the game ended). The lists that change are
    fresh copies."""
    pieces = pieces.copy()
    piece_sets = piece_sets.copy()
    outcome = 0
    if kind == 2:
        captured = pieces[target]
        if captured:
            assert captured != 1 and captured != 5, "a Sovereign was captured (rule 1.9.5)"
            piece_sets[captured] ^= 1 << target
            zobrist ^= _PIECE_KEYS[target * 9 + captured]
            pieces[target] = 0
            occupied ^= 1 << target
            outcome = MOVE_CAPTURES
    code = pieces[origin]
    pieces[origin] = 0
    pieces[target] = code
    both = (1 << origin) | (1 << target)
    piece_sets[code] ^= both
    occupied ^= both
    zobrist ^= _PIECE_KEYS[origin * 9 + code] ^ _PIECE_KEYS[target * 9 + code] ^ TURN_FLIP
    if kind == 3:
        # build: lower pieces for levels 1-2, a top piece for level 3 (rule 1.6.2)
        old = heights[build]
        new = old + levels
        pool_lower -= (new if new < 2 else 2) - (old if old < 2 else 2)
        if new == 3:
            pool_top -= 1
        heights, level_sets, change = _set_height(heights, level_sets, build, new)
        zobrist ^= change
    elif kind == 2:
        old = heights[target]
        if old:
            # the top level goes back to the supply (rule 1.7.3)
            if old == 3:
                pool_top += 1
            else:
                pool_lower += 1
            heights, level_sets, change = _set_height(heights, level_sets, target, old - 1)
            zobrist ^= change
    elif kind == 0 and heights[target] == 3 and _GOAL_RANKS[seat] & (1 << target):
        outcome = MOVE_WINS  # a Sovereign on a 3-level square of its goal ranks (rule 1.10)
    threatened, has_move, has_sovereign_move, reach, protection, targets = turn_status(
        1 - seat, heights, piece_sets, level_sets, occupied, pool_lower, pool_top, flags
    )
    return (
        heights, pieces, level_sets, piece_sets, occupied, zobrist, pool_lower, pool_top, outcome,
        threatened, has_move, has_sovereign_move, reach, protection, targets,
    )


def place(
    seat: int, kind: int, square: int, tower: int, heights: list[int], pieces: list[int], level_sets: list[int],
    piece_sets: list[int], occupied: int, zobrist: int,
) -> tuple[list[int], list[int], list[int], list[int], int, int]:
    """A setup placement (rules 1.2.3-1.2.6): ``seat``'s piece of ``kind`` on ``square`` with
    its setup tower, and the 1-level tower on ``tower`` (-1: none). Returns the new (heights,
    pieces, level_sets, piece_sets, occupied, zobrist); the supply does not change (rule 1.2.1)."""
    code = seat * 4 + kind + 1
    pieces = pieces.copy()
    pieces[square] = code
    piece_sets = piece_sets.copy()
    piece_sets[code] |= 1 << square
    occupied |= 1 << square
    zobrist ^= _PIECE_KEYS[square * 9 + code]
    height = _SETUP_TOWER[kind]
    if height:
        heights, level_sets, change = _set_height(heights, level_sets, square, height)
        zobrist ^= change
    if tower >= 0:
        heights, level_sets, change = _set_height(heights, level_sets, tower, 1)
        zobrist ^= change
    return heights, pieces, level_sets, piece_sets, occupied, zobrist


def _set_height(heights: list[int], level_sets: list[int], square: int, new: int) -> tuple[list[int], list[int], int]:
    """Fresh copies of ``heights`` and ``level_sets`` with ``square`` at height ``new``, and the hash change."""
    heights = heights.copy()
    old = heights[square]
    heights[square] = new
    bit = 1 << square
    level_sets = level_sets.copy()
    level_sets[old] ^= bit
    level_sets[new] ^= bit
    return heights, level_sets, _HEIGHT_KEYS[square * 4 + old] ^ _HEIGHT_KEYS[square * 4 + new]


# --- the evaluation's numbers (evaluation.py) -------------------------------------------------
def orthogonal_spread(squares: int) -> int:
    """The squares orthogonally next to any of ``squares`` (a few shifts, no loop)."""
    return (
        ((squares << 1) & NOT_FILE_A)
        | ((squares >> 1) & NOT_FILE_G)
        | ((squares << SIZE) & ALL_SQUARES)
        | (squares >> SIZE)
    )


def _flood(start: int, passable: int) -> int:
    reached = start
    frontier = start
    while frontier:
        frontier = (
            ((frontier << 1) & NOT_FILE_A) | ((frontier >> 1) & NOT_FILE_G) | (frontier << SIZE) | (frontier >> SIZE)
        ) & passable & ~reached
        reached |= frontier
    return reached


def bridge_distance(
    seat: int, heights: list[int], piece_sets: list[int], level_sets: list[int], occupied: int, enemy_reach: int
) -> int:
    """Tower levels to build (plus obstacles to clear) before ``seat``'s Sovereign can step
    onto a 3-level tower in its goal ranks; FAR_AWAY if more than that (evaluation.py)."""
    sovereign = piece_sets[seat * 4 + 1]
    if not sovereign:
        return FAR_AWAY
    h0 = level_sets[0]
    h1 = level_sets[1]
    h2 = level_sets[2]
    h3 = level_sets[3]
    empty = ALL_SQUARES ^ occupied
    own = piece_sets[seat * 4 + 2] | piece_sets[seat * 4 + 3] | piece_sets[seat * 4 + 4]
    enemy = occupied ^ own ^ sovereign
    free = (empty & ~h0) & ~enemy_reach  # cost 0: empty tower squares the Sovereign may pass
    one = (empty & h0 & ~enemy_reach) | (empty & ~h0 & enemy_reach) | (own & ~h0)
    two = (empty & h0 & enemy_reach) | (own & h0)
    three = enemy
    goal = _GOAL_RANKS[seat]
    # levels a goal square still lacks once it is reached (a ground square's first level is
    # counted by reaching it)
    lack0 = goal & h3
    lack1 = goal & h2
    lack2 = goal & (h1 | h0)
    # a winning square may be attacked: the Sovereign only has to arrive (rule 1.10)
    attacked_wins = goal & h3 & empty & enemy_reach
    level = heights[sovereign.bit_length() - 1]
    climb = 2 - level if level < 2 else 0
    layers = [_flood(sovereign, free)]
    if not piece_sets[seat * 4 + 4]:
        # no Contractor left: nothing more can be built, so only a walk already open counts
        open_walk = layers[0] & lack0 or orthogonal_spread(layers[0]) & attacked_wins
        return 0 if climb == 0 and open_walk else FAR_AWAY
    best = FAR_AWAY
    for cost in range(FAR_AWAY):
        reached = layers[cost]
        spread = orthogonal_spread(reached)
        if spread & attacked_wins and cost < best:
            best = cost
        if reached & lack0 and cost < best:
            best = cost
        if reached & lack1 and cost + 1 < best:
            best = cost + 1
        if reached & lack2 and cost + 2 < best:
            best = cost + 2
        if cost + 1 >= best:
            break
        grow = spread & one
        if cost >= 1:
            grow |= orthogonal_spread(layers[cost - 1]) & two
        if cost >= 2:
            grow |= orthogonal_spread(layers[cost - 2]) & three
        layers.append(_flood(reached | grow, free))
    return best + climb if best + climb < FAR_AWAY else FAR_AWAY


def best_capture(seat: int, heights: list[int], piece_sets: list[int], reach: int, self_protect: bool) -> float:
    """What ``seat``'s best capture by a Consultant would take off the enemy's material: the
    enemy Diplomat, Consultants and Contractors its Consultants reach (``reach``, rule 1.7.2)
    and the enemy Diplomat does not protect (rule 1.8.1), valued as the last of their kind
    lost. Sovereigns are never captured (rule 1.9.5)."""
    enemy = 4 - seat * 4
    targets = reach & (piece_sets[enemy + 2] | piece_sets[enemy + 3] | piece_sets[enemy + 4])
    if not targets:
        return 0.0
    targets &= ~protected_squares(piece_sets[enemy + 2], heights, self_protect)
    best = 0.0
    if targets & piece_sets[enemy + 2]:
        best = WEIGHT_DIPLOMAT
    consultants = piece_sets[enemy + 3]
    if targets & consultants:
        count = consultants.bit_count()
        value = CONSULTANT_VALUES[count] - CONSULTANT_VALUES[count - 1]
        if value > best:
            best = value
    contractors = piece_sets[enemy + 4]
    if targets & contractors:
        count = contractors.bit_count()
        value = CONTRACTOR_VALUES[count] - CONTRACTOR_VALUES[count - 1]
        if value > best:
            best = value
    return best


def reaches_and_captures(heights: list[int], piece_sets: list[int], level_sets: list[int], flags: int
                         ) -> tuple[int, int, float, float]:
    """The squares the enemy Consultants reach, for each player (what threatens it), and each
    player's best capture (:func:`best_capture`)."""
    low = ALL_SQUARES ^ level_sets[3]
    self_protect = bool(flags & RULE_DIPLOMAT_SELF_PROTECT)
    reach_first = consultant_reach(piece_sets[7], heights, low)  # P2's Consultants threaten P1
    reach_second = consultant_reach(piece_sets[3], heights, low)
    # P1's Consultants reach what threatens P2
    capture_first = best_capture(0, heights, piece_sets, reach_second, self_protect)
    capture_second = best_capture(1, heights, piece_sets, reach_first, self_protect)
    return reach_first, reach_second, capture_first, capture_second


def scores(
    mover: int, can_only_flee: bool, heights: list[int], piece_sets: list[int], level_sets: list[int], occupied: int,
    flags: int,
) -> tuple[float, float, int, int]:
    """Each player's score (material, minus a threat to its Sovereign, minus its bridge
    distance, plus a share of its best capture), then the two bridge distances.
    ``can_only_flee``: the player to move must move its threatened Sovereign (rule 1.9.2)."""
    reach_first, reach_second, capture_first, capture_second = reaches_and_captures(
        heights, piece_sets, level_sets, flags
    )
    first, distance_first = _score(0, mover, can_only_flee, heights, piece_sets, level_sets, occupied, reach_first,
                                   capture_first)
    second, distance_second = _score(1, mover, can_only_flee, heights, piece_sets, level_sets, occupied, reach_second,
                                     capture_second)
    return first, second, distance_first, distance_second


def _score(
    seat: int, mover: int, can_only_flee: bool, heights: list[int], piece_sets: list[int], level_sets: list[int],
    occupied: int, reach: int, capture: float,
) -> tuple[float, int]:
    base = seat * 4
    material = (
        (WEIGHT_DIPLOMAT if piece_sets[base + 2] else 0.0)
        + CONSULTANT_VALUES[piece_sets[base + 3].bit_count()]
        + CONTRACTOR_VALUES[piece_sets[base + 4].bit_count()]
    )
    threatened = WEIGHT_THREATENED if reach & piece_sets[base + 1] else 0.0
    distance = bridge_distance(seat, heights, piece_sets, level_sets, occupied, reach)
    # a threatened player must move its Sovereign (rule 1.9.2): no capture this turn
    share = CAPTURE_SHARE_TO_MOVE if seat == mover and not can_only_flee else CAPTURE_SHARE_WAITING
    return material - threatened - distance + share * capture, distance


def estimate(
    mover: int, can_only_flee: bool, in_setup: bool, heights: list[int], piece_sets: list[int],
    level_sets: list[int], occupied: int, flags: int,
) -> tuple[int, float]:
    """The first player's estimated return in a game not over, before any repetition
    discount: (ESTIMATE, p), or (WINNING, WIN_NOW) when the player to move has a free walk
    onto a winning square, or (DEAD_DRAW, 0.5) when neither Sovereign can ever arrive."""
    first, second, distance_first, distance_second = scores(
        mover, can_only_flee, heights, piece_sets, level_sets, occupied, flags
    )
    if distance_first >= FAR_AWAY and distance_second >= FAR_AWAY and not in_setup:
        return DEAD_DRAW, 0.5
    if not in_setup:
        if (distance_first if mover == 0 else distance_second) == 0:
            return WINNING, WIN_NOW
        if mover == 0:
            first += TEMPO
        else:
            second += TEMPO
    lead = first - second
    # a curve that flattens slowly: a side far ahead still sees each step of progress
    return ESTIMATE, 0.5 + 0.5 * lead / (abs(lead) + SOFTNESS)


# --- the fitted evaluation's terms (evaluation.py names them) ---------------------------------
#: terms per seat, in the order of :func:`terms`
TERMS_PER_SEAT: Final = 10


def _seat_terms(
    values: list[float], seat: int, mover: int, can_only_flee: bool, heights: list[int], piece_sets: list[int],
    level_sets: list[int], occupied: int, reach: int, capture: float,
) -> int:
    """Append ``seat``'s terms to ``values``; return its bridge distance."""
    base = seat * 4
    consultants = piece_sets[base + 3].bit_count()
    contractors = piece_sets[base + 4].bit_count()
    distance = bridge_distance(seat, heights, piece_sets, level_sets, occupied, reach)
    acts = seat == mover and not can_only_flee
    values.append(1.0 if piece_sets[base + 2] else 0.0)
    values.append(float(consultants))
    values.append(float(contractors))
    values.append(0.0 if contractors else 1.0)
    values.append(1.0 if reach & piece_sets[base + 1] else 0.0)
    values.append(float(distance))
    values.append(1.0 / (1.0 + distance))
    values.append(capture if acts else 0.0)
    values.append(0.0 if acts else capture)
    values.append(1.0 if seat == mover else 0.0)
    return distance


def terms(
    mover: int, can_only_flee: bool, heights: list[int], piece_sets: list[int], level_sets: list[int], occupied: int,
    flags: int,
) -> tuple[list[float], int, int]:
    """Both seats' terms (TERMS_PER_SEAT each, the first player's first) and their bridge distances."""
    reach_first, reach_second, capture_first, capture_second = reaches_and_captures(
        heights, piece_sets, level_sets, flags
    )
    values: list[float] = []
    distance_first = _seat_terms(
        values, 0, mover, can_only_flee, heights, piece_sets, level_sets, occupied, reach_first, capture_first
    )
    distance_second = _seat_terms(
        values, 1, mover, can_only_flee, heights, piece_sets, level_sets, occupied, reach_second, capture_second
    )
    return values, distance_first, distance_second


def _seat_score(
    seat: int, mover: int, can_only_flee: bool, heights: list[int], piece_sets: list[int], level_sets: list[int],
    occupied: int, reach: int, capture: float, weights: tuple[float, ...],
) -> tuple[float, int]:
    """``seat``'s weighted terms (those :func:`_seat_terms` lists, in its order, without the
    list: this is a search's leaf) and its bridge distance."""
    base = seat * 4
    contractors = piece_sets[base + 4].bit_count()
    distance = bridge_distance(seat, heights, piece_sets, level_sets, occupied, reach)
    acts = seat == mover and not can_only_flee
    score = weights[1] * piece_sets[base + 3].bit_count() + weights[2] * contractors
    score += weights[5] * distance + weights[6] / (1.0 + distance)
    if piece_sets[base + 2]:
        score += weights[0]
    if not contractors:
        score += weights[3]
    if reach & piece_sets[base + 1]:
        score += weights[4]
    score += weights[7] * capture if acts else weights[8] * capture
    if seat == mover:
        score += weights[9]
    return score, distance


def fitted_estimate(
    mover: int, can_only_flee: bool, in_setup: bool, heights: list[int], piece_sets: list[int],
    level_sets: list[int], occupied: int, flags: int, weights: tuple[float, ...], bias: tuple[float, ...],
    linear: float, square: float,
) -> tuple[int, float]:
    """As :func:`estimate`, the ordinary estimate made by fitted ``weights`` (one per term),
    ``bias`` (one per seat) and curve: the logistic curve of the difference z of the two
    seats' weighted terms, bent to linear * z + square * z * |z| / 2 (boardlab.core.fitted)."""
    reach_first, reach_second, capture_first, capture_second = reaches_and_captures(
        heights, piece_sets, level_sets, flags
    )
    first, distance_first = _seat_score(
        0, mover, can_only_flee, heights, piece_sets, level_sets, occupied, reach_first, capture_first, weights
    )
    second, distance_second = _seat_score(
        1, mover, can_only_flee, heights, piece_sets, level_sets, occupied, reach_second, capture_second, weights
    )
    if distance_first >= FAR_AWAY and distance_second >= FAR_AWAY and not in_setup:
        return DEAD_DRAW, 0.5
    if not in_setup and (distance_first if mover == 0 else distance_second) == 0:
        return WINNING, WIN_NOW
    lead = bias[0] - bias[1] + first - second
    lead = linear * lead + square * lead * abs(lead) / 2.0
    if lead > 30.0:
        return ESTIMATE, 1.0
    if lead < -30.0:
        return ESTIMATE, 0.0
    return ESTIMATE, 1.0 / (1.0 + math.exp(-lead))
