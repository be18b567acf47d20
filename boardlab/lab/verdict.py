"""A study's verdict in words: what differs between variants, how strong the agents were,
and what would make a conclusion firmer.

Tables of intervals answer every question at once and none in particular; a
designer first wants a few sentences. :func:`build_verdict` writes them from the
report's own figures (the same intervals as the tables, so the words never claim
more than the numbers), and notes what the tables should leave out because it
says nothing: a length in all moves equal to the length in decisions (a game
without chance), and per-agent score rates when one agent sits in every seat.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..agents import resolve_spec
from ..agents.levels import describe_spec, game_levels, is_level, level_spec
from ..core.game import Game
from ..core.options import Option
from .ladder import about
from .ladder_docs import load_ladder
from .stats import sample_warnings
from .study import option_text

#: the figures a verdict speaks of, in this order: key -> (sentence when it grows, when it shrinks);
#: {n} is the size of the difference, {b} its interval (both as sizes, without a sign)
_WORDS: dict[str, tuple[str, str]] = {
    "first_player_wins": ("{n} points more first-player wins {b}", "{n} points fewer first-player wins {b}"),
    "draws": ("{n} points more draws {b}", "{n} points fewer draws {b}"),
    "limit": ("{n} points more games ended by a limit {b}", "{n} points fewer games ended by a limit {b}"),
    "repetition_end": ("{n} points more games ended by repetition {b}", "{n} points fewer games ended by repetition {b}"),
    "balance": ("balance {n} points higher {b}", "balance {n} points lower {b}"),
    "decisions": ("games {n} decisions longer {b}", "games {n} decisions shorter {b}"),
    "moves": ("games {n} moves longer counting chance {b}", "games {n} moves shorter counting chance {b}"),
    "branching": ("{n} more legal moves per decision {b}", "{n} fewer legal moves per decision {b}"),
    "repetition": ("{n} points more repeated positions {b}", "{n} points fewer repeated positions {b}"),
    "lead_changes": ("{n} more lead changes per game {b}", "{n} fewer lead changes per game {b}"),
    "decided_at": ("decided {n}% of the game later {b}", "decided {n}% of the game earlier {b}"),
}
#: the questions a designer asks first; "about N more games" is worked out for these
_HEADLINE = ("first_player_wins", "draws", "decisions")


def size_text(value: float, decimals: int = 0) -> str:
    """``value``'s size rounded half up (62.5 reads 63, as the pages' scripts round it)."""
    scale = 10**decimals
    return f"{math.floor(abs(value) * scale + 0.5) / scale:.{decimals}f}"


def bound_text(bound: float, decimals: int, upper: bool) -> str:
    """An interval's bound rounded outward (a low bound down, a high one up), so that the
    interval shown holds the one computed: 49.7 reads 49, not 50, beside an even share of 50;
    with a decimal more where a bound that is not 0 would read 0 (a sure difference of 0.2)."""
    for places in range(decimals, decimals + 3):
        scale = 10**places
        rounded = (math.ceil if upper else math.floor)(bound * scale - (1e-9 if upper else -1e-9)) / scale
        if rounded != 0 or bound == 0:
            break
    return f"{rounded:.{places}f}" if rounded else "0"


def percent_text(figure: Mapping[str, Any]) -> str:
    """``64% [52, 75]``: a share and its interval in whole points, the interval rounded
    outward; ``-`` where it is undefined."""
    if figure["value"] is None:
        return "-"
    text = f"{size_text(100 * figure['value'])}%"
    if figure["low"] is not None and figure["high"] is not None:
        text += f" [{bound_text(100 * figure['low'], 0, upper=False)}, {bound_text(100 * figure['high'], 0, upper=True)}]"
    return text


def figure_text(figure: Mapping[str, Any] | None, percent: bool, signed: bool = False) -> str:
    """A figure and its 95% interval as every table shows it (the terminal's and the pages'):
    ``64% [35, 85]`` (a share in whole points, as :func:`percent_text`), ``+7 [-28, 39]`` (a
    difference of shares, in points), ``85.4 [74.4, 96.5]`` (any other figure: three significant
    digits, the interval to as many decimals); intervals rounded outward; ``-`` where there is none."""
    if figure is None or figure.get("value") is None:
        return "-"
    if percent and not signed:
        return percent_text(figure)
    scale = 100 if percent else 1
    value = scale * figure["value"]
    if percent:
        size = size_text(value)
    else:
        size = f"{abs(float(f'{value:.3g}')):f}".rstrip("0").rstrip(".")
    sign = "-" if value < 0 and float(size) != 0 else "+" if signed and value > 0 and float(size) != 0 else ""
    text = sign + size
    if figure.get("low") is not None and figure.get("high") is not None:
        decimals = len(size.partition(".")[2])
        low = bound_text(scale * figure["low"], decimals, upper=False)
        high = bound_text(scale * figure["high"], decimals, upper=True)
        text += f" [{low}, {high}]"
    return text


def excludes_zero(figure: Mapping[str, Any]) -> bool:
    return figure["low"] is not None and figure["high"] is not None and (figure["low"] > 0 or figure["high"] < 0)


def difference_phrase(key: str, figure: Mapping[str, Any], percent: bool) -> str:
    """``9 points fewer draws [5, 13]`` or ``games 9 decisions longer [6, 12]``."""
    grows, shrinks = _WORDS[key]
    scale = 100 if percent else 1
    value, low, high = (scale * figure[part] for part in ("value", "low", "high"))
    if value < 0:  # "fewer ... [5, 13]" reads better than "-9 ... [-13, -5]"
        value, low, high = -value, -high, -low
    # whole points or moves from 2 on: more digits than the interval supports mislead
    decimals = 0 if value >= 2 else 1
    bounds = f"[{bound_text(low, decimals, upper=False)}, {bound_text(high, decimals, upper=True)}]"
    template = grows if scale * figure["value"] >= 0 else shrinks
    return template.format(n=size_text(value, decimals), b=bounds)


def more_games(figure: Mapping[str, Any], reference: float = 0.0, counted: float = 1.0) -> int | None:
    """Games per variant beyond those played after which an interval as wide as this one,
    shrinking as 1/sqrt(n), would exclude ``reference`` if the estimate stayed put; None where
    the estimate sits on ``reference`` (no number of games would settle it). ``counted`` is
    the share of games the figure counts (the decided ones, for who wins): the games its
    ``games`` needs more of are that share of the games to play."""
    if figure["low"] is None or figure["high"] is None or not figure.get("games") or counted <= 0:
        return None
    half = (figure["high"] - figure["low"]) / 2
    gap = abs(figure["value"] - reference)
    if half <= 0 or gap < half / 10:
        return None
    needed = math.ceil((math.ceil(figure["games"] * (half / gap) ** 2) - figure["games"]) / counted)
    # the extrapolation is rough: say a round figure, and never fewer than a handful of games
    return _round_up(max(MIN_MORE_GAMES, needed))


def _decided_share(*variants: Mapping[str, Any]) -> float:
    """The smallest share of decided games among ``variants`` (who wins counts those only)."""
    shares = [variant["metrics"]["completion"]["value"] for variant in variants]
    return min((share for share in shares if share is not None), default=0.0)


#: the fewest extra games a verdict suggests: fewer could not move an interval on purpose
MIN_MORE_GAMES = 10


def _round_up(count: int) -> int:
    """``count`` rounded up to two significant digits (137 -> 140, 1234 -> 1300)."""
    step: int = 10 ** max(0, len(str(count)) - 2)
    return -(-count // step) * step


def option_meaning(option: Option, value: Any, players: int) -> str:
    """``0 (the rule's 100)`` where the option's help says what 0 stands for; else the value
    in words (``true``, ``none``)."""
    if value != 0 or isinstance(value, bool):
        return option_text(value)
    found = re.search(r"\b0 = ([^;]+)", option.help)
    if not found:
        return "0"
    meaning = found.group(1).strip()
    # "the rule's 100 (2 players) or 200 (4 players)": the alternative for this player count
    alternatives = [re.fullmatch(r"(.*?)\s*\((\d+) players?\)", part.strip()) for part in meaning.split(" or ")]
    matched = [found for found in alternatives if found is not None]
    if len(matched) > 1 and len(matched) == len(alternatives):
        lead = re.sub(r"\d.*", "", matched[0].group(1), flags=re.S)  # "the rule's " before the number
        for match in matched:
            if int(match.group(2)) == players:
                text = match.group(1)
                meaning = text if not text[:1].isdigit() else lead + text
                break
    return f"0 ({meaning})"


def rules_line(game: Game, variants: Sequence[Mapping[str, Any]]) -> str:
    """The options every variant shares, each with its meaning; the varied ones by name."""
    specs = {option.name: option for option in game.options_spec}
    shared, varied = [], []
    for name, value in variants[0]["options"].items():
        if all(variant["options"].get(name) == value for variant in variants):
            shown = option_meaning(specs[name], value, game.num_players) if name in specs else option_text(value)
            shared.append(f"{name}={shown}")
        else:
            varied.append(name)
    text = "Rules: " + (", ".join(shared) or "the defaults")
    return text + (f"; varied: {', '.join(varied)}" if varied else "") + "."


def _rating(game: Game, spec: str) -> tuple[str | None, float | None]:
    """(level name, ladder Elo) of a spec, where the game's ladder.json knows them."""
    actual = resolve_spec(game, spec)
    level = spec if is_level(spec) else next((name for name in game_levels(game) if level_spec(game, name) == actual), None)
    data = load_ladder(game.id) or {}
    for entry in data.get("ratings", {}).values():
        if isinstance(entry, dict) and entry.get("spec") == actual and entry.get("elo") is not None:
            return level, float(entry["elo"])
    return level, None


def strength_line(game: Game, specs: Sequence[str]) -> str:
    """Who played, how strong they are, and the caveat about strong play."""
    parts = []
    for spec in dict.fromkeys(specs):
        level, elo = _rating(game, spec)
        actual = resolve_spec(game, spec)
        notes = [note for note in (level if level != spec else actual if actual != spec else None,
                                   f"{about(elo)} Elo" if elo is not None else None) if note]
        try:
            summary = describe_spec(actual)  # what this spec plays, in words (docs/levels.md)
        except Exception:  # a spec the registry cannot read: the spec alone says enough
            summary = ""
        noted = f" ({', '.join(notes)})" if notes else ""
        parts.append(f"{spec}{noted}{f': {summary}' if summary else ''}")
    distinct = list(dict.fromkeys(specs))
    if len(distinct) == 1:
        every = "both seats" if game.num_players == 2 else f"all {game.num_players} seats"
        text = f"Self-play: {every} {parts[0]}."
    else:
        text = "Agents: " + "; ".join(parts) + "."
    levels = game_levels(game)
    strong = {level_spec(game, name) for name in levels[levels.index("hard"):]}  # hard, and expert where the game has it
    if not any(resolve_spec(game, spec) in strong for spec in distinct):
        _, hard_elo = _rating(game, "hard")
        known = f" ({about(hard_elo)} Elo)" if hard_elo is not None else ""
        text += f" Weaker than the hard level{known}: conclusions about strong play may differ."
    return text


def hidden_metrics(report: Mapping[str, Any], game: Game) -> list[str]:
    """Rows that repeat another (all moves = decisions without chance) or say nothing (per-agent
    score rates in self-play)."""
    hidden = []
    lengths = [variant["lengths"] for variant in report["variants"]]
    if not game.has_chance and all(length["moves"] == length["decisions"] for length in lengths):
        hidden.append("moves")
    specs = _study_specs(report)
    if len(set(specs)) == 1:
        hidden += [metric["key"] for metric in report["metrics"] if metric["key"].startswith("score_")]
    return hidden


def _comparison_sentence(report: Mapping[str, Any], comparison: Mapping[str, Any], hidden: Sequence[str]) -> str:
    percent = {metric["key"]: metric["percent"] for metric in report["metrics"]}
    found = [
        difference_phrase(key, comparison["differences"][key], percent[key])
        for key in _WORDS
        if key in comparison["differences"] and key not in hidden and excludes_zero(comparison["differences"][key])
    ]
    variants = {variant["variant"]: variant for variant in report["variants"]}
    if not excludes_zero(comparison["differences"]["first_player_wins"]):
        before = variants[comparison["baseline"]]["metrics"]["first_player_wins"]
        after = variants[comparison["variant"]]["metrics"]["first_player_wins"]
        found.append(f"no clear difference in who wins (first player {percent_text(before)} vs {percent_text(after)})")
    if len(found) == 1 and found[0].startswith("no clear"):
        found[0] = "no clear difference in any figure; " + found[0]
    return f"{comparison['variant']}: {', '.join(found)}."


def _single_sentences(report: Mapping[str, Any]) -> list[str]:
    variant = report["variants"][0]
    seats = len(report["seat_names"])
    first = variant["metrics"]["first_player_wins"]
    lines = []
    if first["value"] is not None and first["low"] is not None:
        even = 1 / seats
        share = f"the first player wins {percent_text(first)} of decided games (even: {even:.0%})"
        if _at_the_edge(variant, seats):
            way = "help" if first["value"] > even else "hurt"
            lines.append(f"Moving first may {way}: {share}, at the edge of chance "
                         f"(p = {variant['first_player_p']:.3f} by the exact test).")
        elif first["low"] > even:
            lines.append(f"Moving first helps: {share}.")
        elif first["high"] < even:
            lines.append(f"Moving first hurts: {share}.")
        else:
            lines.append(f"No clear first-player advantage: {share}.")
    seat_line = _seat_sentence(report, variant)
    if seat_line:
        lines.append(seat_line)
    agents = report["agents"]
    specs = _study_specs(report)
    if len(set(specs)) > 1:
        for number, agent in enumerate(agents):
            score = variant["metrics"].get(f"score_{number}")
            if score and score["value"] is not None and score["low"] is not None:
                even = 1 / seats
                how = "stronger" if score["low"] > even else "weaker" if score["high"] < even else "no clearly different"
                lines.append(f"{agent} scores {percent_text(score)} of the points (even: {even:.0%}): "
                             f"{how if how != 'no clearly different' else 'not clearly stronger or weaker'}"
                             f"{' than its opponents' if how != 'no clearly different' else ''}.")
    draws, length = variant["metrics"]["draws"], variant["metrics"]["decisions"]
    if draws["value"] is not None and length["value"] is not None:
        low, high = length["low"], length["high"]
        span = f" [{low:.0f}, {high:.0f}]" if low is not None and high is not None else ""
        lines.append(f"Draws: {percent_text(draws)}; games last {length['value']:.0f} decisions{span} on average.")
    return lines


def _study_specs(report: Mapping[str, Any]) -> list[str]:
    """Every seat's agent spec of every variant of the study."""
    return [spec for entry in report["study"].get("variants", []) for spec in entry["agents"]]


#: the level below which a test's p-value counts as a clear difference
CLEAR_P = 0.05


def _at_the_edge(variant: Mapping[str, Any], seats: int) -> bool:
    """Whether the first player's interval excludes an even share but its exact test does not
    call the edge clear (or the other way round): the two read the same games a little
    differently at the border, and a verdict should not claim more than either."""
    first = variant["metrics"]["first_player_wins"]
    p = variant.get("first_player_p")
    if p is None or first["low"] is None or first["high"] is None:
        return False
    even = 1 / seats
    excluded: bool = first["low"] > even or first["high"] < even
    return excluded != bool(p < CLEAR_P)


def _seat_sentence(report: Mapping[str, Any], variant: Mapping[str, Any]) -> str | None:
    """A seat's edge of its own, in a game where chance decides who starts and one agent plays
    every seat: then it is the game's (its set-up, its seat order), not moving first's or an agent's."""
    p = variant.get("seat_balance_p")
    movers = variant.get("first_movers") or []
    if p is None or p >= CLEAR_P or sum(1 for count in movers if count) < 2 or len(set(_study_specs(report))) != 1:
        return None
    names = report["seat_names"]
    wins = [variant["metrics"].get(f"win_{seat}") for seat in range(len(names))]
    if any(figure is None or figure["value"] is None for figure in wins):
        return None
    order = sorted(range(len(names)), key=lambda seat: -wins[seat]["value"])
    shares = ", ".join(f"{names[seat]} {percent_text(wins[seat])}" for seat in order)
    return (f"The seats differ, whoever moves first: {shares} of the games "
            f"(p = {p:.3f}, chi-square; the same agent in every seat).")


def _firmer(report: Mapping[str, Any], hidden: Sequence[str]) -> list[tuple[int, str]]:
    """What more games would settle, each as (the games, the sentence's words)."""
    lines: list[tuple[int, str]] = []
    variants = {variant["variant"]: variant for variant in report["variants"]}
    for comparison in report["comparisons"]:
        for key in _HEADLINE:
            figure = comparison["differences"].get(key)
            if key in hidden or figure is None or excludes_zero(figure) or figure["value"] is None:
                continue
            pair = (variants[comparison["baseline"]], variants[comparison["variant"]])
            more = more_games(figure, counted=_decided_share(*pair) if key == "first_player_wins" else 1.0)
            if more is not None:
                title = next(metric["title"] for metric in report["metrics"] if metric["key"] == key)
                lines.append((more, f"about {more} more games per variant would settle whether "
                                    f"{comparison['variant']} differs in {title}"))
    if not report["comparisons"] and report["variants"]:
        figure = report["variants"][0]["metrics"]["first_player_wins"]
        even = 1 / len(report["seat_names"])
        if figure["value"] is not None and figure["low"] is not None and figure["low"] <= even <= figure["high"]:
            more = more_games(figure, even, counted=_decided_share(report["variants"][0]))
            if more is not None:
                lines.append((more, f"about {more} more games would settle whether moving first helps"))
        elif _at_the_edge(report["variants"][0], len(report["seat_names"])) and figure.get("games"):
            # at the border a narrower interval settles it: halving its width takes three times the games
            decided = _decided_share(report["variants"][0]) or 1.0
            more = _round_up(math.ceil(3 * figure["games"] / decided))
            lines.append((more, f"about {more} more games would settle whether moving first helps"))
    return lines


def cautions(report: Mapping[str, Any]) -> list[str]:
    """What makes the games a poorer sample than they look (games that repeat one another,
    decisions the agents did not make), said before the findings that rest on them."""
    several = len(report["variants"]) > 1
    return [
        f"Careful{' (' + variant['variant'] + ')' if several and variant['variant'] else ''}: {warning}."
        for variant in report["variants"]
        for warning in sample_warnings(variant)
    ]


def build_verdict(report: Mapping[str, Any], game: Game, command_line: bool = True) -> dict[str, Any]:
    """The verdict's sentences (JSON-ready); ``report`` is :func:`~boardlab.lab.report.build_report`'s.
    ``command_line``: the reader can run the command again with its flags (not on a web page)."""
    hidden = hidden_metrics(report, game)
    if report["comparisons"]:
        findings = [_comparison_sentence(report, comparison, hidden) for comparison in report["comparisons"]]
    else:
        findings = _single_sentences(report)
    specs = _study_specs(report)
    settling = _firmer(report, hidden)
    firmer = []
    if settling:
        again = "" if report.get("stopping") or not command_line else " (or run with --until-sure)"
        firmer = ["To be surer: " + "; ".join(words for _games, words in settling) + again + "."]
    agents = strength_line(game, specs) if specs else ""
    fallbacks = sum(variant.get("fallback_moves", 0) for variant in report["variants"])
    if fallbacks:
        agents += (f" {fallbacks} of their decisions were fallback moves (the agent failed, overran or chose an "
                   "illegal move), so they played below that strength.")
    return {
        "cautions": cautions(report),
        "findings": findings,
        "agents": agents.strip(),
        "rules": rules_line(game, report["study"]["variants"]) if report["study"].get("variants") else "",
        "firmer": firmer,
        # the most games per variant that the firmer sentence names (None: it names none)
        "games_to_settle": max((games for games, _words in settling), default=None),
        "hidden_metrics": hidden,
    }


def verdict_lines(report: Mapping[str, Any]) -> list[str]:
    """The verdict as plain sentences, in reading order (the terminal prints these)."""
    verdict = report.get("verdict")
    if not verdict:
        return []
    lines = [*verdict.get("cautions", ()), *verdict["findings"], verdict["agents"], verdict["rules"], *verdict["firmer"]]
    stopping = report.get("stopping")
    if stopping:
        # the method's name is in the report's JSON and docs/lab.md; the reader needs what it guarantees
        lines.append(f"Stopped: {stopping['reason']} (by intervals that hold at 95% however often the games "
                     "are looked at on the way; docs/lab.md).")
    return [line for line in lines if line]


def verdict_html(report: Mapping[str, Any]) -> str:
    lines = verdict_lines(report)
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    return f"<h2>Verdict</h2>\n<ul class=verdict>{items}</ul>"
