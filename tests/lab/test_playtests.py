"""People's games measured by the lab's own metrics: outcomes traced again from records equal
the lab's, figure for figure; people's figures beside a lab study of the same rules, with
sentences that say only what the intervals show; the form's answers and their checks."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardlab
from boardlab.core.errors import OptionError, RecordError
from boardlab.core.records import Record, Seat
from boardlab.lab.intervals import ratio_of_means
from boardlab.lab.metrics import metric_definitions, variant_metrics
from boardlab.lab.play import SimulationPlan, play_one, record_outcome
from boardlab.lab.playtest_form import RECORD_ANSWERS, FormAnswer, answers_figures, record_answers
from boardlab.lab.playtests import PeopleGame, endings_line, lab_command, playtest_report, report_rows, variant_label
from boardlab.lab.stats import GameOutcome
from boardlab.lab.store import StudyFolder
from boardlab.lab.study import Study, Variant, run_study
from boardlab.lab.verdict import figure_text
from tests.support.budgets import budget


def study_folder(
    tmp_path: Path, game_id: str, agents: tuple[str, ...], games: int, options: dict[str, str] | None = None
) -> Path:
    study = Study(game_id=game_id, variants=(Variant("", dict(options or {}), agents),), games=games, seed=7)
    folder = tmp_path / f"lab-{game_id}-{'-'.join(agents)}"
    run_study(study, sink=StudyFolder(folder, study))
    return folder


def stored_games(folder: Path) -> list[tuple[dict, Record]]:
    """Each game line of a study folder with its record."""
    found = []
    for line in (folder / "games.jsonl").read_text().splitlines():
        data = json.loads(line)
        found.append((data, Record.load(data["record_path"])))
    return found


def as_people(record: Record) -> Record:
    """The same game, its seats people's (what a server's room of people records)."""
    return dataclasses.replace(record, seats=[Seat(seat.name, "human") for seat in record.seats])


@pytest.mark.parametrize("game_id", boardlab.game_ids())
def test_outcomes_traced_again_from_records_are_the_labs_figure_for_figure(tmp_path: Path, game_id: str) -> None:
    folder = study_folder(tmp_path, game_id, ("random",), games=3)
    for data, record in stored_games(folder):
        data.pop("study")
        stored = GameOutcome.from_json(data)
        again = record_outcome(record, stored.index, stored.variant, seating=stored.seat_agents)
        # everything the metrics read (branching, repetition, lead changes, decisiveness, the
        # moves' digest) but the time, which for people is the game's length in time
        assert dataclasses.replace(again, seconds=0.0) == dataclasses.replace(stored, seconds=0.0, record_path=None)
        assert again.seconds == record.turns[-1].t


def test_peoples_figures_of_the_labs_own_games_equal_the_labs_and_differ_by_nothing(tmp_path: Path) -> None:
    folder = study_folder(tmp_path, "towers", ("greedy",), games=6)
    games = [PeopleGame(as_people(record), source=f"g{number}.json") for number, (_, record) in enumerate(stored_games(folder))]
    report = playtest_report("towers", games, [tmp_path])
    (variant,) = report["variants"]
    people, lab = variant["people"], variant["lab"]
    assert people["games"] == lab["games"] == 6
    for key, figure in people["metrics"].items():
        assert figure == lab["metrics"][key], key
    assert people["endings"] == lab["endings"] and people["branching_curve"] == lab["branching_curve"]
    for key, difference in variant["comparison"].items():
        if key == "length_ratio":
            assert difference["value"] == pytest.approx(1.0)
        elif difference["value"] is not None:
            assert difference["value"] == pytest.approx(0.0), key
    verdict = " ".join(variant["verdict"])
    assert "No clear difference from the lab in who wins" in verdict and "longer" not in verdict and "shorter" not in verdict


def test_the_verdict_says_how_much_longer_peoples_games_are_with_the_ratios_interval(tmp_path: Path) -> None:
    study_folder(tmp_path, "towers", ("greedy",), games=8)
    # random play stands in for people who wander: far longer games than the greedy lab's
    plan = SimulationPlan(game_id="towers", agents=("random",), games=8, seed=1)
    people = [PeopleGame(as_people(play_one(plan, index).record), room=f"r{index}") for index in range(8)]
    report = playtest_report("towers", people, [tmp_path])
    (variant,) = report["variants"]
    ratio = variant["comparison"]["length_ratio"]
    assert ratio["low"] > 1
    line = next(line for line in variant["verdict"] if line.startswith("People's games last"))
    expected = (
        f"People's games last {100 * (ratio['value'] - 1):.0f}% longer than the lab's "
        f"[{100 * (ratio['low'] - 1):.0f}, {100 * (ratio['high'] - 1):.0f}] "
        f"({variant['people']['metrics']['decisions']['value']:.0f} decisions against "
        f"{variant['lab']['metrics']['decisions']['value']:.0f})."
    )
    assert line == expected
    assert any(line.startswith("The lab's figures: 8 games of greedy") for line in variant["verdict"])


def test_without_a_lab_study_the_report_gives_the_command_that_makes_one(tmp_path: Path) -> None:
    plan = SimulationPlan(game_id="towers", agents=("greedy",), games=2, seed=1, options={"layout": "pinwheel"})
    people = [PeopleGame(as_people(play_one(plan, index).record)) for index in range(2)]
    report = playtest_report("towers", people, [tmp_path])
    (variant,) = report["variants"]
    assert variant["variant"] == "layout=pinwheel" and variant["lab"] is None and variant["comparison"] is None
    command = "boardlab lab towers --preset strong -n 200 -O layout=pinwheel --out lab-towers-layout=pinwheel"
    assert variant["lab_command"] == command and variant["verdict"][-2].endswith(command)
    # run as given, the command makes the study the report then sets beside people's games
    game = boardlab.load("towers", layout="pinwheel")
    assert lab_command(game) == command
    lab = study_folder(tmp_path, "towers", ("greedy",), games=3, options={"layout": "pinwheel"})
    again = playtest_report("towers", people, [tmp_path])["variants"][0]
    assert again["lab"]["study"]["folder"] == str(lab) and again["lab"]["games"] == 3


def test_variants_sessions_and_what_is_left_out_are_told_apart() -> None:
    games = []
    for layout, count in (("diagram", 3), ("pinwheel", 1)):
        plan = SimulationPlan(game_id="towers", agents=("greedy",), games=count, seed=2, options={"layout": layout})
        for index in range(count):
            games.append(PeopleGame(as_people(play_one(plan, index).record), session="club" if index < 2 else None))
    computer = play_one(SimulationPlan(game_id="towers", agents=("greedy",), games=1), 0).record
    broken = dataclasses.replace(as_people(computer), turns=computer.turns[:3] + computer.turns[4:])
    games += [PeopleGame(computer), PeopleGame(broken)]
    report = playtest_report("towers", games)
    assert report["games"] == 4 and report["left_out"] == {"with the computer": 1, "unreadable": 1}
    assert [variant["variant"] for variant in report["variants"]] == ["", "layout=pinwheel"]  # the most games first
    assert [(s["session"], s["people"]["games"]) for s in report["variants"][0]["sessions"]] == [("club", 2)]
    assert variant_label(boardlab.load("towers")) == ""
    rows = report_rows(report)
    assert len(rows) == 8 and {row["variant"] for row in rows} == {"", "layout=pinwheel"}


def test_the_forms_figures_are_shares_and_a_mean_with_their_intervals() -> None:
    answers = [
        FormAnswer(0, fun=5, fairness="fair", length="right"),
        FormAnswer(1, fun=2, fairness="favoured", favoured=0, length="long", note="White always wins"),
        FormAnswer(0, fun=4, fairness="fair"),
        FormAnswer(1, note="only a note"),
    ]
    figures = answers_figures(answers, seats=2)
    assert figures["answers"] == 4
    assert figures["fun"]["value"] == pytest.approx(11 / 3) and figures["fun"]["games"] == 3
    assert 1.0 <= figures["fun"]["low"] < 11 / 3 < figures["fun"]["high"] <= 5.0  # within the scale
    assert figures["fair"]["value"] == pytest.approx(2 / 3) and figures["fair"]["games"] == 3
    assert [share["value"] for share in figures["favoured"]] == pytest.approx([1 / 3, 0.0])
    assert figures["length"]["long"]["value"] == 0.5 and figures["length"]["right"]["games"] == 2
    nobody = answers_figures([], seats=2)
    assert nobody["fun"]["value"] is None and nobody["fair"]["value"] is None


def test_the_forms_checks_name_what_is_wrong() -> None:
    for answer, wrong in (
        (FormAnswer(0, fun=0), "fun 0"),
        (FormAnswer(0, fun=True), "fun True"),
        (FormAnswer(0, fairness="favoured"), "names the seat favoured"),
        (FormAnswer(0, fairness="fair", favoured=1), "only with fairness 'favoured'"),
        (FormAnswer(0, fairness="favoured", favoured=2), "favoured 0..1"),
        (FormAnswer(0, length="endless"), "length 'endless'"),
        (FormAnswer(2, fun=3), "seat 2"),
        (FormAnswer(0, note="   "), "the form is empty"),
        (FormAnswer(0, note="x" * 1001), "1001 characters"),
    ):
        with pytest.raises(OptionError, match=wrong):
            answer.checked(players=2)
    assert FormAnswer(1, note="  good  ").checked(2).note == "good"


@budget(200)
@given(st.dictionaries(st.sampled_from(["seat", "fun", "fairness", "favoured", "length", "note", "other"]),
                       st.one_of(st.none(), st.booleans(), st.integers(-2, 7), st.text(max_size=5))))
def test_any_object_is_a_checked_answer_or_an_option_error(data: dict) -> None:
    try:
        answer = FormAnswer.from_json(data, players=2)
    except OptionError:
        return
    assert answer == answer.checked(2) and FormAnswer.from_json(answer.to_json(), 2) == answer


def test_a_records_answers_are_read_back_and_bad_ones_refused() -> None:
    record = play_one(SimulationPlan(game_id="towers", agents=("greedy",), games=1), 0).record
    answers = [FormAnswer(0, fun=3), FormAnswer(1, length="short")]
    record.meta[RECORD_ANSWERS] = [answer.to_json() for answer in answers]
    assert record_answers(Record.loads(record.dumps())) == answers
    record.meta[RECORD_ANSWERS] = [{"seat": 0, "fun": 9}]
    with pytest.raises(RecordError, match="fun 9"):
        record_answers(record)


def test_an_unfinished_record_is_not_measured() -> None:
    record = play_one(SimulationPlan(game_id="towers", agents=("greedy",), games=1), 0).record
    unfinished = dataclasses.replace(record, turns=record.turns[:-1], result=None)
    with pytest.raises(RecordError, match="not over"):
        record_outcome(unfinished)


def test_the_ratio_of_two_means_has_an_interval_that_is_even_on_the_log_scale() -> None:
    ratio, (low, high) = ratio_of_means([10.0, 12.0, 14.0], [20.0, 24.0, 28.0])
    assert ratio == pytest.approx(2.0)
    assert low < 2.0 < high and math.log(high / 2.0) == pytest.approx(math.log(2.0 / low))
    assert math.isnan(ratio_of_means([1.0], [2.0, 3.0])[0]) and math.isnan(ratio_of_means([0.0, 0.0], [1.0, 2.0])[0])


def test_the_metrics_of_the_same_outcomes_do_not_depend_on_their_source(tmp_path: Path) -> None:
    folder = study_folder(tmp_path, "overseer", ("random",), games=4)
    stored, traced = [], []
    for data, record in stored_games(folder):
        data.pop("study")
        stored.append(GameOutcome.from_json(data))
        traced.append(record_outcome(as_people(record), len(traced), seating=stored[-1].seat_agents))
    seats = [boardlab.load("overseer").player_name(seat) for seat in range(2)]
    metrics = metric_definitions(seats)
    assert variant_metrics("", stored, metrics, 2).to_json() == variant_metrics("", traced, metrics, 2).to_json()


def test_the_terminal_table_rounds_as_the_sentences_and_endings_read_in_words() -> None:
    # a share at the half and bounds that rounding to the nearest would pull inward
    assert figure_text({"value": 0.625, "low": 0.389, "high": 0.821}, True) == "63% [38, 83]"
    assert figure_text({"value": 0.07, "low": -0.281, "high": 0.392}, True, signed=True) == "+7 [-29, 40]"
    assert figure_text({"value": -0.004, "low": -0.2, "high": 0.19}, True, signed=True) == "0 [-20, 19]"
    # a mean: three significant digits, its interval to as many decimals, rounded outward
    assert figure_text({"value": 85.43, "low": 74.41, "high": 96.46}, False) == "85.4 [74.4, 96.5]"
    assert figure_text({"value": 1234.5, "low": 1000.2, "high": 1400.7}, False) == "1230 [1000, 1401]"
    assert figure_text({"value": None, "low": None, "high": None}, False) == "-"
    entry = {"people": {"endings": {"resign": 3, "no_capture_limit": 1}}, "lab": {"endings": {"move_limit": 4}}}
    assert endings_line(entry) == "Endings among people: resign 3, no capture limit 1; in the lab: move limit 4."
