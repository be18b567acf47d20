"""A study: the same simulation for each rule variant (or agent pairing), run resumably.

A :class:`Study` is a list of :class:`Variant` (options and agents) sharing one
game, player count, seed, seating rule and number of games. Game ``i`` of every
variant gets the same seed, so variants are compared on the same dice and deals.

:func:`run_study` plays every game not yet in the study's folder (see
:mod:`boardlab.lab.store`) on an :mod:`executor <boardlab.lab.executors>`,
storing each as it finishes, and returns the outcomes per variant in game
order. Interrupted (Ctrl-C), it raises :class:`StudyInterrupted` carrying the
games finished so far; run again, it continues where it stopped.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..core.errors import OptionError
from ..core.game import Game
from ..core.registry import load
from .executors import Executor, SerialExecutor, Task
from .play import PlayedGame, SimulationPlan
from .progress import StudyProgress
from .stats import GameOutcome

#: the version of what a study stores; a folder written by another version is refused
LAB_FORMAT = 1


@dataclass(frozen=True)
class Variant:
    """One column of a study: ``name`` ("" when the study has one variant), the rule
    options on top of the study's, and the agent specs."""

    name: str
    options: Mapping[str, Any]
    agents: tuple[str, ...]


@dataclass(frozen=True)
class Study:
    """What decides a study's games. ``games`` is per variant."""

    game_id: str
    variants: tuple[Variant, ...]
    games: int
    seed: int = 0
    players: int | None = None
    rotate: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the most wall time any decision may take (the server's Lab caps its studies' searches);
    #: None: the agents' own budgets. Not part of :meth:`settings`: it bounds, it does not decide
    decision_seconds: float | None = None

    def plan(self, variant: Variant) -> SimulationPlan:
        return SimulationPlan(
            game_id=self.game_id,
            agents=variant.agents,
            games=self.games,
            seed=self.seed,
            players=self.players,
            options={**self.options, **variant.options},
            rotate=self.rotate,
            variant=variant.name,
            study_id=self.study_id,
            decision_seconds=self.decision_seconds,
        )

    def plans(self) -> list[SimulationPlan]:
        return [self.plan(variant) for variant in self.variants]

    def validate(self) -> Game:
        """Build every variant's game and agents once; BoardlabError names what is wrong.
        Returns the first variant's game."""
        names = [variant.name for variant in self.variants]
        if not names or len(set(names)) != len(names):
            raise OptionError(f"a study needs variants with distinct names, got {names!r}")
        games = [plan.validate() for plan in self.plans()]
        return games[0]

    def settings(self) -> dict[str, Any]:
        """Everything that decides the games except their number (a study may grow), with
        each variant's options as the game normalises them (defaults filled in)."""
        variants = []
        players = self.players
        for variant in self.variants:
            game = load(self.game_id, players=self.players, **{**self.options, **variant.options})
            variants.append({"name": variant.name, "options": dict(game.options), "agents": list(variant.agents)})
            players = game.num_players
        return {
            "lab_format": LAB_FORMAT,
            "game": self.game_id,
            "players": players,
            "seed": self.seed,
            "rotate": self.rotate,
            "variants": variants,
        }

    @cached_property
    def study_id(self) -> str:
        """A short hash of :meth:`settings`: written into every record and game line."""
        text = json.dumps(self.settings(), sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def single_variant_study(plan: SimulationPlan) -> Study:
    """The study that plays ``plan`` alone (what ``boardlab simulate`` runs)."""
    return Study(
        game_id=plan.game_id,
        variants=(Variant("", {}, plan.agents),),
        games=plan.games,
        seed=plan.seed,
        players=plan.players,
        rotate=plan.rotate,
        options=dict(plan.options),
    )


def parse_vary(texts: Sequence[str] | None) -> list[tuple[str, list[str]]]:
    """``["layout=a,b", "ply_cap=0,200"]`` -> ``[("layout", ["a", "b"]), ("ply_cap", ["0", "200"])]``."""
    varied: list[tuple[str, list[str]]] = []
    for text in texts or ():
        name, eq, values = text.partition("=")
        choices = [value.strip() for value in values.split(",") if value.strip()]
        if not eq or not name.strip() or not choices:
            raise OptionError(f"--vary {text!r}: expected NAME=VALUE1,VALUE2,... e.g. --vary layout=diagram,pinwheel")
        if any(".." in value for value in choices):
            raise OptionError(f"--vary {text!r}: the lab takes a list of values (--vary {name.strip()}=100,200,300); "
                              "a range LOW..HIGH:STEP is for boardlab balance, which searches it")
        if any(name.strip() == other for other, _ in varied):
            raise OptionError(f"--vary {name.strip()} is given twice: list every value in one --vary")
        if len(set(choices)) != len(choices):
            raise OptionError(f"--vary {text!r}: a value is listed twice")
        varied.append((name.strip(), choices))
    return varied


def option_text(value: Any) -> str:
    """An option's value as the command line writes it (``true``, ``200``, ``pinwheel``): how a
    study names its variants and hands options to the game, whichever client asked."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def option_variants(agents: Sequence[str], varied: Sequence[tuple[str, Sequence[str]]]) -> tuple[Variant, ...]:
    """One variant per combination of the varied options' values (all with the same agents)."""
    if not varied:
        return (Variant("", {}, tuple(agents)),)
    names = [name for name, _ in varied]
    variants = []
    for values in itertools.product(*(choices for _, choices in varied)):
        label = ",".join(f"{name}={value}" for name, value in zip(names, values))
        variants.append(Variant(label, dict(zip(names, values)), tuple(agents)))
    return tuple(variants)


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_study`: ``outcomes`` holds the games finished so far
    (all of them stored, when the study has a folder)."""

    def __init__(self, outcomes: dict[str, list[GameOutcome]]) -> None:
        super().__init__("study interrupted")
        self.outcomes = outcomes


class OutcomeSink:
    """Where finished games go: a study folder (:class:`~boardlab.lab.store.StudyFolder`)
    stores them; this base keeps them in memory only."""

    def done(self) -> dict[tuple[str, int], GameOutcome]:
        """Games already finished by an earlier run."""
        return {}

    def add(self, played: PlayedGame) -> GameOutcome:
        return played.outcome


def run_study(
    study: Study,
    executor: Executor | None = None,
    sink: OutcomeSink | None = None,
    on_progress: Callable[[StudyProgress], None] | None = None,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> dict[str, list[GameOutcome]]:
    """Play the games of ``study`` that ``sink`` does not hold yet; outcomes per variant name,
    in game order. ``on_progress`` sees every progress event, ``on_outcome`` each game as it
    is stored (in completion order). Bad input raises BoardlabError before any game starts."""
    study.validate()
    executor = executor or SerialExecutor()
    sink = sink or OutcomeSink()
    plans = study.plans()
    finished: dict[tuple[str, int], GameOutcome] = {
        key: outcome for key, outcome in sink.done().items() if key[1] < study.games
    }
    # game-major order: an interrupted study has about as many games of each variant
    tasks: list[Task] = [
        (plan, index)
        for index in range(study.games)
        for plan in plans
        if (plan.variant, index) not in finished
    ]
    progress = StudyProgress(len(plans) * study.games, resumed=len(finished), listener=on_progress)
    try:
        for played in executor.run(tasks, on_ply=progress.moved):
            if played is None:
                progress.tick()
                continue
            outcome = sink.add(played)
            finished[outcome.key] = outcome
            progress.finished(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
    except KeyboardInterrupt:
        # the signal may land between storing a game and counting it: what the sink holds counts
        raise StudyInterrupted(stored_outcomes(study, sink, finished)) from None
    return _by_variant(study, finished)


def stored_outcomes(
    study: Study, sink: OutcomeSink, counted: Mapping[tuple[str, int], GameOutcome] | None = None
) -> dict[str, list[GameOutcome]]:
    """The games of ``study`` that ``sink`` holds, with ``counted`` (games not stored), per
    variant name in game order: what an interrupted study has played, however it was stopped."""
    finished = dict(counted or {})
    finished.update((key, outcome) for key, outcome in sink.done().items() if key[1] < study.games)
    return _by_variant(study, finished)


def _by_variant(study: Study, finished: Mapping[tuple[str, int], GameOutcome]) -> dict[str, list[GameOutcome]]:
    result: dict[str, list[GameOutcome]] = {variant.name: [] for variant in study.variants}
    for key in sorted(finished, key=lambda key: key[1]):
        result[key[0]].append(finished[key])
    return result
