"""The level ladder's results where people read them: docs/levels.md and each game's ladder.json.

``docs/levels.md`` holds one section per game between ``<!-- ladder:GAME -->`` and
``<!-- /ladder:GAME -->``, so a game's ladder is rewritten without touching the others (the
text outside the markers is the project's to edit). ``boardlab/games/<id>/ladder.json``
carries the ratings and CPU figures into the program (``boardlab agents GAME``, the lobby's
level chooser); a game without the file shows no ratings, and a rating measured for a spec
that the level no longer plays is not shown as that level's.
"""

from __future__ import annotations

import datetime
import inspect
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..agents.levels import LEVEL_HELP, game_levels, level_spec
from ..core.game import Game
from ..core.registry import game_class
from .ladder import LADDER_FORMAT, REQUIRED_GAMES, REQUIRED_SCORE, about, missing_note

LADDER_FILE = "ladder.json"


def ladder_path(game_id: str) -> Path:
    """``ladder.json`` in the folder of the game's code (a game's folder holds its agent settings)."""
    return Path(inspect.getfile(game_class(game_id))).parent / LADDER_FILE


def ladder_data(summary: Mapping[str, Any]) -> dict[str, Any]:
    """What ``ladder.json`` holds: per agent (a level or an anchor) its spec, Elo with interval
    and games, and CPU per decision; per pair its specs and W-D-L (what a later rung's
    ``--merge`` needs to rate every level without the old games); when and how it was measured."""
    agents = {}
    for rating in summary["ratings"]:
        label = rating["agent"]
        entry: dict[str, Any] = {
            "spec": summary["agents"].get(label, label),
            "elo": None if rating["elo"] is None else round(rating["elo"], 1),
            "low": None if rating["low"] is None else round(rating["low"], 1),
            "high": None if rating["high"] is None else round(rating["high"], 1),
            "games": rating["games"],
        }
        cpu = summary["cpu"].get(label)
        if cpu is not None:
            entry.update(cpu_median=round(cpu["median"], 7), cpu_max=round(cpu["max"], 7), cpu_decisions=cpu["decisions"])
            if cpu.get("mean") is not None:
                entry["cpu_mean"] = round(cpu["mean"], 7)
        agents[label] = entry
    pairs = [
        {
            "weaker": row["weaker"], "stronger": row["stronger"],
            "specs": [summary["agents"][row["weaker"]], summary["agents"][row["stronger"]]],
            "wins": row["wins"], "draws": row["draws"], "losses": row["losses"],
        }
        for row in summary["pairs"]
    ]
    return {
        "format": LADDER_FORMAT,
        "game": summary["game"],
        "players": summary["players"],
        "options": summary["options"],
        "measured": summary["measured"] or datetime.date.today().isoformat(),
        "anchor": "random = 0",
        "ratings": agents,
        "pairs": pairs,
        "runs": summary["runs"],
    }


def write_ladder_file(summary: Mapping[str, Any], path: str | os.PathLike[str] | None = None) -> Path:
    target = Path(path) if path is not None else ladder_path(summary["game"])
    target.write_text(json.dumps(ladder_data(summary), indent=1) + "\n", encoding="utf-8")
    return target


def load_ladder(game_id: str, path: str | os.PathLike[str] | None = None) -> dict[str, Any] | None:
    """A game's ladder.json, or None where there is none (or it cannot be read)."""
    try:
        target = Path(path) if path is not None else ladder_path(game_id)
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != LADDER_FORMAT or not isinstance(data.get("ratings"), dict):
        return None
    return data


def level_ratings(game: Game, path: str | os.PathLike[str] | None = None) -> dict[str, dict[str, Any]]:
    """level -> its ladder.json entry (elo, low, high, games, cpu_median, cpu_max) for each
    level whose measured spec is the one it plays now; empty without a ladder.json."""
    data = load_ladder(game.id, path)
    if data is None:
        return {}
    found = {}
    for level in game_levels(game):
        entry = data["ratings"].get(level)
        if isinstance(entry, dict) and entry.get("spec") == level_spec(game, level) and entry.get("elo") is not None:
            found[level] = entry
    return found


def rating_text(entry: Mapping[str, Any] | None) -> str | None:
    """``about 1600`` for a level's entry, None without one."""
    if not entry or entry.get("elo") is None:
        return None
    return about(float(entry["elo"]))


# --- docs/levels.md ------------------------------------------------------------------------
_LEVEL_LINES = "\n".join(f"* **{level}**: {text}" for level, text in LEVEL_HELP.items())

INTRO = f"""# The computer's levels, measured

Every game has four levels, and a fifth, **expert**, where a search stronger than `hard` was
measured within the time a move may take; weakest first. A level is a name for an agent spec,
chosen per game (`Game.level_specs`, else the core's table in `boardlab/agents/levels.py`;
expert has no fallback):

{_LEVEL_LINES}

Every budget is a number of iterations or nodes, so a level plays the same moves on a busy
machine as on an idle one; time only caps a decision on a machine far slower than expected.

**The rule:** in every game each level scores at least {REQUIRED_SCORE:.0%} of the points
against the level below, over at least {REQUIRED_GAMES} games with seats rotated (a draw is half
a point). The score itself is held to the rule; its interval says how sure it is.

## How it is measured

`python bench/levels.py GAME --games N --jobs J` plays the ladder: random against beginner,
beginner against easy, easy against normal, normal against hard, hard against expert where
the game has it, and, where no level is plain
`greedy`, greedy against random and against easy (greedy is an anchor people know). Each pair
plays N two-player games, seats rotated (half each way), game *i* seeded from `--seed` and *i*,
so the games do not depend on the number of workers. Each game is stored as it finishes
(`--out DIR`, one JSON line per game and pair), so a run resumes, and the files of several runs
or machines merge (`--merge DIR...`): a game counts once, and only games played by the specs
the levels have now. A game's `ladder.json` keeps each pair's W-D-L, so a new rung merged with it
(`--merge boardlab/games/GAME/ladder.json DIR`) rates every level without the old games: a pair
counts from the file only where the folders hold no game of the same two specs.

* **Score**: the stronger side's points over the games; the 95% interval is Wilson's, on the points.
* **CPU per decision**: `time.process_time()` around each `choose` (the agent's own work, in
  its worker process): median and maximum over every decision the agent made in the ladder
  (`ladder.json` keeps their mean too: the server's Lab prices a study by it).
  CPU time, not wall time, so the figure holds on an idle core even when measured in a busy pool.
* **Elo**: the Bradley-Terry model fitted by maximum likelihood to every game of the ladder
  (P(a beats b) = 1 / (1 + 10^((b - a)/400)), a draw half a win each), with random fixed at 0.
  Each pair that met adds one virtual drawn game, so a level that wins every game still gets a
  finite rating: 100 wins of 100 read as about 920 points above, the most 100 games can show.
  The virtual draw pulls every result half a game towards even: 2 points for 76 of 100, about
  50 for 99 of 100. The interval is ±1.96 standard
  errors from the fit's information matrix, measured from random. `boardlab tournament` reports
  the same Elo beside its openskill ratings.

The ratings ship in `boardlab/games/<id>/ladder.json`: `boardlab agents GAME` and the lobby's
level chooser ("hard, about 1600", to the nearest 50) read them, for each level whose spec is
still the one measured.
"""


def _seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.2f} s"
    return f"{value * 1000:.1f} ms" if value >= 0.0001 else f"{value * 1e6:.0f} µs"


def _elo(value: float | None) -> str:
    return "-" if value is None else f"{value:+.0f}" if value else "0"


def section(summary: Mapping[str, Any]) -> str:
    """One game's section of docs/levels.md, markers included."""
    game = summary["game"]
    agents = summary["agents"]
    ratings = {rating["agent"]: rating for rating in summary["ratings"]}
    lines = [f"<!-- ladder:{game} -->", f"## {game}", ""]
    lines += [
        f"{summary['games']} games, {summary['players']} players, measured {summary['measured'] or 'not yet'}.",
        "",
        "| agent | spec | Elo (random = 0) | 95% interval | CPU per decision: median | max | decisions |",
        "| --- | --- | ---: | --- | ---: | ---: | ---: |",
    ]
    for label, spec in agents.items():
        rating = ratings.get(label)
        cpu = summary["cpu"].get(label)
        interval = "-" if rating is None or rating["low"] is None else f"{rating['low']:.0f} to {rating['high']:.0f}"
        if label == "random":
            interval = "(the anchor)"
        lines.append(
            f"| {label} | `{spec}` | {_elo(None if rating is None else rating['elo'])} | {interval} | "
            + (f"{_seconds(cpu['median'])} | {_seconds(cpu['max'])} | {cpu['decisions'] or '-'} |" if cpu else "- | - | - |")
        )
    lines += [
        "",
        "| pair (weaker vs stronger) | games | stronger's W-D-L | stronger's score | 95% interval "
        f"| ≥ {REQUIRED_SCORE:.0%} over ≥ {REQUIRED_GAMES} games |",
        "| --- | ---: | --- | ---: | --- | --- |",
    ]
    for row in summary["pairs"]:
        verdict = "(anchor)" if row["passed"] is None else "yes" if row["passed"] else (
            "no" if row["games"] >= REQUIRED_GAMES else f"too few games ({row['games']})"
        )
        lines.append(
            f"| {row['weaker']} vs {row['stronger']} | {row['games']} | {row['wins']}-{row['draws']}-{row['losses']} | "
            f"{row['score']:.1%} | {row['low']:.1%} to {row['high']:.1%} | {verdict} |"
        )
    notes = list(filter(None, map(missing_note, summary["pairs"])))
    if notes:
        lines += ["", *(f"{note[0].upper()}{note[1:]}." for note in notes)]
    if summary.get("recorded"):
        lines += ["", "Taken from an earlier ladder.json (each pair's W-D-L and each agent's CPU figures, "
                  "not its games): " + ", ".join(summary["recorded"]) + "."]
    if summary["skipped"]:
        lines += ["", "Left out (played by specs the levels no longer use): "
                  + "; ".join(f"{name}: {count}" for name, count in sorted(summary["skipped"].items())) + "."]
    if summary["runs"]:
        lines += ["", "Runs:", ""]
        for run in summary["runs"]:
            lines.append(
                f"* `{run['command']}`: {run['games_played']} games, {run['started']} to {run['finished']}, "
                f"{run['jobs']} workers on {run['cpus']} CPUs ({run['machine']}, Python {run['python']}), "
                f"load average {run['load_start'][0]} at the start, {run['load_end'][0]} at the end"
                + (" (interrupted)" if run.get("interrupted") else "")
            )
    lines += [f"<!-- /ladder:{game} -->"]
    return "\n".join(lines) + "\n"


def write_docs(path: str | os.PathLike[str], summary: Mapping[str, Any]) -> Path:
    """Put the game's section into ``path`` (created with the introduction if missing),
    replacing that game's earlier section and nothing else."""
    target = Path(path)
    text = target.read_text(encoding="utf-8") if target.exists() else INTRO
    game = summary["game"]
    begin, end = f"<!-- ladder:{game} -->", f"<!-- /ladder:{game} -->"
    new = section(summary)
    if begin in text and end in text:
        head, _, rest = text.partition(begin)
        _, _, tail = rest.partition(end)
        text = head + new.rstrip("\n") + tail
    else:
        text = text.rstrip("\n") + "\n\n" + new
    target.write_text(text, encoding="utf-8")
    return target


__all__ = [
    "INTRO", "LADDER_FILE", "ladder_data", "ladder_path", "level_ratings", "load_ladder", "rating_text", "section",
    "write_docs", "write_ladder_file",
]
