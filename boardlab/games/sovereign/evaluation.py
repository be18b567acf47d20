"""A cheap static evaluation of Sovereign positions for the agents (MCTS leaves, greedy play).

What decides the game (rule 1.10) is how soon a Sovereign can stand on a 3-level tower in
its goal ranks. A Sovereign standing high walks through its whole castle in one move
(rule 1.5 b), so the plan is a bridge of towers from the Sovereign to the goal ranks and a
goal square raised to 3. For each player the evaluation estimates the tower levels still
to build for that, the *bridge distance*:

* a shortest path from the Sovereign over orthogonal steps where an empty tower square costs
  nothing, open ground costs one build, a square an enemy Consultant reaches (the path ban,
  rule 1.9.4) or one of the player's own pieces costs one more, and an enemy piece three;
* plus the levels the goal square at the end still lacks, and the levels the Sovereign
  must climb to step onto a 3-level tower from inside its castle (from level 2 at least).

Without a Contractor nothing more can be built, so only a walk already open counts.
The path is found by layers of square sets (a flood fill per cost), so it costs a few
dozen integer operations.

The score adds material (the last Contractors and Consultants worth the most) and takes off
a little for an attacked Sovereign; each player is credited with its best capture (an
unprotected enemy piece one of its Consultants reaches), all of it when it is to move, a
share when the other player may still save the piece; the player to move gets a tempo, and one with a free
walk onto a winning square (distance 0, exactly when a winning move exists) is all but
won. The difference of the two scores becomes returns by a slowly flattening curve, so a
player far ahead still sees each step of progress; they lie in [0, 1] and sum to 1. A
position that has occurred before is one repetition from a draw, so its lead is halved;
when neither Sovereign can ever arrive, it is a draw. Cost: about 10-30 microseconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import ALL_SQUARES, GOAL_RANKS, NOT_FILE_A, NOT_FILE_G, SIZE, orthogonal_spread
from .movegen import consultant_reach, protected_squares

if TYPE_CHECKING:
    from .state import SovereignState

#: the bridge distance when no path exists within the search depth
FAR_AWAY = 14
#: score weights: one tower level of bridge distance is the unit
WEIGHT_DIPLOMAT = 1.0
#: by how many are left: the last Contractor (the only way to build) is worth the most
CONSULTANT_VALUES = (0.0, 1.8, 3.0)
CONTRACTOR_VALUES = (0.0, 2.0, 3.2, 4.0)
WEIGHT_THREATENED = 0.6
#: the share of its best capture a player is credited with: all of it when it is to move (it
#: can capture now), a part when not (the player to move may move the piece away or shield it)
CAPTURE_SHARE_TO_MOVE = 1.0
CAPTURE_SHARE_WAITING = 0.3
#: the worth of having the move in a race, in levels of distance
TEMPO = 0.5
#: the estimated return of a player to move who can win on the spot
WIN_NOW = 0.97
#: how much of the lead a position keeps once it has occurred before
REPEATED_SHRINK = 0.5
DRAWN = (0.5, 0.5)
#: the curve's softness: 6 ahead reads as 0.75, 18 ahead as 0.875
SOFTNESS = 6.0


def bridge_distance(state: "SovereignState", seat: int, enemy_reach: int) -> int:
    """Tower levels to build (plus obstacles to clear) before ``seat``'s Sovereign can step
    onto a 3-level tower in its goal ranks; FAR_AWAY if more than that."""
    sets = state.piece_sets
    sovereign = sets[seat * 4 + 1]
    if not sovereign:
        return FAR_AWAY
    h0, h1, h2, h3 = state.level_sets
    occupied = state.occupied
    empty = ALL_SQUARES ^ occupied
    own = (sets[seat * 4 + 2] | sets[seat * 4 + 3] | sets[seat * 4 + 4])
    enemy = occupied ^ own ^ sovereign
    free = (empty & ~h0) & ~enemy_reach  # cost 0: empty tower squares the Sovereign may pass
    one = (empty & h0 & ~enemy_reach) | (empty & ~h0 & enemy_reach) | (own & ~h0)
    two = (empty & h0 & enemy_reach) | (own & h0)
    three = enemy
    goal = GOAL_RANKS[seat]
    # levels a goal square still lacks once it is reached (a ground square's first level is
    # counted by reaching it)
    lack = (goal & h3, goal & h2, goal & (h1 | h0))
    # a winning square may be attacked: the Sovereign only has to arrive (rule 1.10)
    attacked_wins = goal & h3 & empty & enemy_reach
    level = state.heights[sovereign.bit_length() - 1]
    climb = 2 - level if level < 2 else 0
    layers = [_flood(sovereign, free)]
    if not sets[seat * 4 + 4]:
        # no Contractor left: nothing more can be built, so only a walk already open counts
        open_walk = layers[0] & lack[0] or orthogonal_spread(layers[0]) & attacked_wins
        return 0 if climb == 0 and open_walk else FAR_AWAY
    best = FAR_AWAY
    for cost in range(FAR_AWAY):
        reached = layers[cost]
        spread = orthogonal_spread(reached)
        if spread & attacked_wins and cost < best:
            best = cost
        for missing in range(3):
            if reached & lack[missing] and cost + missing < best:
                best = cost + missing
        if cost + 1 >= best:
            break
        grow = spread & one
        if cost >= 1:
            grow |= orthogonal_spread(layers[cost - 1]) & two
        if cost >= 2:
            grow |= orthogonal_spread(layers[cost - 2]) & three
        layers.append(_flood(reached | grow, free))
    return min(best + climb, FAR_AWAY)


def _flood(start: int, passable: int) -> int:
    reached = start
    frontier = start
    while frontier:
        frontier = (
            ((frontier << 1) & NOT_FILE_A) | ((frontier >> 1) & NOT_FILE_G) | (frontier << SIZE) | (frontier >> SIZE)
        ) & passable & ~reached
        reached |= frontier
    return reached


def scores(state: "SovereignState") -> tuple[list[float], list[int]]:
    """Each player's score (material, minus a threat to its Sovereign, minus its bridge
    distance) and the bridge distances."""
    sets = state.piece_sets
    heights = state.heights
    low = ALL_SQUARES ^ state.level_sets[3]
    out = []
    distances = []
    reaches = (
        consultant_reach(sets[7], heights, low),  # P2's Consultants threaten P1
        consultant_reach(sets[3], heights, low),
    )
    captures = (
        best_capture(state, 0, reaches[1]),  # P1's Consultants reach what P2's threaten: reaches[1]
        best_capture(state, 1, reaches[0]),
    )
    mover = state.to_move
    can_only_flee = state.threatened and not state.rules.any_resolving_move
    for seat in (0, 1):
        base = seat * 4
        material = (
            WEIGHT_DIPLOMAT * bool(sets[base + 2])
            + CONSULTANT_VALUES[sets[base + 3].bit_count()]
            + CONTRACTOR_VALUES[sets[base + 4].bit_count()]
        )
        threatened = WEIGHT_THREATENED if reaches[seat] & sets[base + 1] else 0.0
        distance = bridge_distance(state, seat, reaches[seat])
        distances.append(distance)
        # a threatened player must move its Sovereign (rule 1.9.2): no capture this turn
        share = CAPTURE_SHARE_TO_MOVE if seat == mover and not can_only_flee else CAPTURE_SHARE_WAITING
        out.append(material - threatened - distance + share * captures[seat])
    return out, distances


def best_capture(state: "SovereignState", seat: int, reach: int) -> float:
    """What ``seat``'s best capture by a Consultant would take off the enemy's material: the
    enemy Diplomat, Consultants and Contractors its Consultants reach (``reach``, rule 1.7.2)
    and the enemy Diplomat does not protect (rule 1.8.1), valued as the last of their kind
    lost. Sovereigns are never captured (rule 1.9.5). Cost: a few integer operations."""
    sets = state.piece_sets
    enemy = 4 - seat * 4
    targets = reach & (sets[enemy + 2] | sets[enemy + 3] | sets[enemy + 4])
    if not targets:
        return 0.0
    targets &= ~protected_squares(sets[enemy + 2], state.heights, state.rules.diplomat_self_protect)
    best = 0.0
    if targets & sets[enemy + 2]:
        best = WEIGHT_DIPLOMAT
    consultants = sets[enemy + 3]
    if targets & consultants:
        count = consultants.bit_count()
        best = max(best, CONSULTANT_VALUES[count] - CONSULTANT_VALUES[count - 1])
    contractors = sets[enemy + 4]
    if targets & contractors:
        count = contractors.bit_count()
        best = max(best, CONTRACTOR_VALUES[count] - CONTRACTOR_VALUES[count - 1])
    return best


def evaluate(state: "SovereignState") -> tuple[float, ...]:
    """Estimated returns per seat; the exact returns once the game is over."""
    result = state.result()
    if result is not None:
        return result.returns
    (first, second), distances = scores(state)
    mover = state.to_move
    if distances[0] >= FAR_AWAY and distances[1] >= FAR_AWAY and not state.in_setup:
        return DRAWN  # neither Sovereign can ever get there: the game is a draw in all but name
    if not state.in_setup:
        if distances[mover] == 0:
            # the player to move has a free walk onto a winning square
            return (WIN_NOW, 1.0 - WIN_NOW) if mover == 0 else (1.0 - WIN_NOW, WIN_NOW)
        if mover == 0:
            first += TEMPO
        else:
            second += TEMPO
    lead = first - second
    # a curve that flattens slowly: a side far ahead still sees each step of progress
    p = 0.5 + 0.5 * lead / (abs(lead) + SOFTNESS)
    if not state.in_setup and state.progress.repetitions() >= 2:
        # one more return of this position draws: worth less to whoever is ahead
        p = 0.5 + (p - 0.5) * REPEATED_SHRINK
    return (p, 1.0 - p)


__all__ = ["best_capture", "bridge_distance", "evaluate", "scores"]
