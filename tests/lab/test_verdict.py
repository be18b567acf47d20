"""The verdict in words: sentences from the intervals, the agents' strength,
what would make a conclusion firmer, and the rows the tables leave out."""

from __future__ import annotations

import re
from dataclasses import replace

from rich.console import Console

from boardlab.agents.levels import level_spec
from boardlab.cli.lab import print_report
from boardlab.core.options import Option
from boardlab.core.registry import load
from boardlab.lab.report import build_report, render_html, shown_metrics
from boardlab.lab.stats import GameOutcome
from boardlab.lab.verdict import (
    build_verdict,
    difference_phrase,
    hidden_metrics,
    more_games,
    option_meaning,
    percent_text,
    strength_line,
    verdict_lines,
)

SEATS = ["White", "Black"]
TOWERS_OPTIONS = {"layout": "diagram", "random_first": False, "no_progress_limit": 0, "ply_cap": 0}


def game(index: int, winners: tuple[int, ...], decisions: int, variant: str, seating=(0, 0), moves=None) -> GameOutcome:
    share = 1.0 / len(winners)
    returns = tuple(share if seat in winners else 0.0 for seat in range(2))
    code = "castles" if len(winners) == 1 else "repetition"
    return GameOutcome(index, index, seating, winners, returns, code, code, moves or decisions, decisions, 0.01,
                       variant=variant, first_mover=0, branching=(5,) * decisions)


def games(variant: str, draws_every: int, decisions: int) -> list[GameOutcome]:
    """200 games: a draw every ``draws_every`` games, the decided ones split evenly."""
    return [
        game(i, (0, 1) if i % draws_every == 0 else (i % 2,), decisions + i % 7, variant)
        for i in range(200)
    ]


def report_of(outcomes: dict[str, list[GameOutcome]], agents=("greedy", "greedy"), labels=("greedy#1", "greedy#2")):
    settings = {
        "game": "towers", "players": 2, "seed": 0, "rotate": True,
        "variants": [{"name": name, "options": {**TOWERS_OPTIONS, "layout": name or "diagram"}, "agents": list(agents)}
                     for name in outcomes],
    }
    report = build_report(settings, outcomes, SEATS, list(labels))
    report["verdict"] = build_verdict(report, load("towers"))
    return report


def test_verdict_says_what_differs_with_numbers_and_what_does_not() -> None:
    report = report_of({"diagram": games("diagram", 3, 40), "split_sides": games("split_sides", 10, 50)})
    findings = report["verdict"]["findings"]
    assert len(findings) == 1 and findings[0].startswith("split_sides: ")
    sentence = findings[0]
    # 33.5% draws -> 10%: 23.5 points fewer, with its interval as sizes
    assert "24 points fewer draws [" in sentence
    assert "games 10 decisions longer [" in sentence
    # the decided games are split evenly in both: who wins does not differ
    assert "no clear difference in who wins (first player 50% [" in sentence
    assert "vs 44% [" in sentence
    page = render_html(report)
    assert page.index("<h2>Verdict</h2>") < page.index("<h2>Metrics per variant</h2>")
    assert "24 points fewer draws" in page


def test_no_difference_is_said_in_words() -> None:
    report = report_of({"diagram": games("diagram", 3, 40), "pinwheel": games("pinwheel", 3, 40)})
    assert report["verdict"]["findings"] == [
        "pinwheel: no clear difference in any figure; no clear difference in who wins "
        "(first player 50% [41, 59] vs 50% [41, 59])."
    ]
    # identical figures: no number of games would settle a difference, so none is asked for
    assert report["verdict"]["firmer"] == []
    assert report["verdict"]["games_to_settle"] is None


def test_difference_phrase_reads_sizes_not_signs() -> None:
    assert difference_phrase("draws", {"value": -0.09, "low": -0.13, "high": -0.05}, True) == "9 points fewer draws [5, 13]"
    assert difference_phrase("repetition", {"value": 0.013, "low": 0.003, "high": 0.023}, True) == (
        "1.3 points more repeated positions [0.3, 2.3]")
    assert difference_phrase("decisions", {"value": 12.0, "low": 6.0, "high": 18.0}, False) == "games 12 decisions longer [6, 18]"
    assert difference_phrase("decisions", {"value": -9.2, "low": -13.1, "high": -5.4}, False) == (
        "games 9 decisions shorter [5, 14]")
    assert difference_phrase("branching", {"value": 1.84, "low": 1.2, "high": 2.3}, False) == (
        "1.8 more legal moves per decision [1.2, 2.3]")


def test_an_interval_is_rounded_outward_so_that_what_it_excludes_it_visibly_excludes() -> None:
    # 49.7 rounded to the nearest would read 50 beside an even share of 50%: the interval holds 50 in truth
    assert percent_text({"value": 0.7703, "low": 0.497, "high": 0.9204}) == "77% [49, 93]"
    # a share at the half rounds up, as the pages' scripts round it
    assert percent_text({"value": 0.625, "low": 0.39, "high": 0.82}) == "63% [39, 82]"
    # a sure difference whose low bound is 0.2 points does not read as [0, ...], which looks unsure
    assert difference_phrase("repetition_end", {"value": 0.18, "low": 0.002, "high": 0.34}, True) == (
        "18 points more games ended by repetition [0.2, 34]")


def test_more_games_follows_the_width_of_the_interval() -> None:
    # half-width 0.1 at 100 games; a gap of 0.05 needs a half-width of 0.05: 4x the games
    assert more_games({"value": 0.05, "low": -0.05, "high": 0.15, "games": 100}) == 300
    # a gap as wide as the interval: already at the edge; the verdict still asks for a handful
    assert more_games({"value": 0.1, "low": 0.0, "high": 0.2, "games": 100}) == 10
    # a rough extrapolation is said as a round figure: 100 * (0.1 / 0.03)^2 - 100 = 1012 -> 1100
    assert more_games({"value": 0.03, "low": -0.07, "high": 0.13, "games": 100}) == 1100
    assert more_games({"value": None, "low": None, "high": None, "games": 0}) is None
    # no number of games settles a difference that shows no sign of one (both variants drew no game)
    assert more_games({"value": 0.0, "low": -0.05, "high": 0.05, "games": 90}) is None


def test_more_games_for_who_wins_counts_the_draws_that_decide_nothing() -> None:
    # who wins counts decided games: with three games in four drawn, 30 more decided games are 120 games
    # half-width 0.25, gap 0.125: four times the 20 decided games, 60 more; with three games in four
    # drawn, 60 more decided games are 240 games
    decided = {"value": 0.625, "low": 0.375, "high": 0.875, "games": 20}
    assert more_games(decided, 0.5) == 60 and more_games(decided, 0.5, counted=0.25) == 240


def test_a_difference_of_shares_stays_within_100_points() -> None:
    """Welch's normal interval on shares spills past what two shares can differ by (three games
    decided near their start against three decided near their end); the difference is clipped
    to [-1, 1] while the estimate itself is untouched."""
    from boardlab.lab.metrics import difference, metric_definitions
    from boardlab.lab.stats import GameOutcome

    def decided(at: float, index: int) -> GameOutcome:
        return GameOutcome(index, index, (0, 1), (0,), (1.0, -1.0), "win", "won", 40, 40, 0.1, decided_at=at)

    metric = next(metric for metric in metric_definitions(["White", "Black"]) if metric.key == "decided_at")
    early = [decided(at, number) for number, at in enumerate((0.0, 0.4, 0.0))]
    late = [decided(at, number) for number, at in enumerate((1.0, 0.5, 1.0))]
    estimate = difference(metric, early, late)  # unclipped, Welch's interval reaches 1.12
    assert abs(estimate.value - 0.7) < 1e-9
    assert -1.0 <= estimate.low <= estimate.value <= estimate.high == 1.0


def test_an_option_shows_what_its_zero_means_from_its_help_text() -> None:
    towers = {option.name: option for option in load("towers").options_spec}
    assert option_meaning(towers["no_progress_limit"], 0, 2) == "0 (the rule's 100)"
    assert option_meaning(towers["no_progress_limit"], 0, 4) == "0 (the rule's 200)"
    assert option_meaning(towers["ply_cap"], 0, 2) == "0 (no cap)"
    assert option_meaning(towers["no_progress_limit"], 60, 2) == "60"
    assert option_meaning(towers["random_first"], False, 2) == "false", "words, not Python's values"
    assert option_meaning(Option("gap", 0, "empty table between zones, cm"), 0, 2) == "0"
    rule = Option("rule", 0, "the occurrence that draws; 0 = no repetition rule")
    assert option_meaning(rule, 0, 2) == "0 (no repetition rule)"
    report = report_of({"": games("", 3, 40)})
    assert "no_progress_limit=0 (the rule's 100)" in report["verdict"]["rules"]


def test_self_play_hides_score_rows_and_a_game_without_chance_one_length() -> None:
    report = report_of({"": games("", 3, 40)})
    assert set(hidden_metrics(report, load("towers"))) == {"moves", "score_0", "score_1"}
    keys = [metric["key"] for metric in shown_metrics(report)]
    assert "moves" not in keys and "decisions" in keys and not any(key.startswith("score_") for key in keys)
    page = render_html(report)
    assert "length in all moves" not in page and "greedy#1 score rate" not in page and "length in decisions" in page
    assert report["verdict"]["agents"].startswith("Self-play: both seats greedy (easy, about ")
    # what the agent plays, in words read off its spec (as the lobby says it)
    assert "): the best move one move ahead" in report["verdict"]["agents"]


def test_different_agents_keep_their_score_rows_and_chance_keeps_both_lengths() -> None:
    outcomes = {"": [game(i, (i % 2,), 30, "", seating=(i % 2, 1 - i % 2), moves=45) for i in range(20)]}
    report = report_of(outcomes, agents=("greedy", "random"), labels=("greedy", "random"))
    assert report["verdict"]["hidden_metrics"] == []
    assert "greedy score rate" in render_html(report)


def test_strength_names_the_level_its_rating_and_the_caveat() -> None:
    towers = load("towers")
    weak = strength_line(towers, ["greedy", "greedy"])
    assert "greedy (easy, about " in weak and " Elo)" in weak and "conclusions about strong play may differ" in weak
    strong = strength_line(towers, ["hard", "hard"])
    assert strong.startswith("Self-play: both seats hard (mcts:") and "strong play may differ" not in strong
    mixed = strength_line(towers, ["greedy", "random"])
    assert mixed.startswith("Agents: greedy (easy, ") and "random (about 0 Elo)" in mixed
    # a level above hard is no weaker than it: Sovereign's expert, by name or by its spec
    sovereign = load("sovereign")
    for expert in ("expert", level_spec(sovereign, "expert")):
        assert "strong play may differ" not in strength_line(sovereign, [expert, expert])
    assert "strong play may differ" in strength_line(sovereign, ["normal", "normal"])


def test_verdict_lines_say_why_a_stopping_study_stopped() -> None:
    report = report_of({"": games("", 3, 40)})
    report["stopping"] = {"reason": "reached -n 200", "method": "a method"}
    assert verdict_lines(report)[-1] == (
        "Stopped: reached -n 200 (by intervals that hold at 95% however often the games are looked at on the way; docs/lab.md).")


def test_decisions_the_agents_did_not_make_are_counted_and_weaken_the_verdict() -> None:
    failing = [replace(outcome, fallback_moves=1 if outcome.index % 50 == 0 else 0) for outcome in games("", 3, 40)]
    report = report_of({"": failing})
    assert report["variants"][0]["fallback_moves"] == 4
    assert "4 of their decisions were fallback moves" in report["verdict"]["agents"]
    assert "4 decisions in 200 games were not the agent" in render_html(report)
    clean = report_of({"": games("", 3, 40)})
    assert "fallback" not in clean["verdict"]["agents"] and "fallback" not in render_html(clean)


def _decided(first_wins: int, total: int, first_movers=lambda i: 0, winner=None) -> list[GameOutcome]:
    """``total`` decided games; the first mover wins ``first_wins`` of them (or ``winner(i)`` wins game i)."""
    outcomes = []
    for i in range(total):
        mover = first_movers(i)
        won = winner(i) if winner else (mover if i < first_wins else 1 - mover)
        outcomes.append(replace(game(i, (won,), 40, ""), first_mover=mover))
    return outcomes


def test_a_first_player_edge_at_the_border_of_chance_is_not_called_clear() -> None:
    # 531 of 1,000: the interval's lower end is 50.001% but the exact test's p is 0.054 (the
    # Territories study with the hard level): the verdict says "may", with the p, and how many more games
    edge = report_of({"": _decided(531, 1000)})
    [first] = [line for line in edge["verdict"]["findings"] if "first" in line]
    assert first.startswith("Moving first may help") and "p = 0.05" in first
    assert any("more games would settle whether moving first helps" in line for line in verdict_lines(edge))
    assert any("(or run with --until-sure)" in line for line in edge["verdict"]["firmer"])
    # the Lab page offers that many games as a number, not by reading the sentence back
    named = [int(number) for line in edge["verdict"]["firmer"] for number in re.findall(r"about ([\d,]+) more", line)]
    assert named and edge["verdict"]["games_to_settle"] == max(named)
    # a web page's reader has no command line to run with a flag
    on_a_page = build_verdict(edge, load("towers"), command_line=False)
    assert on_a_page["firmer"] and not any("--until-sure" in line for line in on_a_page["firmer"])
    clear = report_of({"": _decided(560, 1000)})
    [first] = [line for line in clear["verdict"]["findings"] if "first" in line]
    assert first.startswith("Moving first helps: the first player wins 56%")
    assert not any("moving first helps" in line for line in verdict_lines(clear))


def test_a_seat_that_wins_more_whoever_starts_is_its_own_finding() -> None:
    # who starts alternates with the game; Black wins 560 of 1,000: moving first is even, the seat is not
    alternating = _decided(0, 1000, first_movers=lambda i: i % 2, winner=lambda i: 1 if i % 1000 < 560 else 0)
    report = report_of({"": alternating})
    assert report["variants"][0]["first_movers"] == [500, 500]
    findings = report["verdict"]["findings"]
    assert findings[0].startswith("No clear first-player advantage")
    assert findings[1].startswith("The seats differ, whoever moves first: Black 56% [52, 60], White 44% [40, 48]")
    # where seat 0 always starts, the seats' edge is the first player's and is said once
    always_white = _decided(560, 1000)
    assert not any(line.startswith("The seats differ") for line in report_of({"": always_white})["verdict"]["findings"])


def test_a_first_player_handicap_at_the_border_says_may_hurt() -> None:
    # 469 of 1,000 mirrors the 531 above: the interval's upper end just below 50%, p above 0.05
    [first] = [line for line in report_of({"": _decided(469, 1000)})["verdict"]["findings"] if "first" in line]
    assert first.startswith("Moving first may hurt") and "at the edge of chance" in first


def test_long_variant_names_head_their_columns_by_letters_named_whole_above_a_narrow_table() -> None:
    report = report_of({"diagram": games("diagram", 3, 40), "split_sides": games("split_sides", 10, 50)})
    for variant in report["variants"]:
        variant["variant"] = f"no_progress_limit=60,layout={variant['variant']}"
    out = Console(record=True, width=80)
    print_report(out, report)
    text = out.export_text()
    assert "A: no_progress_limit=60,layout=diagram; B: no_progress_limit=60,layout=split_sides" in " ".join(text.split())
    assert "…" not in text, "no name or figure is cut short"
    assert "points [" in text, "differences of shares in points, as the verdict says them"
