"""Simulated placements for the ``honor`` agent (rules section 13; ruling B-10, B-14 item 23).

One routine serves every judgement the agent makes: :func:`search_release` finds the
best release of a piece on a player's tower by simulation (screening runs without
noise, then tremor-matched noisy runs of the best few) and reports its success rate.
The placement itself uses it with the level's full budget; the choices, bids and push
replies of the stronger levels use it with a small budget to ask "how likely is player
j to place piece p and stay standing?" for the pieces that matter.

Everything here reads the resampled state it is given (table record, pickled space,
rules) and draws its noise from the agent's own generator; it never sees the seed.
Cost: one simulated release takes about 5-40 ms (a pickle load, the first-contact
sweep, up to 1.5 s of simulated time); a search costs its budget in releases.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import physics
from .catalogue import KINDS, convex_hull, kind_of, place, rest_angles_decidegrees, x_extent
from .moves import DEFAULT_CLEARANCE, FULL_TURN
from .tremor import random_tremor

#: the settle rule of the noisy runs: longer than the screens (slow topples show), still short
ROBUST_SETTLE = physics.SettleRule(180, 120, 1200)
#: the probe dropped on a finalist's new top to judge whether the tower stays buildable (B-10 item 5)
PROBE_PID = "CU~probe"
#: how much a finalist's probe (a cube that stays on the new top) adds to its score
PROBE_WEIGHT = 0.25
#: an up-facing edge is a landing pad if its normal is this close to vertical, and this long (cm)
PAD_COS = 0.985
PAD_MIN_CM = 1.0


@dataclass(frozen=True)
class SearchBudget:
    """How hard one search looks: screening runs, finalists x noisy runs at ``noise`` tremor
    sigmas, and whether each finalist is probed with a cube dropped on its new top."""

    screens: int
    finalists: int
    noisy_runs: int
    noise: float = 1.0
    probe: bool = False


@dataclass(frozen=True)
class Found:
    """A search's answer: the release (x in 0.01 cm, rotation in 0.1°) and how often it
    stood in the noisy runs (the screen's verdict when there were none), and whether a cube
    dropped on its new top stayed up (None: not probed)."""

    xq: int
    thetaq: int
    success: float
    score: float
    buildable: bool | None = None


def own_pieces(state: Any, player: int) -> list[Any]:
    return [piece for piece in state.table if piece.owner == player]


def landing_pads(state: Any, player: int) -> list[tuple[float, float, float]]:
    """The up-facing flat edges of ``player``'s pieces that nothing of theirs covers:
    (left, right, height) in cm, longest and lowest first. Pure geometry on the record."""
    mine = own_pieces(state, player)
    polygons = []
    for piece in mine:
        for part in KINDS[piece.pid[:2]].parts:
            polygons.append(place(part, piece.xq * 1e-4, piece.yq * 1e-4, piece.aq * 1e-6))
    pads: list[tuple[float, float, float]] = []
    for piece in mine:
        angle = piece.aq * 1e-6
        hull = place(convex_hull(KINDS[piece.pid[:2]].vertices), piece.xq * 1e-4, piece.yq * 1e-4, angle)
        for (x1, y1), (x2, y2) in zip(hull, (*hull[1:], hull[0])):
            length = math.hypot(x2 - x1, y2 - y1)
            # counter-clockwise hull: an edge running right-to-left faces up
            if length < PAD_MIN_CM or (x1 - x2) / length < PAD_COS:
                continue
            left, right, height = x2, x1, max(y1, y2)
            middle = (left + right) / 2
            covered = any(_covers(poly, middle, height) for poly in polygons)
            if not covered:
                pads.append((left, right, height))
    pads.sort(key=lambda pad: (-(pad[1] - pad[0]), pad[2]))
    return pads


def _covers(poly: Sequence[tuple[float, float]], x: float, height: float) -> bool:
    """True if the polygon has material straight above (x, height) (within 0.3 cm)."""
    xs = [px for px, _ in poly]
    if not min(xs) < x < max(xs):
        return False
    return max(py for _, py in poly) > height + 0.3 and min(py for _, py in poly) >= height - 0.3


def candidates(state: Any, player: int, pid: str) -> list[tuple[int, int]]:
    """(x in 0.01 cm, rotation in 0.1°) releases worth trying, most promising first: over
    the zone's middle for a foundation; else over each landing pad (middle, then towards
    its ends), over the top piece and across the tower's extent, flat orientations first."""
    mine = own_pieces(state, player)
    found: list[tuple[float, int, int]] = []
    kind = kind_of(pid)
    pads = landing_pads(state, player) if mine else []
    for thetaq in rest_angles_decidegrees(pid[:2]):
        lo, hi = state.release_window(player, pid, thetaq)
        if lo > hi:
            continue
        height = kind.width_height(math.radians(thetaq / 10))[1]
        options: list[tuple[float, float]] = []  # (x, preference: lower is better)
        if not mine:
            zone_lo, zone_hi = state.rules.layout.zone(player)
            centre = (zone_lo + zone_hi) / 2.0
            options = [(centre + d, abs(d)) for d in (0, -4, 4, -8, 8, -14, 14)]
        else:
            for rank, (left, right, _) in enumerate(pads[:4]):
                middle, half = (left + right) / 2, (right - left) / 2
                for f in (0.0, -0.5, 0.5, -0.8, 0.8):
                    options.append((middle + f * half, rank + abs(f)))
            top = max(mine, key=lambda piece: piece.yq)
            anchor = top.xq * 1e-4
            left, right = x_extent(top.pid, anchor, top.aq * 1e-6)
            half = (right - left) / 2.0
            options += [(anchor + f * half, 2 + abs(f)) for f in (0.0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75)]
            tower_left, tower_right = state.tower_extent(player)
            options += [(tower_left + (tower_right - tower_left) * k / 12, 4.0) for k in range(13)]
        for x, preference in options:
            xq = max(lo, min(hi, round(x * 100)))
            found.append((preference + 0.4 * height, xq, thetaq))
    found.sort()
    seen: set[tuple[int, int]] = set()
    ordered = []
    for _, xq, thetaq in found:
        if (xq, thetaq) not in seen:
            seen.add((xq, thetaq))
            ordered.append((xq, thetaq))
    return ordered


def simulate_release(state: Any, player: int, pid: str, xq: int, thetaq: int, tremor: tuple[int, int],
                     rule: physics.SettleRule, probe: bool = False) -> tuple[float, bool | None]:
    """Score of one simulated release of ``pid`` by ``player`` from the canonical space, with
    ``tremor`` (dx 0.01 cm, d-rotation 0.1°) added: 0 if the player's tower falls, else 1 plus
    a bonus per rival felled, minus small penalties for shaking the tower and for height, plus
    :data:`PROBE_WEIGHT` if a cube dropped on the new top stays up (``probe``). Returns the
    score and the probe's verdict (None: not probed, or the tower fell anyway)."""
    dx, dtheta = tremor
    x, angle = (xq + dx) / 100, math.radians(((thetaq + dtheta) % FULL_TURN) / 10)
    space = state.canonical_space()
    y0 = physics.first_contact_height(space, pid[:2], x, angle)
    if y0 is None:
        return -1.0, None
    owners = {piece.pid: piece.owner for piece in state.table}
    owners[pid] = player
    owners[PROBE_PID] = player
    foundation = not any(piece.owner == player for piece in state.table)
    spec = physics.BodySpec(pid, player, foundation, x, math.ceil(y0 * 1e4) * 1e-4 + DEFAULT_CLEARANCE / 100, angle)
    outcome = physics.trial_release(space, owners, set(state.standing_players()), spec, rule,
                                    probe=PROBE_PID if probe else None)
    if outcome.own_fell:
        return 0.0, None
    score = 1.0 + 0.5 * len(outcome.rivals_fell) - 0.02 * min(outcome.moved, 5.0) - 0.001 * outcome.top
    if not probe:
        return score, None
    return score + (PROBE_WEIGHT if outcome.probe_stood else 0.0), outcome.probe_stood


def search_release(state: Any, player: int, pid: str, budget: SearchBudget, rng: random.Random,
                   seconds: float | None = None, tremor_on: bool = True) -> Found:
    """The best release of ``pid`` for ``player`` within ``budget`` (and ``seconds`` of wall
    time, if given: screening stops at half of it, the noisy runs at all of it): screen
    candidates without noise, then run the best ``finalists`` ``noisy_runs`` times under
    tremor-like noise (a little noise in exact mode, to prefer robust poses). At least one
    screen and one finalist always run."""
    started = time.perf_counter()
    scored: list[tuple[float, int, int]] = []
    for xq, thetaq in candidates(state, player, pid)[: max(1, budget.screens)]:
        score, _ = simulate_release(state, player, pid, xq, thetaq, (0, 0), physics.SCREEN_SETTLE)
        scored.append((score, xq, thetaq))
        if seconds is not None and time.perf_counter() - started > seconds * 0.5:
            break
    scored.sort(key=lambda item: -item[0])
    best_score, best_x, best_theta = scored[0]
    best = Found(best_x, best_theta, 1.0 if best_score > 0 else 0.0, best_score)
    if budget.noisy_runs <= 0 or best_score <= 0:
        return best
    noise = budget.noise if tremor_on else 0.3
    best_total = -math.inf
    for score, xq, thetaq in scored[: budget.finalists]:
        if score <= 0 or (seconds is not None and best_total > -math.inf
                          and time.perf_counter() - started > seconds):
            break
        runs = [simulate_release(state, player, pid, xq, thetaq, random_tremor(rng, noise), ROBUST_SETTLE,
                                 probe=budget.probe and k == 0)
                for k in range(budget.noisy_runs)]
        stood = sum(1 for value, _ in runs if value > 0) / len(runs)
        total = sum(value for value, _ in runs) / len(runs) + 0.1 * score
        if total > best_total:
            best_total, best = total, Found(xq, thetaq, stood, total, runs[0][1] if budget.probe else None)
    return best


__all__ = ["Found", "SearchBudget", "candidates", "landing_pads", "search_release", "simulate_release"]
