"""A balance search's report: ``balance.json`` (data) and ``balance.md`` (for a designer, and
for ``docs/studies/<game>.md``).

The Markdown says how it was made (the command line, the load average, the time), the
rules as they are (the baseline's figures with intervals), the path the search took
(every trial with its score), the confirmation study's figures and the recommendation,
and the confirmation study's verdict. Everything comes from the figures in the data;
nothing is re-measured here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .balance import BALANCE_FORMAT, BalanceSearch, Target, Trial, variant_name
from .verdict import bound_text, percent_text, verdict_lines

_FIGURE_TITLES = {
    "first_player_wins": "first player wins (of decided games)",
    "draws": "draws",
    "length": "length (decisions)",
    "balance": "balance (1 - seat score spread)",
}


def shown(figure: Mapping[str, Any] | None, share: bool, interval: bool = True) -> str:
    """``55% [52, 58]`` for a share, ``195 [184, 207]`` for a length of 100 decisions or more
    (``41.2 [39.8, 42.6]`` below), the interval rounded outward as the verdict's; ``-`` when
    undefined."""
    if not figure or figure.get("value") is None:
        return "-"
    if share:
        if not interval or figure.get("low") is None:
            return percent_text({**figure, "low": None, "high": None})
        return percent_text(figure)
    decimals = 0 if abs(figure["value"]) >= 100 else 1
    text = f"{figure['value']:.{decimals}f}"
    if interval and figure.get("low") is not None:
        text += f" [{bound_text(figure['low'], decimals, upper=False)}, {bound_text(figure['high'], decimals, upper=True)}]"
    return text


def balance_data(
    search: BalanceSearch,
    trials: Sequence[Trial],
    recommendation: Mapping[str, Any] | None,
    confirm_report: Mapping[str, Any] | None,
    made: Mapping[str, Any],
) -> dict[str, Any]:
    """Everything the search found, JSON-ready (``format``: boardlab-balance/1). ``made``: how
    it was made (command line, load averages, seconds, the confirmation report's folder)."""
    return {
        "format": BALANCE_FORMAT,
        "game": search.game_id,
        "players": search.players,
        "agents": list(search.agents),
        "options": dict(search.options),
        "searched": [
            {"name": d.name, "values": list(d.values), "range": [d.low, d.high, d.step] if d.is_range else None}
            for d in search.dimensions
        ],
        "targets": [{"figure": t.figure, "value": t.value} for t in search.targets],
        "method": "every combination" if search.exhaustive else "Optuna TPE",
        "trials_asked": search.trials,
        "games_per_trial": search.games,
        "batch": search.batch,
        "seed": search.seed,
        "trials": [trial.to_json() for trial in trials],
        "recommendation": dict(recommendation) if recommendation else None,
        "confirmation": _confirmation_summary(confirm_report) if confirm_report else None,
        "made": dict(made),
    }


def _confirmation_summary(report: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "study_id": report["study"].get("study_id"),
        "games_per_variant": report["study"].get("games_per_variant"),
        "verdict": verdict_lines(report),
        "comparisons": [
            {"variant": c["variant"], "baseline": c["baseline"],
             "differences": {key: c["differences"][key] for key in ("first_player_wins", "draws", "decisions", "balance")}}
            for c in report["comparisons"]
        ],
    }


def write_balance(folder: Path, data: Mapping[str, Any]) -> tuple[Path, Path]:
    """``balance.json`` and ``balance.md`` in ``folder``; returns both paths."""
    folder.mkdir(parents=True, exist_ok=True)
    json_path = folder / "balance.json"
    json_path.write_text(json.dumps(data, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    markdown_path = folder / "balance.md"
    markdown_path.write_text(balance_markdown(data), encoding="utf-8")
    return json_path, markdown_path


def _targets_text(targets: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(Target(t["figure"], t["value"]).describe() for t in targets)


#: said beside every recommendation, in the report and in the terminal
A_LEAD_NOT_A_RULING = (
    "A recommendation from a search is a lead, not a ruling: the search compared many candidates, so the best "
    "one's score is flattered by chance; the confirmation games, played apart from the search's, are the figures "
    "to quote."
)


def games_made(made: Mapping[str, Any]) -> str:
    """How many games this run played, and how many an earlier run of the command had stored."""
    played, stored = made.get("games_played", "?"), made.get("games_stored", "?")
    if played == stored:
        return f"playing its {played} games"
    return f"playing {played} games of the {stored} stored (the others were stored by an earlier run of the same command)"


def balance_markdown(data: Mapping[str, Any]) -> str:
    """The report a designer reads (module docstring)."""
    made = data["made"]
    lines = [f"# Balance study: {made.get('game_name', data['game'])}", ""]
    lines += [
        "Written by this command (run it again to reproduce every figure; with a larger `-n` or "
        "`--confirm-games` it reuses the games already played and adds more):",
        "",
        "```bash",
        made["command"],
        "```",
        "",
        f"Made {made.get('date', '?')} in {made.get('seconds', 0):.0f} s of wall time, {games_made(made)}; load average "
        f"{made.get('load_before', '?')} before and {made.get('load_after', '?')} after (1, 5, 15 minutes) on "
        f"{made.get('cpus', '?')} CPU(s), shared with other work: the times say little, the figures do not depend on them.",
        "",
        f"Players: {data['players']}, seats rotated between games. {made.get('agents_note', '')} Options fixed for "
        f"every candidate: {', '.join(f'{k}={v}' for k, v in data['options'].items()) or 'none (the defaults)'}.",
        "",
    ]
    confirmation = data.get("confirmation")
    recommendation = data.get("recommendation")
    if recommendation:
        lines += _rules_as_they_are(recommendation)
    lines += ["## What was searched", ""]
    for dimension in data["searched"]:
        if dimension["range"]:
            low, high, step = dimension["range"]
            lines.append(f"* `{dimension['name']}`: {low} to {high} in steps of {step}")
        else:
            lines.append(f"* `{dimension['name']}`: {', '.join(map(_value, dimension['values']))}")
    lines += [
        "",
        f"Targets: {_targets_text(data['targets'])}. A candidate's score is its distance from them: "
        "the sum of |value - target|, a share in its own units (5 points off = 0.05), the length "
        "relative to its target (10% off = 0.10); 0 is on target.",
        "",
        f"Method: {data['method']}; {data['games_per_trial']} games per candidate in batches of "
        f"{data['batch']}, every candidate on the same seeds (seed {data['seed']}); a candidate is dropped "
        "early once its anytime-valid interval shows it cannot beat the best so far.",
        "",
        "## The path the search took",
        "",
        "| trial | setting | games | first player | draws | length | score | note |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for trial in data["trials"]:
        figures = trial["figures"]
        note = "; ".join(part for part in (f"dropped {trial['pruned']}" if trial["pruned"] else "", trial["note"]) if part)
        score = "-" if trial["score"] is None else f"{trial['score']:.3f}"
        lines.append(
            f"| {trial['number']} | `{variant_name(trial['options'])}` | {trial['games']} | "
            f"{shown(figures['first_player_wins'], True)} | {shown(figures['draws'], True)} | "
            f"{shown(figures['length'], False)} | {score} | {note} |"
        )
    lines.append("")
    if recommendation and confirmation:
        lines += _confirmed(data, recommendation, confirmation)
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _rules_as_they_are(recommendation: Mapping[str, Any]) -> list[str]:
    baseline = next(c for c in recommendation["candidates"] if c["variant"] == recommendation["baseline"])
    figures = baseline["figures"]
    games = figures["draws"]["games"]
    return [
        "## The rules as they are",
        "",
        f"With the game's own setting (`{baseline['variant']}`), over {games} games: the first player wins "
        f"{shown(figures['first_player_wins'], True)} of the decided games, {shown(figures['draws'], True)} "
        f"of games are drawn, games last {shown(figures['length'], False)} decisions, and the balance is "
        f"{shown(figures['balance'], True)} (95% intervals).",
        "",
    ]


def _confirmed(data: Mapping[str, Any], recommendation: Mapping[str, Any], confirmation: Mapping[str, Any]) -> list[str]:
    games = confirmation.get("games_per_variant")
    lines = [
        f"## Confirmed: the best candidates and the game's own setting, {games} games each",
        "",
        "| setting | first player | draws | length | balance | score |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for entry in recommendation["candidates"]:
        figures = entry["figures"]
        mark = " (the rules as they are)" if entry["variant"] == recommendation["baseline"] else ""
        score = "-" if entry["score"] is None else f"{entry['score']:.3f}"
        lines.append(
            f"| `{entry['variant']}`{mark} | {shown(figures['first_player_wins'], True)} | {shown(figures['draws'], True)} | "
            f"{shown(figures['length'], False)} | {shown(figures['balance'], True)} | {score} |"
        )
    best = next(c for c in recommendation["candidates"] if c["variant"] == recommendation["best"])
    lines += ["", "## Recommendation", ""]
    lines += [line + "\n" for line in recommendation_words(recommendation)]
    if recommendation["best"] != recommendation["baseline"]:
        lines.append(f"`{best['variant']}` came closest to the targets ({_targets_text(data['targets'])}): "
                     f"score {_score(best['score'])} against {_score(_baseline_score(recommendation))} "
                     "for the rules as they are.")
        comparison = next((c for c in confirmation["comparisons"] if c["variant"] == recommendation["best"]), None)
        if comparison:
            lines.append("")
            lines.append("Its differences from the rules as they are (95% intervals; *sure* where the interval excludes 0): "
                         + "; ".join(_difference(key, figure) for key, figure in comparison["differences"].items()) + ".")
    if recommends_a_change(recommendation):
        lines += ["", A_LEAD_NOT_A_RULING]
    lines.append("")
    if confirmation.get("verdict"):
        lines += ["## The confirmation study's verdict", ""]
        lines += [f"* {line}" for line in confirmation["verdict"]]
        lines.append("")
    if recommendation.get("report"):
        lines += [f"The command also writes the confirmation study's full report, with every metric, the games to "
                  f"look at (linked to their records) and the openings: `{Path(recommendation['report']).as_posix()}`.", ""]
    return lines


_FIGURE_WORDS = {"first_player_wins": "who wins", "draws": "draws", "length": "length", "balance": "balance"}


def _target_value(figure: str, value: float) -> str:
    return f"{value:g} decisions" if figure == "length" else f"{100 * value:.0f}%"


def recommends_a_change(recommendation: Mapping[str, Any]) -> bool:
    """Whether the search recommends another setting than the rules as they are: one closer to
    a target beyond chance (a file written before that was measured: the closest one)."""
    closer = recommendation.get("clearly_closer")
    return recommendation["best"] != recommendation["baseline"] and (closer is None or bool(closer))


def recommendation_words(recommendation: Mapping[str, Any]) -> list[str]:
    """The recommendation in sentences: a setting only where it is closer to a target than the
    rules as they are beyond chance, else keep the rules; then the targets no setting reaches."""
    best, baseline = recommendation["best"], recommendation["baseline"]
    closer = recommendation.get("clearly_closer")
    if best == baseline:
        lines = [f"Recommendation: keep the rules as they are ({baseline}); no searched setting came closer to the "
                 "targets in the confirmation games."]
    elif closer is not None and not closer:
        lines = [f"Recommendation: keep the rules as they are ({baseline}). The closest setting, {best}, scored a "
                 "little nearer the targets, but none of its targeted figures differs from the rules' beyond chance "
                 "in the confirmation games: the best of several candidates looks better by chance alone."]
    else:
        reasons = f" in {', '.join(_FIGURE_WORDS[name] for name in closer)} beyond chance" if closer else ""
        lines = [f"Recommendation: {best}, closer to the targets than the rules as they are{reasons} "
                 "in the confirmation games."]
    for missed in recommendation.get("out_of_reach") or ():
        low, high = (_target_value(missed["figure"], missed[end]) for end in ("lowest", "highest"))
        span = low if low == high else f"{low} to {high}"
        lines.append(f"No setting searched reaches the {_FIGURE_WORDS[missed['figure']]} asked for "
                     f"({_target_value(missed['figure'], missed['target'])}): {span} in every confirmed setting, beyond "
                     "chance; it needs another option or a change of rule.")
    return lines


def _baseline_score(recommendation: Mapping[str, Any]) -> float | None:
    found: float | None = next(c["score"] for c in recommendation["candidates"] if c["variant"] == recommendation["baseline"])
    return found


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _difference(key: str, figure: Mapping[str, Any]) -> str:
    title = {"first_player_wins": "first player", "draws": "draws", "decisions": "length", "balance": "balance"}[key]
    if figure.get("value") is None:
        return f"{title} -"
    share = key != "decisions"
    scale, unit = (100, " points") if share else (1, " decisions")
    value, low, high = (scale * figure[part] if figure[part] is not None else math.nan for part in ("value", "low", "high"))
    sure = " (sure)" if (low > 0 or high < 0) else ""
    return f"{title} {value:+.1f}{unit} [{low:+.1f}, {high:+.1f}]{sure}"
