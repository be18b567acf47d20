"""Which moves the rules allow (rules 4.1-4.3, 7.1-7.8, 7.13), with the rule each breaks.

:func:`illegal_reason` is the state's ``_illegal_reason`` but for the recorded-hash check of a
resolving move (rule 11.4), which needs the physics and stays in the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core import Move

from .moves import FULL_TURN, MAX_CLEARANCE, MIN_CLEARANCE, Accept, Build, Pass, PassOn, Push, Raise, Release, Resign, Tremor
from .rules import PHASE_WORDS

if TYPE_CHECKING:
    from .state import HonorState


def illegal_reason(state: HonorState, move: Move) -> str | None:
    """Why ``move`` is illegal for the player to move, citing the rule, or None."""
    phase, player = state.phase, state.current_player()
    if isinstance(move, Resign):
        return None if state.rules.resign else "rule 7.13: resigning is off in this game (option resign)"
    if isinstance(move, Build | Push):
        if phase != "CHOOSE":
            return f"rule 7.1: pieces are chosen only at the start of a choice, and now it is {PHASE_WORDS[phase]}"
        if move.pid not in state.supply:
            return f"rule 7.1: {move.pid} is not in the supply"
        if isinstance(move, Build):
            lowest, pool = state.rules.minimum_opening_bid, state.pools[player]
            if pool < lowest:
                return (f"rule 7.2: the opening bid must be at least {lowest} (option minimum_opening_bid) "
                        f"and your pool is {pool}: push a piece instead")
            if not lowest <= move.bid <= pool:
                return f"rule 7.2: the opening bid must be {lowest}..{pool} (your pool)"
        return None
    if isinstance(move, Raise | Pass):
        if phase != "AUCTION":
            return f"rule 7.3: there is no auction now: it is {PHASE_WORDS[phase]}"
        if isinstance(move, Raise):
            high, pool = state.auction.high, state.pools[player]  # type: ignore[union-attr]
            if not high < move.bid <= pool:
                return f"rule 7.3: a raise must be above the high bid {high} and at most your pool {pool}"
        return None
    if isinstance(move, Accept | PassOn):
        if phase != "PUSH":
            return f"rule 7.7: no piece is being pushed to you now: it is {PHASE_WORDS[phase]}"
        fee = state.push.fee  # type: ignore[union-attr]
        if isinstance(move, PassOn) and state.pools[player] < fee:
            return f"rule 7.7: passing on costs {fee} tokens, you have {state.pools[player]}"
        return None
    if isinstance(move, Release):
        if phase != "PLACE":
            return f"rule 4.1: nothing to place now: it is {PHASE_WORDS[phase]}"
        return release_problem(state, move)
    if isinstance(move, Tremor):
        return "rule 4.5: a tremor is the hand's shake, which the game draws after a release; no player makes one"
    return f"{type(move).__name__} is not an Honor move"


def release_problem(state: HonorState, move: Release) -> str | None:
    """Rules 4.2 and 4.3 on a release of the piece in hand."""
    placing = state.placing
    assert placing is not None
    if not 0 <= move.thetaq < FULL_TURN:
        return "rule 4.2: the rotation must be in [0, 360) degrees"
    if not MIN_CLEARANCE <= move.hq <= MAX_CLEARANCE:
        return "rule 4.2: the clearance must be 0.02..10.00 cm"
    lo, hi = state.release_window(placing.placer, placing.pid, move.thetaq)
    if not lo <= move.xq <= hi:
        where = "the piece must lie inside your zone" if state.tower_extent(placing.placer) is None \
            else "x must be within 3 cm of your tower's extent"
        return f"rule 4.3: {where}: x in [{lo / 100:.2f}, {hi / 100:.2f}] at this rotation"
    return None


__all__ = ["illegal_reason", "release_problem"]
