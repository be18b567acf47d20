"""The ``honor`` agent (rules section 13, ruling B-10 with the budget of B-14 item 23).

* Placement: screen candidate releases with short simulations from the canonical
  space (one segment, 0.5 s quiet window, stop at the first table contact), then
  re-run the best few under tremor-matched noise; pick the best survival rate.
* Bidding and pushing: static proxies (piece risk on the player's tower, value
  as a foundation) against a token value lambda.

It sees only the state it is given (a resample: the seed is not the real one)
and never uses the seed: its noise comes from its own ``rng``.
Levels set the budget: easy (12 screens, 2 x 2 noisy runs, a shaky hand),
normal (60 screens, 3 x 4, under 3 s), hard (100 screens, 4 x 8).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from boardlab.core import Move, OptionError, State
from boardlab.core.agent import Agent, register_agent

from . import physics
from .catalogue import KINDS, convex_hull, kind_of, rest_angles_decidegrees, x_extent
from .moves import DEFAULT_CLEARANCE, Accept, Build, Pass, PassOn, Push, Raise, Release
from .rules import START_POOL
from .tremor import random_tremor

#: the risk that a piece kind brings down a tower of modest height (static proxy)
KIND_RISK = {"CU": 0.05, "BR": 0.05, "SL": 0.03, "PS": 0.08, "PL": 0.12, "TR": 0.10, "AR": 0.10,
             "CO": 0.30, "WE": 0.35, "HD": 0.45, "RF": 0.60, "LG": 0.70}
#: survival probability one token buys with a full pool (B-10 "token value"); a token is
#: worth more as the pool shrinks: TOKEN_VALUE x 10 / pool
TOKEN_VALUE = 0.04
#: survival value of the best foundation (the slab's 15 cm flat top); others pro rata
FOUNDATION_VALUE = 0.12
#: tokens kept back for pass fees
RESERVE = 2


@dataclass(frozen=True)
class Level:
    screens: int
    finalists: int
    noisy_runs: int
    noise_margin: float
    shaky_hand: float  # extra sigma multiple added to the agent's own release
    seconds: float


LEVELS = {
    "easy": Level(12, 2, 2, 1.0, 2.0, 1.0),
    "normal": Level(60, 3, 4, 1.5, 0.0, 2.5),
    "hard": Level(100, 4, 8, 1.5, 0.0, 8.0),
}
ROBUST_SETTLE = physics.SettleRule(180, 120, 1200)


def flat_top(code: str) -> float:
    """Length of the longest up-facing horizontal hull edge at angle 0: landing room."""
    hull = convex_hull(KINDS[code].vertices)
    best = 0.0
    for (x1, y1), (x2, y2) in zip(hull, (*hull[1:], hull[0])):
        if abs(y1 - y2) < 1e-6 and x2 < x1:
            best = max(best, x1 - x2)
    return best


def tower_height(state: Any, player: int) -> float:
    tops = [piece.yq * 1e-4 for piece in state.table if piece.owner == player]
    return max(tops, default=0.0)


def token_value(pool: int) -> float:
    """What one token is worth to a player holding ``pool`` tokens."""
    return TOKEN_VALUE * START_POOL / max(1, pool)


def placement_risk(state: Any, player: int, pid: str) -> float:
    """Static chance that ``player`` fails to place ``pid``: 0 for a foundation, else
    the kind's risk growing with the tower's height."""
    if not any(piece.owner == player for piece in state.table):
        return 0.0
    return min(0.95, KIND_RISK[pid[:2]] * (1.0 + tower_height(state, player) / 15.0))


@register_agent
class HonorAgent(Agent):
    """Simulation-based placements, proxy-based bids and pushes (docs/rules/honor.md, section 13)."""

    name = "honor"
    summary = "Honor's own player: simulates placements under tremor-like noise; levels easy/normal/hard"
    #: it reads Honor's own state (phase, table, physics space): no other game
    games = ("honor",)
    params = {
        "level": (str, "normal", "easy | normal | hard: search budget and noise"),
    }

    def _configure(self) -> None:
        if self.settings["level"] not in LEVELS:
            raise OptionError(f"agent honor: level={self.settings['level']!r}; valid: easy, normal, hard")
        self.level = LEVELS[self.settings["level"]]

    def choose(self, state: State) -> Move:
        honor: Any = state
        phase = honor.phase
        if phase == "CHOOSE":
            return self._choose_piece(honor)
        if phase == "AUCTION":
            return self._bid(honor)
        if phase == "PUSH":
            return self._push_reply(honor)
        if phase == "PLACE":
            return self._place(honor)
        raise OptionError(f"agent honor: nothing to decide in phase {phase}")

    # --- choosing Build or Push -------------------------------------------------------
    def _choose_piece(self, state: Any) -> Move:
        me = state.current_player()
        supply = state.supply
        if not any(piece.owner == me for piece in state.table):
            best = max(supply, key=lambda pid: (flat_top(pid[:2]) * kind_of(pid).width_height()[0], pid))
            rivals_need = any(state.standing[p] and p != me and not any(t.owner == p for t in state.table)
                              for p in range(state.num_players))
            bid = min(state.pools[me], 2 if rivals_need and flat_top(best[:2]) >= 9 else 0)
            return Build(best, bid)
        safest = min(supply, key=lambda pid: (placement_risk(state, me, pid), pid))
        build_value = -placement_risk(state, me, safest)
        worst = max(supply, key=lambda pid: (KIND_RISK[pid[:2]], pid))
        push_value = self._push_value(state, me, worst)
        if push_value > build_value:
            return Push(worst)
        return Build(safest, 0)

    def _push_value(self, state: Any, me: int, pid: str) -> float:
        """Follow the pass chain with the proxy decisions; value to me of where it lands."""
        pools = list(state.pools)
        holder, fee = state.next_standing(me), 1
        for _ in range(4 * state.num_players):
            if pools[holder] >= fee and self._would_pass(state, holder, pid, fee, pools[holder]):
                pools[holder] -= fee
                holder, fee = state.next_standing(holder), fee + 1
                continue
            break
        if holder == me:
            return -placement_risk(state, me, pid) - token_value(state.pools[me]) * (state.pools[me] - pools[me])
        return 0.5 * placement_risk(state, holder, pid)

    @staticmethod
    def _would_pass(state: Any, player: int, pid: str, fee: int, pool: int) -> bool:
        return pool - fee >= 0 and placement_risk(state, player, pid) > token_value(pool) * fee

    # --- auctions and push replies ----------------------------------------------------------
    def _bid(self, state: Any) -> Move:
        me = state.current_player()
        auction = state.auction
        if any(piece.owner == me for piece in state.table):
            return Pass()  # every later piece is a risk to its placer: let someone else have it
        value = FOUNDATION_VALUE * flat_top(auction.pid[:2]) / 15.0
        limit = min(state.pools[me] - RESERVE, math.floor(round(value / TOKEN_VALUE, 6)))
        if auction.high + 1 <= limit:
            return Raise(auction.high + 1)
        return Pass()

    def _push_reply(self, state: Any) -> Move:
        me = state.current_player()
        chain = state.push
        if self._would_pass(state, me, chain.pid, chain.fee, state.pools[me]):
            return PassOn()
        return Accept()

    # --- placements ---------------------------------------------------------------------------
    def _candidates(self, state: Any) -> list[tuple[int, int]]:
        """(x in 0.01 cm, rotation in 0.1°) candidates, most promising first."""
        placing = state.placing
        me, pid = placing.placer, placing.pid
        own = [piece for piece in state.table if piece.owner == me]
        found: list[tuple[float, int, int]] = []
        for thetaq in rest_angles_decidegrees(pid[:2]):
            lo, hi = state.release_window(me, pid, thetaq)
            if lo > hi:
                continue
            if not own:
                zone_lo, zone_hi = state.rules.layout.zone(me)
                centre = (zone_lo + zone_hi) / 2.0
                xs = [centre + d for d in (0, -4, 4, -8, 8, -14, 14)]
                anchor = centre
            else:
                top = max(own, key=lambda piece: piece.yq)
                anchor = top.xq * 1e-4
                left, right = x_extent(top.pid, anchor, top.aq * 1e-6)
                half = (right - left) / 2.0
                xs = [anchor + f * half for f in (0.0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75)]
                xs += [left + (right - left) * k / 8 for k in range(9)]
                tower_left, tower_right = state.tower_extent(me)
                xs += [tower_left + (tower_right - tower_left) * k / 12 for k in range(13)]
            for x in xs:
                xq = max(lo, min(hi, round(x * 100)))
                # prefer the anchor, then low, flat-bottomed orientations
                height = kind_of(pid).width_height(math.radians(thetaq / 10))[1]
                found.append((abs(xq / 100 - anchor) + 0.5 * height, xq, thetaq))
        found.sort()
        seen: set[tuple[int, int]] = set()
        ordered = []
        for _, xq, thetaq in found:
            if (xq, thetaq) not in seen:
                seen.add((xq, thetaq))
                ordered.append((xq, thetaq))
        return ordered

    def _simulate(self, state: Any, xq: int, thetaq: int, noise: float, rule: physics.SettleRule) -> float:
        """Score of one simulated release: 1 if my tower stands, a bonus per rival felled,
        small penalties for shaking my tower and for height."""
        placing = state.placing
        me = placing.placer
        dx, dtheta = random_tremor(self.rng, noise) if noise > 0 else (0, 0)
        x, angle = (xq + dx) / 100, math.radians(((thetaq + dtheta) % 3600) / 10)
        space = state.canonical_space()
        y0 = physics.first_contact_height(space, placing.pid[:2], x, angle)
        if y0 is None:
            return -1.0
        owners = {piece.pid: piece.owner for piece in state.table}
        owners[placing.pid] = me
        foundation = not any(piece.owner == me for piece in state.table)
        spec = physics.BodySpec(placing.pid, me, foundation, x, math.ceil(y0 * 1e4) * 1e-4 + DEFAULT_CLEARANCE / 100, angle)
        outcome = physics.trial_release(space, owners, set(state.standing_players()), spec, rule)
        if outcome.own_fell:
            return 0.0
        return 1.0 + 0.5 * len(outcome.rivals_fell) - 0.02 * min(outcome.moved, 5.0) - 0.001 * outcome.top

    def _place(self, state: Any) -> Move:
        level = self.level
        started = time.perf_counter()
        tremor_on = state.rules.tremor
        scored: list[tuple[float, int, int]] = []
        for xq, thetaq in self._candidates(state)[: level.screens]:
            scored.append((self._simulate(state, xq, thetaq, 0.0, physics.SCREEN_SETTLE), xq, thetaq))
            if time.perf_counter() - started > level.seconds * 0.5:
                break
        scored.sort(key=lambda item: -item[0])
        noise = level.noise_margin if tremor_on else 0.3
        best_score, best_x, best_theta = scored[0]
        best_robust = -math.inf
        for score, xq, thetaq in scored[: level.finalists]:
            if time.perf_counter() - started > level.seconds:
                break
            runs = [self._simulate(state, xq, thetaq, noise, ROBUST_SETTLE) for _ in range(level.noisy_runs)]
            robust = sum(runs) / len(runs) + 0.1 * score
            if robust > best_robust:
                best_robust, best_x, best_theta = robust, xq, thetaq
        if level.shaky_hand > 0:
            dx, _ = random_tremor(self.rng, level.shaky_hand)
            lo, hi = state.release_window(state.placing.placer, state.placing.pid, best_theta)
            best_x = max(lo, min(hi, best_x + dx))
        return Release(best_x, best_theta, DEFAULT_CLEARANCE)


__all__ = ["HonorAgent", "LEVELS", "flat_top", "placement_risk"]
