"""Stop when sure: the confidence sequence holds the truth at every n at the
stated rate, costs width against a fixed-n interval, and a study stops early only when a
difference is clear."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.lab.sequential import (
    Stopping,
    Watched,
    confidence_sequence,
    paired_difference,
    run_until_sure,
    sequence_difference,
    sequence_interval,
)
from boardlab.lab.stats import wilson_interval
from boardlab.lab.study import Study, Variant, run_study
from tests.cli.test_commands import run
from tests.conformance.testgames import register_test_games


def test_the_sequence_covers_the_truth_at_every_n_at_the_stated_rate() -> None:
    rng = random.Random(22)
    streams, length = 150, 300
    for truth in (0.5, 0.2, 0.03):
        misses = 0
        for _ in range(streams):
            values = [float(rng.random() < truth) for _ in range(length)]
            # a miss anywhere along the stream counts: the guarantee is for every n at once
            misses += any(not low <= truth <= high for low, high in confidence_sequence(values))
        assert misses / streams <= 0.05, (truth, misses)


def test_peeking_at_a_fixed_n_interval_after_every_game_misses_far_more_often() -> None:
    # the reason for the method: the Wilson interval checked after every game is not 95%
    rng = random.Random(7)
    misses = 0
    for _ in range(150):
        values = [float(rng.random() < 0.5) for _ in range(300)]
        wins = 0
        for number, value in enumerate(values, start=1):
            wins += int(value)
            low, high = wilson_interval(wins, number)
            if not low <= 0.5 <= high:
                misses += 1
                break
    assert misses / 150 > 0.15


def test_the_sequence_is_wider_than_the_fixed_n_wilson_interval() -> None:
    rng = random.Random(3)
    for truth, games in ((0.5, 100), (0.3, 400), (0.1, 1000)):
        values = [float(rng.random() < truth) for _ in range(games)]
        low, high = sequence_interval(values)
        wilson_low, wilson_high = wilson_interval(round(sum(values)), games)
        assert high - low > wilson_high - wilson_low
        assert low <= sum(values) / games <= high


def test_the_sequence_narrows_and_never_widens() -> None:
    values = [float(number % 3 == 0) for number in range(500)]
    widths = [high - low for low, high in confidence_sequence(values)]
    assert all(later <= earlier for earlier, later in itertools.pairwise(widths))
    assert widths[-1] < 0.2 < widths[20]


def test_a_difference_holds_both_means_and_values_must_be_bounded() -> None:
    low, high = sequence_difference([0.0] * 200, [1.0] * 200)
    assert 0.8 < low < high <= 1.0
    low, high = sequence_difference([1.0, 0.0] * 100, [0.0, 1.0] * 100)
    assert low < 0 < high
    with pytest.raises(ValueError):
        confidence_sequence([0.5, 2.0])


def test_pairs_that_move_together_give_a_narrower_difference_that_still_covers() -> None:
    rng = random.Random(5)
    misses = 0
    for _ in range(100):
        # a rule change that turns 15% of the baseline's decided games into draws
        base = [float(rng.random() < 0.3) for _ in range(400)]
        changed = [1.0 if value or rng.random() < 0.15 else 0.0 for value in base]
        truth = 0.7 * 0.15
        sequence = confidence_sequence([(b - a + 1) / 2 for a, b in zip(base, changed)])
        misses += any(not 2 * low - 1 <= truth <= 2 * high - 1 for low, high in sequence)
    assert misses / 100 <= 0.05
    paired_low, paired_high = paired_difference(base, changed)
    apart_low, apart_high = sequence_difference(base, changed)
    assert paired_low > 0 and apart_low < 0 < apart_high  # the pairs settle it, the union cannot yet
    assert paired_high - paired_low < (apart_high - apart_low) / 2
    with pytest.raises(ValueError):
        paired_difference([0.0], [0.0, 1.0])


def test_width_or_excluding_the_reference_settles() -> None:
    open_ = Watched("draws", 0.01, -0.05, 0.07, 0.0, 100)
    assert not open_.settled(None) and open_.settled(0.15) and not open_.settled(0.1)
    assert Watched("first player wins", 0.6, 0.52, 0.68, 0.5, 100).settled(None)
    stop = Stopping(100, 100, 20, None, (open_,))
    assert not stop.settled and stop.reason().startswith("not sure after 100 games per variant (the -n limit)")


def test_a_clearly_stronger_agent_stops_the_study_at_the_first_look() -> None:
    study = Study("towers", (Variant("", {}, ("greedy", "random")),), games=200, players=2)
    outcomes, stopping = run_until_sure(study, ["greedy", "random"], 2, batch=20)
    assert stopping.settled and stopping.games == 20
    assert len(outcomes[""]) == 20
    assert "sure after 20 games per variant (of at most 200)" in stopping.reason()


def test_a_variant_that_changes_nothing_runs_to_the_limit_unless_a_width_settles_it() -> None:
    register_test_games()
    # two names for the same rules: every game of one is the same game in the other
    variants = (Variant("a", {}, ("random", "random")), Variant("b", {}, ("random", "random")))
    study = Study("dicenim", variants, games=100, players=2)
    looks: list[int] = []

    def play(part: Study):
        looks.append(part.games)
        return run_study(part)

    outcomes, stopping = run_until_sure(study, ["random", "random"], 2, batch=25, run=play)
    assert looks == [25, 50, 75, 100] and not stopping.settled and stopping.games == 100
    assert all(len(games) == 100 for games in outcomes.values())
    looks.clear()
    # the designer's width settles "no difference worth having" once every interval is narrower
    _, wide = run_until_sure(study, ["random", "random"], 2, batch=25, width=0.9, run=play)
    assert looks == [25, 50, 75] and wide.settled


def test_until_sure_on_the_command_line_says_why_it_stopped_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "study"
    args = ("lab", "towers", "--players", "greedy,random", "-n", "200", "--until-sure", "--batch", "10",
            "--out", str(out))
    first = run(*args)
    assert first.returncode == 0, first.stderr
    found = re.search(r"Stopped: sure after (\d+) games per variant \(of at most 200\)", first.stdout)
    assert found, first.stdout
    stopped_at = int(found.group(1))
    assert stopped_at < 200 and stopped_at % 10 == 0
    report = json.loads((out / "report.json").read_text())
    assert report["stopping"]["games"] == stopped_at and report["stopping"]["settled"]
    assert len((out / "games.jsonl").read_text().splitlines()) == stopped_at
    assert f"sure after {stopped_at} games" in (out / "report.html").read_text()
    games = (out / "games.jsonl").read_text()
    again = run(*args)  # run again: it continues, finds itself sure at the same look, plays nothing
    assert again.returncode == 0 and f"Stopped: sure after {stopped_at} games per variant" in again.stdout
    assert (out / "games.jsonl").read_text() == games


@pytest.mark.parametrize(
    ("extra", "refusal"),
    [
        (("--batch", "10"), "error: --batch applies to --until-sure"),
        (("--width", "5"), "error: --width applies to --until-sure"),
        (("--until-sure", "--width", "-5"), "error: --width -5: an interval's width in percentage points, above 0 and below 100"),
        (("--until-sure", "--width", "100"), "error: --width 100: an interval's width in percentage points"),
        (("--until-sure", "--batch", "0"), "error: --batch needs at least one game"),
    ],
)
def test_until_sure_settings_are_refused_before_a_folder_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], refusal: str
) -> None:
    out = tmp_path / "study"
    assert main(["lab", "towers", "--players", "greedy,random", "-n", "20", "--out", str(out), *extra]) == 2
    assert refusal in " ".join(capsys.readouterr().err.split())
    assert not out.exists()
