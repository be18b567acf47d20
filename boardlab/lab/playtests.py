"""Playtests: games people played, side by side with the lab's self-play of the same rules.

A playtest is a set of games between people (on the server, or in the terminal with their
records kept) and, after each game, a short form per person (:mod:`.playtest_form`): fun from
1 to 5, whether it felt fair or who was favoured, its length (too short, about right, too
long) and a free note. :func:`playtest_report` turns them into the figures a designer reads:

* the lab's own metrics (:mod:`.metrics`) on outcomes made from the records
  (:func:`~.play.record_outcome`): a figure of people's games and the lab's figure of the same
  rules are one computation on two sources;
* the form's answers, as shares and means with 95% intervals, and every note with its game;
* per rule variant (the options, named as the lab's ``--vary`` names them) and per playtest
  session; beside each variant, the lab's figures from its stored studies of the same rules
  (:func:`find_lab_studies`), or the command that makes one, and sentences in the verdict's
  style (:mod:`.verdict`) where people and computers differ.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import RecordError
from ..core.game import Game
from ..core.records import Record
from ..core.registry import load
from .intervals import mean_interval, ratio_of_means
from .metrics import Estimate, difference, metric_definitions, variant_metrics
from .play import record_outcome
from .playtest_form import LENGTH_WORDS, LENGTHS, FormAnswer, answers_figures
from .stats import GameOutcome
from .store import stored_games
from .study import option_text
from .verdict import excludes_zero, figure_text, more_games, percent_text

PLAYTEST_FORMAT = "boardlab-playtests/1"
#: a record's ``meta`` key naming its playtest session (the server's export writes it)
RECORD_SESSION = "playtest_session"
#: the lab's setting the command for a missing comparison suggests (docs/lab.md, "Presets")
LAB_PRESET = "strong"
LAB_GAMES = 200


# --- people's games ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class PeopleGame:
    """A finished game between people, with what the form says of it. ``room``: its room on the
    server; ``source``: its record file; ``player_names``: the remembered players in its seats
    (for the designer's eyes: :mod:`boardlab.server.players`)."""

    record: Record
    answers: tuple[FormAnswer, ...] = ()
    session: str | None = None
    room: str | None = None
    source: str | None = None
    player_names: Mapping[int, str] = field(default_factory=dict)

    @property
    def replay(self) -> str:
        """Where the game is looked at again: its room's page, or the command that replays its file."""
        if self.room is not None:
            return f"/rooms/{self.room}"
        return f"boardlab replay {self.source}" if self.source else ""

    @property
    def between_people(self) -> bool:
        return bool(self.record.seats) and all(seat.is_human for seat in self.record.seats)


def variant_key(players: int, options: Mapping[str, Any]) -> str:
    """What tells one variant's games from another's: the player count and every option's value."""
    return json.dumps({"players": players, "options": dict(options)}, sort_keys=True, default=str)


def changed_options(game: Game) -> dict[str, Any]:
    """The options of ``game`` that differ from the rules as written (for its player count)."""
    defaults = load(game.id, players=game.num_players).options
    return {name: value for name, value in game.options.items() if defaults.get(name) != value}


def variant_label(game: Game) -> str:
    """``layout=pinwheel,ply_cap=100`` as ``--vary`` names a variant; "" for the rules as written."""
    return ",".join(f"{name}={option_text(value)}" for name, value in changed_options(game).items())


# --- the lab's stored studies -------------------------------------------------------------------------
@dataclass(frozen=True)
class LabVariant:
    """One variant of a stored lab study: where the study is, its agents, and its games."""

    folder: Path
    study_id: str
    variant: str
    agents: tuple[str, ...]
    outcomes: tuple[GameOutcome, ...]


def find_lab_studies(roots: Iterable[Path]) -> list[Path]:
    """The study folders (``study.json`` and ``games.jsonl``) under ``roots``: a root that is one,
    its sub-folders that are (``boardlab lab --out`` folders), and the server Lab's ``ID/study``."""
    found: list[Path] = []
    for root in roots:
        root = Path(root)
        candidates = [root, *sorted(root.glob("*")), *sorted(root.glob("*/study"))] if root.is_dir() else []
        for folder in candidates:
            if (folder / "study.json").is_file() and (folder / "games.jsonl").is_file() and folder not in found:
                found.append(folder)
    return found


def lab_variant_for(folders: Iterable[Path], game: Game) -> LabVariant | None:
    """The stored study variant with exactly ``game``'s rules (its id, players and options) that
    has the most games; None where no study played them."""
    wanted = variant_key(game.num_players, game.options)
    best: LabVariant | None = None
    for folder in folders:
        try:
            stored = json.loads((folder / "study.json").read_text(encoding="utf-8"))
            settings, study_id = stored["settings"], stored["study_id"]
            variants = [v for v in settings["variants"] if settings["game"] == game.id
                        and variant_key(int(settings["players"]), v["options"]) == wanted]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        for variant in variants:
            outcomes = _stored_outcomes(folder / "games.jsonl", study_id, variant["name"])
            if outcomes and (best is None or len(outcomes) > len(best.outcomes)):
                best = LabVariant(folder, study_id, variant["name"], tuple(variant["agents"]), tuple(outcomes))
    return best


def _stored_outcomes(path: Path, study_id: str, variant: str) -> list[GameOutcome]:
    """The games a study folder's ``games.jsonl`` holds of one variant (lines it cannot read are
    another study's or half-written: left out, as the lab's own folder leaves them)."""
    outcomes: dict[int, GameOutcome] = {}
    for outcome in stored_games(path, study_id):
        if outcome.variant == variant:
            outcomes.setdefault(outcome.index, outcome)
    return [outcomes[index] for index in sorted(outcomes)]


def lab_command(game: Game) -> str:
    """The ``boardlab lab`` command that plays the lab's games of ``game``'s rules."""
    parts = ["boardlab", "lab", game.id, "--preset", LAB_PRESET, "-n", str(LAB_GAMES)]
    if game.num_players != load(game.id).num_players:
        parts += ["--seats", str(game.num_players)]
    changed = changed_options(game)
    for name, value in changed.items():
        parts += ["-O", f"{name}={option_text(value)}"]
    slug = re.sub(r"[^A-Za-z0-9_.=+-]+", "_", variant_label(game)).strip("_")
    parts += ["--out", f"lab-{game.id}{'-' + slug if slug else ''}"]
    return " ".join(parts)


# --- the report -------------------------------------------------------------------------------------------
def _figures(
    label: str, games: Sequence[PeopleGame], outcomes: Sequence[GameOutcome], seat_names: Sequence[str],
    limit_codes: Sequence[str],
) -> dict[str, Any]:
    metrics = metric_definitions(seat_names, limit_codes=limit_codes)
    figures = variant_metrics(label, outcomes, metrics, len(seat_names)).to_json()
    minutes, (low, high) = mean_interval([outcome.seconds / 60 for outcome in outcomes])
    figures["minutes"] = Estimate(minutes, max(0.0, low) if math.isfinite(low) else low, high, len(outcomes)).to_json()
    answers = [answer for game in games for answer in game.answers]
    figures["form"] = answers_figures(answers, len(seat_names))
    figures["notes"] = [
        {
            "note": answer.note, "seat": answer.seat, "seat_name": seat_names[answer.seat],
            "player": game.player_names.get(answer.seat), "room": game.room, "source": game.source,
            "replay": game.replay, "session": game.session,
        }
        for game in games
        for answer in game.answers
        if answer.note
    ]
    figures["games_list"] = [
        {
            "room": game.room, "source": game.source, "replay": game.replay, "session": game.session,
            "winners": list(outcome.winners), "code": outcome.code, "decisions": outcome.decisions,
            "minutes": round(outcome.seconds / 60, 1), "answers": [answer.to_json() for answer in game.answers],
            "players": {str(seat): name for seat, name in game.player_names.items()},
        }
        for game, outcome in zip(games, outcomes)
    ]
    return figures


def study_in_its_folder(game: Game, study: LabVariant) -> str:
    """Which lab study the figures come from, as the terminal says it: its games, agents and
    folder (``8 games of greedy in lab-towers``)."""
    return f"{len(study.outcomes)} games of {', '.join(dict.fromkeys(study.agents))} in {study.folder}"


def playtest_report(
    game_id: str,
    games: Sequence[PeopleGame],
    lab_folders: Sequence[Path] = (),
    left_out: Mapping[str, int] | None = None,
    outcomes: MutableMapping[str, GameOutcome] | None = None,
    describe_study: Callable[[Game, LabVariant], str] = study_in_its_folder,
) -> dict[str, Any]:
    """The designer's view of people's games of ``game_id`` (JSON-ready): per variant (the
    rules: player count and options) its figures, the lab's figures for the same rules from the
    study folders in ``lab_folders`` (the variant with the most games) or the command that makes
    them, their differences and the sentences that say them; per session the same figures of its
    games alone. ``left_out``: games the caller did not count, by reason (said in the report). A
    game whose record does not replay is left out and counted under ``unreadable``. ``outcomes``
    keeps each game's outcome by its room (or file) between calls: a finished game's never changes.
    ``describe_study`` says which lab study the figures come from (``study["about"]``, in the
    verdict): the terminal names its folder, a web page must not."""
    skipped = dict(left_out or {})
    by_variant: dict[str, list[tuple[PeopleGame, GameOutcome]]] = {}
    games_of: dict[str, Game] = {}
    for index, people in enumerate(games):
        record = people.record
        if record.game_id != game_id:
            continue
        if not people.between_people:
            skipped["with the computer"] = skipped.get("with the computer", 0) + 1
            continue
        known = people.room or people.source
        try:
            game = record.game()
            outcome = outcomes.get(known) if outcomes is not None and known else None
            if outcome is None:
                outcome = record_outcome(record, index, variant_label(game))
                if outcomes is not None and known:
                    outcomes[known] = outcome
        except RecordError:
            skipped["unreadable"] = skipped.get("unreadable", 0) + 1
            continue
        key = variant_key(game.num_players, game.options)
        games_of.setdefault(key, game)
        by_variant.setdefault(key, []).append((people, outcome))
    variants = []
    # the variant with the most games first; among as many, the rules as written, then by name
    for key, pairs in sorted(by_variant.items(), key=lambda item: (-len(item[1]), variant_label(games_of[item[0]]))):
        game = games_of[key]
        variants.append(_variant_entry(game, pairs, lab_folders, describe_study))
    base = load(game_id)
    return {
        "format": PLAYTEST_FORMAT,
        "game": game_id,
        "name": base.name,
        "games": sum(variant["people"]["games"] for variant in variants),
        "left_out": skipped,
        "variants": variants,
    }


def _variant_entry(
    game: Game, pairs: Sequence[tuple[PeopleGame, GameOutcome]], lab_folders: Sequence[Path],
    describe_study: Callable[[Game, LabVariant], str],
) -> dict[str, Any]:
    seat_names = [game.player_name(seat) for seat in range(game.num_players)]
    label = variant_label(game)
    people_games = [people for people, _ in pairs]
    outcomes = [outcome for _, outcome in pairs]
    entry: dict[str, Any] = {
        "variant": label,
        "options": dict(game.options),
        "players": game.num_players,
        "seat_names": seat_names,
        "people": _figures(label, people_games, outcomes, seat_names, game.limit_codes),
        "lab": None,
        "lab_command": lab_command(game),
        "comparison": None,
    }
    sessions: dict[str, list[tuple[PeopleGame, GameOutcome]]] = {}
    for people, outcome in pairs:
        if people.session is not None:
            sessions.setdefault(people.session, []).append((people, outcome))
    entry["sessions"] = [
        {"session": name,
         "people": _figures(label, [p for p, _ in found], [o for _, o in found], seat_names, game.limit_codes)}
        for name, found in sorted(sessions.items())
    ]
    lab = lab_variant_for(find_lab_studies(lab_folders), game)
    if lab is not None:
        metrics = metric_definitions(seat_names, limit_codes=game.limit_codes)
        lab_figures = variant_metrics(lab.variant, lab.outcomes, metrics, len(seat_names)).to_json()
        lab_figures["study"] = {"folder": str(lab.folder), "id": lab.study_id, "variant": lab.variant, "agents": list(lab.agents),
                                "about": describe_study(game, lab)}
        entry["lab"] = lab_figures
        differences = {metric.key: difference(metric, lab.outcomes, outcomes).to_json() for metric in metrics}
        ratio, (low, high) = ratio_of_means(
            [float(outcome.decisions) for outcome in lab.outcomes], [float(outcome.decisions) for outcome in outcomes]
        )
        differences["length_ratio"] = Estimate(ratio, low, high, min(len(lab.outcomes), len(outcomes))).to_json()
        entry["comparison"] = differences
    entry["rows"] = comparison_rows(entry)
    entry["endings"] = endings_line(entry)
    entry["verdict"] = people_verdict(entry)
    with_texts(entry)
    return entry


def with_texts(entry: Mapping[str, Any]) -> None:
    """Give every figure a variant's tables show its ``text`` (:func:`.verdict.figure_text`), so
    that a page shows each as the verdict's sentences and the terminal's tables say it."""

    def give(figure: MutableMapping[str, Any] | None, percent: bool, signed: bool = False) -> None:
        if figure is not None:
            figure["text"] = figure_text(figure, percent, signed)

    for row in entry["rows"]:
        give(row["people"], row["percent"])
        give(row["lab"], row["percent"])
        give(row["difference"], row["percent"], signed=True)
    for people in [entry["people"], *(session["people"] for session in entry["sessions"])]:
        give(people["metrics"]["first_player_wins"], True)
        give(people["metrics"]["decisions"], False)
        form = people["form"]
        give(form["fun"], False)
        give(form["fair"], True)
        for favoured in form["favoured"]:
            give(favoured, True)
        for share in form["length"].values():
            give(share, True)


#: the figures a designer's table shows, in this order (besides each seat's wins)
SHOWN_METRICS = ("first_player_wins", "draws", "balance", "decisions", "limit", "lead_changes", "decided_at")


def endings_line(entry: Mapping[str, Any]) -> str:
    """How the games ended, by the ending's code in words, among people and in the lab:
    ``Endings among people: resign 3, castles 2; in the lab: castles 40, move limit 4.``"""

    def listed(endings: Mapping[str, int]) -> str:
        return ", ".join(f"{code.replace('_', ' ')} {count}" for code, count in endings.items()) or "none"

    text = f"Endings among people: {listed(entry['people']['endings'])}"
    if entry["lab"] is not None:
        text += f"; in the lab: {listed(entry['lab']['endings'])}"
    return text + "."


def comparison_rows(entry: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The table of a variant: per figure its title, whether it is a share, people's estimate,
    the lab's and their difference (people minus the lab) where the lab has one, and whether
    that difference is sure (its interval excludes 0); then the game's length in minutes, people's only."""
    definitions = {metric.key: metric for metric in metric_definitions(entry["seat_names"])}
    keys = [SHOWN_METRICS[0], *(f"win_{seat}" for seat in range(len(entry["seat_names"]))), *SHOWN_METRICS[1:]]
    lab, comparison = entry["lab"], entry["comparison"]
    rows = []
    for key in keys:
        metric = definitions[key]
        difference_figure = comparison[key] if comparison is not None else None
        rows.append({
            "key": key,
            "title": metric.title,
            "percent": metric.shown_as_percent,
            "people": entry["people"]["metrics"][key],
            "lab": lab["metrics"][key] if lab is not None else None,
            "difference": difference_figure,
            "sure": bool(difference_figure and excludes_zero(difference_figure)),
        })
    rows.append({
        "key": "minutes", "title": "length in minutes", "percent": False, "people": entry["people"]["minutes"],
        "lab": None, "difference": None, "sure": False,
    })
    return rows


# --- the verdict --------------------------------------------------------------------------------------------
def _points(figure: Mapping[str, Any]) -> tuple[str, str]:
    """(size, interval) of a difference of shares in points, the interval as sizes of the same sign."""
    value, low, high = (100 * figure[part] for part in ("value", "low", "high"))
    if value < 0:
        value, low, high = -value, -high, -low
    return f"{value:.0f}", f"[{low:.0f}, {high:.0f}]"


def people_verdict(entry: Mapping[str, Any]) -> list[str]:
    """Sentences on one variant's people's games, in the lab verdict's style: where people and
    the lab's computers differ (only what an interval shows), what the form says, and how many
    more games would settle the headline questions."""
    people, lab, comparison = entry["people"], entry["lab"], entry["comparison"]
    seats = len(entry["seat_names"])
    games = people["games"]
    lines: list[str] = []
    first = people["metrics"]["first_player_wins"]
    length = people["metrics"]["decisions"]
    if lab is None or comparison is None:
        if first["value"] is not None:
            lines.append(f"Among people the first player wins {percent_text(first)} of decided games (even: {1 / seats:.0%}).")
        if length["value"] is not None:
            plural = "s" if games != 1 else ""
            lines.append(f"People's games last {length['value']:.0f} decisions on average over {games} game{plural}.")
        lines.append(f"The lab has no study of these rules to compare with: {entry['lab_command']}")
    else:
        lines += _comparison_sentences(entry)
    lines += _form_sentences(entry)
    firmer = _firmer_sentence(entry)
    if firmer:
        lines.append(firmer)
    return lines


def _comparison_sentences(entry: Mapping[str, Any]) -> list[str]:
    people, lab, comparison = entry["people"], entry["lab"], entry["comparison"]
    lines = []
    ratio = comparison["length_ratio"]
    if ratio["value"] is not None and ratio["low"] is not None and (ratio["low"] > 1 or ratio["high"] < 1):
        longer = ratio["value"] > 1
        size = (ratio["value"] - 1) if longer else (1 - ratio["value"])
        low, high = sorted(abs(100 * (bound - 1)) for bound in (ratio["low"], ratio["high"]))
        lines.append(
            f"People's games {'last' if longer else 'are'} {100 * size:.0f}% {'longer' if longer else 'shorter'} than the lab's "
            f"[{low:.0f}, {high:.0f}] ({people['metrics']['decisions']['value']:.0f} decisions against "
            f"{lab['metrics']['decisions']['value']:.0f})."
        )
    first = comparison["first_player_wins"]
    if first["value"] is not None and excludes_zero(first):
        size, bounds = _points(first)
        lines.append(
            f"The first player wins {size} points {'more' if first['value'] > 0 else 'less'} often among people {bounds} "
            f"({percent_text(people['metrics']['first_player_wins'])} against "
            f"{percent_text(lab['metrics']['first_player_wins'])} "
            "in the lab)."
        )
    elif people["metrics"]["first_player_wins"]["value"] is not None:
        lines.append(
            "No clear difference from the lab in who wins: the first player wins "
            f"{percent_text(people['metrics']['first_player_wins'])} among people, "
            f"{percent_text(lab['metrics']['first_player_wins'])} in the lab."
        )
    draws = comparison["draws"]
    if draws["value"] is not None and excludes_zero(draws):
        size, bounds = _points(draws)
        lines.append(f"People draw {size} points {'more' if draws['value'] > 0 else 'less'} often {bounds}.")
    for seat, name in enumerate(entry["seat_names"]):
        figure = comparison.get(f"win_{seat}")
        if figure and figure["value"] is not None and excludes_zero(figure) and len(entry["seat_names"]) > 2:
            size, bounds = _points(figure)
            lines.append(f"{name} wins {size} points {'more' if figure['value'] > 0 else 'less'} often among people {bounds}.")
    lines.append(f"The lab's figures: {lab['study']['about']}.")
    return lines


def _form_sentences(entry: Mapping[str, Any]) -> list[str]:
    form = entry["people"]["form"]
    if not form["answers"]:
        return ["Nobody has answered the playtest form yet."]
    parts = []
    fun = form["fun"]
    if fun["value"] is not None:
        bounds = f" [{fun['low']:.1f}, {fun['high']:.1f}]" if fun["low"] is not None else ""
        parts.append(f"fun {fun['value']:.1f} of 5{bounds} ({fun['games']} answer{'s' if fun['games'] != 1 else ''})")
    fair = form["fair"]
    if fair["games"]:
        favoured = [
            (name, figure) for name, figure in zip(entry["seat_names"], form["favoured"]) if figure["value"]
        ]
        said = f"{percent_text(fair)} found it fair"
        if favoured:
            said += " (" + ", ".join(f"{name} favoured: {percent_text(figure)}" for name, figure in favoured) + ")"
        parts.append(said)
    lengths = form["length"]
    answered = lengths["right"]["games"]
    if answered:
        shares = [f"{percent_text(lengths[name])} {LENGTH_WORDS[name]}" for name in LENGTHS if lengths[name]["value"]]
        parts.append(", ".join(shares))
    return [f"The form: {'; '.join(parts)}."] if parts else []


def _firmer_sentence(entry: Mapping[str, Any]) -> str | None:
    comparison = entry["comparison"]
    if comparison is None:
        return None
    wanted = []
    for key, what in (("first_player_wins", "who wins"), ("decisions", "length")):
        figure = comparison.get(key)
        if figure is None or figure["value"] is None or excludes_zero(figure):
            continue
        decided = entry["people"]["metrics"]["completion"]["value"] if key == "first_player_wins" else 1.0
        more = more_games(figure, counted=decided or 0.0)
        if more is not None:
            wanted.append(f"about {more} more people's games would settle whether they differ from the lab's in {what}")
    return f"To be surer: {'; '.join(wanted)}." if wanted else None


def report_rows(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per person per game (the CSV export): the game, its rules and session, the result,
    and what the form said."""
    rows = []
    for variant in report["variants"]:
        names = variant["seat_names"]
        for game in variant["people"]["games_list"]:
            answers = {answer["seat"]: answer for answer in game["answers"]}
            for seat, seat_name in enumerate(names):
                answer = answers.get(seat, {})
                favoured = answer.get("favoured")
                rows.append({
                    "game": report["game"],
                    "variant": variant["variant"],
                    "session": game["session"] or "",
                    "room": game["room"] or "",
                    "record": game["source"] or "",
                    "seat": seat,
                    "seat_name": seat_name,
                    "player": game["players"].get(str(seat), ""),
                    "won": int(len(game["winners"]) == 1 and game["winners"][0] == seat),
                    "winners": " ".join(names[winner] for winner in game["winners"]),
                    "ending": game["code"],
                    "moves": game["decisions"],
                    "minutes": game["minutes"],
                    "fun": "" if answer.get("fun") is None else answer["fun"],
                    "fairness": answer.get("fairness") or "",
                    "favoured": "" if favoured is None else names[favoured],
                    "length": answer.get("length") or "",
                    "note": answer.get("note") or "",
                })
    return rows


__all__ = [
    "PLAYTEST_FORMAT",
    "RECORD_SESSION",
    "LabVariant",
    "PeopleGame",
    "comparison_rows",
    "find_lab_studies",
    "lab_command",
    "lab_variant_for",
    "people_verdict",
    "playtest_report",
    "report_rows",
    "variant_key",
    "variant_label",
]
