"""A study's report: one self-contained HTML file, and the same data as JSON and CSV.

:func:`build_report` computes every metric of every variant and the difference
of each variant from the first (the baseline). :func:`write_report` writes

* ``report.json``: the settings, metric definitions, per-variant metrics,
  histograms, branching curves, differences (and ratings, for a tournament);
* ``summary.csv`` (variant, metric, value, interval), ``differences.csv`` and
  ``games.csv`` (one row per game, with its record file);
* ``report.html``: tables and plots embedded as inline SVG (matplotlib, from
  the ``lab`` extra), no network needed to view it. Without matplotlib the
  report has its tables and says the plots need the extra.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import BoardlabError
from ..core.registry import game_class
from .highlights import study_highlights
from .metrics import (
    LIMIT_CODES,
    difference,
    histogram,
    histogram_edges,
    metric_definitions,
    variant_metrics,
)
from .stats import GameOutcome
from .verdict import verdict_html

REPORT_FORMAT = "boardlab-lab-report/1"


def limit_codes_of(settings: Mapping[str, Any]) -> tuple[str, ...]:
    """The endings by a limit of the study's game (``Game.limit_codes``); the common ones for
    a game not installed here."""
    try:
        return game_class(str(settings["game"])).limit_codes
    except (KeyError, BoardlabError):
        return LIMIT_CODES


def build_report(
    settings: Mapping[str, Any],
    outcomes: Mapping[str, Sequence[GameOutcome]],
    seat_names: Sequence[str],
    agents: Sequence[str],
    ratings: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Every figure of a study as JSON-ready data. ``outcomes`` maps variant names (in
    the study's order; the first is the baseline) to their games."""
    metrics = metric_definitions(seat_names, agents, limit_codes_of(settings))
    names = list(outcomes)
    per_variant = [variant_metrics(name, outcomes[name], metrics, len(seat_names)) for name in names]
    every_length = [float(o.decisions) for games in outcomes.values() for o in games]
    edges = histogram_edges(every_length)
    variants = []
    for name, figures in zip(names, per_variant):
        data = figures.to_json()
        data["length_histogram"] = {"edges": edges, "counts": histogram([o.decisions for o in outcomes[name]], edges)}
        variants.append(data)
    comparisons = []
    for name in names[1:]:
        baseline = names[0]
        differences = {m.key: difference(m, outcomes[baseline], outcomes[name]).to_json() for m in metrics}
        comparisons.append({"baseline": baseline, "variant": name, "differences": differences})
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "study": dict(settings),
        "seat_names": list(seat_names),
        "agents": list(agents),
        "metrics": [
            {"key": m.key, "title": m.title, "kind": m.kind, "percent": m.shown_as_percent, "reading": m.reading}
            for m in metrics
        ],
        "variants": variants,
        "comparisons": comparisons,
    }
    # the agents' specs (not their display labels) tell self-play from a match of different agents
    first: Mapping[str, Any] = next(iter(settings.get("variants") or []), {})
    specs = first.get("agents") or list(agents)
    report["highlights"] = study_highlights(outcomes, specs)
    if ratings is not None:
        report["ratings"] = list(ratings)
    return report


def write_report(
    folder: str | os.PathLike[str], report: Mapping[str, Any], outcomes: Mapping[str, Sequence[GameOutcome]]
) -> Path:
    """Write report.json, the CSV files and report.html into ``folder``; returns the HTML path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(report, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    _write_csv(folder / "summary.csv", ["variant", "metric", "value", "low", "high", "games"], _summary_rows(report))
    _write_csv(folder / "differences.csv", ["baseline", "variant", "metric", "difference", "low", "high", "games"],
               _difference_rows(report))
    _write_csv(folder / "games.csv", GAME_COLUMNS, [_game_row(o) for games in outcomes.values() for o in games])
    target = folder / "report.html"
    target.write_text(render_html(report), encoding="utf-8")
    return target


GAME_COLUMNS = [
    "variant", "index", "seed", "seat_agents", "winners", "code", "moves", "decisions", "first_mover",
    "mean_branching", "repeated", "lead_changes", "decided_at", "decisiveness_threshold", "seconds", "record",
]


def _game_row(outcome: GameOutcome) -> list[Any]:
    branching = sum(outcome.branching) / len(outcome.branching) if outcome.branching else ""
    return [
        outcome.variant, outcome.index, outcome.seed, " ".join(map(str, outcome.seat_agents)),
        " ".join(map(str, outcome.winners)), outcome.code, outcome.moves, outcome.decisions,
        "" if outcome.first_mover is None else outcome.first_mover, branching, outcome.repeated,
        _blank(outcome.lead_changes), _blank(outcome.decided_at), _blank(outcome.decisiveness_threshold),
        round(outcome.seconds, 4), _relative_record(outcome.record_path),
    ]


def _relative_record(path: str | None) -> str:
    """The record's path inside the study folder (records/NAME), as the folder may move."""
    if not path:
        return ""
    record = Path(path)
    return f"{record.parent.name}/{record.name}"


def _blank(value: Any) -> Any:
    return "" if value is None else value


def _summary_rows(report: Mapping[str, Any]) -> list[list[Any]]:
    return [
        [variant["variant"], key, *(_blank(figure[part]) for part in ("value", "low", "high", "games"))]
        for variant in report["variants"]
        for key, figure in variant["metrics"].items()
    ]


def _difference_rows(report: Mapping[str, Any]) -> list[list[Any]]:
    return [
        [comparison["baseline"], comparison["variant"], key,
         *(_blank(figure[part]) for part in ("value", "low", "high", "games"))]
        for comparison in report["comparisons"]
        for key, figure in comparison["differences"].items()
    ]


def _write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


# --- HTML ------------------------------------------------------------------------------
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.sure { font-weight: bold; }
.reading { color: #666; font-size: 0.9em; }
ul.verdict { font-size: 1.1em; line-height: 1.5; }
.warning { background: #fff3cd; border-left: 4px solid #d39e00; padding: 0.5em 0.8em; }
figure { display: inline-block; margin: 0.5em; }
"""


#: boardlab's icon, inline: the report is also opened from its folder, where no server serves it
_FAVICON = (
    '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,'
    "%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%23243042'/%3E"
    "%3Cellipse cx='16' cy='22' rx='10' ry='4' fill='%233fa35b'/%3E"
    "%3Crect x='6' y='13' width='20' height='9' fill='%23e8e3d3'/%3E"
    "%3Cellipse cx='16' cy='13' rx='10' ry='4' fill='%23fbfaf4'/%3E%3C/svg%3E\">"
)


def render_html(
    report: Mapping[str, Any], replay_url: Callable[[str], str] | None = None, study_id: str | None = None
) -> str:
    """The report as one HTML page with inline SVG plots (no external files or scripts).
    ``replay_url(record)`` gives the address of a game's replay in the browser (the server's
    Lab page passes one); without it the games link their record files. ``study_id``: the
    study's id where the reader knows it by another than its folder's (the server's Lab)."""
    study = report["study"]
    title = f"boardlab lab: {study.get('game', '?')}"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>{_FAVICON}<style>{_STYLE}</style></head><body>',
        f"<h1>{_e(title)}</h1>",
        verdict_html(report),
        f"<p>{_e(_settings_line(report, study_id))}</p>",
        "<h2>Metrics per variant</h2>",
        "<p class=reading>Each figure with its 95% interval; docs/lab.md defines every metric.</p>",
        _metrics_table(report),
    ]
    parts += ["<h2>Game length</h2>", _lengths_table(report)]
    if report["comparisons"]:
        parts += [
            "<h2>Differences from the first variant</h2>",
            "<p class=reading>Variant minus baseline, with a 95% interval; <b>bold</b>: the interval "
            "excludes 0, so the difference is unlikely to be chance.</p>",
            _differences_table(report),
        ]
    if report.get("ratings"):
        parts += ["<h2>Ratings</h2>", _ratings_table(report["ratings"])]
    parts += ["<h2>Plots</h2>", *_plots(report), "<h2>Endings</h2>", _endings_table(report)]
    parts += [*highlights_html(report, replay_url), "</body></html>"]
    return "\n".join(parts) + "\n"


def _e(text: Any) -> str:
    return html.escape(str(text))


def _settings_line(report: Mapping[str, Any], study_id: str | None = None) -> str:
    study = report["study"]
    agents = ", ".join(report["agents"])
    seating = "rotating seats" if study.get("rotate") else "fixed seats"
    games = sum(variant["games"] for variant in report["variants"])
    return (
        f"{study.get('players')} players ({', '.join(report['seat_names'])}); agents {agents}; {seating}; "
        f"base seed {study.get('seed')}; {games} games in {len(report['variants'])} variant(s); "
        f"study id {study_id or study.get('study_id', '-')}."
    )


def shown_metrics(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The metrics to show: the verdict hides rows that repeat another or say nothing."""
    hidden = set((report.get("verdict") or {}).get("hidden_metrics", ()))
    return [metric for metric in report["metrics"] if metric["key"] not in hidden]


def format_value(value: float | None, percent: bool) -> str:
    """A figure as text: shares as percentages, other means with 3 significant digits."""
    if value is None:
        return "-"
    return f"{value:.1%}" if percent else f"{value:.3g}"


def format_figure(figure: Mapping[str, Any], percent: bool) -> str:
    """``value [low, high]`` of a figure from the report's JSON."""
    text = format_value(figure["value"], percent)
    if figure["low"] is not None and figure["high"] is not None:
        text += f" [{format_value(figure['low'], percent)}, {format_value(figure['high'], percent)}]"
    return text


def variant_label(name: str) -> str:
    return name or "these games"


def _metrics_table(report: Mapping[str, Any]) -> str:
    variants = report["variants"]
    rows = ["<table><tr><th>metric</th>" + "".join(f"<th>{_e(variant_label(v['variant']))}</th>" for v in variants)
            + "<th>how to read it</th></tr>"]
    for metric in shown_metrics(report):
        cells = "".join(f"<td>{_e(format_figure(v['metrics'][metric['key']], metric['percent']))}</td>" for v in variants)
        rows.append(f"<tr><td>{_e(metric['title'])}</td>{cells}<td class=reading>{_e(metric['reading'])}</td></tr>")
    tests = (
        ("first player advantage: p (exact binomial)", "first_player_p"),
        ("seat balance: p (chi-square)", "seat_balance_p"),
    )
    for title, key in tests:
        cells = "".join(f"<td>{'-' if v[key] is None else f'{v[key]:.3g}'}</td>" for v in variants)
        rows.append(f"<tr><td>{_e(title)}</td>{cells}<td class=reading>small p: the seats are not even</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _differences_table(report: Mapping[str, Any]) -> str:
    comparisons = report["comparisons"]
    head = "".join(f"<th>{_e(c['variant'])} - {_e(variant_label(c['baseline']))}</th>" for c in comparisons)
    rows = [f"<table><tr><th>metric</th>{head}</tr>"]
    for metric in shown_metrics(report):
        cells = []
        for comparison in comparisons:
            figure = comparison["differences"][metric["key"]]
            sure = figure["low"] is not None and (figure["low"] > 0 or figure["high"] < 0)
            cells.append(f"<td{' class=sure' if sure else ''}>{_e(format_figure(figure, metric['percent']))}</td>")
        rows.append(f"<tr><td>{_e(metric['title'])}</td>{''.join(cells)}</tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _lengths_table(report: Mapping[str, Any]) -> str:
    rows = ["<table><tr><th>variant</th><th>counting</th><th>mean</th><th>std dev</th><th>median</th>"
            "<th>min</th><th>max</th></tr>"]
    hidden = set((report.get("verdict") or {}).get("hidden_metrics", ()))
    for variant in report["variants"]:
        for counting, stats in variant["lengths"].items():
            if counting in hidden:
                continue
            keys = ("mean", "stdev", "median", "minimum", "maximum")
            cells = "".join(f"<td>{format_value(stats[key], False)}</td>" for key in keys)
            rows.append(f"<tr><td>{_e(variant_label(variant['variant']))}</td><td>{_e(counting)}</td>{cells}</tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _ratings_table(ratings: Sequence[Mapping[str, Any]]) -> str:
    rows = ["<table><tr><th>agent</th><th>rating</th><th>95% interval</th><th>games</th><th>score rate</th></tr>"]
    for entry in ratings:
        rows.append(
            f"<tr><td>{_e(entry['agent'])}</td><td>{entry['mu']:.1f}</td>"
            f"<td>{entry['low']:.1f} - {entry['high']:.1f}</td><td>{entry['games']}</td>"
            f"<td>{entry['score_rate']:.1%}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _endings_table(report: Mapping[str, Any]) -> str:
    codes = sorted({code for variant in report["variants"] for code in variant["endings"]})
    variants = report["variants"]
    rows = ["<table><tr><th>ending</th>" + "".join(f"<th>{_e(variant_label(v['variant']))}</th>" for v in variants) + "</tr>"]
    for code in codes:
        rows.append(f"<tr><td>{_e(code)}</td>" + "".join(f"<td>{v['endings'].get(code, 0)}</td>" for v in variants) + "</tr>")
    rows.append("</table>")
    return "\n".join(rows)


def highlights_html(report: Mapping[str, Any], replay_url: Callable[[str], str] | None = None) -> list[str]:
    """The games to look at (linked to their replays) and the opening tables, per variant."""
    highlights = report.get("highlights") or []
    if not highlights:
        return []
    if replay_url is None:
        how = ("Each game's record is in the study folder: open it with <code>boardlab replay records/NAME.json</code> "
               "from there (a study started on <code>boardlab serve</code>'s Lab page opens its games in the browser).")
    else:
        how = "Each game opens in the browser's replay; the record file is beside it for <code>boardlab replay</code>."
    parts = ["<h2>Games to look at</h2>", f"<p class=reading>{how}</p>"]
    for entry in highlights:
        if len(highlights) > 1:
            parts.append(f"<h3>{_e(variant_label(entry['variant']))}</h3>")
        rows = ["<table><tr><th>why</th><th>game</th><th>decisions</th><th>ending</th><th>winner</th><th>replay</th></tr>"]
        for game in entry["games"]:
            sole = len(game["winners"]) == 1
            winner = report["seat_names"][game["winners"][0]] if sole else "none (draw)"
            rows.append(
                f"<tr><td>{_e(game['why'])}</td><td>{game['index']}</td><td>{game['decisions']}</td>"
                f"<td>{_e(game['code'])}</td><td>{_e(winner)}</td><td>{_replay_cell(game['record'], replay_url)}</td></tr>"
            )
        rows.append("</table>")
        parts.append("\n".join(rows))
    parts += ["<h2>Openings</h2>", "<p class=reading>The first decision of each game: how often it was played, and how its "
              "player fared (sole wins, draws, and the mean score: a win 1, a shared draw its share).</p>"]
    for entry in highlights:
        openings = entry["openings"]
        if len(highlights) > 1:
            parts.append(f"<h3>{_e(variant_label(entry['variant']))}</h3>")
        if not openings["rows"]:
            parts.append("<p>No records to read the openings from.</p>")
            continue
        rows = ["<table><tr><th>first move</th><th>games</th><th>its player wins</th><th>draws</th><th>score</th></tr>"]
        for row in openings["rows"]:
            rows.append(f"<tr><td>{_e(row['move'])}</td><td>{row['games']}</td><td>{row['win_rate']:.0%}</td>"
                        f"<td>{row['draws']}</td><td>{row['score']:.0%}</td></tr>")
        rows.append("</table>")
        if openings["others"]:
            rows.append(f"<p class=reading>{openings['others']} other openings, played less often "
                        f"({openings['distinct']} in all over {openings['games']} games).</p>")
        parts.append("\n".join(rows))
    return parts


def _replay_cell(record: str | None, replay_url: Callable[[str], str] | None) -> str:
    if not record:
        return "-"
    if replay_url is None:
        return f'<a href="{_e(record)}">{_e(record)}</a>'
    return f'<a href="{_e(replay_url(record))}">replay</a> (<a href="{_e(record)}">record</a>)'


# --- plots -------------------------------------------------------------------------------
def _plots(report: Mapping[str, Any]) -> list[str]:
    try:
        from matplotlib.figure import Figure  # the lab extra; only the plots need it
    except ImportError:
        return ["<p>Plots need matplotlib: pip install 'boardlab[lab]'.</p>"]
    import matplotlib

    figures = [_win_rate_plot(Figure, report), _length_plot(Figure, report), _branching_plot(Figure, report)]
    svgs = []
    # a fixed hash salt makes the SVG's ids, and so the report, the same on every run
    with matplotlib.rc_context({"svg.hashsalt": "boardlab", "svg.fonttype": "none"}):
        for caption, figure in figures:
            buffer = io.StringIO()
            figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
            svg = buffer.getvalue()
            svg = svg[svg.index("<svg"):]
            svgs.append(f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>")
    return svgs


def _win_rate_plot(Figure: Any, report: Mapping[str, Any]) -> tuple[str, Any]:
    figure = Figure(figsize=(6, 3.4))
    axes = figure.add_subplot()
    variants = report["variants"]
    labels = [*report["seat_names"], "first player", "draws"]
    keys = [f"win_{seat}" for seat in range(len(report["seat_names"]))] + ["first_player_wins", "draws"]
    width = 0.8 / max(1, len(variants))
    for number, variant in enumerate(variants):
        values: list[float] = []
        errors: list[list[float]] = [[], []]
        for key in keys:
            figure_data = variant["metrics"][key]
            value = figure_data["value"] if figure_data["value"] is not None else math.nan
            values.append(value)
            # matplotlib refuses a negative error length: an interval is drawn as far as it
            # reaches beyond its value, never inwards
            errors[0].append(max(0.0, value - figure_data["low"]) if figure_data["low"] is not None else 0)
            errors[1].append(max(0.0, figure_data["high"] - value) if figure_data["high"] is not None else 0)
        positions = [index + (number - (len(variants) - 1) / 2) * width for index in range(len(keys))]
        axes.bar(positions, values, width, yerr=errors, capsize=3, label=variant_label(variant["variant"]))
        # a seat's fair share is an even split of the decided games, not of all games: with
        # many draws a line at 1/k would make every seat look weak
        seats = len(report["seat_names"])
        decided = variant["metrics"]["completion"]["value"]
        evens = [decided / seats if decided is not None else math.nan] * seats + [1 / seats]
        for position, even in zip(positions, evens):
            axes.hlines(even, position - width / 2, position + width / 2, color="black", linewidth=1, linestyle="--")
    axes.set_xticks(range(len(keys)), labels)
    axes.set_ylabel("share of games")
    axes.set_ylim(0, 1)
    if len(variants) > 1:
        axes.legend(fontsize="small")
    return ("Win rates with 95% intervals (dashed: an even share of the decided games; the first player's "
            "bar is its share of decided games)"), figure


def _length_plot(Figure: Any, report: Mapping[str, Any]) -> tuple[str, Any]:
    figure = Figure(figsize=(6, 3.4))
    axes = figure.add_subplot()
    for variant in report["variants"]:
        edges = variant["length_histogram"]["edges"]
        counts = variant["length_histogram"]["counts"]
        axes.stairs(counts, edges, label=variant_label(variant["variant"]))
    axes.set_xlabel("decisions per game")
    axes.set_ylabel("games")
    if len(report["variants"]) > 1:
        axes.legend(fontsize="small")
    return "Game length (players' decisions)", figure


def _branching_plot(Figure: Any, report: Mapping[str, Any]) -> tuple[str, Any]:
    figure = Figure(figsize=(6, 3.4))
    axes = figure.add_subplot()
    for variant in report["variants"]:
        curve = variant["branching_curve"]
        parts = len(curve)
        points = [((part + 0.5) / parts, value) for part, value in enumerate(curve) if value is not None]
        axes.plot([x for x, _ in points], [y for _, y in points], marker="o", label=variant_label(variant["variant"]))
    axes.set_xlabel("fraction of the game")
    axes.set_ylabel("legal moves per decision")
    axes.set_xlim(0, 1)
    if len(report["variants"]) > 1:
        axes.legend(fontsize="small")
    return "Branching factor over the course of a game", figure
