"""The games worth looking at, and the openings: what a designer opens to see *why* games
end as they do.

:func:`games_to_look_at` picks, per variant, the shortest win, the longest game, one
typical game per ending (the one nearest that ending's median length), the game where
the lead changed most (games with an evaluation), and, where different agents played,
the weaker agent's shortest win (an upset). Each entry names its record inside the study
folder, so the report can link it and ``boardlab replay`` can step through it.

:func:`opening_table` reads each game's record for its first decision (chance moves
skipped) and counts, per opening move, how often it was played and how its player
fared: sole wins, draws, and the mean return (a win 1, a shared draw 1/k).
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .stats import GameOutcome

#: openings shown per variant (the most played)
OPENINGS_SHOWN = 12


def record_name(outcome: GameOutcome) -> str | None:
    """The record's path inside its study folder (``records/NAME.json``), or None."""
    if not outcome.record_path:
        return None
    path = Path(outcome.record_path)
    return f"{path.parent.name}/{path.name}"


def _entry(why: str, outcome: GameOutcome) -> dict[str, Any]:
    return {
        "why": why,
        "variant": outcome.variant,
        "index": outcome.index,
        "seed": outcome.seed,
        "decisions": outcome.decisions,
        "code": outcome.code,
        "winners": list(outcome.winners),
        "lead_changes": outcome.lead_changes,
        "record": record_name(outcome),
    }


def games_to_look_at(outcomes: Sequence[GameOutcome], agents: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The games of one variant worth opening (module docstring), each once, in a fixed order;
    ties go to the lowest game index, so the choice is reproducible."""
    games = sorted(outcomes, key=lambda outcome: outcome.index)
    if not games:
        return []
    picked: list[dict[str, Any]] = []
    chosen: set[int] = set()

    def pick(why: str, outcome: GameOutcome | None) -> None:
        if outcome is not None and outcome.index not in chosen:
            chosen.add(outcome.index)
            picked.append(_entry(why, outcome))
        elif outcome is not None:  # the same game for two reasons: say both
            for entry in picked:
                if entry["index"] == outcome.index:
                    entry["why"] += f"; {why}"

    wins = [outcome for outcome in games if not outcome.is_draw]
    pick("the shortest win", min(wins, key=lambda o: o.decisions, default=None))
    pick("the longest game", max(games, key=lambda o: (o.decisions, -o.index)))
    by_code: dict[str, list[GameOutcome]] = defaultdict(list)
    for outcome in games:
        by_code[outcome.code].append(outcome)
    for code, ending in sorted(by_code.items(), key=lambda item: (-len(item[1]), item[0])):
        middle = statistics.median(outcome.decisions for outcome in ending)
        typical = min(ending, key=lambda o: (abs(o.decisions - middle), o.index))
        pick(f"a typical game ending '{code}' ({len(ending)} of {len(games)} games, median {middle:g} decisions)", typical)
    swings = [outcome for outcome in games if outcome.lead_changes]
    top = max(swings, key=lambda o: (o.lead_changes, -o.index), default=None)
    if top is not None:
        pick(f"the most lead changes ({top.lead_changes})", top)
    upset = _upset(games, agents)
    if upset is not None:
        pick(f"an upset: {agents[upset[1]]} (the weaker agent here) wins", upset[0])
    return picked


def _upset(games: Sequence[GameOutcome], agents: Sequence[str]) -> tuple[GameOutcome, int] | None:
    """The shortest sole win of the agent with the lowest score rate, where agents differ."""
    if len(set(agents)) < 2:
        return None
    totals: dict[int, float] = defaultdict(float)
    counts: dict[int, int] = defaultdict(int)
    for outcome in games:
        for seat, agent in enumerate(outcome.seat_agents):
            totals[agent] += outcome.returns[seat]
            counts[agent] += 1
    weakest = min(counts, key=lambda agent: (totals[agent] / counts[agent], agent))
    won = [o for o in games if not o.is_draw and o.seat_agents[o.winners[0]] == weakest]
    shortest = min(won, key=lambda o: (o.decisions, o.index), default=None)
    return None if shortest is None else (shortest, weakest)


def first_decision(record_path: str | Path) -> tuple[str, int] | None:
    """(move text, seat) of a record's first decision; None when it has none or cannot be read."""
    try:
        data = json.loads(Path(record_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for entry in data.get("moves", ()) if isinstance(data, dict) else ():
        if isinstance(entry, dict) and isinstance(entry.get("by"), int):
            return str(entry.get("move", "")), entry["by"]
    return None


def opening_table(outcomes: Sequence[GameOutcome], shown: int = OPENINGS_SHOWN) -> dict[str, Any]:
    """The first decisions of one variant's games: per move, games, its player's sole wins,
    draws and mean return; the ``shown`` most played, then how many other openings there were."""
    rows: dict[str, dict[str, Any]] = {}
    read = 0
    for outcome in sorted(outcomes, key=lambda o: o.index):
        if not outcome.record_path:
            continue
        first = first_decision(outcome.record_path)
        if first is None:
            continue
        read += 1
        move, seat = first
        row = rows.setdefault(move, {"move": move, "games": 0, "wins": 0, "draws": 0, "score": 0.0})
        row["games"] += 1
        row["wins"] += int(not outcome.is_draw and outcome.winners[0] == seat)
        row["draws"] += int(outcome.is_draw)
        row["score"] += outcome.returns[seat]
    ordered = sorted(rows.values(), key=lambda row: (-row["games"], row["move"]))
    for row in ordered:
        row["score"] = row["score"] / row["games"]
        row["win_rate"] = row["wins"] / row["games"]
    return {"games": read, "distinct": len(ordered), "rows": ordered[:shown], "others": max(0, len(ordered) - shown)}


def study_highlights(outcomes: Mapping[str, Sequence[GameOutcome]], agents: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Per variant (in the study's order): its games to look at and its opening table."""
    return [
        {"variant": name, "games": games_to_look_at(games, agents), "openings": opening_table(games)}
        for name, games in outcomes.items()
    ]


__all__ = ["first_decision", "games_to_look_at", "opening_table", "record_name", "study_highlights"]
