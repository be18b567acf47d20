"""Search a game's options for the fairest rules: ``boardlab balance``.

A designer names the options to search (``--vary NAME=LOW..HIGH`` or
``NAME=V1,V2,...``) and the targets (``first_player_wins=0.5``, ``draws=0``,
``length=40``, ``balance=1``). Each candidate setting is a lab study
(:mod:`boardlab.lab.study`) of ``games`` games, stored in its own folder, so a
search is resumable and a candidate met twice is played once.

* **The score** of a candidate is its distance from the targets: the sum over
  targets of ``|value - target|``, a share counted in its own units (5 points
  off = 0.05) and the length relative to its target (10% too long = 0.10).
* **The search**: when the options have no more combinations than ``trials``,
  every combination is played (nothing is left to chance). Otherwise Optuna's
  TPE sampler (a Bayesian optimiser for noisy black-box functions) proposes
  each candidate from the scores so far. The sampler of trial ``t`` is seeded
  from (seed, t) and rebuilt from the stored trials, so a run is reproducible
  and a resumed run takes the same path as an uninterrupted one.
* **Common random numbers**: every candidate plays game ``i`` with the same
  seed, so two candidates differ by their rules, not by their dice.
* **Stopping early** (as ``--until-sure`` does): a candidate is played in
  batches, and dropped ("pruned") once the anytime-valid intervals of
  :mod:`boardlab.lab.sequential` show it cannot come closer to the targets
  than the best candidate so far.
* **Confirmation**: the best few candidates and the game's own setting are
  played again as one lab study of ``confirm_games`` games each (variants side
  by side, the verdict, the games to look at); the recommended setting is the
  closest to the targets there, given with its 95% intervals.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.errors import OptionError
from ..core.game import Game
from ..core.options import Option
from ..core.seeds import derive_seed
from .executors import Executor, SerialExecutor
from .metrics import Estimate, estimate, metric_definitions
from .sequential import sequence_interval
from .stats import GameOutcome
from .store import StudyFolder
from .study import OutcomeSink, Study, Variant, run_study

BALANCE_FORMAT = "boardlab-balance/1"
#: what a target may name: the figure, whether it is a share, and its default target
TARGET_NAMES = ("first_player_wins", "draws", "balance", "length")
#: "LOW..HIGH" or "LOW..HIGH:STEP" for a whole-number option
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+)\s*)?$")


@dataclass(frozen=True)
class Dimension:
    """One option searched: its allowed ``values`` (in order), and for a whole-number range
    its ``low``, ``high`` and ``step`` (Optuna searches a range as ordered numbers)."""

    name: str
    values: tuple[Any, ...]
    low: int | None = None
    high: int | None = None
    step: int = 1

    @property
    def is_range(self) -> bool:
        return self.low is not None

    def distribution(self) -> Any:
        from optuna.distributions import CategoricalDistribution, IntDistribution

        if self.is_range:
            return IntDistribution(self.low, self.high, step=self.step)  # type: ignore[arg-type]
        return CategoricalDistribution(self.values)


def parse_dimension(text: str, game: Game) -> Dimension:
    """``NAME=LOW..HIGH[:STEP]`` (a whole-number option) or ``NAME=V1,V2,...`` (any option),
    checked against ``game``'s options; OptionError names what is wrong."""
    name, eq, values = text.partition("=")
    name = name.strip()
    by_name = {option.name: option for option in game.options_spec}
    if not eq or not name or not values.strip():
        raise OptionError(f"--vary {text!r}: expected NAME=LOW..HIGH or NAME=V1,V2,... e.g. --vary no_capture_limit=50..150:25")
    if name not in by_name:
        raise OptionError(f"--vary {name}: {game.id} has no such option; its options: {', '.join(sorted(by_name)) or '(none)'}")
    option = by_name[name]
    matched = _RANGE.match(values)
    if matched:
        if option.kind is not int:
            raise OptionError(f"--vary {name}={values}: a range needs a whole-number option; {name} takes {option.allowed()}")
        low, high, step = int(matched[1]), int(matched[2]), int(matched[3] or 1)
        if step < 1 or low >= high or (high - low) % step:
            raise OptionError(f"--vary {name}={values}: need LOW < HIGH and a STEP >= 1 that divides HIGH - LOW")
        option.coerce(low), option.coerce(high)  # both ends within the option's bounds
        return Dimension(name, tuple(range(low, high + 1, step)), low, high, step)
    choices = [value.strip() for value in values.split(",") if value.strip()]
    coerced = tuple(option.coerce(value) for value in choices)
    if len(coerced) < 2 or len(set(coerced)) != len(coerced):
        raise OptionError(f"--vary {name}={values}: list at least two different values")
    return Dimension(name, coerced)


@dataclass(frozen=True)
class Target:
    """What a candidate is scored against: ``figure`` should come near ``value``."""

    figure: str
    value: float

    @property
    def is_share(self) -> bool:
        return self.figure != "length"

    def distance(self, observed: float) -> float:
        """How far ``observed`` is from the target, in the score's units (module docstring)."""
        if self.is_share:
            return abs(observed - self.value)
        return abs(observed - self.value) / self.value

    def describe(self) -> str:
        shown = f"{self.value:.0%}" if self.is_share else f"{self.value:g} decisions"
        return f"{self.figure} = {shown}"


def parse_targets(texts: Sequence[str] | None, seats: int) -> tuple[Target, ...]:
    """``["first_player_wins=0.5", "length=40"]`` -> targets; none given: a fair first
    player (1/seats of the decided games) and no draws."""
    if not texts:
        return (Target("first_player_wins", 1 / seats), Target("draws", 0.0))
    targets: dict[str, Target] = {}
    for text in texts:
        name, eq, value = text.partition("=")
        name = name.strip()
        if not eq or name not in TARGET_NAMES:
            raise OptionError(f"--target {text!r}: expected NAME=VALUE with NAME one of {', '.join(TARGET_NAMES)}")
        if name in targets:
            raise OptionError(f"--target {name} is given twice")
        try:
            number = float(value)
        except ValueError:
            raise OptionError(f"--target {text!r}: {value.strip()!r} is not a number") from None
        if name == "length":
            if not number > 0:
                raise OptionError(f"--target {text!r}: a length target must be above 0 decisions")
        elif not 0.0 <= number <= 1.0:
            raise OptionError(f"--target {text!r}: a share is between 0 and 1 (0.5 for 50%)")
        targets[name] = Target(name, number)
    return tuple(targets.values())


_FIGURE_METRICS = {"first_player_wins": "first_player_wins", "draws": "draws", "balance": "balance", "length": "decisions"}


def candidate_figures(outcomes: Sequence[GameOutcome], seats: int) -> dict[str, Estimate]:
    """Every target figure of a candidate's games, with the lab's fixed-n intervals."""
    metrics = {m.key: m for m in metric_definitions([str(seat) for seat in range(seats)])}
    figures = {}
    for name, key in _FIGURE_METRICS.items():
        figures[name] = estimate(metrics[key], outcomes)
    return figures


def score(figures: Mapping[str, Estimate], targets: Sequence[Target]) -> float:
    """The distance of a candidate from every target (smaller is better); inf when a figure
    is undefined (no decided game for the first player's share)."""
    total = 0.0
    for target in targets:
        value = figures[target.figure].value
        if not math.isfinite(value):
            return math.inf
        total += target.distance(value)
    return total


def least_possible_score(outcomes: Sequence[GameOutcome], targets: Sequence[Target]) -> float:
    """A lower bound of the candidate's true score, valid at every look (the confidence
    sequences of :mod:`boardlab.lab.sequential`, each at 5%/len(targets)): each share
    target's distance from its interval, 0 where the target lies inside. Length has no
    bounded interval, so it adds 0."""
    alpha = 0.05 / max(1, len(targets))
    ordered = sorted(outcomes, key=lambda outcome: outcome.index)
    bound = 0.0
    for target in targets:
        if target.figure == "draws":
            values = [float(o.is_draw) for o in ordered]
        elif target.figure == "first_player_wins":
            values = [float(o.winners[0] == o.first_mover) for o in ordered if not o.is_draw and o.first_mover is not None]
        else:
            continue
        if not values:
            continue
        low, high = sequence_interval(values, alpha)
        bound += max(0.0, low - target.value, target.value - high)
    return bound


@dataclass
class Trial:
    """One candidate setting tried: its options, games, figures, score, and how it ended."""

    number: int
    options: dict[str, Any]
    games: int
    figures: dict[str, Estimate]
    score: float
    #: why it stopped before its games ("" when it played them all)
    pruned: str = ""
    folder: str = ""
    #: how the setting was chosen, where it was not the sampler's own proposal, or that its
    #: games were exactly an earlier trial's
    note: str = ""
    #: the trial whose games this one's repeat move for move (the options changed nothing)
    same_as: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "options": self.options, "games": self.games,
            "figures": {name: figure.to_json() for name, figure in self.figures.items()},
            "score": self.score if math.isfinite(self.score) else None,
            "pruned": self.pruned, "folder": self.folder, "note": self.note, "same_as": self.same_as,
        }


@dataclass(frozen=True)
class BalanceSearch:
    """Everything that decides a balance search (its games, its path, its result)."""

    game_id: str
    agents: tuple[str, ...]
    dimensions: tuple[Dimension, ...]
    targets: tuple[Target, ...]
    players: int
    trials: int = 12
    games: int = 60
    batch: int = 20
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Optuna's random proposals before TPE models the scores
    startup_trials: int = 4

    def __post_init__(self) -> None:
        if not self.dimensions:
            raise OptionError("balance needs at least one --vary NAME=RANGE to search")
        names = [dimension.name for dimension in self.dimensions]
        if len(set(names)) != len(names):
            raise OptionError("an option is varied twice: list every value in one --vary")
        fixed = set(self.options) & set(names)
        if fixed:
            raise OptionError(f"{sorted(fixed)[0]} is both fixed (--option) and searched (--vary)")
        for what, value in (("--trials", self.trials), ("-n (games per candidate)", self.games), ("--batch", self.batch)):
            if value < 1:
                raise OptionError(f"{what} must be at least 1, not {value}")

    @property
    def grid_size(self) -> int:
        return math.prod(len(dimension.values) for dimension in self.dimensions)

    @property
    def exhaustive(self) -> bool:
        """Every combination fits within the trials: play them all instead of sampling."""
        return self.grid_size <= self.trials

    def study(self, options: Mapping[str, Any], games: int | None = None) -> Study:
        """The lab study of one candidate (its own variant, the search's seed)."""
        return Study(
            game_id=self.game_id,
            variants=(Variant("", dict(options), self.agents),),
            games=self.games if games is None else games,
            seed=self.seed,
            players=self.players,
            rotate=True,
            options=dict(self.options),
        )


def _key(options: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted(options.items()))


def propose(search: BalanceSearch, number: int, history: Sequence[Trial]) -> dict[str, Any]:
    """Trial ``number``'s candidate: the next combination of the grid (exhaustive search), or
    Optuna TPE's proposal from the earlier trials, with a sampler seeded from (seed, number)."""
    if search.exhaustive:
        combinations = list(itertools.product(*(dimension.values for dimension in search.dimensions)))
        return dict(zip((d.name for d in search.dimensions), combinations[number % len(combinations)]))
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(
        seed=derive_seed(search.seed, number) % 2**32, n_startup_trials=search.startup_trials, multivariate=True
    )
    distributions = {dimension.name: dimension.distribution() for dimension in search.dimensions}
    study = optuna.create_study(direction="minimize", sampler=sampler)
    for trial in history:
        if not math.isfinite(trial.score):
            continue
        study.add_trial(optuna.trial.create_trial(params=dict(trial.options), distributions=distributions, value=trial.score))
    asked = study.ask(distributions)
    return dict(asked.params)


PlayStudy = Callable[[Study, OutcomeSink], dict[str, list[GameOutcome]]]


def trial_folder(root: Path, study: Study) -> Path:
    """A candidate's games live in a folder named by its study id: the same setting (and agents,
    seed, seating) always lands in the same folder, whatever search proposed it."""
    return root / "trials" / study.study_id


def play_candidate(
    search: BalanceSearch, options: Mapping[str, Any], root: Path, best: float, play: PlayStudy
) -> tuple[list[GameOutcome], str, str]:
    """Play one candidate in batches; stop early once it cannot beat ``best``. Returns its games,
    why it was pruned ("" if not) and its folder."""
    full = search.study(options)
    folder = trial_folder(root, full)
    sink = StudyFolder(folder, full)
    played = 0
    while True:
        played = min(played + search.batch, search.games)
        outcomes = play(replace(full, games=played), sink)[""]
        if played >= search.games:
            return outcomes, "", str(folder)
        bound = least_possible_score(outcomes, search.targets)
        if bound > best:
            reason = (f"after {played} games its score is at least {bound:.3f} (95% at every look), "
                      f"above the best so far, {best:.3f}")
            return outcomes, reason, str(folder)


def default_play(executor: Executor | None = None) -> PlayStudy:
    chosen = executor or SerialExecutor()
    return lambda study, sink: run_study(study, chosen, sink)


def run_search(
    search: BalanceSearch, root: Path, play: PlayStudy | None = None, on_trial: Callable[[Trial], None] | None = None
) -> list[Trial]:
    """Play ``search.trials`` distinct candidates (every combination where they fit), storing
    their games under ``root``. Returns the trials in the order they were tried."""
    play = play or default_play()
    history: list[Trial] = []
    seen: set[tuple[Any, ...]] = set()
    fingerprints: dict[tuple[Any, ...], int] = {}
    for number in range(min(search.trials, search.grid_size)):
        options = propose(search, number, history)
        note = ""
        if _key(options) in seen:
            # TPE settles on a favourite and proposes it again; a trial spent replaying it would
            # teach nothing, so an untried setting is drawn instead (seeded: still reproducible)
            options = _untried(search, number, seen)
            note = "the sampler proposed a setting already tried: an untried one drawn at random instead"
        seen.add(_key(options))
        best = min((t.score for t in history if not t.pruned), default=math.inf)
        outcomes, pruned, folder = play_candidate(search, options, root, best, play)
        figures = candidate_figures(outcomes, search.players)
        trial = Trial(number, options, len(outcomes), figures, score(figures, search.targets), pruned, folder, note)
        twin = fingerprints.setdefault(_fingerprint(outcomes), number)
        if twin != number:
            # on common seeds, identical games mean the options never came into play
            trial.same_as = twin
            trial.note = "; ".join(part for part in (note, f"the very same games as trial {twin}") if part)
        history.append(trial)
        if on_trial is not None:
            on_trial(trial)
    return history


def _fingerprint(outcomes: Sequence[GameOutcome]) -> tuple[Any, ...]:
    """What tells two candidates' games apart: each game's moves (:attr:`GameOutcome.identity`)."""
    return tuple((o.index, o.identity) for o in sorted(outcomes, key=lambda o: o.index))


def _untried(search: BalanceSearch, number: int, seen: set[tuple[Any, ...]]) -> dict[str, Any]:
    """A setting not in ``seen``, drawn with a generator seeded from (seed, number)."""
    generator = random.Random(derive_seed(search.seed, number))
    names = [dimension.name for dimension in search.dimensions]
    for _ in range(1000):
        options = {d.name: generator.choice(d.values) for d in search.dimensions}
        if _key(options) not in seen:
            return options
    # a nearly exhausted space: take the untried settings in order and draw among them
    untried = [dict(zip(names, values)) for values in itertools.product(*(d.values for d in search.dimensions))
               if _key(dict(zip(names, values))) not in seen]
    return generator.choice(untried)


def finalists(trials: Sequence[Trial], count: int) -> list[dict[str, Any]]:
    """The ``count`` best settings that played all their games, best first; a setting whose games
    were exactly an earlier one's adds nothing and is left out."""
    complete = sorted((t for t in trials if not t.pruned and t.same_as is None and math.isfinite(t.score)),
                      key=lambda t: (t.score, t.number))
    return [dict(t.options) for t in complete[:count]]


def variant_name(options: Mapping[str, Any]) -> str:
    """A candidate's name in the confirmation study: ``name=value,...`` in the search's order."""
    return ",".join(f"{name}={_shown(value)}" for name, value in options.items())


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def confirmation_study(
    search: BalanceSearch, defaults: Mapping[str, Any], chosen: Sequence[Mapping[str, Any]], games: int
) -> Study:
    """The game's own setting of the searched options first (the baseline the report compares
    with), then each finalist not equal to it: one lab study, ``games`` games each."""
    order = [dimension.name for dimension in search.dimensions]
    settings = [dict(defaults)] + [dict(options) for options in chosen if _key(options) != _key(defaults)]
    settings = [{name: options[name] for name in order} for options in settings]
    variants = tuple(Variant(variant_name(options), options, search.agents) for options in settings)
    return Study(search.game_id, variants, games, confirmation_seed(search.seed), search.players, True, dict(search.options))


def confirmation_seed(seed: int) -> int:
    """The confirmation study's base seed: another stream than the search's, so its games are
    new ones and the best candidate's figures are not the very games that made it look best."""
    return derive_seed(seed, -1)


def searched_defaults(search: BalanceSearch, spec: Sequence[Option]) -> dict[str, Any]:
    """The game's own values of the searched options."""
    by_name = {option.name: option for option in spec}
    return {dimension.name: by_name[dimension.name].default for dimension in search.dimensions}


def recommend(report: Mapping[str, Any], targets: Sequence[Target]) -> dict[str, Any]:
    """The confirmed variant closest to the targets, from a lab report's figures, with every
    variant's score (the baseline's too, for "how much better than the rules as they are")."""
    scored = []
    for variant in report["variants"]:
        metrics = variant["metrics"]
        figures = {
            name: Estimate(_number(metrics[key]["value"]), _number(metrics[key]["low"]), _number(metrics[key]["high"]),
                           metrics[key]["games"])
            for name, key in _FIGURE_METRICS.items()
        }
        scored.append({"variant": variant["variant"], "score": score(figures, targets),
                       "figures": {name: figure.to_json() for name, figure in figures.items()}})
    best = min(scored, key=lambda entry: entry["score"])
    baseline = scored[0]
    comparison = next((c for c in report.get("comparisons", ()) if c["variant"] == best["variant"]), None)
    return {
        "best": best["variant"], "baseline": baseline["variant"],
        "candidates": [{**entry, "score": entry["score"] if math.isfinite(entry["score"]) else None} for entry in scored],
        "clearly_closer": [] if comparison is None else clearly_closer(baseline["figures"], comparison["differences"], targets),
        "out_of_reach": out_of_reach([entry["figures"] for entry in scored], targets),
    }


def clearly_closer(
    baseline: Mapping[str, Mapping[str, Any]], differences: Mapping[str, Mapping[str, Any]], targets: Sequence[Target],
) -> list[str]:
    """The targeted figures in which a candidate differs from the rules as they are beyond
    chance (its difference's interval excludes 0) and towards the target: without one, the
    candidate's better score is within what chance alone gives the best of several."""
    closer = []
    for target in targets:
        before, difference = baseline[target.figure]["value"], differences.get(_FIGURE_METRICS[target.figure])
        if before is None or math.isnan(before) or difference is None or difference["low"] is None:
            continue
        towards_lower = before > target.value
        if (difference["high"] < 0) if towards_lower else (difference["low"] > 0):
            closer.append(target.figure)
    return closer


def out_of_reach(candidates: Sequence[Mapping[str, Mapping[str, Any]]], targets: Sequence[Target]) -> list[dict[str, Any]]:
    """The targets every confirmed setting missed beyond chance, on the same side (all above or
    all below): the searched options do not reach them, whichever is chosen."""
    missed = []
    for target in targets:
        figures = [candidate[target.figure] for candidate in candidates]
        if any(figure["low"] is None or math.isnan(figure["low"]) for figure in figures):
            continue
        if all(figure["low"] > target.value for figure in figures) or all(figure["high"] < target.value for figure in figures):
            values = [figure["value"] for figure in figures]
            missed.append({"figure": target.figure, "target": target.value, "lowest": min(values), "highest": max(values)})
    return missed


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


__all__ = [
    "BALANCE_FORMAT", "BalanceSearch", "Dimension", "Target", "Trial", "candidate_figures", "clearly_closer",
    "confirmation_study", "finalists", "least_possible_score", "out_of_reach", "parse_dimension", "parse_targets",
    "play_candidate", "propose", "recommend", "run_search", "score", "searched_defaults", "trial_folder", "variant_name",
]
