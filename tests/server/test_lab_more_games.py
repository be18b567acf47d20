"""More games for a finished Lab study: the games it holds are kept byte for byte, only the added
ones are played (by the worker that resumes ``boardlab lab``'s study folder) and charged to its
owner's quotas, its report then covers them all (its page drawn again once, not on every read);
and every request the Lab cannot honour is refused with the reason, changing nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.server import labfolder
from boardlab.server.designers import ADMIN_KEY_FILE
from boardlab.server.labfolder import JOB_FILE, STATUS_FILE, STUDY_FOLDER
from boardlab.server.labjobs import LabJobs
from boardlab.server.labprice import DECISIONS_PER_GAME, decision_seconds
from boardlab.server.settings import STATIC_DIR
from tests.server.harness import Harness, make_harness

#: Towers' greedy players on two layouts, three games each: a few seconds of a worker's time
SMALL = {"game": "towers", "agents": ["greedy"], "games": 3, "vary": {"layout": ["diagram", "pinwheel"]}}
VARIANTS = ("layout=diagram", "layout=pinwheel")
#: how long a small study may take on a busy two-core machine (a worker starts, plays, plots)
STUDY_SECONDS = 120


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Harness]:
    # with the pages: the study's report page is one of them
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, static_dir=STATIC_DIR) as harness:
        harness.client.headers["X-Designer-Key"] = (tmp_path / ADMIN_KEY_FILE).read_text().strip()
        yield harness


def jobs_of(lab: Harness) -> LabJobs:
    jobs: LabJobs = lab.app.state.lab
    return jobs


def status_of(lab: Harness, study_id: str) -> dict[str, Any]:
    answer = lab.client.get(f"/api/lab/studies/{study_id}")
    assert answer.status_code == 200, answer.text
    status: dict[str, Any] = answer.json()
    assert status["state"] != "failed", status["error"]
    return status


def wait_until_finished(lab: Harness, study_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + STUDY_SECONDS
    while (status := status_of(lab, study_id))["state"] != "finished":
        assert time.monotonic() < deadline, status
        time.sleep(0.2)
    return status


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every record of a study folder: its bytes and when it was last written."""
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in sorted((folder / "records").glob("*.json"))}


def test_more_games_keep_the_games_played_and_play_and_charge_only_the_added_ones(lab: Harness) -> None:
    jobs = jobs_of(lab)
    created = lab.client.post("/api/lab/studies", json=SMALL)
    assert created.status_code == 201, created.text
    study_id = created.json()["id"]
    first_price = created.json()["price_seconds"]
    first = wait_until_finished(lab, study_id)
    assert first["done"] == 6 and first["more_games_allowed"] == 397 and first["added_games"] == 0
    folder = jobs.folder(study_id) / STUDY_FOLDER
    games_before = (folder / "games.jsonl").read_bytes()
    records_before = files_of(folder)
    study_id_before = json.loads((folder / "study.json").read_text())["study_id"]
    assert len(records_before) == 6
    # the report page is drawn once for the report as it stands, then served as drawn
    pages = lab.app.state.lab_report_pages
    first_page = [lab.client.get(f"/lab/{study_id}/report") for _ in range(3)]
    assert [page.status_code for page in first_page] == [200, 200, 200] and pages.drawn == 1, first_page[0].text
    assert first_page[0].text == first_page[2].text and "Back to the Lab" in first_page[0].text

    jobs.limits = replace(jobs.limits, max_running=0, queued_games_per_designer=10)  # the added games wait: look at them
    worker = jobs._processes.pop(study_id, None)
    if worker is not None:  # it wrote the study's status and is ending: a study it plays reads as running
        worker.wait(timeout=60)
    added = lab.client.post(f"/api/lab/studies/{study_id}/extend", json={"games": 2})
    assert added.status_code == 200, added.text
    answer = added.json()
    assert answer["state"] == "queued" and answer["done"] == 6 and answer["total"] == 10 and answer["games"] == 5
    assert answer["added_games"] == 2 and answer["verdict"] == [] and answer["report"] is None
    # priced as a new study of two games per variant would be, not as the whole study
    greedy = decision_seconds(boardlab.load("towers"), "greedy", jobs.limits.decision_seconds)
    assert answer["added_price_seconds"] == pytest.approx(2 * len(VARIANTS) * DECISIONS_PER_GAME * greedy, abs=5e-4)
    assert answer["price_seconds"] == pytest.approx(first_price + answer["added_price_seconds"], abs=1e-3)
    # and charged: the owner's queue holds the four added games, not the study's ten
    quota = lab.client.post("/api/lab/studies", json={**SMALL, "games": 7, "vary": {}})
    assert quota.status_code == 409 and quota.json()["error"]["code"] == "lab_quota", quota.text
    assert "has 4 games waiting to be played" in quota.json()["error"]["message"]
    assert lab.client.post("/api/lab/studies/" + study_id + "/extend", json={"games": 1}).status_code == 409  # queued

    jobs.limits = replace(jobs.limits, max_running=1)
    jobs.pump()
    done = wait_until_finished(lab, study_id)
    assert done["done"] == done["total"] == 10 and done["verdict"] and done["report"]

    # the first games are the very bytes they were, never written again; the added ones follow them
    games_after = (folder / "games.jsonl").read_bytes()
    assert games_after.startswith(games_before)
    new_lines = [json.loads(line) for line in games_after[len(games_before) :].splitlines()]
    assert sorted((line["variant"], line["index"]) for line in new_lines) == [
        (variant, index) for variant in VARIANTS for index in (3, 4)
    ]
    records_after = files_of(folder)
    assert {name: records_after[name] for name in records_before} == records_before
    assert len(records_after) == 10
    assert json.loads((folder / "study.json").read_text())["study_id"] == study_id_before
    # the report and its verdict cover every game
    report = json.loads((folder / "report.json").read_text())
    assert report["study"]["games_per_variant"] == 5
    assert [variant["games"] for variant in report["variants"]] == [5, 5]
    # and its page is drawn again, once, for the new report
    again = [lab.client.get(f"/lab/{study_id}/report") for _ in range(2)]
    assert pages.drawn == 2 and again[0].text == again[1].text != first_page[0].text


def issue_designer(lab: Harness, name: str) -> dict[str, str]:
    issued = lab.client.post("/api/designers", json={"name": name})
    assert issued.status_code == 201, issued.text
    return {"X-Designer-Key": issued.json()["key"]}


def refusal(lab: Harness, study_id: str, body: Any, status: int, code: str, headers: dict[str, str] | None = None) -> str:
    answer = lab.client.post(f"/api/lab/studies/{study_id}/extend", json=body, headers=headers)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    return str(error["message"])


def test_more_games_are_refused_with_the_reason_and_nothing_changes(lab: Harness) -> None:
    jobs = jobs_of(lab)
    jobs.limits = replace(jobs.limits, max_running=0)  # stored only: each state is made by hand
    study_id = lab.client.post("/api/lab/studies", json=SMALL).json()["id"]
    folder = jobs.folder(study_id)
    job_before = (folder / JOB_FILE).read_bytes()

    assert "still waiting its turn" in refusal(lab, study_id, {"games": 2}, 409, "refused")
    with labfolder.worker_lock(folder):  # as a worker holds it while it plays
        assert "still playing; add games once it has finished" in refusal(lab, study_id, {"games": 2}, 409, "refused")
    lab.client.post(f"/api/lab/studies/{study_id}/stop")
    assert "is stopped; continue it" in refusal(lab, study_id, {"games": 2}, 409, "refused")
    (folder / labfolder.STOP_FILE).unlink()
    (folder / STATUS_FILE).write_text(json.dumps({"state": "failed", "error": "a test's failure"}))
    assert "failed; it takes no more games" in refusal(lab, study_id, {"games": 2}, 409, "refused")
    (folder / STATUS_FILE).write_text(json.dumps({"state": "finished", "verdict": []}))  # as its worker ends it

    assert "no lab study 'nothing'" in refusal(lab, "nothing", {"games": 2}, 404, "not_found")
    stranger = issue_designer(lab, "Bob")
    assert "only its owner or an admin" in refusal(lab, study_id, {"games": 2}, 403, "not_owner", stranger)
    not_whole = [{"games": 1.5}, {"games": "2"}, {"games": True}, {"games": 0}, {"games": -2}, {"games": None}, {}]
    for body in not_whole:
        assert "games" in refusal(lab, study_id, body, 422, "bad_request"), body
    assert "seed" in refusal(lab, study_id, {"games": 2, "seed": 4}, 422, "bad_request")  # the rest of the study is as it was
    too_many = refusal(lab, study_id, {"games": 398}, 422, "bad_request")
    assert "401 per variant" in too_many and "this study may take 397 more per variant" in too_many, too_many
    far_too_many = refusal(lab, study_id, {"games": 10**12}, 422, "bad_request")
    assert "this study may take 397 more per variant" in far_too_many, far_too_many  # the Lab's own limit, in words
    jobs.limits = replace(jobs.limits, queued_games_per_designer=10)
    assert "with these 12 that is more than" in refusal(lab, study_id, {"games": 6}, 409, "lab_quota")

    assert (folder / JOB_FILE).read_bytes() == job_before
    assert status_of(lab, study_id)["state"] == "finished"
    # its owner may, and so may an admin, whose games are charged to the owner
    owner = issue_designer(lab, "Cy")
    own_id = lab.client.post("/api/lab/studies", json=SMALL, headers=owner).json()["id"]
    (jobs.folder(own_id) / STATUS_FILE).write_text(json.dumps({"state": "finished", "verdict": []}))
    assert lab.client.post(f"/api/lab/studies/{own_id}/extend", json={"games": 1}, headers=owner).status_code == 200
    (jobs.folder(own_id) / STATUS_FILE).write_text(json.dumps({"state": "finished", "verdict": []}))
    assert lab.client.post(f"/api/lab/studies/{own_id}/extend", json={"games": 1}).status_code == 200  # the admin
    message = lab.client.post("/api/lab/studies", json={**SMALL, "games": 4}, headers=owner).json()["error"]["message"]
    assert "Cy has 10 games waiting" in message  # none of its games was played: its finish was written here


def test_a_study_given_more_games_waits_behind_the_studies_already_waiting(lab: Harness) -> None:
    jobs = jobs_of(lab)
    jobs.limits = replace(jobs.limits, max_running=0)
    older = lab.client.post("/api/lab/studies", json=SMALL).json()["id"]
    waiting = lab.client.post("/api/lab/studies", json=SMALL).json()["id"]
    (jobs.folder(older) / STATUS_FILE).write_text(json.dumps({"state": "finished", "verdict": []}))
    assert lab.client.post(f"/api/lab/studies/{older}/extend", json={"games": 1}).status_code == 200
    assert sorted([older, waiting], key=jobs._queued_at) == [waiting, older]
