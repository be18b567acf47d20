"""A cheap static evaluation of Towers positions for the agents (MCTS leaves, greedy play).

Each seat gets a score from what decides the game (rules 7): castles it controls,
crowned castles, castles it could land on with its next push ("threats"), and a
little for the squares it controls (mobility and material in play). The scores
become estimated returns by a softmax, so they lie in [0, 1] and sum to 1.
Cost: about 10-20 microseconds for a 2-player middle game (one pass over each
seat's stacks, push simulations on heights only).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from .board import NUM_SQUARES, SIZE, STEP, Stack, castle_counts

if TYPE_CHECKING:
    from .state import TowersState

#: score weights: one castle is the unit
WEIGHT_CASTLE = 1.0
WEIGHT_CROWN = 0.9
WEIGHT_THREAT = 0.35
WEIGHT_SQUARE = 0.04
#: softmax sharpness: one castle ahead in a 2-player game reads as about 0.73
SHARPNESS = 1.0


@lru_cache(maxsize=64)
def castle_rays(castles: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each square: (direction, distance, castle) for every castle 1-4 steps away in a line."""
    rays: list[list[tuple[int, int, int]]] = [[] for _ in range(NUM_SQUARES)]
    castle_set = set(castles)
    for sq in range(NUM_SQUARES):
        for direction in range(4):
            cur = sq
            for distance in range(1, SIZE):
                cur = STEP[direction][cur]
                if cur < 0 or distance > 4:
                    break
                if cur in castle_set:
                    rays[sq].append((direction, distance, cur))
    return tuple(tuple(r) for r in rays)


def push_end(stacks: Sequence[Stack], start: int, direction: int) -> int:
    """The square where the top piece of a push from ``start`` lands (rules 5.3, on heights only)."""
    step = STEP[direction]
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


def evaluate(state: "TowersState") -> tuple[float, ...]:
    """Estimated returns per seat; the exact returns once the game is over."""
    result = state.result()
    if result is not None:
        return result.returns
    players = state.rules.players
    stacks = state.stacks
    castles = state.castles
    controlled, crowned = castle_counts(stacks, castles)
    rays = castle_rays(castles)
    scores = []
    for seat in range(players):
        mask = state.control[seat]
        threatened = 0
        remaining = mask
        while remaining:
            low = remaining & -remaining
            remaining ^= low
            sq = low.bit_length() - 1
            height = len(stacks[sq])
            if height < 2:
                continue
            for direction, distance, castle in rays[sq]:
                if distance < height and not (threatened >> castle) & 1:
                    top = stacks[castle][-1]
                    if top != seat and push_end(stacks, sq, direction) == castle:
                        threatened |= 1 << castle
        threats = threatened.bit_count()
        scores.append(
            WEIGHT_CASTLE * controlled[seat]
            + WEIGHT_CROWN * crowned[seat]
            + WEIGHT_THREAT * threats
            + WEIGHT_SQUARE * mask.bit_count()
        )
    best = max(scores)
    weights = [math.exp(SHARPNESS * (score - best)) for score in scores]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


__all__ = ["castle_rays", "evaluate", "push_end"]
