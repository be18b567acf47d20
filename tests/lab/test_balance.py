"""boardlab balance: parsing the search, scoring candidates, the search's path, stopping early,
and the command end to end (reproducible, resumable, its report)."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from boardlab.cli import main
from boardlab.cli.balance import print_balance
from boardlab.core.errors import OptionError
from boardlab.core.registry import load
from boardlab.lab.balance import (
    BalanceSearch,
    Target,
    candidate_figures,
    clearly_closer,
    confirmation_study,
    finalists,
    least_possible_score,
    out_of_reach,
    parse_dimension,
    parse_targets,
    run_search,
    score,
)
from boardlab.lab.balance_report import recommendation_words
from boardlab.lab.metrics import Estimate
from boardlab.lab.stats import GameOutcome
from boardlab.lab.store import StudyFolder

pytest.importorskip("optuna")

TOWERS = load("towers")
OVERSEER = load("overseer")


def outcome(index: int, first_wins: bool | None, decisions: int = 40) -> GameOutcome:
    """A two-seat game where seat 0 moved first: won by it, by seat 1, or drawn (None)."""
    winners = () if first_wins is None else ((0,) if first_wins else (1,))
    returns = (0.5, 0.5) if first_wins is None else ((1.0, 0.0) if first_wins else (0.0, 1.0))
    return GameOutcome(index=index, seed=index, seat_agents=(0, 0), winners=winners, returns=returns,
                       code="draw" if first_wins is None else "win", reason="", moves=decisions,
                       decisions=decisions, seconds=0.0, first_mover=0)


# --- parsing -----------------------------------------------------------------------------
def test_a_range_lists_its_values_and_keeps_its_bounds() -> None:
    dimension = parse_dimension("no_capture_limit=50..150:25", OVERSEER)
    assert dimension.values == (50, 75, 100, 125, 150)
    assert (dimension.low, dimension.high, dimension.step) == (50, 150, 25)


def test_a_list_is_coerced_by_the_option() -> None:
    assert parse_dimension("random_first=true,false", TOWERS).values == (True, False)
    assert parse_dimension("layout=pinwheel,diagram", TOWERS).values == ("pinwheel", "diagram")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("castles=1..3", "no such option; its options: layout"),
        ("layout=1..3", "a range needs a whole-number option"),
        ("no_capture_limit=50..100:20", "STEP >= 1 that divides"),
        ("no_capture_limit=100..50", "LOW < HIGH"),
        ("no_capture_limit=0..50", "must be >= 1"),  # rules 7.4's option starts at 1
        ("setup=concentric", "at least two different values"),
        ("setup=concentric,spiral", "allowed values are"),
        ("setup", "expected NAME=LOW..HIGH"),
    ],
)
def test_a_bad_dimension_is_refused_by_name(text: str, problem: str) -> None:
    game = TOWERS if text.startswith(("castles", "layout")) else OVERSEER
    with pytest.raises(OptionError, match=problem.replace("(", r"\(").replace(".", r"\.")):
        parse_dimension(text, game)


def test_targets_default_to_a_fair_first_player_and_no_draws() -> None:
    assert parse_targets(None, 2) == (Target("first_player_wins", 0.5), Target("draws", 0.0))
    assert parse_targets(None, 4)[0].value == 0.25
    assert parse_targets(["length=40", "balance=1"], 2) == (Target("length", 40.0), Target("balance", 1.0))


@pytest.mark.parametrize(
    ("texts", "problem"),
    [(["castles=3"], "NAME one of"), (["draws=1.5"], "between 0 and 1"), (["length=0"], "above 0"),
     (["draws=x"], "not a number"), (["draws=0", "draws=0.1"], "given twice")],
)
def test_bad_targets_are_refused(texts: list[str], problem: str) -> None:
    with pytest.raises(OptionError, match=problem):
        parse_targets(texts, 2)


# --- scoring -----------------------------------------------------------------------------
def test_the_score_adds_share_points_and_relative_length() -> None:
    figures = {
        "first_player_wins": Estimate(0.55, 0.5, 0.6, 100), "draws": Estimate(0.10, 0.05, 0.15, 100),
        "balance": Estimate(0.9, 0.8, 1.0, 100), "length": Estimate(44.0, 42.0, 46.0, 100),
    }
    targets = (Target("first_player_wins", 0.5), Target("draws", 0.0), Target("length", 40.0))
    assert score(figures, targets) == pytest.approx(0.05 + 0.10 + 0.10)


def test_a_candidate_without_a_decided_game_scores_infinitely_far() -> None:
    figures = candidate_figures([outcome(index, None) for index in range(10)], 2)
    assert math.isnan(figures["first_player_wins"].value)
    assert score(figures, parse_targets(None, 2)) == math.inf
    assert figures["draws"].value == 1.0


def test_the_least_possible_score_rules_out_a_drawish_candidate() -> None:
    drawn = [outcome(index, None) for index in range(60)]
    assert least_possible_score(drawn, (Target("draws", 0.0),)) > 0.7
    mixed = [outcome(index, index % 2 == 0 if index % 3 else None) for index in range(60)]
    assert least_possible_score(mixed, (Target("draws", 1 / 3), Target("first_player_wins", 0.5))) == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([True, False, None]), min_size=1, max_size=80), st.floats(0, 1))
def test_the_least_possible_score_never_exceeds_the_distance_of_the_truth_when_it_is_inside(results, target) -> None:
    """The bound is the target's distance from an interval: never more than the distance of any
    point of that interval, so it is 0 when the target lies between the interval's ends."""
    games = [outcome(index, result) for index, result in enumerate(results)]
    bound = least_possible_score(games, (Target("draws", target),))
    observed = sum(result is None for result in results) / len(results)
    assert 0.0 <= bound <= abs(observed - target) + 1e-12


# --- the search ----------------------------------------------------------------------------
def fake_play(first_share_of: dict[int, float]):
    """A stand-in for playing a study: candidate no_capture_limit=x makes the first player win
    a share ``first_share_of[x]`` of its games (none drawn); records how many games it asked for."""
    asked: list[tuple[int, int]] = []

    def play(study, sink):
        limit = study.variants[0].options["no_capture_limit"]
        asked.append((limit, study.games))
        wins = round(first_share_of[limit] * study.games)
        return {"": [outcome(index, index < wins) for index in range(study.games)]}

    play.asked = asked  # type: ignore[attr-defined]
    return play


def overseer_search(**changes) -> BalanceSearch:
    fields = {"game_id": "overseer", "agents": ("random",),
              "dimensions": (parse_dimension("no_capture_limit=10..50:10", OVERSEER),),
                  "targets": (Target("first_player_wins", 0.5),), "players": 2, "trials": 5, "games": 40, "batch": 40, "seed": 3}
    fields.update(changes)
    return BalanceSearch(**fields)


def test_a_small_space_is_searched_exhaustively_once_each(tmp_path: Path) -> None:
    shares = {10: 0.9, 20: 0.7, 30: 0.5, 40: 0.6, 50: 0.8}
    play = fake_play(shares)
    trials = run_search(overseer_search(), tmp_path, play)
    assert sorted(trial.options["no_capture_limit"] for trial in trials) == [10, 20, 30, 40, 50]
    assert finalists(trials, 2) == [{"no_capture_limit": 30}, {"no_capture_limit": 40}]
    assert all(trial.note == "" for trial in trials)


def test_the_sampled_search_is_reproducible_and_finds_the_fair_setting(tmp_path: Path) -> None:
    dimension = parse_dimension("no_capture_limit=10..200:10", OVERSEER)
    shares = {value: min(1.0, 0.5 + abs(value - 120) / 200) for value in dimension.values}
    search = overseer_search(dimensions=(dimension,), trials=12)
    first = run_search(search, tmp_path / "a", fake_play(shares))
    second = run_search(search, tmp_path / "b", fake_play(shares))
    assert [t.options for t in first] == [t.options for t in second]
    assert not search.exhaustive
    best = finalists(first, 1)[0]["no_capture_limit"]
    # 12 of 20 settings tried: the best found is near the fair one (a random 12 would often miss)
    assert abs(best - 120) <= 20
    # twelve different settings: a proposal met again is replaced by an untried one
    assert len({t.options["no_capture_limit"] for t in first}) == 12


def test_a_hopeless_candidate_is_dropped_after_one_batch(tmp_path: Path) -> None:
    shares = {10: 0.5, 20: 1.0, 30: 1.0, 40: 1.0, 50: 1.0}
    play = fake_play(shares)
    trials = run_search(overseer_search(games=200, batch=50), tmp_path, play)
    by_limit = {t.options["no_capture_limit"]: t for t in trials}
    assert by_limit[10].pruned == "" and by_limit[10].games == 200
    for limit in (20, 30, 40, 50):
        assert by_limit[limit].pruned.startswith("after 50 games")
        assert by_limit[limit].games == 50
    assert finalists(trials, 3) == [{"no_capture_limit": 10}]


def test_the_confirmation_puts_the_rules_as_they_are_first_on_new_seeds() -> None:
    search = overseer_search()
    study = confirmation_study(search, {"no_capture_limit": 100}, [{"no_capture_limit": 30}, {"no_capture_limit": 100}], 50)
    assert [variant.name for variant in study.variants] == ["no_capture_limit=100", "no_capture_limit=30"]
    assert study.seed != search.seed and study.games == 50


def test_a_searched_option_cannot_also_be_fixed() -> None:
    with pytest.raises(OptionError, match="both fixed"):
        overseer_search(options={"no_capture_limit": 40})
    with pytest.raises(OptionError, match="at least one --vary"):
        overseer_search(dimensions=())


def figure(value: float, low: float, high: float) -> dict[str, float]:
    return {"value": value, "low": low, "high": high, "games": 200}


def test_a_candidate_is_clearly_closer_only_where_its_difference_excludes_zero_towards_the_target() -> None:
    baseline = {"draws": figure(0.30, 0.24, 0.37), "first_player_wins": figure(0.60, 0.53, 0.67)}
    targets = (Target("draws", 0.0), Target("first_player_wins", 0.5))
    fewer_draws = {"draws": figure(-0.10, -0.17, -0.03), "first_player_wins": figure(-0.05, -0.14, 0.04)}
    assert clearly_closer(baseline, fewer_draws, targets) == ["draws"]
    # more draws beyond chance is a difference, but away from the target
    more_draws = {"draws": figure(0.10, 0.03, 0.17), "first_player_wins": figure(0.0, -0.09, 0.09)}
    assert clearly_closer(baseline, more_draws, targets) == []
    # a first player's edge cut beyond chance, from above the fair share
    assert clearly_closer(baseline, {"first_player_wins": figure(-0.08, -0.15, -0.01)}, targets) == ["first_player_wins"]


def test_a_target_every_setting_misses_on_the_same_side_is_out_of_reach() -> None:
    targets = (Target("draws", 0.0), Target("length", 80.0))
    candidates = [{"draws": figure(0.86, 0.80, 0.90), "length": figure(195.2, 184.1, 206.4)},
                  {"draws": figure(0.84, 0.79, 0.89), "length": figure(74.3, 66.0, 82.6)}]
    assert out_of_reach(candidates, targets) == [{"figure": "draws", "target": 0.0, "lowest": 0.84, "highest": 0.86}]
    words = recommendation_words({"best": "a", "baseline": "a", "clearly_closer": [],
                                  "out_of_reach": out_of_reach(candidates, targets)})
    assert words[1].startswith("No setting searched reaches the draws asked for (0%): 84% to 86% in every confirmed setting")


# --- the command -------------------------------------------------------------------------
def balance_args(out: Path, *extra: str) -> list[str]:
    return ["balance", "towers", "--preset", "quick", "--vary", "layout=diagram,split_sides,pinwheel",
            "--trials", "2", "-n", "6", "--batch", "3", "--finalists", "1", "--confirm-games", "6",
            "--out", str(out), *extra]


def played_games(folder: Path) -> int:
    return sum(len(path.read_text().splitlines()) for path in folder.rglob("games.jsonl"))


def test_the_command_writes_a_reproducible_resumable_report(tmp_path: Path, capsys) -> None:
    out, doc = tmp_path / "run", tmp_path / "docs" / "towers.md"
    assert main(balance_args(out, "--doc", str(doc))) == 0
    first = json.loads((out / "balance.json").read_text())
    games = played_games(out)
    assert games == 2 * 6 + 2 * 6  # two candidates, then the rules as they are and the best one
    assert f"playing its {games} games;" in doc.read_text()  # a first run: nothing was stored before it
    # six games a candidate come no closer than the rules as they are: nothing to caution about
    assert first["recommendation"]["best"] == first["recommendation"]["baseline"]
    assert "Recommendation: keep the rules as they are (layout=diagram)" in " ".join(capsys.readouterr().out.split())
    # a setting recommended over the rules, closer to a target beyond chance, is said with the caution
    buffer = io.StringIO()
    recommended = {**first, "recommendation": {**first["recommendation"], "best": "layout=pinwheel",
                                               "clearly_closer": ["draws"]}}
    print_balance(Console(file=buffer, width=100), recommended)
    shown = " ".join(buffer.getvalue().split())
    assert "Recommendation: layout=pinwheel, closer to the targets than the rules as they are in draws" in shown
    assert "a lead, not a ruling" in shown
    # the best score alone, with no figure closer beyond chance, keeps the rules
    buffer = io.StringIO()
    print_balance(Console(file=buffer, width=100),
                  {**first, "recommendation": {**recommended["recommendation"], "clearly_closer": []}})
    shown = " ".join(buffer.getvalue().split())
    assert "Recommendation: keep the rules as they are (layout=diagram). The closest setting, layout=pinwheel" in shown
    assert "a lead, not a ruling" not in shown
    # at 80 columns every setting reads whole, on one line
    narrow = io.StringIO()
    print_balance(Console(file=narrow, width=80), first)
    assert "…" not in narrow.getvalue() and "│ layout=diagram " in narrow.getvalue()
    assert main(balance_args(out, "--doc", str(doc))) == 0
    again = json.loads((out / "balance.json").read_text())
    assert played_games(out) == games  # nothing played twice
    assert again["trials"] == first["trials"] and again["recommendation"] == first["recommendation"]
    text = doc.read_text()
    assert f"playing 0 games of the {games} stored" in text  # the second run played nothing
    assert "boardlab balance towers --preset quick --vary layout=diagram,split_sides,pinwheel" in text
    assert "load average" in text and "## The path the search took" in text and "/report.html`" in text
    assert first["recommendation"]["baseline"] == "layout=diagram"
    report = Path(first["recommendation"]["report"])
    assert report.name == "report.html" and report.exists()


def test_an_interrupted_search_says_what_it_kept_and_the_same_command_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    real_add = StudyFolder.add
    stored: list[object] = []

    def add_then_interrupt(folder: StudyFolder, played: object) -> object:
        outcome = real_add(folder, played)
        stored.append(outcome)
        if len(stored) == 4:
            raise KeyboardInterrupt  # as Ctrl-C after the fourth game is stored
        return outcome

    monkeypatch.setattr(StudyFolder, "add", add_then_interrupt)
    assert main(balance_args(out)) == 130
    said = " ".join(capsys.readouterr().err.split())
    assert played_games(out) == 4
    assert f"interrupted: 4 games played now, 4 in all, are stored in {out}/; run the same command again to go on" in said
    monkeypatch.setattr(StudyFolder, "add", real_add)
    assert main(balance_args(out)) == 0  # the same command goes on from the stored games
    assert f"playing {played_games(out) - 4} games of the {played_games(out)} stored" in (out / "balance.md").read_text()


def test_the_command_without_a_vary_says_what_to_give(tmp_path: Path, capsys) -> None:
    assert main(["balance", "towers", "--preset", "quick", "--out", str(tmp_path / "x")]) == 2
    assert "--vary" in capsys.readouterr().err
    assert main(["balance", "towers", "--preset", "quick", "--vary", "layout=diagram", "--out", str(tmp_path / "y")]) == 2
    assert "at least two different values" in capsys.readouterr().err


def test_settings_that_change_no_game_are_noted_and_confirmed_once(tmp_path: Path) -> None:
    shares = {10: 0.6, 20: 0.6, 30: 0.6, 40: 0.9, 50: 0.6}  # 10, 20, 30 and 50 play the very same games
    trials = run_search(overseer_search(), tmp_path, fake_play(shares))
    by_limit = {t.options["no_capture_limit"]: t for t in trials}
    first = min((t for t in trials if shares[t.options["no_capture_limit"]] == 0.6), key=lambda t: t.number)
    twins = [t for t in trials if t.same_as is not None]
    assert len(twins) == 3 and all(t.same_as == first.number for t in twins)
    assert all(f"the very same games as trial {first.number}" in t.note for t in twins)
    assert finalists(trials, 3) == [first.options, by_limit[40].options]


def test_the_command_announces_only_the_candidates_it_will_play(tmp_path: Path, capsys) -> None:
    # three layouts, five trials asked: the grid is exhausted after three and nothing is played twice
    args = ["balance", "towers", "--preset", "quick", "--vary", "layout=diagram,split_sides,pinwheel",
            "--trials", "5", "-n", "3", "--batch", "3", "--finalists", "1", "--confirm-games", "3",
            "--out", str(tmp_path / "run")]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "3 candidates (every combination)" in err and "5 candidates" not in err
    assert played_games(tmp_path / "run") == 3 * 3 + 2 * 3


def stored_lines(folder: Path) -> dict[tuple[str, int], dict]:
    """A study folder's game lines by (variant, index)."""
    lines = map(json.loads, (folder / "games.jsonl").read_text().splitlines())
    return {(line["variant"], line["index"]): line for line in lines}


def test_a_confirmation_with_more_finalists_takes_over_the_games_already_played(tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"

    def run(finalists: str) -> dict:
        args = balance_args(out, "--trials", "3")
        args[args.index("--finalists") + 1] = finalists
        assert main(args) == 0
        return json.loads((out / "balance.json").read_text())

    narrow = run("1")
    (first,) = list((out / "confirm").iterdir())
    capsys.readouterr()
    wide = run("2")
    second = next(path for path in (out / "confirm").iterdir() if path != first)
    first_games, second_games = stored_lines(first), stored_lines(second)
    # the rules as they are and the first finalist were taken over, game for game, not played again
    assert f"{len(first_games)} games taken over" in " ".join(capsys.readouterr().err.split())
    assert set(first_games) < set(second_games)
    for key, line in first_games.items():
        assert line["moves_digest"] == second_games[key]["moves_digest"] and line["seed"] == second_games[key]["seed"]
        record = json.loads(Path(second_games[key]["record_path"]).read_text())
        assert record["meta"]["study"] == second_games[key]["study"] != line["study"]
    # so the comparison both runs make (the first finalist against the rules as they are) reads the same
    narrow_comparisons = {c["variant"]: c for c in narrow["confirmation"]["comparisons"]}
    shared = [c for c in wide["confirmation"]["comparisons"] if c["variant"] in narrow_comparisons]
    assert shared and all(c == narrow_comparisons[c["variant"]] for c in shared)
