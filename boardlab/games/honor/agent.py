"""The ``honor`` agent (rules section 13, ruling B-10 with the budgets of B-14 item 23).

* Placement: :func:`search.search_release` screens candidate releases with short
  simulations from the canonical space, then re-runs the best few under tremor-matched
  noise and picks the most robust; ``hard`` also drops a probe cube on each finalist's new
  top, preferring releases that leave the tower buildable.
* Choosing, bidding, pushing: every decision asks one question, "how likely is player j
  to fail placing piece p on their tower?" (the *risk*). ``easy`` and ``normal`` answer it
  with static proxies (the piece's kind, the tower's height, its landing pads); ``hard``
  answers it by simulation (a small placement search per player and piece, cached by tower).
  With the risks, a pass chain is solved backwards (each holder passes when the risk
  outweighs the fee's worth in tokens, and never into a chain that comes back to them),
  and the turn player pushes the piece whose chain hurts a rival most, or builds.
* Judging by an evaluation (``evaluation=``; the computer's ``hard`` plays ``level=hard,evaluation=fitted``): once every
  tower has a foundation, a chain's outcomes are each seat's chance of winning one placement
  ahead by the fitted weights (evaluation.terms_after_placement) instead of risks against
  tokens at set prices (docs/rules/honor.md 13.6).

It sees only the state it is given (a resample: the seed is not the real one) and never
uses the seed: its noise comes from its own ``rng``. Each level's budget is a count of
simulations; ``seconds`` caps a decision's wall time as well (default: the level's ruled
cap; 0 = no cap, so that lab matches are reproducible and independent of the load).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from boardlab.core import Move, OptionError, State
from boardlab.core.agent import Agent
from boardlab.core.fitted import FittedEvaluation, evaluation_choice

from .catalogue import KINDS, convex_hull, kind_of, rest_angles_decidegrees
from .evaluation import terms_after_placement
from .moves import DEFAULT_CLEARANCE, Accept, Build, Pass, PassOn, Push, Raise, Release
from .rules import START_POOL
from .search import Found, SearchBudget, landing_pads, search_release
from .tremor import random_tremor

#: the risk that a piece kind brings down a tower of modest height (static proxy)
KIND_RISK = {"CU": 0.05, "BR": 0.05, "SL": 0.03, "PS": 0.08, "PL": 0.12, "TR": 0.10, "AR": 0.10,
             "CO": 0.30, "WE": 0.35, "HD": 0.45, "RF": 0.60, "LG": 0.70}
#: survival probability one token buys with a full pool (B-10 "token value"); a token is
#: worth more as the pool shrinks: TOKEN_VALUE x 10 / pool
TOKEN_VALUE = 0.04
#: survival value of the best foundation (the slab's 15 cm flat top); others pro rata
FOUNDATION_VALUE = 0.12
#: tokens kept back for pass fees when bidding
RESERVE = 2
#: what a simulated risk adds when the probe cube falls off the piece's new top: the
#: next piece on that tower is likely to fall (a roof's apex, a log)
UNBUILDABLE_RISK = 0.35


@dataclass(frozen=True)
class Level:
    """One level: the placement search, extra noise on its own releases, how risks are
    judged (``proxy`` or ``simulate`` with ``judge`` per player and piece, for at most
    ``judged_kinds`` kinds per decision), and the ruled wall-time cap per decision."""

    place: SearchBudget
    shaky_hand: float  # extra tremor sigmas added to the agent's own release
    judgement: str  # "proxy" (kind, height; "pads" adds landing pads) or "simulate"
    judge: SearchBudget | None
    judged_kinds: int
    seconds: float
    #: "value": bid up to a foundation's static worth; "tokens": keep tokens (a one-token lead
    #: decides who must accept the awkward pieces), pay only to avoid being handed a poor foundation;
    #: "slab": as "tokens", but without a foundation raise (by one, to at most 2) for one with a
    #: flat top of 9 cm or more: the slab the first seat auctions at 0 is worth more than two tokens
    bidding: str = "tokens"


#: the caps are ten times or more the longest decision measured on an idle core (0.19 s, 1.7 s,
#: 2.8 s of CPU in the ladder, docs/levels.md), so that the budget, not the machine's load,
#: decides the move: at 1 s the easy level's cap bound on a loaded machine
LEVELS = {
    "easy": Level(SearchBudget(8, 1, 2, 1.0), 2.5, "proxy", None, 0, 4.0, bidding="value"),
    "normal": Level(SearchBudget(60, 3, 4, 1.5), 0.8, "pads", None, 0, 15.0),
    "hard": Level(SearchBudget(100, 4, 8, 1.5, probe=True), 0.0, "simulate",
                  SearchBudget(10, 1, 4, 1.0, probe=True), 4, 30.0, bidding="slab"),
}


def flat_top(code: str) -> float:
    """Length of the longest up-facing horizontal hull edge at angle 0: landing room."""
    hull = convex_hull(KINDS[code].vertices)
    best = 0.0
    for (x1, y1), (x2, y2) in zip(hull, (*hull[1:], hull[0])):
        if abs(y1 - y2) < 1e-6 and x2 < x1:
            best = max(best, x1 - x2)
    return best


def base_width(code: str) -> float:
    """The widest flat face the piece can rest on (cm): what it needs below it."""
    best = 0.0
    for thetaq in rest_angles_decidegrees(code):
        best = max(best, flat_bottom(code, thetaq))
    return best


def flat_bottom(code: str, thetaq: int) -> float:
    hull = convex_hull(KINDS[code].vertices)
    angle = math.radians(thetaq / 10)
    c, s = math.cos(angle), math.sin(angle)
    points = [(x * c - y * s, x * s + y * c) for x, y in hull]
    low = min(y for _, y in points)
    xs = [x for x, y in points if y < low + 1e-6]
    return max(xs) - min(xs)


def tower_height(state: Any, player: int) -> float:
    tops = [piece.yq * 1e-4 for piece in state.table if piece.owner == player]
    return max(tops, default=0.0)


def token_value(pool: int) -> float:
    """What one token is worth to a player holding ``pool`` tokens."""
    return TOKEN_VALUE * START_POOL / max(1, pool)


@cache
def resting_height(code: str) -> float:
    """How high the piece stands lying on its widest flat face (cm)."""
    widest = max(rest_angles_decidegrees(code), key=lambda thetaq: flat_bottom(code, thetaq))
    return KINDS[code].width_height(math.radians(widest / 10))[1]


def rise_cm(state: Any, player: int, pid: str) -> float:
    """About how much higher ``player``'s tower top (its highest piece's middle) stands once
    ``pid`` lies flat on it: half the present top piece's resting height and half the new
    one's; a foundation's middle is half its height above the table."""
    top = max((piece for piece in state.table if piece.owner == player), key=lambda piece: piece.yq, default=None)
    below = resting_height(top.pid[:2]) / 2 if top is not None else 0.0
    return below + resting_height(pid[:2]) / 2


def has_foundation(state: Any, player: int) -> bool:
    return any(piece.owner == player for piece in state.table)


def placement_risk(state: Any, player: int, pid: str) -> float:
    """Static chance that ``player`` fails to place ``pid``: 0 for a foundation, else
    the kind's risk growing with the tower's height."""
    if not has_foundation(state, player):
        return 0.0
    return min(0.95, KIND_RISK[pid[:2]] * (1.0 + tower_height(state, player) / 15.0))


def pad_risk(state: Any, player: int, pid: str) -> float:
    """:func:`placement_risk` made aware of the tower's top: a piece wider than the best
    landing pad is riskier, a tower without a flat pad is very risky for anything."""
    base = placement_risk(state, player, pid)
    if base == 0.0:
        return 0.0
    pads = landing_pads(state, player)
    room = max((right - left for left, right, _ in pads), default=0.0)
    need = base_width(pid[:2]) or 3.0
    if room < 1.5:
        return min(0.95, base + 0.5)
    shortfall = max(0.0, need - room) / need
    return min(0.95, base * (1.0 + 2.0 * shortfall))


def pushes_to_try(state: Any, me: int) -> tuple[dict[str, str], int, list[str]]:
    """One piece of each kind in the supply (by kind), the first holder of a push, and the
    pieces in the order to try them: the most promising pushes first, so that a budgeted judge
    simulates those before the rest."""
    kinds: dict[str, str] = {}
    for pid in state.supply:
        kinds.setdefault(pid[:2], pid)
    first = state.next_standing(me)
    return kinds, first, sorted(kinds.values(), key=lambda pid: (-pad_risk(state, first, pid), pid))


def foundation_gift(pid: str) -> float:
    """What giving ``pid`` as a rival's foundation is worth to me: a poor top is a lasting harm."""
    return FOUNDATION_VALUE * (1.0 - min(15.0, flat_top(pid[:2])) / 15.0)


def _tower_key(state: Any, player: int) -> tuple[Any, ...]:
    """A player's tower with poses rounded to 1 mm and about 0.5° (B-14 item 9), and the
    neighbouring pieces' ids: the cache key of a simulated risk."""
    return tuple(sorted((p.pid, p.owner == player, round(p.xq / 1000), round(p.yq / 1000), round(p.aq / 8727))
                        for p in state.table))


class HonorAgent(Agent):
    """Simulation-based placements; proxy- or simulation-judged bids and pushes
    (docs/rules/honor.md, section 13)."""

    name = "honor"
    summary = "Honor's own player: simulates placements under tremor-like noise; levels easy/normal/hard"
    #: it reads Honor's own state (phase, table, physics space): no other game
    games = ("honor",)
    params = {
        "level": (str, "normal", "easy | normal | hard: search budget, judgement and noise"),
        "seconds": (float, None, "wall-time cap per decision (default: the level's; 0: none, "
                    "only the level's simulation counts, for reproducible matches)"),
        "evaluation": (str, "hand", "how it values a push chain's outcomes once every tower has a "
                       "foundation: hand (the risk a placer runs against "
                       "tokens at set prices), fitted (each seat's chance of winning one placement "
                       "ahead, by the game's fitted weights; hand where none hold for the game), "
                       "search, or the path of a weights file written by boardlab train"),
    }

    @classmethod
    def describe(cls, params: Mapping[str, str]) -> str:
        level = LEVELS.get(params.get("level", "normal"))
        if level is None:
            return cls.summary
        judged = "simulates the risks it hands the others" if level.judgement == "simulate" else "judges risks by rule of thumb"
        shaky = f", with a shaky hand ({level.shaky_hand:g} extra tremor)" if level.shaky_hand else ", with a steady hand"
        return f"tries {level.place.screens} placements for each piece and {judged}{shaky}"

    def _configure(self) -> None:
        if self.settings["level"] not in LEVELS:
            raise OptionError(f"agent honor: level={self.settings['level']!r}; valid: {', '.join(LEVELS)}")
        self.level = LEVELS[self.settings["level"]]
        seconds = self.settings["seconds"]
        if seconds is not None and not (math.isfinite(seconds) and seconds >= 0):
            raise OptionError(f"agent honor: seconds={seconds!r} must be 0 or more")
        self.cap: float | None = self.own_time_cap()
        self._risks: dict[tuple[Any, ...], float] = {}
        self.judge = evaluation_choice(self.settings["evaluation"])

    def own_time_cap(self) -> float | None:
        """The level's ruled cap, or ``seconds`` where the spec says it (0: none)."""
        return self.level.seconds if self.settings["seconds"] is None else (self.settings["seconds"] or None)

    def limit_time(self, seconds: float | None) -> None:
        """Cap the next decisions at ``seconds`` of wall time (the level's cap when smaller)."""
        own = self.own_time_cap()
        self.cap = seconds if own is None else (own if seconds is None else min(own, seconds))

    def reset(self) -> None:
        self._risks.clear()

    def choose(self, state: State) -> Move:
        honor: Any = state
        phase = honor.phase
        self._started = time.perf_counter()
        risk = self._risk_function(honor)
        if phase == "CHOOSE":
            return self._choose_piece(honor, risk)
        if phase == "AUCTION":
            return self._bid(honor)
        if phase == "PUSH":
            return self._push_reply(honor, risk)
        if phase == "PLACE":
            return self._place(honor)
        raise OptionError(f"agent honor: nothing to decide in phase {phase}")

    # --- judging risks ------------------------------------------------------------------
    def _risk_function(self, state: Any) -> Callable[[int, str], float]:
        judgement = self.level.judgement
        if judgement == "proxy":
            return lambda player, pid: placement_risk(state, player, pid)
        if judgement == "pads":
            return lambda player, pid: pad_risk(state, player, pid)
        memo: dict[tuple[int, str], float] = {}
        budget_left = [self.level.judged_kinds * max(1, state.num_players)]

        def simulated(player: int, pid: str) -> float:
            if not has_foundation(state, player):
                return 0.0
            key = (player, pid[:2])
            if key in memo:
                return memo[key]
            cache_key = (_tower_key(state, player), player, pid[:2])
            if cache_key in self._risks:
                memo[key] = self._risks[cache_key]
                return memo[key]
            if budget_left[0] <= 0 or self._out_of_time(0.6):
                return pad_risk(state, player, pid)
            budget_left[0] -= 1
            assert self.level.judge is not None
            found = search_release(state, player, pid, self.level.judge, self.rng, tremor_on=state.rules.tremor)
            value = 1.0 - found.success
            if found.buildable is False:
                value = min(1.0, value + UNBUILDABLE_RISK * found.success)
            memo[key] = self._risks[cache_key] = value
            return value

        return simulated

    def _out_of_time(self, fraction: float) -> bool:
        return self.cap is not None and time.perf_counter() - self._started > self.cap * fraction

    # --- pass chains (rule 7.7), solved backwards ------------------------------------------
    def _chain(self, state: Any, pid: str, holder: int, fee: int, pools: tuple[int, ...],
               risk: Callable[[int, str], float], depth: int = 0) -> tuple[int, tuple[int, ...]]:
        """Who ends up placing ``pid`` offered to ``holder`` at ``fee``, and the pools then:
        a holder passes if they can pay, the chain would not come back to them, and their
        risk outweighs what the fee's tokens are worth to them."""
        if pools[holder] < fee or depth > 4 * state.num_players:
            return holder, pools
        paid = list(pools)
        paid[holder] -= fee
        after = tuple(paid)
        placer, final = self._chain(state, pid, state.next_standing(holder), fee + 1, after, risk, depth + 1)
        if placer == holder:
            return holder, pools
        if self._harm(state, holder, pid, risk) > token_value(pools[holder]) * fee:
            return placer, final
        return holder, pools

    @staticmethod
    def _harm(state: Any, player: int, pid: str, risk: Callable[[int, str], float]) -> float:
        """What placing ``pid`` costs ``player``: the risk, or a poor foundation's lasting harm."""
        if not has_foundation(state, player):
            return foundation_gift(pid)
        return risk(player, pid)

    def _value_for_me(self, state: Any, me: int, pid: str, placer: int, pools: tuple[int, ...],
                      risk: Callable[[int, str], float]) -> float:
        spent: float = token_value(state.pools[me]) * (state.pools[me] - pools[me])
        if placer == me:
            return -self._harm(state, me, pid, risk) - spent
        rivals = max(1, len(state.standing_players()) - 1)
        return self._harm(state, placer, pid, risk) / rivals - spent

    # --- valuing outcomes by the fitted evaluation ----------------------------------------
    def _valuation(self, state: Any) -> FittedEvaluation | None:
        """The weights that value outcomes in this decision, or None to value them by hand: by
        hand while a standing player has no foundation (the weights do not see a foundation's
        top, what a poor foundation costs) or where no weights hold for the game."""
        if any(up and not has_foundation(state, seat) for seat, up in enumerate(state.standing)):
            return None
        return self.judge.for_game(state.game)

    @staticmethod
    def _outcome(state: Any, model: FittedEvaluation, pid: str, placer: int, pools: tuple[int, ...],
                 risk: Callable[[int, str], float]) -> tuple[float, ...]:
        """Each seat's chance of winning once ``placer`` has placed ``pid`` with the pools at
        ``pools``: the chances with its tower one piece higher, and those with it out, weighed
        by the risk it runs."""
        failing = risk(placer, pid)
        stands = model.chances(terms_after_placement(state, placer, pid, pools, rise_cm(state, placer, pid), True))
        if failing <= 0.0:
            return stands
        falls = model.chances(terms_after_placement(state, placer, pid, pools, 0.0, False))
        return tuple((1.0 - failing) * up + failing * down for up, down in zip(stands, falls))

    def _valued_chain(self, state: Any, model: FittedEvaluation, pid: str, holder: int, fee: int,
                      pools: tuple[int, ...], risk: Callable[[int, str], float],
                      depth: int = 0) -> tuple[bool, tuple[float, ...]]:
        """Whether ``holder``, offered ``pid`` at ``fee``, passes it on, and each seat's chance
        once the chain is played out, solved backwards: a holder who can pay passes when what
        follows is worth more to them than placing the piece (rules 7.7, 7.8)."""
        accept = self._outcome(state, model, pid, holder, pools, risk)
        if pools[holder] < fee or depth > 4 * state.num_players:
            return False, accept
        paid = list(pools)
        paid[holder] -= fee
        _, passed = self._valued_chain(state, model, pid, state.next_standing(holder), fee + 1, tuple(paid), risk,
                                       depth + 1)
        return (True, passed) if passed[holder] > accept[holder] else (False, accept)

    def _choose_by_chances(self, state: Any, model: FittedEvaluation, risk: Callable[[int, str], float]) -> Move:
        """Build or Push, whichever leaves me the best chance: each kind pushed down its chain,
        or the safest piece built at the least opening bid."""
        me = state.current_player()
        pools = tuple(state.pools)
        paid = list(pools)
        paid[me] -= state.rules.minimum_opening_bid
        return self._push_or_build(
            state,
            me,
            lambda pid, first: self._valued_chain(state, model, pid, first, 1, pools, risk)[1][me],
            lambda safest: self._outcome(state, model, safest, me, tuple(paid), risk)[me],
        )

    @staticmethod
    def _push_or_build(state: Any, me: int, push_value: Callable[[str, int], float],
                       build_value: Callable[[str], float]) -> Move:
        """Push the kind whose chain is worth the most to me (``push_value`` of the piece and the
        chain's first holder), or build my safest piece at the least opening bid where I can pay
        it (7.2) and ``build_value`` says it is worth more. Each value is asked once, in that order."""
        kinds, first, order = pushes_to_try(state, me)
        best_move: Move | None = None
        best_value = -math.inf
        for pid in order:
            value = push_value(pid, first)
            if value > best_value:
                best_value, best_move = value, Push(pid)
        lowest = state.rules.minimum_opening_bid
        if state.pools[me] >= lowest:
            safest = min(kinds.values(), key=lambda pid: (placement_risk(state, me, pid), pid))
            if build_value(safest) > best_value:
                return Build(safest, lowest)
        assert best_move is not None
        return best_move

    # --- choosing Build or Push -------------------------------------------------------
    def _choose_piece(self, state: Any, risk: Callable[[int, str], float]) -> Move:
        me = state.current_player()
        supply = state.supply
        lowest = state.rules.minimum_opening_bid
        model = self._valuation(state)
        if model is not None:
            return self._choose_by_chances(state, model, risk)
        if not has_foundation(state, me):
            best = max(supply, key=lambda pid: (flat_top(pid[:2]) * kind_of(pid).width_height()[0], pid))
            rivals_need = any(state.standing[p] and p != me and not has_foundation(state, p)
                              for p in range(state.num_players))
            bid = 2 if self.level.bidding == "value" and rivals_need and flat_top(best[:2]) >= 9 else 0
            bid = max(bid, lowest)
            if state.pools[me] < lowest:  # cannot open an auction (rule 7.2): hand the best one on
                return Push(best)
            return Build(best, min(state.pools[me], bid))

        def push_value(pid: str, first: int) -> float:
            placer, pools = self._chain(state, pid, first, 1, tuple(state.pools), risk)
            return self._value_for_me(state, me, pid, placer, pools, risk)

        opening_cost = token_value(state.pools[me]) * lowest  # the least opening bid is spent (7.2)
        return self._push_or_build(state, me, push_value, lambda safest: -risk(me, safest) - opening_cost)

    # --- auctions and push replies ----------------------------------------------------------
    def _bid(self, state: Any) -> Move:
        me = state.current_player()
        auction = state.auction
        if has_foundation(state, me):
            return Pass()  # every later piece is a risk to its placer: let someone else have it
        if self.level.bidding in ("tokens", "slab"):
            # a foundation comes free on my own turn, unless a rival who has one can push me a
            # poor one first: only then is this one worth a token or two ("slab": a flat top of
            # 9 cm or more always is; measured in docs/rules/honor.md 13.5)
            exposed = any(p != me and state.standing[p] and has_foundation(state, p) for p in range(state.num_players))
            exposed = exposed or self.level.bidding == "slab"
            if exposed and auction.high + 1 <= min(2, state.pools[me] - RESERVE) and flat_top(auction.pid[:2]) >= 9:
                return Raise(auction.high + 1)
            return Pass()
        value = FOUNDATION_VALUE * flat_top(auction.pid[:2]) / 15.0
        limit = min(state.pools[me] - RESERVE, math.floor(round(value / TOKEN_VALUE, 6)))
        if auction.high + 1 <= limit:
            return Raise(auction.high + 1)
        return Pass()

    def _push_reply(self, state: Any, risk: Callable[[int, str], float]) -> Move:
        me = state.current_player()
        chain = state.push
        model = self._valuation(state)
        if model is not None:
            passes, _ = self._valued_chain(state, model, chain.pid, me, chain.fee, tuple(state.pools), risk)
            return PassOn() if passes else Accept()
        placer, _ = self._chain(state, chain.pid, me, chain.fee, tuple(state.pools), risk)
        return Accept() if placer == me else PassOn()

    # --- placements ---------------------------------------------------------------------------
    def _place(self, state: Any) -> Move:
        level = self.level
        placing = state.placing
        found: Found = search_release(state, placing.placer, placing.pid, level.place, self.rng,
                                      seconds=self.cap, tremor_on=state.rules.tremor)
        best_x, best_theta = found.xq, found.thetaq
        if level.shaky_hand > 0:
            dx, _ = random_tremor(self.rng, level.shaky_hand)
            lo, hi = state.release_window(placing.placer, placing.pid, best_theta)
            best_x = max(lo, min(hi, best_x + dx))
        return Release(best_x, best_theta, DEFAULT_CLEARANCE)


__all__ = ["LEVELS", "HonorAgent", "Level", "flat_top", "pad_risk", "placement_risk"]
