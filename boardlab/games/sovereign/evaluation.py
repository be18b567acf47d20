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
when neither Sovereign can ever arrive, it is a draw. Cost: about 10-30 microseconds as
Python, one compiled.

The numbers are computed in kernel.py (compiled when a compiler is at hand); this module
reads them off a state.

**Fitted weights** (boardlab.core.fitted, docs/evaluation.md): where ``evaluation.json`` holds
weights for the game's options and the caller judges by them, the ordinary estimate is the
logistic curve of the difference of the two seats' weighted :data:`TERMS` (the same
material, threat, bridge distance, capture and tempo, each with its own weight, and the
distance once more as 1 / (1 + distance), since the last steps to a win count most). A
free walk onto a winning square, a dead draw and a repeated position are judged as above.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core.fitted import evaluation_in_force, register_evaluation_terms

from . import kernel
from .board import SETUP_PLACEMENTS
from .kernel import (
    CAPTURE_SHARE_TO_MOVE,
    CAPTURE_SHARE_WAITING,
    CONSULTANT_VALUES,
    CONTRACTOR_VALUES,
    DEAD_DRAW,
    FAR_AWAY,
    SOFTNESS,
    TEMPO,
    TERMS_PER_SEAT,
    WEIGHT_DIPLOMAT,
    WEIGHT_THREATENED,
    WIN_NOW,
    WINNING,
)

if TYPE_CHECKING:
    from .state import SovereignState

#: how much of the lead a position keeps once it has occurred before
REPEATED_SHRINK = 0.5
DRAWN = (0.5, 0.5)


def bridge_distance(state: SovereignState, seat: int, enemy_reach: int) -> int:
    """Tower levels to build (plus obstacles to clear) before ``seat``'s Sovereign can step
    onto a 3-level tower in its goal ranks; FAR_AWAY if more than that."""
    return kernel.bridge_distance(
        seat, state.heights, state.piece_sets, state.level_sets, state.occupied, enemy_reach
    )


def scores(state: SovereignState) -> tuple[list[float], list[int]]:
    """Each player's score (material, minus a threat to its Sovereign, minus its bridge
    distance, plus a share of its best capture) and the bridge distances."""
    first, second, distance_first, distance_second = kernel.scores(
        state.to_move, state.threatened and not state.rules.any_resolving_move, state.heights, state.piece_sets,
        state.level_sets, state.occupied, state.flags,
    )
    return [first, second], [distance_first, distance_second]


def best_capture(state: SovereignState, seat: int, reach: int) -> float:
    """What ``seat``'s best capture by a Consultant would take off the enemy's material: the
    enemy Diplomat, Consultants and Contractors its Consultants reach (``reach``, rule 1.7.2)
    and the enemy Diplomat does not protect (rule 1.8.1), valued as the last of their kind
    lost. Sovereigns are never captured (rule 1.9.5). Cost: a few integer operations."""
    return kernel.best_capture(seat, state.heights, state.piece_sets, reach, state.rules.diplomat_self_protect)


def evaluate(state: SovereignState) -> tuple[float, ...]:
    """Estimated returns per seat; the exact returns once the game is over."""
    result = state.result()
    if result is not None:
        return result.returns
    in_setup = state.placements < SETUP_PLACEMENTS
    mover = state.to_move
    can_only_flee = state.threatened and not state.rules.any_resolving_move
    model = evaluation_in_force(state.game)
    if model is None:
        found, p = kernel.estimate(
            mover, can_only_flee, in_setup, state.heights, state.piece_sets, state.level_sets, state.occupied,
            state.flags,
        )
    else:
        found, p = kernel.fitted_estimate(
            mover, can_only_flee, in_setup, state.heights, state.piece_sets, state.level_sets, state.occupied,
            state.flags, model.weights, model.seat_bias, model.curve[0], model.curve[1],
        )
    if found == DEAD_DRAW:
        return DRAWN  # neither Sovereign can ever get there: the game is a draw in all but name
    if found == WINNING:
        # the player to move has a free walk onto a winning square
        return (WIN_NOW, 1.0 - WIN_NOW) if mover == 0 else (1.0 - WIN_NOW, WIN_NOW)
    if not in_setup and state.progress.repetitions() >= 2:
        # one more return of this position draws: worth less to whoever is ahead
        p = 0.5 + (p - 0.5) * REPEATED_SHRINK
    return (p, 1.0 - p)


#: the fitted evaluation's terms per seat, in the kernel's order (:func:`.kernel.terms`)
TERMS = (
    "diplomat",  # 1 while the seat has its Diplomat
    "consultants",  # its Consultants
    "contractors",  # its Contractors
    "no_contractor",  # 1 when it has none left: nothing more can be built (rule 1.6)
    "threatened",  # 1 when an enemy Consultant reaches its Sovereign (rule 1.9)
    "distance",  # its bridge distance (see above)
    "closeness",  # 1 / (1 + bridge distance)
    "capture_now",  # its best capture when it is to move and may capture
    "capture_later",  # its best capture otherwise (the enemy may still save the piece)
    "to_move",  # 1 for the player to move
)
assert len(TERMS) == TERMS_PER_SEAT


def seat_terms(state: SovereignState) -> list[list[float]] | None:
    """Both seats' :data:`TERMS`; None where :func:`evaluate` judges outside the fitted model
    (the game is over, a dead draw, a free walk onto a winning square, a repeated position)."""
    if state.result() is not None:
        return None
    in_setup = state.placements < SETUP_PLACEMENTS
    if not in_setup and state.progress.repetitions() >= 2:
        return None
    values, distance_first, distance_second = kernel.terms(
        state.to_move, state.threatened and not state.rules.any_resolving_move, state.heights, state.piece_sets,
        state.level_sets, state.occupied, state.flags,
    )
    if not in_setup and (
        min(distance_first, distance_second) >= FAR_AWAY
        or (distance_first if state.to_move == 0 else distance_second) == 0
    ):
        return None
    return [values[:TERMS_PER_SEAT], values[TERMS_PER_SEAT:]]


register_evaluation_terms("sovereign", TERMS, seat_terms)  # type: ignore[arg-type]


__all__ = [
    "CAPTURE_SHARE_TO_MOVE",
    "CAPTURE_SHARE_WAITING",
    "CONSULTANT_VALUES",
    "CONTRACTOR_VALUES",
    "FAR_AWAY",
    "SOFTNESS",
    "TEMPO",
    "TERMS",
    "WEIGHT_DIPLOMAT",
    "WEIGHT_THREATENED",
    "WIN_NOW",
    "best_capture",
    "bridge_distance",
    "evaluate",
    "scores",
    "seat_terms",
]
