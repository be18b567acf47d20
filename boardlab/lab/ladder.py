"""The level ladder: does each of the computer's levels beat the one below, and how strong is each?

For a game, the ladder pairs ``random`` with ``beginner``, ``beginner`` with ``easy``,
``easy`` with ``normal`` and ``normal`` with ``hard`` (and ``greedy``, an anchor players
know, with ``random`` and ``easy`` where no level is plain greedy). Every pair plays the same
number of two-player games with seats rotated, as one :class:`~boardlab.lab.study.Study`
(seeded, so a run is reproducible and independent of the number of workers), with each
decision's CPU time measured (``SimulationPlan.time_decisions``).

Finished games go one line each into ``DIR/<game>/<weaker>-vs-<stronger>.jsonl`` as they
finish. A line holds everything the summary needs (the pair's specs, seed, seating, returns,
CPU per decision), so a run resumes where it stopped and the files of several runs or
machines merge by concatenation: a game is identified by its pair's specs, rules, base seed
and index, and counted once. :func:`summarize` turns lines into the tables and the Elo
ratings; :mod:`boardlab.lab.ladder_docs` writes them into docs/levels.md and the game's
``ladder.json``.

Standard library only, like the rest of the lab's engine: the full ladder runs on machines
with nothing but Python and boardlab (and pymunk, for Honor).
"""

from __future__ import annotations

import datetime
import itertools
import json
import math
import os
import platform
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..agents.levels import LEVELS, game_levels, level_table
from ..core.errors import OptionError
from ..core.game import Game
from ..core.registry import load
from .executors import Executor
from .play import PlayedGame, SimulationPlan
from .ratings import ELO_ANCHOR, fit_elo
from .stats import GameOutcome, wilson_interval
from .study import OutcomeSink, Study, Variant, run_study

GAME_FORMAT = "boardlab-ladder-game/1"
RUN_FORMAT = "boardlab-ladder-run/1"
#: a game's ``ladder.json``: ratings, and each pair's results so that a new rung needs no old games
LADDER_FORMAT = "boardlab-ladder/1"
RUNS_FILE = "runs.jsonl"
#: what each level must score against the one below, over at least REQUIRED_GAMES games
REQUIRED_SCORE = 0.65
REQUIRED_GAMES = 100
PAIR_SEPARATOR = "-vs-"
#: the weakest rung of the ladder: not a level, but the Elo scale's zero
BOTTOM = ELO_ANCHOR
#: an anchor players know, rated where no level plays it
GREEDY = "greedy"


def ladder_agents(game: Game, overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """label -> agent spec: ``random``, every level weakest first (``overrides`` replace a
    level's spec), then ``greedy`` unless a level already is plain greedy."""
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - set(game_levels(game)))
    if unknown:
        raise OptionError(f"--spec names {', '.join(unknown)}; the levels of {game.id} are {', '.join(game_levels(game))}")
    agents = {BOTTOM: BOTTOM}
    agents.update({level: overrides.get(level, spec) for level, spec in level_table(game).items()})
    if GREEDY not in agents.values():
        agents[GREEDY] = GREEDY
    return agents


def default_pairs(agents: Mapping[str, str]) -> list[tuple[str, str]]:
    """(weaker, stronger) pairs: the ladder's rungs, then the greedy anchor's games."""
    rungs = [BOTTOM, *(level for level in LEVELS if level in agents)]
    pairs = list(itertools.pairwise(rungs))
    if GREEDY in agents:
        pairs += [(BOTTOM, GREEDY), (GREEDY, "easy")]
    return pairs


def parse_pairs(text: str, agents: Mapping[str, str]) -> list[tuple[str, str]]:
    """``random-beginner,easy-normal`` -> [("random", "beginner"), ("easy", "normal")]."""
    pairs = []
    for part in text.split(","):
        weaker, dash, stronger = part.strip().partition("-")
        if not dash or weaker not in agents or stronger not in agents or weaker == stronger:
            raise OptionError(f"--pairs {part.strip()!r}: expected WEAKER-STRONGER from {', '.join(agents)}")
        pairs.append((weaker, stronger))
    return pairs


def pair_name(pair: Sequence[str]) -> str:
    return PAIR_SEPARATOR.join(pair)


def is_rung(pair: Sequence[str]) -> bool:
    """Whether ``pair`` is a step of the ladder (a level against the one just below it)."""
    rungs = [BOTTOM, *LEVELS]
    return tuple(pair) in set(itertools.pairwise(rungs))


@dataclass(frozen=True)
class LadderStudy(Study):
    """A study whose games measure each decision's CPU time."""

    def plan(self, variant: Variant) -> SimulationPlan:
        return replace(super().plan(variant), time_decisions=True)


def ladder_study(
    game_id: str, agents: Mapping[str, str], pairs: Sequence[tuple[str, str]], games: int, seed: int, players: int = 2
) -> LadderStudy:
    """One variant per pair, named by its labels; the agents are concrete specs (never level
    names), so a stored game says exactly what played it."""
    variants = tuple(Variant(pair_name(pair), {}, (agents[pair[0]], agents[pair[1]])) for pair in pairs)
    return LadderStudy(game_id=game_id, variants=variants, games=games, seed=seed, players=players, rotate=True)


# --- the folder ------------------------------------------------------------------------------
def _identity(line: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes two stored games the same game (the same line from two copied files)."""
    return (
        line["game"], line["players"], json.dumps(line["options"], sort_keys=True),
        tuple(line["specs"]), line["seed"], line["index"],
    )


class LadderFolder(OutcomeSink):
    """``folder/<game>/``: one JSON-lines file per pair, appended as games finish."""

    def __init__(self, folder: str | os.PathLike[str], study: LadderStudy) -> None:
        self.study = study
        self.folder = Path(folder).expanduser() / study.game_id
        self.folder.mkdir(parents=True, exist_ok=True)
        self.game = load(study.game_id, players=study.players)
        self.labels = {variant.name: tuple(variant.name.split(PAIR_SEPARATOR)) for variant in study.variants}
        self.played = 0

    def path(self, variant: str) -> Path:
        return self.folder / f"{variant}.jsonl"

    def done(self) -> dict[tuple[str, int], GameOutcome]:
        """This study's games in the folder (same specs, rules and seed); others are left be."""
        finished: dict[tuple[str, int], GameOutcome] = {}
        for variant in self.study.variants:
            for line in read_lines([self.path(variant.name)])[0]:
                if (
                    line["specs"] == list(variant.agents)
                    and line["seed"] == self.study.seed
                    and line["players"] == self.game.num_players
                    and _same_rules(self.game, line["options"])
                ):
                    finished[(variant.name, line["index"])] = _outcome(line, variant.name)
        return finished

    def add(self, played: PlayedGame) -> GameOutcome:
        outcome = played.outcome
        variant = next(v for v in self.study.variants if v.name == outcome.variant)
        labels = self.labels[variant.name]
        line = {
            "format": GAME_FORMAT,
            "game": self.study.game_id,
            "players": self.game.num_players,
            "options": _plain(self.game.options),
            "pair": list(labels),
            "specs": list(variant.agents),
            "seed": self.study.seed,
            "index": outcome.index,
            "game_seed": outcome.seed,
            "seats": [labels[agent] for agent in outcome.seat_agents],
            "returns": list(outcome.returns),
            "winners": list(outcome.winners),
            "code": outcome.code,
            "reason": outcome.reason,
            "moves": outcome.moves,
            "decisions": outcome.decisions,
            "seconds": round(outcome.seconds, 4),
            # microseconds are below the clock's noise; more digits only grow the file
            "cpu": [[round(value, 6) for value in seat] for seat in played.decision_cpu],
            "cut": list(played.decisions_cut),
        }
        with self.path(variant.name).open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(line) + "\n")
            stream.flush()
            os.fsync(stream.fileno())
        self.played += 1
        return outcome

    def add_run(self, run: Mapping[str, Any]) -> None:
        with (self.folder / RUNS_FILE).open("a", encoding="utf-8") as stream:
            stream.write(json.dumps({"format": RUN_FORMAT, **run}) + "\n")


def _plain(options: Mapping[str, Any]) -> dict[str, Any]:
    plain: dict[str, Any] = json.loads(json.dumps(dict(options), default=str))
    return plain


def _same_rules(game: Game, stored: Mapping[str, Any]) -> bool:
    """Whether a stored game's options are ``game``'s. An option the game gained after the file
    was written is read as its default (the rules the game was played by then)."""
    defaults = _plain({option.name: option.default for option in game.options_spec})
    return {**defaults, **stored} == _plain(game.options)


def _outcome(line: Mapping[str, Any], variant: str) -> GameOutcome:
    pair = line["pair"]
    return GameOutcome(
        index=line["index"], seed=line["game_seed"], seat_agents=tuple(pair.index(label) for label in line["seats"]),
        winners=tuple(line["winners"]), returns=tuple(line["returns"]), code=line["code"], reason=line["reason"],
        moves=line["moves"], decisions=line["decisions"], seconds=line["seconds"], variant=variant,
    )


def read_lines(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The distinct games and runs stored in ``paths`` (files, or folders searched recursively
    for ``*.jsonl``; a file named twice counts once). A line cut short by a crash is skipped."""
    files: list[Path] = []
    for path in map(Path, paths):
        files.extend(sorted(path.rglob("*.jsonl")) if path.is_dir() else [path])
    games: dict[tuple[Any, ...], dict[str, Any]] = {}
    runs: dict[str, dict[str, Any]] = {}
    for file in files:
        if not file.exists():
            continue
        for text in file.read_text(encoding="utf-8").splitlines():
            try:
                line = json.loads(text)
            except ValueError:
                continue
            if not isinstance(line, dict):
                continue
            if line.get("format") == GAME_FORMAT:
                games.setdefault(_identity(line), line)
            elif line.get("format") == RUN_FORMAT:
                runs.setdefault(json.dumps(line, sort_keys=True), line)
    return list(games.values()), list(runs.values())


# --- playing ---------------------------------------------------------------------------------
def play_ladder(
    study: LadderStudy,
    executor: Executor,
    folder: LadderFolder,
    command: str,
    jobs: int,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> dict[str, Any]:
    """Play the games of ``study`` not yet in ``folder``; returns the run's description (also
    stored in the folder, interrupted or not): command, times, load, machine."""
    started = _now()
    load_start = os.getloadavg()
    interrupted = False
    try:
        run_study(study, executor, folder, on_outcome=on_outcome)
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        run = {
            "game": study.game_id,
            "command": command,
            "seed": study.seed,
            "games_per_pair": study.games,
            "pairs": [variant.name for variant in study.variants],
            "games_played": folder.played,
            "interrupted": interrupted,
            "started": started,
            "finished": _now(),
            "load_start": [round(value, 2) for value in load_start],
            "load_end": [round(value, 2) for value in os.getloadavg()],
            "jobs": jobs,
            "cpus": os.cpu_count(),
            "machine": f"{platform.machine()} {platform.processor() or platform.system()}".strip(),
            "python": platform.python_version(),
        }
        folder.add_run(run)
    return run


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()


# --- the summary -------------------------------------------------------------------------------
def summarize(
    game: Game,
    agents: Mapping[str, str],
    lines: Sequence[Mapping[str, Any]],
    runs: Sequence[Mapping[str, Any]],
    recorded: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The ladder's tables from stored games: per pair the stronger side's results and score
    with a Wilson interval, per agent its CPU per decision, and Elo ratings (random = 0).

    A game counts by the specs that played it, under the label that plays that spec now: when
    a level table moves a spec to another level (greedy from easy to normal), its games move
    with it. Games of a spec no label plays are left out; how many, and why, is in ``skipped``.

    ``recorded`` are earlier summaries as ``ladder.json`` keeps them (:func:`recorded_ladder`):
    a pair's stored W-D-L counts where ``lines`` hold no game of the same two specs, and an
    agent's stored CPU figures where ``lines`` hold none of its decisions. The Elo fit needs
    only each pair's points, so a new rung merged with the game's ``ladder.json`` rates every
    level as if the old games had been played again."""
    current: list[Mapping[str, Any]] = []
    skipped: dict[str, int] = {}
    label_of: dict[str, str] = {}
    for label, spec in agents.items():
        label_of.setdefault(spec, label)
    order = list(agents)
    seen: set[tuple[Any, ...]] = set()
    for line in lines:
        pair = line["pair"]
        if line["game"] != game.id or line["players"] != game.num_players or not _same_rules(game, line["options"]):
            continue
        # the same game stored before and after the game gained an option counts once
        identity = (tuple(line["specs"]), line["seed"], line["index"])
        if identity in seen:
            continue
        seen.add(identity)
        labels = [label_of.get(spec) for spec in line["specs"]]
        if None in labels or labels[0] == labels[1]:
            name = f"{pair_name(pair)} played by {' / '.join(line['specs'])}"
            skipped[name] = skipped.get(name, 0) + 1
            continue
        now = dict(zip(pair, labels))
        current.append({
            **line,
            "pair": sorted(labels, key=order.index),
            "seats": [now[label] for label in line["seats"]],
        })
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    cpu: dict[str, list[float]] = {label: [] for label in agents}
    comparisons = []
    missing = missing_games(current)
    cut = games_cut(current)

    def count(weaker: str, stronger: str, score: float, games: int = 1) -> None:
        entry = pairs.setdefault((weaker, stronger), {"wins": 0, "draws": 0, "losses": 0, "points": 0.0})
        entry["points"] += score * games
        entry["wins" if score == 1.0 else "draws" if score == 0.5 else "losses"] += games
        comparisons.extend([(stronger, weaker, score)] * games)

    for line in current:
        weaker, stronger = line["pair"]
        seat = line["seats"].index(stronger)
        mine, theirs = line["returns"][seat], line["returns"][1 - seat]
        count(weaker, stronger, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
        for label, seconds in zip(line["seats"], line["cpu"]):
            cpu[label].extend(seconds)
    played_specs = {frozenset(line["specs"]) for line in current}
    stored_pairs, stored_cpu = _recorded_results(game, recorded, label_of, skipped)
    taken: list[str] = []
    recorded_games = 0
    for specs, labels_now, (wins, draws, losses) in stored_pairs:
        if frozenset(specs) in played_specs:
            continue  # the games themselves are here, perhaps more of them
        played_specs.add(frozenset(specs))
        weaker, stronger = sorted(labels_now, key=order.index)
        if labels_now[1] != stronger:  # the level table moved the specs past each other
            wins, losses = losses, wins
        for score, number in ((1.0, wins), (0.5, draws), (0.0, losses)):
            if number:
                count(weaker, stronger, score, number)
        recorded_games += wins + draws + losses
        taken.append(pair_name((weaker, stronger)))
    pair_rows = []
    for (weaker, stronger), entry in pairs.items():
        games = entry["wins"] + entry["draws"] + entry["losses"]
        score = entry["points"] / games
        low, high = wilson_interval(entry["points"], games)
        rung = is_rung((weaker, stronger))
        pair_rows.append({
            "weaker": weaker, "stronger": stronger, "games": games,
            "wins": entry["wins"], "draws": entry["draws"], "losses": entry["losses"],
            "score": score, "low": low, "high": high, "rung": rung,
            "passed": (score >= REQUIRED_SCORE and games >= REQUIRED_GAMES) if rung else None,
            "missing": missing.get((weaker, stronger), []),
            "cut": cut.get((weaker, stronger), []),
        })
    pair_rows.sort(key=lambda row: (not row["rung"], order.index(row["stronger"]), order.index(row["weaker"])))
    # a run that found every game already played measured nothing
    runs = [*runs, *(run for data in recorded if data.get("game") == game.id for run in data.get("runs", []))]
    played = list({
        json.dumps(run, sort_keys=True): run for run in runs if run.get("game") == game.id and run.get("games_played")
    }.values())
    figures = {label: cpu_figures(values) for label, values in cpu.items() if values}
    figures.update({label: stored for label, stored in stored_cpu.items() if label not in figures and label in agents})
    ratings = [
        rating.to_json()
        for rating in fit_elo(comparisons, BOTTOM, [label for label in agents if any(label in p for p in pairs)])
    ]
    return {
        "game": game.id,
        "players": game.num_players,
        "options": _plain(game.options),
        "agents": dict(agents),
        "pairs": pair_rows,
        "cpu": {label: figures[label] for label in agents if label in figures},
        "ratings": ratings,
        "games": len(current) + recorded_games,
        "recorded": taken,
        "skipped": skipped,
        "runs": [dict(run) for run in played],
        "measured": max((str(run.get("finished", ""))[:10] for run in played), default=""),
    }


def missing_games(lines: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """Per pair, the games (seed, index) not among ``lines`` below the highest index of their seed.

    A run stopped before its end (a time limit, Ctrl-C) keeps the games that finished first,
    and with several workers those are the shorter ones: its score leans towards whoever wins
    short games until the same command, run again, plays the rest."""
    played: dict[tuple[str, str], dict[int, set[int]]] = {}
    for line in lines:
        weaker, stronger = line["pair"]
        played.setdefault((weaker, stronger), {}).setdefault(line["seed"], set()).add(line["index"])
    return {
        pair: gaps
        for pair, seeds in played.items()
        if (gaps := [(seed, index) for seed, indexes in sorted(seeds.items())
                     for index in range(max(indexes)) if index not in indexes])
    }


def games_cut(lines: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """Per pair, the games (seed, index) in which some decision ran into its time cap (``cut``,
    lines written before it was stored have none)."""
    found: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for line in lines:
        if any(line.get("cut", ())):
            weaker, stronger = line["pair"]
            found.setdefault((weaker, stronger), []).append((line["seed"], line["index"]))
    return {pair: sorted(games) for pair, games in found.items()}


def games_by_seed(games: Sequence[Sequence[int]]) -> str:
    """``[(0, 3), (0, 7), (5, 0)]`` as "seed 0: 3, 7; seed 5: 0" (sorted by seed)."""
    return "; ".join(
        f"seed {seed}: {', '.join(str(index) for _, index in same)}"
        for seed, same in itertools.groupby(games, key=lambda game: game[0])
    )


def cut_note(row: Mapping[str, Any]) -> str:
    """What a pair row's games cut by the clock mean, in words ("" when none was)."""
    if not row.get("cut"):
        return ""
    return (f"{row['weaker']} vs {row['stronger']}: in {len(row['cut'])} games a decision ran into its time cap "
            f"({games_by_seed(row['cut'])}): the machine was too busy for the budget to decide them, so those games measure the "
            "machine; a quieter machine plays them as the budget would (a ladder game replays from its seed)")


def missing_note(row: Mapping[str, Any]) -> str:
    """What a pair row's missing games mean, in words ("" when none is missing)."""
    if not row.get("missing"):
        return ""
    return (f"{row['weaker']} vs {row['stronger']}: {len(row['missing'])} games missing among those played "
            f"({games_by_seed(row['missing'])}); "
            "a stopped run keeps the games that finished first, the shorter ones, so the score may lean: "
            "run the same command again to play them")


def _recorded_results(
    game: Game, recorded: Sequence[Mapping[str, Any]], label_of: Mapping[str, str], skipped: dict[str, int]
) -> tuple[list[tuple[list[str], list[str], tuple[int, int, int]]], dict[str, dict[str, Any]]]:
    """From ladder files of ``game``'s rules: each pair (its specs, their labels now, the
    stronger side's W-D-L) whose specs some label still plays, and each label's stored CPU
    figures (the first file's). Pairs of specs no label plays go to ``skipped``."""
    pairs: list[tuple[list[str], list[str], tuple[int, int, int]]] = []
    cpu: dict[str, dict[str, Any]] = {}
    for data in recorded:
        if data.get("game") != game.id or data.get("players") != game.num_players:
            continue
        if not _same_rules(game, data.get("options", {})):
            continue
        for stored in data.get("pairs", []):
            specs = list(stored["specs"])
            labels = [label_of.get(spec) for spec in specs]
            results = (stored["wins"], stored["draws"], stored["losses"])
            if not sum(results):
                continue
            if None in labels or labels[0] == labels[1]:
                name = f"{stored['weaker']}-vs-{stored['stronger']} played by {' / '.join(specs)} (recorded)"
                skipped[name] = skipped.get(name, 0) + sum(results)
                continue
            pairs.append((specs, [str(label) for label in labels], results))
        for entry in data.get("ratings", {}).values():
            label = label_of.get(entry.get("spec"))
            if label is not None and entry.get("cpu_median") is not None and label not in cpu:
                cpu[label] = {
                    "median": entry["cpu_median"], "max": entry["cpu_max"], "mean": entry.get("cpu_mean"),
                    "decisions": entry.get("cpu_decisions"), "recorded": True,
                }
    return pairs, cpu


def recorded_ladder(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A ``ladder.json`` read for :func:`summarize`'s ``recorded``; an error names what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise OptionError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    except ValueError as exc:
        raise OptionError(f"{path}: not JSON ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != LADDER_FORMAT:
        raise OptionError(f"{path}: not a ladder file (expected format {LADDER_FORMAT!r})")
    if not isinstance(data.get("pairs"), list):
        raise OptionError(f"{path}: keeps no pair results (written before ladder files kept them); "
                          "merge the games' folders instead")
    return data


def cpu_figures(values: Sequence[float]) -> dict[str, Any]:
    """CPU seconds per decision: median, maximum, mean and how many decisions."""
    return {
        "median": statistics.median(values),
        "max": max(values),
        "mean": statistics.fmean(values),
        "decisions": len(values),
    }


def about(elo: float) -> str:
    """A rating as players read it: to the nearest 50 points ("about 1600")."""
    rounded = int(50 * math.floor(elo / 50 + 0.5))
    return f"about {rounded}"


__all__ = [
    "LADDER_FORMAT",
    "REQUIRED_GAMES",
    "REQUIRED_SCORE",
    "LadderFolder",
    "LadderStudy",
    "about",
    "cpu_figures",
    "default_pairs",
    "is_rung",
    "ladder_agents",
    "ladder_study",
    "pair_name",
    "parse_pairs",
    "play_ladder",
    "read_lines",
    "recorded_ladder",
    "summarize",
]
