"""Sovereign move generation (docs/rules/sovereign.md, rules 1.2-1.9), on square sets.

The hot path of random play and search. Every set of squares is a 49-bit int; the
walk through a castle is a flood fill by shifts (:func:`transit`), Consultant reach
and Diplomat protection are unions of precomputed knight and king masks. The state
passes its fields in; nothing here keeps state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from boardlab.core import Move

from .board import (
    ALL_SQUARES,
    BIT,
    GOAL_RANKS,
    HOME_RANKS,
    KING_MASK,
    KNIGHT_MASK,
    NOT_FILE_A,
    NOT_FILE_G,
    NUM_SQUARES,
    RAYS,
    SIZE,
    THIRD_RANK,
    setup_item,
)
from .moves import JUMPS, PLACEMENTS, SLIDES, STEP_BUILDS, TOWER_PLACEMENTS, Slide, contractor_move, step_builds
from .rules import BUILD_ONE_LEVEL, BUILD_WHOLE_TOWER, SovereignRules

if TYPE_CHECKING:
    from .state import SovereignState


# --- reach, protection, threat (rules 1.8, 1.9) ------------------------------------------
def consultant_reach(consultants: int, heights: Sequence[int], low_squares: int) -> int:
    """The squares the Consultants in ``consultants`` could jump to by geometry and height
    (rule 1.7.2: height at most the Consultant's level + 2), ignoring who stands there.
    ``low_squares``: the squares below height 3 (all a Consultant on the ground can reach)."""
    reach = 0
    while consultants:
        low = consultants & -consultants
        consultants ^= low
        square = low.bit_length() - 1
        reach |= KNIGHT_MASK[square] if heights[square] else KNIGHT_MASK[square] & low_squares
    return reach


def protected_squares(diplomat: int, heights: Sequence[int], self_protect: bool) -> int:
    """The squares a Diplomat (a set of at most one square) protects (rule 1.8.1): the eight
    around it while it stands at level 2 or more, and its own with ``diplomat_self_protect``."""
    if not diplomat:
        return 0
    square = diplomat.bit_length() - 1
    if heights[square] < 2:
        return 0
    return KING_MASK[square] | diplomat if self_protect else KING_MASK[square]


def seat_threatened(
    seat: int, heights: Sequence[int], piece_sets: Sequence[int], low_squares: int, rules: SovereignRules
) -> bool:
    """Whether an enemy Consultant could move onto ``seat``'s Sovereign now (rule 1.9.1)."""
    sovereign = piece_sets[seat * 4 + 1]
    enemy = 4 - seat * 4
    if not consultant_reach(piece_sets[enemy + 3], heights, low_squares) & sovereign:
        return False
    return not protected_squares(piece_sets[seat * 4 + 2], heights, rules.diplomat_self_protect) & sovereign


# --- walking ----------------------------------------------------------------------------
def transit(start: int, passable: int, banned: int, exempt: bool) -> int:
    """The squares reachable from the square set ``start`` by orthogonal steps onto
    ``passable`` squares (empty tower squares), ``start`` included. A ``banned`` square may be
    reached but not walked through (rule 1.9.4); ``exempt``: the start is the mover's own
    square, which is never checked. Cost: one loop per step of the longest walk."""
    reached = start
    frontier = start if exempt or not start & banned else 0
    while frontier:
        # orthogonal_spread, inlined: this loop is the hottest of move generation
        new = (
            ((frontier << 1) & NOT_FILE_A) | ((frontier >> 1) & NOT_FILE_G) | (frontier << SIZE) | (frontier >> SIZE)
        ) & passable & ~reached
        reached |= new
        frontier = new & ~banned
    return reached


def straight_walk(ray: Sequence[int], passable: int, banned: int) -> int:
    """The squares of ``ray`` reached by walking straight over ``passable`` squares,
    stopping after a banned one (``transit_shape=straight``)."""
    reached = 0
    for square in ray:
        bit = BIT[square]
        if not passable & bit:
            break
        reached |= bit
        if banned & bit:
            break
    return reached


def slider_targets(
    origin: int, level: int, banned: int, empty: int, towers: int, at_most: Sequence[int], rules: SovereignRules
) -> int:
    """Where a Sovereign or Diplomat on ``origin`` (at ``level``) can go (rule 1.5), before the
    Sovereign's safety rules. ``at_most[h]``: the squares of height <= h."""
    passable = towers & empty
    climb_to = at_most[level + 1 if level < 3 else 3]
    ground_ok = at_most[1] if rules.castle_heights else climb_to
    straight = rules.straight_transit
    targets = 0
    rays = RAYS[origin]
    if rules.towers_block_slides:
        for direction in range(4):
            ray = rays[direction]
            first = True
            for index, square in enumerate(ray):
                bit = BIT[square]
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
            ray = rays[direction]
            for square in ray:
                bit = BIT[square]
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
        own = BIT[origin]
        if straight:
            reached = 0
            for ray in rays:
                reached |= straight_walk(ray, passable, banned)
        else:
            reached = transit(own, passable, banned, True) ^ own
        targets |= reached & climb_to
    return targets


# --- the moves of a turn ------------------------------------------------------------------
def setup_moves(state: "SovereignState") -> list[Move]:
    """The placements of the current setup step (rules 1.2.3-1.2.5)."""
    seat, kind, with_tower = setup_item(state.placements)
    free = ALL_SQUARES ^ state.occupied
    ground = state.level_sets[0] & free
    squares = HOME_RANKS[seat] & ground
    moves: list[Move] = []
    if not with_tower:
        row = PLACEMENTS[kind]
        while squares:
            low = squares & -squares
            squares ^= low
            moves.append(row[low.bit_length() - 1])
        return moves
    tower_region = (HOME_RANKS[seat] | THIRD_RANK[seat]) & ground
    while squares:
        low = squares & -squares
        squares ^= low
        square = low.bit_length() - 1
        placements = TOWER_PLACEMENTS[square]
        towers = KING_MASK[square] & tower_region
        while towers:
            bit = towers & -towers
            towers ^= bit
            moves.append(placements[bit.bit_length() - 1])
    return moves


def sovereign_scan(state: "SovereignState") -> tuple[int, int, int]:
    """(enemy Consultant reach, the mover's Diplomat protection, the squares the mover's
    Sovereign may legally move to): what both the end-of-turn check and the move list need."""
    rules = state.rules
    seat = state.to_move
    heights = state.heights
    sets = state.piece_sets
    h0, h1, h2, h3 = state.level_sets
    at_most = (h0, h0 | h1, ALL_SQUARES ^ h3, ALL_SQUARES)
    own = seat * 4
    reach = consultant_reach(sets[7 - own], heights, at_most[2])
    protection = protected_squares(sets[own + 2], heights, rules.diplomat_self_protect)
    sovereign = sets[own + 1].bit_length() - 1
    empty = ALL_SQUARES ^ state.occupied
    targets = slider_targets(sovereign, heights[sovereign], reach, empty, ALL_SQUARES ^ h0, at_most, rules)
    safe = (ALL_SQUARES ^ reach) | protection
    if rules.winning_move_ignores_threat:
        safe |= h3 & GOAL_RANKS[seat]  # the winning move may end on an attacked square (rule 1.10)
    return reach, protection, targets & safe


def play_moves(state: "SovereignState", scan: tuple[int, int, int] | None = None) -> tuple[list[Move], bool, bool]:
    """The legal moves of the player to move in play, whether their Sovereign is threatened
    (rule 1.9.1), and whether any Sovereign move is among the moves. ``scan``: the
    :func:`sovereign_scan` of this position, if already made."""
    rules = state.rules
    seat = state.to_move
    heights = state.heights
    sets = state.piece_sets
    occupied = state.occupied
    h0, h1, h2, h3 = state.level_sets
    at_most = (h0, h0 | h1, ALL_SQUARES ^ h3, ALL_SQUARES)
    empty = ALL_SQUARES ^ occupied
    towers = ALL_SQUARES ^ h0
    own = seat * 4
    foe = 4 - own
    sovereign_set = sets[own + 1]
    diplomat_set = sets[own + 2]
    reach, protection, targets = scan or sovereign_scan(state)
    attacked = reach & sovereign_set
    threatened = bool(attacked) and not protection & sovereign_set
    moves: list[Move] = []
    append = moves.append

    # the Sovereign (rules 1.5, 1.9, 1.10)
    sovereign = sovereign_set.bit_length() - 1
    has_sovereign_move = bool(targets)
    row = SLIDES[0]
    base = sovereign * NUM_SQUARES
    while targets:
        low = targets & -targets
        targets ^= low
        append(row[base + low.bit_length() - 1])
    if threatened and not rules.any_resolving_move:
        return moves, True, has_sovereign_move  # the Sovereign must move (rule 1.9.2)

    # the Diplomat (rules 1.5, 1.8.2)
    if diplomat_set and not (attacked and protection & sovereign_set and rules.strict_pin):
        diplomat = diplomat_set.bit_length() - 1
        banned = reach if rules.path_ban_applies_to_diplomat else 0
        targets = slider_targets(diplomat, heights[diplomat], banned, empty, towers, at_most, rules)
        if attacked:
            # keep-protection (or a threat to resolve): only squares from which it still protects
            keeps = 0
            for square in _squares(targets):
                if heights[square] >= 2 and KING_MASK[square] & sovereign_set:
                    keeps |= BIT[square]
            targets = keeps
        row = SLIDES[1]
        base = diplomat * NUM_SQUARES
        while targets:
            low = targets & -targets
            targets ^= low
            append(row[base + low.bit_length() - 1])

    # the Consultants (rule 1.7)
    consultants = sets[own + 3]
    if consultants:
        own_pieces = sets[own + 1] | diplomat_set | consultants | sets[own + 4]
        foe_pieces = occupied ^ own_pieces
        shielded = protected_squares(sets[foe + 2], heights, rules.diplomat_self_protect) & foe_pieces
        open_targets = ALL_SQUARES ^ own_pieces ^ shielded
        while consultants:
            low = consultants & -consultants
            consultants ^= low
            square = low.bit_length() - 1
            jumps = KNIGHT_MASK[square] & open_targets
            if not heights[square]:
                jumps &= at_most[2]
            base = square * NUM_SQUARES * 4
            while jumps:
                bit = jumps & -jumps
                jumps ^= bit
                target = bit.bit_length() - 1
                index = base + target * 4
                if foe_pieces & bit:
                    index += 2
                if towers & bit:
                    index += 1
                append(JUMPS[index])  # type: ignore[arg-type]

    # the Contractors (rule 1.6)
    contractors = sets[own + 4]
    if contractors:
        if state.pool_lower:
            supply_ok = at_most[2] if state.pool_top else at_most[1]
        else:
            supply_ok = h2 if state.pool_top else 0
        if supply_ok:
            if rules.build_mode != BUILD_ONE_LEVEL or rules.contractor_transit:
                _contractor_variants(state, contractors, empty, towers, at_most, supply_ok, append)
            else:
                while contractors:
                    low = contractors & -contractors
                    contractors ^= low
                    square = low.bit_length() - 1
                    buildable = (empty | low) & supply_ok
                    steps = KING_MASK[square] & empty & at_most[heights[square] + 1 if heights[square] < 3 else 3]
                    base = square * NUM_SQUARES
                    while steps:
                        bit = steps & -steps
                        steps ^= bit
                        target = bit.bit_length() - 1
                        if KING_MASK[target] & buildable:
                            for build_bit, move in STEP_BUILDS[base + target]:  # type: ignore[union-attr]
                                if buildable & build_bit:
                                    append(move)

    if threatened:
        # any_resolving_move: every move that leaves the Sovereign safe (or wins)
        moves = [move for move in moves if resolves_threat(state, move, reach, sovereign_set)]
        has_sovereign_move = any(type(move) is Slide and move.kind == 0 for move in moves)
    return moves, threatened, has_sovereign_move


def turn_status(state: "SovereignState") -> tuple[bool, bool, bool, tuple[int, int, int]]:
    """(threatened, has a legal move, has a legal Sovereign move, the :func:`sovereign_scan`)
    for the player to move in play: what the end-of-turn checks of rule 6 need, usually
    without listing every move (a Sovereign, Consultant or Contractor move found is enough).
    Cost: about a third of :func:`play_moves`."""
    rules = state.rules
    seat = state.to_move
    heights = state.heights
    sets = state.piece_sets
    occupied = state.occupied
    h0, h1, h2, h3 = state.level_sets
    at_most = (h0, h0 | h1, ALL_SQUARES ^ h3, ALL_SQUARES)
    empty = ALL_SQUARES ^ occupied
    own = seat * 4
    foe = 4 - own
    sovereign_set = sets[own + 1]
    scan = sovereign_scan(state)
    reach, protection, targets = scan
    threatened = bool(reach & sovereign_set) and not protection & sovereign_set
    has_sovereign_move = bool(targets)
    if threatened:
        if rules.any_resolving_move:
            return True, bool(play_moves(state, scan)[0]), has_sovereign_move, scan
        return True, has_sovereign_move, has_sovereign_move, scan
    if has_sovereign_move:
        return False, True, True, scan
    own_pieces = sovereign_set | sets[own + 2] | sets[own + 3] | sets[own + 4]
    foe_pieces = occupied ^ own_pieces
    shielded = protected_squares(sets[foe + 2], heights, rules.diplomat_self_protect) & foe_pieces
    open_targets = ALL_SQUARES ^ own_pieces ^ shielded
    consultants = sets[own + 3]
    while consultants:
        low = consultants & -consultants
        consultants ^= low
        square = low.bit_length() - 1
        if KNIGHT_MASK[square] & open_targets & (ALL_SQUARES if heights[square] else at_most[2]):
            return False, True, False, scan
    contractors = sets[own + 4]
    if contractors and rules.build_mode == BUILD_ONE_LEVEL and not rules.contractor_transit:
        if state.pool_lower:
            supply_ok = at_most[2] if state.pool_top else at_most[1]
        else:
            supply_ok = h2 if state.pool_top else 0
        while supply_ok and contractors:
            low = contractors & -contractors
            contractors ^= low
            square = low.bit_length() - 1
            buildable = (empty | low) & supply_ok
            steps = KING_MASK[square] & empty & at_most[heights[square] + 1 if heights[square] < 3 else 3]
            while steps:
                bit = steps & -steps
                steps ^= bit
                if KING_MASK[bit.bit_length() - 1] & buildable:
                    return False, True, False, scan
    return False, bool(play_moves(state, scan)[0]), False, scan


def _squares(squares: int) -> list[int]:
    out = []
    while squares:
        low = squares & -squares
        squares ^= low
        out.append(low.bit_length() - 1)
    return out


def _contractor_variants(
    state: "SovereignState", contractors: int, empty: int, towers: int, at_most: Sequence[int], supply_ok: int,
    append: Callable[[Move], None],
) -> None:
    """Contractor moves under the build and transit options (rules 8): every destination,
    then every build on a square around it of the allowed number of levels."""
    rules = state.rules
    heights = state.heights
    pool_lower, pool_top = state.pool_lower, state.pool_top
    passable = towers & empty
    for square in _squares(contractors):
        level = heights[square]
        climb_to = at_most[level + 1 if level < 3 else 3]
        destinations = KING_MASK[square] & empty & climb_to
        if rules.contractor_transit:
            for target in _squares(destinations & towers):
                destinations |= transit(BIT[target], passable, 0, False) & climb_to
        low = BIT[square]
        buildable = (empty | low) & at_most[2]
        for target in _squares(destinations):
            if rules.build_mode == BUILD_ONE_LEVEL:
                for build_bit, move in step_builds(square, target):
                    if buildable & supply_ok & build_bit:
                        append(move)
                continue
            for build in _squares(KING_MASK[target] & buildable):
                height = heights[build]
                if rules.build_mode == BUILD_WHOLE_TOWER and height:
                    continue
                for levels in range(1, 4 - height):
                    top = height + levels
                    lower_needed = min(top, 2) - min(height, 2)
                    top_needed = 1 if top == 3 else 0
                    if lower_needed <= pool_lower and top_needed <= pool_top:
                        append(contractor_move(square, target, build, levels))


def resolves_threat(state: "SovereignState", move: Move, reach: int, sovereign_set: int) -> bool:
    """Whether ``move`` leaves the mover's Sovereign unthreatened, or wins (``any_resolving_move``).

    Only three kinds of move change a threat: the Sovereign moving, the Diplomat moving (its
    protection moves with it), and a Consultant capturing an attacking Consultant.
    """
    rules = state.rules
    heights = state.heights
    seat = state.to_move
    sets = state.piece_sets
    kind = getattr(move, "kind", -1)
    if kind == 0:  # the Sovereign: its target was filtered for safety already
        return True
    protection = protected_squares(sets[seat * 4 + 2], heights, rules.diplomat_self_protect)
    if kind == 1:
        target = move.target  # type: ignore[attr-defined]
        protection = KING_MASK[target] if heights[target] >= 2 else 0
    else:
        capture = getattr(move, "capture", False)
        if capture:
            foe_consultants = sets[7 - seat * 4] & ~BIT[move.target]  # type: ignore[attr-defined]
            h3 = state.level_sets[3]
            reach = consultant_reach(foe_consultants, heights, ALL_SQUARES ^ h3)
    return not (reach & sovereign_set) or bool(protection & sovereign_set)


__all__ = [
    "consultant_reach",
    "play_moves",
    "protected_squares",
    "resolves_threat",
    "seat_threatened",
    "setup_moves",
    "slider_targets",
    "sovereign_scan",
    "straight_walk",
    "transit",
    "turn_status",
]
