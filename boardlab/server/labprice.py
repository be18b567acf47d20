"""What a Lab study costs the server, priced before it is queued.

Every agent spec is priced in CPU seconds per decision from its budget, before any game:

* a spec the game's level ladder measured (``ladder.json``: every level's spec, with the
  CPU of its decisions) costs their mean, or their median where the ladder keeps no mean
  (ladders written before it kept one);
* a search with an iteration or position budget (``iterations``, ``nodes``) costs the budget
  times what one iteration (position) of that agent cost in the game's measured specs, or,
  where the game measured no spec of that agent, the dearest such cost of any game
  (:data:`FALLBACK_UNIT_SECONDS`); its own ``seconds`` setting caps that;
* a search bounded by ``seconds`` alone costs its seconds; one with no bound at all (a depth
  without a position budget) costs the Lab's cap;
* any other agent (random, greedy, a heuristic) costs :data:`QUICK_DECISION_SECONDS`.

A spec priced above the Lab's cap per decision (``--lab-decision-seconds``) is refused with
its price: the worker stops every search at that cap, so the study would measure a weaker
agent than the one asked for. A study's price is its games times :data:`DECISIONS_PER_GAME`
times the mean price of its seats; each designer's queued studies may cost at most their CPU
quota, and the worker stops a study whose CPU outruns :data:`OVERRUN` times its price.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..agents import make_agent, resolve_spec
from ..core.agent import parse_spec
from ..core.game import Game
from ..lab.ladder_docs import load_ladder
from ..lab.study import Study

#: a decision of an agent that does not search (random, greedy, a game's heuristic)
QUICK_DECISION_SECONDS = 0.01
#: the decisions a study's game is priced at (Towers' games take about 60)
DECISIONS_PER_GAME = 100
#: the budget settings that count iterations of a search, and what one costs where no
#: measurement of the game says (the dearest measured: an Overseer MCTS iteration)
BUDGET_SETTINGS = ("iterations", "nodes")
FALLBACK_UNIT_SECONDS = {"iterations": 5e-4, "nodes": 2e-5}
#: the settings that make an agent a search (priced by its budget, or at the cap without one)
SEARCH_SETTINGS = ("iterations", "nodes", "seconds", "depth")
#: a study stops once its CPU passes this many times its price (the price is an estimate)
OVERRUN = 3.0


@lru_cache(maxsize=32)
def _measured(game_id: str) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """The game's ladder: CPU per decision by spec (the mean where the ladder keeps it, else
    the median), and the dearest CPU per unit of budget by (agent, budget setting)."""
    data = load_ladder(game_id)
    by_spec: dict[str, float] = {}
    per_unit: dict[tuple[str, str], float] = {}
    for entry in (data or {}).get("ratings", {}).values():
        # a study pays for every decision: where a few decisions cost far more than the rest
        # (Honor's placements beside its bids) the mean is many times the median
        spec, cpu = entry.get("spec"), entry.get("cpu_mean", entry.get("cpu_median"))
        if not isinstance(spec, str) or not isinstance(cpu, (int, float)):
            continue
        by_spec[spec] = float(cpu)
        name, params = parse_spec(spec)
        for setting in BUDGET_SETTINGS:
            if setting in params and params[setting].isdigit() and int(params[setting]) > 0:
                unit = float(cpu) / int(params[setting])
                per_unit[(name, setting)] = max(unit, per_unit.get((name, setting), 0.0))
    return by_spec, per_unit


def decision_seconds(game: Game, spec: str, cap: float) -> float:
    """The CPU seconds one decision of ``spec`` costs in ``game`` (see the module's rules)."""
    spec = resolve_spec(game, spec)
    by_spec, per_unit = _measured(game.id)
    agent = make_agent(spec, game=game)
    normal = agent.spec()
    if normal in by_spec:
        return by_spec[normal]
    if spec in by_spec:
        return by_spec[spec]
    settings: dict[str, Any] = getattr(agent, "settings", {})
    if not any(setting in agent.params for setting in SEARCH_SETTINGS):
        return QUICK_DECISION_SECONDS
    prices = [
        float(settings[setting]) * per_unit.get((agent.name, setting), FALLBACK_UNIT_SECONDS[setting])
        for setting in BUDGET_SETTINGS
        if isinstance(settings.get(setting), (int, float)) and settings[setting] > 0
    ]
    own_seconds = settings.get("seconds")
    if isinstance(own_seconds, (int, float)) and own_seconds > 0:
        prices.append(float(own_seconds))
    return min(prices) if prices else cap


def study_seconds(study: Study, games: int, prices: dict[str, float]) -> float:
    """The CPU seconds ``games`` games of each variant of ``study`` cost, from each spec's
    price per decision (``prices``)."""
    total = 0.0
    for variant in study.variants:
        mean = sum(prices[spec] for spec in variant.agents) / len(variant.agents)
        total += games * DECISIONS_PER_GAME * mean
    return total


__all__ = ["DECISIONS_PER_GAME", "OVERRUN", "QUICK_DECISION_SECONDS", "decision_seconds", "study_seconds"]
