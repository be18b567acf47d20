"""The Lab's share of the server: bodies checked strictly before any variant is made, agent
specs priced by their budgets (and refused beyond the cap), each designer's quotas of queued
games, CPU and stored studies, and a worker that stops within a second of being asked."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.lab.executors import SerialExecutor
from boardlab.lab.ladder_docs import load_ladder
from boardlab.lab.play import SimulationPlan, play_one
from boardlab.lab.store import StudyFolder
from boardlab.lab.study import Study, run_study
from boardlab.server import labfolder, labjobs, labrun
from boardlab.server.designers import ADMIN_KEY_FILE, Designer
from boardlab.server.labfolder import REPORTING_FILE, STATUS_FILE
from boardlab.server.labjobs import LabJobs, LabLimits
from boardlab.server.labprice import DECISIONS_PER_GAME, QUICK_DECISION_SECONDS, decision_seconds
from tests.server.harness import Harness, make_harness

STUDY = {"game": "towers", "agents": ["greedy"], "games": 4}
OWNER = Designer("d-ada", "Ada", admin=False)


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Harness]:
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path) as harness:
        jobs = harness.app.state.lab
        jobs.limits = replace(jobs.limits, max_running=0)  # stored only: nothing plays
        harness.client.headers["X-Designer-Key"] = (tmp_path / ADMIN_KEY_FILE).read_text().strip()
        yield harness


def refused(lab: Harness, body: dict[str, Any], status: int = 422) -> str:
    answer = lab.client.post("/api/lab/studies", json=body)
    assert answer.status_code == status, answer.text
    return str(answer.json()["error"]["message"])


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"games": True}, "games"),
        ({"games": "4"}, "games"),
        ({"players": "2"}, "players"),
        ({"seed": 1.5}, "seed"),
        ({"options": {"ply_cap": "0"}}, "ply_cap"),  # a number option given as text
        ({"options": {"random_first": 1}}, "random_first"),  # a switch given as a number
        ({"vary": {"ply_cap": [0, "200"]}}, "ply_cap"),
        ({"agents": ["greedy", 7]}, "agents"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_a_field_of_the_wrong_type_is_refused_never_converted(lab: Harness, change: dict[str, Any], named: str) -> None:
    assert named in refused(lab, {**STUDY, **change})
    assert lab.app.state.lab.all() == []


def test_a_body_asking_for_many_variants_is_refused_before_any_is_made(lab: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def expanded(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("the study was built: its variants were made before the size was checked")

    monkeypatch.setattr(labjobs, "build_study", expanded)
    hundred = {"vary": {name: list(range(100)) for name in ("ply_cap", "no_progress_limit", "layout")}}
    began = time.process_time()
    assert "at most 16 values" in refused(lab, {**STUDY, **hundred})
    # three lists of six: 216 variants, each list within the schema's bound
    six = {"vary": {name: list(range(1, 7)) for name in ("ply_cap", "no_progress_limit")} | {"random_first": [True, False]}}
    assert "72 variants is more than this server's Lab plays (6)" in refused(lab, {**STUDY, **six})
    assert time.process_time() - began < 1.0


def test_an_agent_priced_beyond_the_cap_is_refused_with_its_price(lab: Harness) -> None:
    message = refused(lab, {**STUDY, "agents": ["mcts:iterations=200000000", "random"]})
    assert "mcts:iterations=200000000" in message and "--lab-decision-seconds" in message
    assert lab.app.state.lab.all() == []


def test_agents_are_priced_by_their_budgets() -> None:
    towers = boardlab.load("towers")
    ladder = load_ladder("towers")
    assert ladder is not None
    hard = ladder["ratings"]["hard"]
    # a level costs what the ladder measured of its spec
    assert decision_seconds(towers, "hard", 10.0) == pytest.approx(hard["cpu_median"])
    assert decision_seconds(towers, "greedy", 10.0) == pytest.approx(ladder["ratings"]["easy"]["cpu_median"])
    # a budget the ladder did not measure scales with its iterations, and its own seconds cap it
    small, large = decision_seconds(towers, "mcts:iterations=1000", 10.0), decision_seconds(towers, "mcts:iterations=4000", 10.0)
    assert large == pytest.approx(4 * small) and small > 0
    assert decision_seconds(towers, "mcts:iterations=100000000,seconds=2", 10.0) == 2.0
    # a search with no budget costs the cap; an agent that does not search, a little
    assert decision_seconds(towers, "alphabeta:depth=3", 7.5) == 7.5
    assert decision_seconds(towers, "random:", 10.0) == pytest.approx(ladder["ratings"]["random"]["cpu_median"])
    assert QUICK_DECISION_SECONDS < 0.1


def test_a_level_whose_decisions_differ_in_cost_is_priced_at_their_mean_not_their_median() -> None:
    # Honor's placements cost hundreds of times its bids: priced at the median, a study of its
    # normal level paid for a small share of its CPU and its worker stopped it after a few games
    honor = boardlab.load("honor")
    ladder = load_ladder("honor")
    assert ladder is not None
    normal = ladder["ratings"]["normal"]
    assert normal["cpu_mean"] > 10 * normal["cpu_median"]
    assert decision_seconds(honor, "normal", 10.0) == pytest.approx(normal["cpu_mean"])
    assert decision_seconds(honor, "honor:level=normal", 10.0) == pytest.approx(normal["cpu_mean"])


def test_each_designer_has_a_quota_of_queued_games_and_of_cpu(tmp_path: Path) -> None:
    jobs = LabJobs(tmp_path / "lab", LabLimits(max_running=0, queued_games_per_designer=10))
    jobs.create({**STUDY, "games": 8}, OWNER)
    with pytest.raises(labjobs.LabQuotaError, match="8 games waiting"):
        jobs.create({**STUDY, "games": 4}, OWNER)
    other = Designer("d-bob", "Bob", admin=False)
    jobs.create({**STUDY, "games": 8}, other)  # another designer's quota is their own
    # a stopped study frees its share; continuing it takes it again
    first = jobs.all(OWNER)[-1]["id"]
    jobs.stop(first, OWNER)
    second = jobs.create({**STUDY, "games": 4}, OWNER)
    with pytest.raises(labjobs.LabQuotaError):
        jobs.resume(first, OWNER)
    jobs.stop(second["id"], OWNER)
    assert jobs.resume(first, OWNER)["state"] == "queued"

    # CPU: the hard level's price per decision, times the games' decisions
    priced = LabJobs(tmp_path / "priced", LabLimits(max_running=0, cpu_seconds_per_designer=600.0))
    hard = decision_seconds(boardlab.load("towers"), "hard", 10.0)
    games = int(600.0 / (hard * DECISIONS_PER_GAME)) + 1
    with pytest.raises(labjobs.LabQuotaError, match="CPU minutes"):
        priced.create({**STUDY, "agents": ["hard"], "games": games}, OWNER)
    assert priced.create({**STUDY, "agents": ["hard"], "games": games - 2}, OWNER)["price_seconds"] <= 600.0


def test_one_designer_cannot_fill_the_lab_for_the_others(tmp_path: Path) -> None:
    jobs = LabJobs(tmp_path / "lab", LabLimits(max_running=0, max_stored=3, max_stored_per_designer=2))
    for _ in range(2):
        jobs.create(STUDY, OWNER)
    with pytest.raises(labjobs.LabFullError, match="keeps 2 studies"):
        jobs.create(STUDY, OWNER)
    jobs.create(STUDY, Designer("d-bob", "Bob", admin=False))
    with pytest.raises(labjobs.LabFullError, match="at most 3 studies"):
        jobs.create(STUDY, Designer("d-cy", "Cy", admin=False))
    jobs.delete(jobs.all(OWNER)[0]["id"], Designer("admin", "admin", admin=True))
    jobs.create(STUDY, Designer("d-cy", "Cy", admin=False))  # deleting made room


def test_a_lab_game_tells_every_search_the_decision_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardlab.agents.random_agent import RandomAgent

    told: list[float | None] = []
    monkeypatch.setattr(RandomAgent, "limit_time", lambda self, seconds: told.append(seconds))
    plan = SimulationPlan("towers", ("random",), games=1, decision_seconds=0.25)
    play_one(plan, 0)
    assert told and set(told) == {0.25}


# a bound on the wall clock, on a machine that may stall a process: one rerun (docs/server.md, Tests)
@pytest.mark.flaky(reruns=1, reruns_delay=2)
def cpu_seconds(pid: int) -> float | None:
    """The CPU a process has used so far (user and system), or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the worker's CPU time from /proc (Linux)")
def test_a_worker_stops_its_games_within_a_second_of_its_own_cpu_in_the_middle_of_a_long_decision(
        tmp_path: Path) -> None:
    # measured in the worker's CPU, not the wall clock: the worker runs at nice 19, so on a
    # machine kept busy by others a second of its work can take a minute
    jobs = LabJobs(tmp_path / "lab", LabLimits(decision_seconds=10.0))
    # one decision of eight seconds: a worker that looked for the stop between moves only
    # would spend most of them searching on after the stop
    study = jobs.create({**STUDY, "agents": ["mcts:seconds=8", "random"], "games": 2}, OWNER)
    folder = jobs.folder(study["id"])
    try:
        deadline = time.monotonic() + 120
        while (pid := next((process.pid for process in jobs._processes.values()), None)) is None \
                or jobs.state(study["id"]) != "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # deep in its first search: past the imports (about a second of CPU) and one more second
        while (used := cpu_seconds(pid)) is not None and used < 2.0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert used is not None, "the worker ended before it was asked to stop"
        jobs.stop(study["id"], OWNER)
        searched_after_stop = 0.0
        while not (folder / REPORTING_FILE).exists():  # the worker says so once its games have stopped
            now = cpu_seconds(pid)
            if now is None:
                break
            searched_after_stop = now - used
            assert time.monotonic() < deadline and searched_after_stop < 1.0, searched_after_stop
            time.sleep(0.01)
        assert searched_after_stop < 1.0, searched_after_stop
        while jobs.state(study["id"]) != "stopped":  # then writes the report of the game it played
            assert time.monotonic() < deadline, jobs.state(study["id"])
            time.sleep(0.05)
        status = json.loads((folder / STATUS_FILE).read_text())
        assert status["state"] == "stopped" and status["error"] is None, status
    finally:
        for process in jobs._processes.values():
            process.kill()
            process.wait()


def test_a_second_stop_signal_during_the_first_still_reports_the_games_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the worker signals every poll until the games stop, so one signal can land while the
    # first one's StudyInterrupted is being made: a plain KeyboardInterrupt, with the games
    # already in the study's folder; the designer must still get their verdict and report
    folder = tmp_path / "study"
    folder.mkdir()
    (folder / labfolder.JOB_FILE).write_text(json.dumps({"game": "towers", "agents": ["greedy"], "games": 6, "vary": {}}))
    real_run = labrun.run_study

    def two_games_then_interrupted(study: Study, executor: Any, sink: Any) -> Any:
        real_run(replace(study, games=2), executor, sink)
        raise KeyboardInterrupt

    monkeypatch.setattr(labrun, "run_study", two_games_then_interrupted)
    status = labrun.play(folder)
    assert status["state"] == "stopped" and status["error"] is None
    assert status["verdict"], status
    report = json.loads(next(folder.rglob("report.json")).read_text())
    assert sum(variant["games"] for variant in report["variants"]) == 2


class FakeWorker:
    """Stands for a worker's process: records whether the server ended it."""

    killed = False

    def kill(self) -> None:
        self.killed = True


def test_a_worker_writing_its_report_is_given_time_where_one_still_playing_is_ended(tmp_path: Path) -> None:
    jobs = LabJobs(tmp_path / "lab", LabLimits(max_running=0))
    study_id = jobs.create(STUDY, OWNER)["id"]
    folder = jobs.folder(study_id)
    asked = time.time() - 60  # asked to stop a minute ago
    (folder / labfolder.STOP_FILE).touch()
    os.utime(folder / labfolder.STOP_FILE, (asked, asked))

    def ended() -> bool:
        worker = FakeWorker()
        jobs._end_if_stuck(study_id, worker)  # type: ignore[arg-type]
        return worker.killed

    assert ended()  # still playing a minute after the stop: a search that never returned
    (folder / labfolder.REPORTING_FILE).touch()  # its games stopped; it writes their report (slow at nice 19)
    assert not ended()
    began = time.time() - labjobs.REPORT_GRACE_SECONDS - 1
    os.utime(folder / labfolder.REPORTING_FILE, (began, began))
    assert ended()  # a report that never ends is ended too


def test_a_stopped_study_left_without_its_report_gets_one_from_a_worker_that_plays_nothing(tmp_path: Path) -> None:
    # a worker ended in a long decision leaves its finished games and no report: the pump starts
    # a worker that writes the report of those games, once, and the study can still continue
    jobs = LabJobs(tmp_path / "lab", LabLimits(max_running=0))
    study_id = jobs.create({**STUDY, "games": 6}, OWNER)["id"]
    empty_id = jobs.create(STUDY, OWNER)["id"]
    folder = jobs.folder(study_id)
    study = labfolder.build_study(json.loads((folder / labfolder.JOB_FILE).read_text()), None)
    run_study(replace(study, games=2), SerialExecutor(), StudyFolder(folder / labfolder.STUDY_FOLDER, study))
    jobs.stop(study_id, OWNER)
    jobs.stop(empty_id, OWNER)
    assert jobs.status(study_id)["state"] == "stopped" and jobs.status(study_id)["verdict"] == []

    jobs.limits = replace(jobs.limits, max_running=2)
    try:
        jobs.pump()
        assert study_id in jobs._processes and empty_id not in jobs._processes  # no games, no report owed
        assert jobs.state(study_id) == "stopping"
        deadline = time.monotonic() + 120
        while jobs.state(study_id) != "stopped":
            assert time.monotonic() < deadline
            time.sleep(0.1)
            jobs.pump()
        status = jobs.status(study_id, OWNER)
        assert status["done"] == 2 and status["verdict"] and status["report"]
        report = json.loads((folder / labfolder.STUDY_FOLDER / "report.json").read_text())
        assert sum(variant["games"] for variant in report["variants"]) == 2
        jobs._processes[study_id].wait(timeout=60)  # the worker exits once its status is written
        jobs.pump()
        assert study_id not in jobs._processes  # reported once, not again
        assert jobs.resume(study_id, OWNER)["state"] in ("queued", "running")
        assert not (folder / labfolder.REPORTING_FILE).exists()
    finally:
        for process in jobs._processes.values():
            process.kill()
            process.wait()
