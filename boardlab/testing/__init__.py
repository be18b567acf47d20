"""The conformance suite, for any game: run it on a new game before anything else.

From a shell::

    boardlab check mygame            # every check, the game's own budget
    boardlab check mygame --quick    # a fifth of the random games

From Python (or pytest: each check raises AssertionError naming the seed and ply)::

    from boardlab.testing import run_conformance
    report = run_conformance("mygame")
    assert report.passed, report.failures

The checks use the public protocol only: random games end within ``max_moves``;
moves parse back, round-trip as JSON and undo, giving back every declared state field
(:mod:`boardlab.testing.fields`); positions and records round-trip;
copies are independent; the declared nature (chance, hidden information) matches
what the game does; no view and no move text shows a viewer's secrets, and two
states that differ only in one player's secrets look the same to that player;
bad input is refused and changes nothing; hypothesis fuzzes the parsers.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from ..core.game import Game
from ..core.registry import load
from .checks import CHECKS, check_every_configuration_plays
from .fuzz import FUZZ_CHECKS, check_fuzz_parse_move, check_fuzz_positions
from .helpers import (
    Budget,
    Config,
    budget_for,
    check_returns,
    configurations,
    leaked,
    perft,
    playthrough,
    random_move,
)

CheckFunction = Callable[[Game, Budget], None]


@dataclass
class CheckOutcome:
    """One check's outcome: its name, seconds taken, and the failure text (empty if it passed)."""

    name: str
    seconds: float
    failure: str = ""

    @property
    def passed(self) -> bool:
        return not self.failure


@dataclass
class ConformanceReport:
    game_id: str
    outcomes: list[CheckOutcome] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(outcome.passed for outcome in self.outcomes)

    @property
    def failures(self) -> list[CheckOutcome]:
        return [outcome for outcome in self.outcomes if not outcome.passed]


def all_checks(fuzz: bool = True) -> list[CheckFunction]:
    """Every per-game check, the fuzz checks last."""
    return [*CHECKS, *(FUZZ_CHECKS if fuzz else ())]


def run_conformance(
    game: Game | str,
    budget: Budget | None = None,
    *,
    fuzz: bool = True,
    on_check: Callable[[CheckOutcome], None] | None = None,
) -> ConformanceReport:
    """Run every check on ``game`` (and each of its configurations) and report; never raises
    for a failing check. ``budget`` defaults to the game's own (:func:`budget_for`)."""
    if isinstance(game, str):
        game = load(game)
    budget = budget or budget_for(game)
    report = ConformanceReport(game.id)

    def run(name: str, call: Callable[[], None]) -> None:
        began = time.perf_counter()
        failure = ""
        try:
            call()
        except AssertionError as exc:
            failure = str(exc) or traceback.format_exc(limit=3)
        except Exception:  # a crash in the game is a failure of the check, with its traceback
            failure = traceback.format_exc(limit=6)
        outcome = CheckOutcome(name, time.perf_counter() - began, failure)
        report.outcomes.append(outcome)
        if on_check is not None:
            on_check(outcome)

    for check in all_checks(fuzz):
        run(check.__name__, partial(check, game, budget))
    for config in configurations(game.id)[1:]:
        run(f"check_every_configuration_plays[{config}]", partial(check_every_configuration_plays, config, budget))
    return report


__all__ = [
    "CHECKS",
    "FUZZ_CHECKS",
    "Budget",
    "CheckOutcome",
    "Config",
    "ConformanceReport",
    "all_checks",
    "budget_for",
    "check_every_configuration_plays",
    "check_fuzz_parse_move",
    "check_fuzz_positions",
    "check_returns",
    "configurations",
    "leaked",
    "perft",
    "playthrough",
    "random_move",
    "run_conformance",
]
