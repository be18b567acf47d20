"""``simulate(plan)``: one plan's games, the quick form of a study.

Game ``i`` always gets the same seed and seating, so results do not depend on
``jobs`` or on the executor. With ``plan.records_dir`` the games are stored in
that folder as a resumable study (:mod:`boardlab.lab.store`): a second run with
the same plan continues it and never plays or counts a game twice.
"""

from __future__ import annotations

from collections.abc import Callable

from .executors import Executor, make_executor
from .play import PlayedGame, SimulationPlan, game_seed, play_one, seat_agents
from .stats import GameOutcome
from .store import StudyFolder
from .study import run_study, single_variant_study


def simulate(
    plan: SimulationPlan,
    jobs: int = 1,
    on_outcome: Callable[[GameOutcome], None] | None = None,
    executor: Executor | None = None,
) -> list[GameOutcome]:
    """Play every game of ``plan`` with ``jobs`` processes (or ``executor``); outcomes in game order.

    ``on_outcome`` is called in this process as each game finishes (in
    completion order). Bad input raises BoardlabError before any game starts.
    Cost: ``games`` full games, spread over the workers.
    """
    plan.validate()
    study = single_variant_study(plan)
    executor = executor or make_executor("process", jobs)
    sink = StudyFolder(plan.records_dir, study) if plan.records_dir is not None else None
    return run_study(study, executor, sink, on_outcome=on_outcome)[""]


__all__ = ["PlayedGame", "SimulationPlan", "game_seed", "play_one", "seat_agents", "simulate"]
