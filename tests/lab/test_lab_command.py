"""``boardlab lab``, ``tournament`` and ``simulate`` end to end, and what a new user hit."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from boardlab.lab.study import Study, Variant, run_study
from tests.cli.test_commands import ROOT, run

TOWERS_QUICK = ("towers", "--players", "greedy,greedy", "--seed", "1")


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def start(*args: str) -> subprocess.Popen:
    environment = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.cli.run_boardlab", *args],
        cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # a test run started in the background (`... &` in a script) inherits SIGINT ignored, and
        # Python then never turns it into KeyboardInterrupt: give the command the default back
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_games(games_file: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while len(lines(games_file)) < count:
        assert process.poll() is None, "the study ended before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_lab_report_has_every_variant_metric_and_plot_offline(tmp_path: Path) -> None:
    out = tmp_path / "study"
    done = run("lab", "dicenim", "--players", "random,greedy", "-n", "4", "--vary", "pile=5,9", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "metrics with 95% intervals" in done.stdout and "pile=9 minus pile=5" in done.stdout
    page = (out / "report.html").read_text()
    for text in ("pile=5", "pile=9", "Differences from the first variant", "first player wins", "balance",
                 "branching factor", "std dev", "Win rates with 95% intervals", "Game length",
                 "Branching factor over the course"):
        assert text in page, text
    assert page.count("<svg") == 3  # plots are embedded, not linked
    # nothing to fetch, so it works offline: no script, no source, and the one link is the icon, inline
    links = re.findall(r"<link[^>]*>", page)
    assert "src=" not in page and "<script" not in page
    assert all('rel="icon"' in link and 'href="data:' in link for link in links), links
    report = json.loads((out / "report.json").read_text())
    assert [v["variant"] for v in report["variants"]] == ["pile=5", "pile=9"]
    assert report["comparisons"][0]["variant"] == "pile=9"
    assert sum(report["variants"][1]["length_histogram"]["counts"]) == 4
    with (out / "summary.csv").open() as handle:
        summary = list(csv.DictReader(handle))
    assert len(summary) == 2 * len(report["metrics"])
    with (out / "games.csv").open() as handle:
        games = list(csv.DictReader(handle))
    assert len(games) == 8 and all((out / row["record"]).exists() for row in games)


def test_lab_killed_midway_continues_to_the_uninterrupted_result(tmp_path: Path) -> None:
    out = tmp_path / "study"
    args = ("lab", *TOWERS_QUICK, "-n", "40", "--out", str(out))
    process = start(*args)
    wait_for_games(out / "games.jsonl", 3, process)
    process.kill()  # no clean-up at all: as if the machine went down
    process.communicate()
    before = len(lines(out / "games.jsonl"))
    assert before < 40
    done = run(*args)
    assert done.returncode == 0, done.stderr
    stored = lines(out / "games.jsonl")
    assert len(stored) == 40 and len({line["index"] for line in stored}) == 40  # no game counted twice
    study = Study("towers", (Variant("", {}, ("greedy", "greedy")),), games=40, seed=1)
    uninterrupted = run_study(study)[""]
    assert [(g["index"], g["winners"], g["moves"], g["code"]) for g in sorted(stored, key=lambda g: g["index"])] == [
        (o.index, list(o.winners), o.moves, o.code) for o in uninterrupted
    ]


def test_tournament_rates_greedy_above_random(tmp_path: Path) -> None:
    done = run("tournament", "towers", "--agents", "random,greedy", "-n", "6", "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    ratings = json.loads(done.stdout)
    assert [entry["agent"] for entry in ratings] == ["greedy", "random"]
    assert ratings[0]["low"] > ratings[1]["mu"]  # clearly apart after six one-sided games
    assert all(entry["games"] == 6 for entry in ratings)


def test_lab_presets_and_refusals() -> None:
    both = run("lab", "towers", "--players", "random", "--preset", "quick")
    assert both.returncode == 2 and "not both" in both.stderr
    unknown = run("lab", "dicenim", "--players", "random", "--vary", "pile=5,500")
    assert unknown.returncode == 2 and "pile" in unknown.stderr and "Traceback" not in unknown.stderr


# --- what a new user hit in simulate -----------------------------------------------
def test_simulate_records_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text("mine")
    done = run("simulate", "dicenim", "--players", "random", "-n", "2", "--records", str(notes))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "is a file, not a folder" in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2  # one message (rich may wrap it)
    assert notes.read_text() == "mine"


def test_simulate_records_resume_and_never_replace_other_files(tmp_path: Path) -> None:
    records = tmp_path / "runs"
    args = ("simulate", "dicenim", "--players", "random,greedy", "--rotate", "--records", str(records), "--json")
    first = run(*args, "-n", "4")
    assert first.returncode == 0, first.stderr
    written = {path.name: path.read_text() for path in (records / "records").glob("dicenim-*.json")}
    assert len(written) == 4
    more = run(*args, "-n", "6")  # continues: two new games, the four kept as they were
    assert more.returncode == 0, more.stderr
    assert json.loads(more.stdout)["games"] == 6
    assert all((records / "records" / name).read_text() == text for name, text in written.items())
    assert len(lines(records / "games.jsonl")) == 6
    other = run("simulate", "dicenim", "--players", "random", "-n", "3", "--records", str(records))
    assert other.returncode == 2 and "different study" in other.stderr
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "dicenim-00000.json").write_text("not a record")
    refused = run("simulate", "dicenim", "--players", "random", "-n", "2", "--records", str(foreign))
    assert refused.returncode == 2 and "holds no boardlab study" in " ".join(refused.stderr.split())  # wrapped lines
    assert (foreign / "dicenim-00000.json").read_text() == "not a record"


def test_ctrl_c_prints_the_finished_games_and_the_study_continues(tmp_path: Path) -> None:
    records = tmp_path / "runs"
    # far more games than can finish before the signal, however fast the machine (greedy plays ~50 a second)
    args = ("simulate", *TOWERS_QUICK, "-n", "20000", "--jobs", "2", "--records", str(records))
    process = start(*args)
    wait_for_games(records / "games.jsonl", 3, process)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr
    finished = len(lines(records / "games.jsonl"))
    assert f"{finished} games: wins per seat" in stdout  # the statistics of exactly the stored games
    again = run(*args[:-2], "-n", str(finished + 2), "--records", str(records), "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["games"] == finished + 2
    assert len(lines(records / "games.jsonl")) == finished + 2


def test_progress_is_printed_on_a_pipe_with_a_running_clock() -> None:
    done = run("simulate", *TOWERS_QUICK, "-n", "3")
    assert done.returncode == 0, done.stderr
    progress = [line for line in done.stderr.splitlines() if line.startswith("towers:")]
    assert progress and progress[-1].startswith("towers: 3/3 games") and "elapsed" in progress[-1]


def test_the_lab_loads_its_heavy_extras_only_where_used() -> None:
    code = (
        "import sys, boardlab.lab, boardlab.lab.report, boardlab.lab.ratings, boardlab.cli.lab, boardlab.cli.tournament;"
        "print(sorted(m for m in ('matplotlib', 'openskill', 'ray') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_study_of_agents_without_randomness_warns_that_its_games_repeat(tmp_path: Path) -> None:
    settled = "mcts:iterations=8,leaf_eval=true,widen=1"
    repeated = run("simulate", "towers", "--players", f"{settled},{settled}", "-n", "3")
    assert repeated.returncode == 0, repeated.stderr
    assert "2 of 3 games repeat an earlier one move for move" in " ".join(repeated.stdout.split())
    varied = run("simulate", "towers", "--players", f"{settled},jitter=0.03,{settled},jitter=0.03", "-n", "3")
    assert varied.returncode == 0, varied.stderr
    assert "move for move" not in " ".join(varied.stdout.split())
    # the lab rotates the seats: games 0 and 2 sit the agents one way, 1 and 3 the other
    study = run("lab", "towers", "--players", f"{settled},{settled}", "-n", "4", "--out", str(tmp_path / "s"))
    assert study.returncode == 0, study.stderr
    assert "2 of 4 games repeat an earlier one" in " ".join(study.stdout.split())
    assert study.stdout.startswith("Careful: 2 of 4 games repeat"), "said before the findings that rest on them"
    assert "move for move" in (tmp_path / "s" / "report.html").read_text()
