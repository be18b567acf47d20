"""The Lab in the browser: the API that starts and follows a study, its fair
share (one worker at the lowest priority, capped sizes), a study surviving a restart, and the
page driven in Chromium from the form to a game's replay."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from boardlab.core.records import Record
from boardlab.core.turns import moves_made
from boardlab.lab.store import StudyFolder
from boardlab.lab.study import run_study
from boardlab.server.designers import ADMIN_KEY_FILE, Designer
from boardlab.server.labjobs import STUDY_FOLDER, LabJobs, LabLimits, LabStudyEnded, build_study
from boardlab.server.settings import STATIC_DIR
from tests.server.harness import Harness, make_harness
from tests.support.serve import serve_process
from tests.web.browser import Server
from tests.web.conftest import assert_no_serious_violations

ROOT = Path(__file__).resolve().parents[2]
#: a small study: Towers' greedy players, two layouts, four games each (about a second of play)
SMALL = {"game": "towers", "agents": ["greedy"], "games": 4, "vary": {"layout": ["diagram", "pinwheel"]}}
#: how long a small study may take on a busy two-core machine (a worker starts, plays, plots)
STUDY_SECONDS = 120
#: the designer who starts the studies the tests make without the API
OWNER = Designer("d-tester", "tester", admin=False)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Harness]:
    rules = ROOT / "docs" / "rules"
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, static_dir=STATIC_DIR, rules_dir=rules) as harness:
        # the Lab is the designers': the tests sign in with the admin key the server made
        harness.client.headers["X-Designer-Key"] = (tmp_path / ADMIN_KEY_FILE).read_text().strip()
        yield harness


def wait_for(check: Callable[[], Any], seconds: float = STUDY_SECONDS) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s")


def finished(web: Harness, study_id: str) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        status = web.client.get(f"/api/lab/studies/{study_id}").json()
        assert status["state"] != "failed", status["error"]
        return status if status["state"] == "finished" else None

    return wait_for(done)


def test_a_study_is_played_and_reported_with_its_games_replayable(web: Harness) -> None:
    created = web.client.post("/api/lab/studies", json=SMALL)
    assert created.status_code == 201, created.text
    status = created.json()
    assert status["total"] == 8 and status["variants"] == ["layout=diagram", "layout=pinwheel"]
    assert status["state"] in ("queued", "running")
    status = finished(web, status["id"])
    assert status["done"] == 8 and status["verdict"] and status["verdict"][0].startswith("layout=pinwheel:")
    page = web.client.get(status["report"])
    assert page.status_code == 200 and "Games to look at" in page.text and "Openings" in page.text
    record = re.search(r'href="/lab/[0-9a-f]+/replay\?record=(records/[^"]+)"', page.text)[1]
    replayed = web.client.get(f"/api/lab/studies/{status['id']}/replay", params={"record": record, "move": 1}).json()
    assert replayed["move"] == 1 and replayed["view"]["ply"] == 1 and len(replayed["log"]) == 1
    assert web.client.get(f"/lab/{status['id']}/{record}").json()["game"] == "towers"  # the record file itself
    assert web.client.get(f"/lab/{status['id']}/replay", params={"record": record}).status_code == 200


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"games": 401}, "more than this server's Lab plays (400)"),
        ({"vary": {"layout": ["diagram", "spiral"]}}, "allowed values are"),
        ({"vary": {"layout": ["diagram"]}}, "at least two different values"),
        ({"game": "chess"}, "unknown game"),
        ({"agents": ["telepath"]}, "telepath"),
        ({"options": {"layout": "pinwheel"}}, "both set and varied"),
    ],
)
def test_a_study_the_lab_will_not_play_is_refused_with_the_reason(web: Harness, change: dict[str, Any], message: str) -> None:
    answer = web.client.post("/api/lab/studies", json={**SMALL, **change})
    assert answer.status_code == 422
    assert message in answer.json()["error"]["message"]
    assert web.client.get("/api/lab/studies").json() == []


def test_no_path_leaves_the_study(web: Harness) -> None:
    study_id = web.client.post("/api/lab/studies", json=SMALL).json()["id"]
    for record in ("../job.json", "records/../../job.json", "/etc/passwd", "records/x.txt"):
        answer = web.client.get(f"/api/lab/studies/{study_id}/replay", params={"record": record, "move": 0})
        assert answer.status_code == 404, record
    assert web.client.get("/api/lab/studies/nothing").status_code == 404
    assert web.client.get("/lab/..%2F..%2Fetc/report").status_code == 404


def test_a_study_waits_its_turn_and_plays_at_the_lowest_priority(tmp_path: Path) -> None:
    jobs = LabJobs(tmp_path / "lab", LabLimits(max_running=1))
    first = jobs.create({**SMALL, "games": 40, "vary": {}}, OWNER)  # long enough to look at while it plays
    second = jobs.create(SMALL, OWNER)
    try:
        assert jobs.state(first["id"]) == "running" and jobs.state(second["id"]) == "queued"
        process = jobs._processes[first["id"]]
        games = jobs.folder(first["id"]) / STUDY_FOLDER / "games.jsonl"
        wait_for(lambda: games.exists() and games.stat().st_size > 0)  # it lowers its priority before playing
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == 19
    finally:
        for process in jobs._processes.values():
            process.kill()
            process.wait()


def test_a_study_survives_a_restart_and_resumes_from_its_games(tmp_path: Path) -> None:
    root = tmp_path / "lab"
    jobs = LabJobs(root, LabLimits(max_running=0))  # stored, not started: as a server stopped before its turn
    study_id = jobs.create(SMALL, OWNER)["id"]
    folder = jobs.folder(study_id) / STUDY_FOLDER
    study = build_study(jobs.job(study_id))
    run_study(replace(study, games=2), sink=StudyFolder(folder, study))  # half played when the server stopped
    assert jobs.status(study_id)["done"] == 4
    restarted = LabJobs(root)  # a new server on the same data folder
    assert restarted.status(study_id)["state"] == "queued"
    restarted.pump()
    wait_for(lambda: restarted.state(study_id) == "finished")
    lines = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert sorted((line["variant"], line["index"]) for line in lines) == sorted(
        (variant, index) for variant in ("layout=diagram", "layout=pinwheel") for index in range(4)
    )


def status_of(web: Harness, study_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = web.client.get(f"/api/lab/studies/{study_id}").json()
    assert answer["state"] != "failed", answer["error"]
    return answer


def test_a_playing_study_stops_with_the_report_of_its_games_and_continues_from_them(web: Harness) -> None:
    long_study = {**SMALL, "games": 400, "vary": {}}  # minutes of play: it is stopped long before the end
    study_id = web.client.post("/api/lab/studies", json=long_study).json()["id"]
    wait_for(lambda: status_of(web, study_id)["done"] >= 2)
    stopping = web.client.post(f"/api/lab/studies/{study_id}/stop")
    assert stopping.status_code == 200 and stopping.json()["state"] in ("stopping", "stopped")
    # stopping finishes the games in play and writes the report of those played (plots
    # included): as long as a small study takes on a busy machine
    stopped = wait_for(lambda: (lambda status: status if status["state"] == "stopped" else None)(status_of(web, study_id)))
    assert 2 <= stopped["done"] < 400
    assert stopped["verdict"] and stopped["report"]  # the verdict of the games played so far
    report = json.loads((web.app.state.lab.folder(study_id) / STUDY_FOLDER / "report.json").read_text())
    assert report["study"]["games_per_variant"] == 400
    assert web.client.get(stopped["report"]).status_code == 200
    again = web.client.post(f"/api/lab/studies/{study_id}/stop")  # nothing left to stop
    assert again.status_code == 409 and "already stopped" in again.json()["error"]["message"]

    continued = web.client.post(f"/api/lab/studies/{study_id}/continue").json()
    assert continued["state"] in ("queued", "running") and continued["done"] == stopped["done"]
    wait_for(lambda: status_of(web, study_id)["done"] > stopped["done"])  # on from the stored games
    web.client.post(f"/api/lab/studies/{study_id}/stop")
    wait_for(lambda: status_of(web, study_id)["state"] == "stopped")


def test_a_waiting_study_stops_at_once_and_only_a_stopped_study_continues(tmp_path: Path) -> None:
    jobs = LabJobs(tmp_path / "lab", LabLimits(max_running=0))  # nothing plays: every study waits
    study_id = jobs.create(SMALL, OWNER)["id"]
    with pytest.raises(LabStudyEnded, match="only a stopped study can continue"):
        jobs.resume(study_id, OWNER)
    stopped = jobs.stop(study_id, OWNER)
    assert stopped["state"] == "stopped" and stopped["done"] == 0 and stopped["verdict"] == [] and stopped["report"] is None
    jobs.pump()
    assert jobs.state(study_id) == "stopped"  # a stopped study does not start at its turn
    assert jobs.resume(study_id, OWNER)["state"] == "queued"


def test_the_lab_page_starts_a_study_and_opens_a_games_replay(new_page: Callable[[], Any], web_server: Any) -> None:
    page = new_page()
    page.goto("/")
    assert page.locator('nav a[href="/lab"]').count() == 0  # a player's top bar: the players' pages only
    page.click('footer a[href="/lab"]')  # the lobby's foot links the Lab, for designers
    page.select_option("#lab-game", "towers")
    page.select_option("#lab-agents", "easy")
    page.fill("#lab-games", "3")
    page.fill('[data-vary="layout"]', "diagram, pinwheel")
    page.click("#lab-start")
    card = page.locator("article.lab-study").first
    card.locator("text=of 6 games").wait_for()
    page.wait_for_selector('article.lab-study[data-state="finished"]', timeout=STUDY_SECONDS * 1000)
    assert card.locator("ul.verdict li").first.inner_text().startswith("layout=pinwheel:")
    assert card.locator(".count").inner_text() == "6 of 6 games"
    card.locator("a.report").click()
    page.wait_for_selector("text=Games to look at")
    page.locator("a", has_text="replay").first.click()
    caption = page.locator("#replay-caption")
    page.wait_for_selector('#replay-caption[data-move="0"]')
    assert caption.inner_text().startswith("The start")
    assert page.locator("#board svg").count() >= 1  # drawn by Towers' own renderer
    page.click("#replay-next")
    page.wait_for_selector('#replay-caption[data-move="1"]')
    assert caption.inner_text().startswith("After move 1 of")


def test_a_lab_games_replay_says_in_words_how_it_ended_and_what_its_move_numbers_count(
    new_page: Callable[[], Any], web_server: Server
) -> None:
    # Sovereign: its set-up's placements are moves of the record that the board's own count of
    # play leaves out, and its random games end by rules whose codes are not words (move_limit)
    created = web_server.client.post("/api/lab/studies", json={"game": "sovereign", "agents": ["random"], "games": 2})
    assert created.status_code == 201, created.text
    study_id = created.json()["id"]

    def done() -> bool:
        state = web_server.client.get(f"/api/lab/studies/{study_id}").json()
        assert state["state"] != "failed", state["error"]
        return bool(state["state"] == "finished")

    wait_for(done)
    path = sorted((web_server.log.parent / "lab" / study_id / STUDY_FOLDER / "records").glob("*.json"))[0]
    record = Record.load(path)
    result = record.result
    assert result is not None
    game = record.game()
    names = [game.player_name(seat) for seat in range(record.players)]
    head = f"{names[result.winners[0]]} wins" if len(result.winners) == 1 else "Draw"
    moves = moves_made(record.turns)
    page = new_page()
    page.goto(f"/lab/{study_id}/replay?record=records/{path.name}")
    page.wait_for_selector('#replay-caption[data-move="0"]')
    # how it ended is said from the start, in words
    ending = page.locator("#replay-ending").inner_text()
    assert f"{head}: {result.reason}" in ending and f"after {moves} moves" in ending, ending
    assert result.code not in ending and "None" not in ending and "null" not in ending
    assert page.locator("#replay-caption").inner_text() == f"The start ({moves} moves in all)"
    page.click("#replay-end")
    page.wait_for_selector(f'#replay-caption[data-move="{len(record.turns)}"]')
    caption = page.locator("#replay-caption").inner_text()
    last = record.turns[-1].text_for(None)
    assert caption == f"The end. After move {moves} of {moves}: {last}. {head}: {result.reason}.", caption
    # the board counts only the moves of play; the page says what its own numbers count
    counting = page.locator("#replay-counting").inner_text()
    assert "numbered as the players made them" in counting and "set-up" in counting
    assert "moves of play since the set-up; a draw after" in page.locator("#board").inner_text()


def test_a_refusal_on_the_lab_page_goes_once_the_browser_refuses_a_field_itself(
    new_page: Callable[[], Any], web_server: Any
) -> None:
    page = new_page()
    page.goto("/lab")
    page.select_option("#lab-game", "towers")
    page.fill("#lab-specs", "mcts:iterations=abc,random")
    page.click("#lab-start")
    alert = page.locator("#lab-alert")
    alert.wait_for()
    assert "iterations='abc' is not a whole number" in alert.inner_text()
    page.fill("#lab-specs", "")
    page.fill("#lab-games", "0")  # below the field's minimum: the browser itself stops the submit
    page.click("#lab-start")
    alert.wait_for(state="hidden")


def test_the_lab_page_stops_a_study_and_continues_it(new_page: Callable[[], Any], web_server: Any) -> None:
    page = new_page()
    page.goto("/lab")
    page.select_option("#lab-game", "towers")
    page.select_option("#lab-agents", "easy")
    page.fill("#lab-games", "400")
    page.click("#lab-start")
    card = page.locator("article.lab-study").first
    page.wait_for_selector('article.lab-study[data-state="running"]', timeout=STUDY_SECONDS * 1000)
    card.locator("button.stop").click()
    page.wait_for_selector('article.lab-study[data-state="stopped"]', timeout=30_000)
    assert card.locator(".state").inner_text().startswith("stopped")
    card.locator("button.continue").click()
    page.wait_for_selector('article.lab-study[data-state="running"], article.lab-study[data-state="queued"]')
    card.locator("button.stop").click()  # leave nothing playing behind the test
    page.wait_for_selector('article.lab-study[data-state="stopped"]', timeout=30_000)


def test_the_lab_page_asks_for_a_key_off_this_computer_and_an_admin_issues_one(chromium: Any, tmp_path: Path) -> None:
    # --no-local-admin: the page as any other computer sees it
    with serve_process(tmp_path, tmp_path / "serve.log", options=["--no-local-admin"]) as (url, _process):
        context = chromium.new_context(base_url=url)
        try:
            page = context.new_page()
            page.goto("/lab")
            page.wait_for_selector("#lab-sign-in:not([hidden])")
            assert page.locator("#lab-start-panel").is_hidden()
            assert "admin.key" in page.locator("#lab-sign-in").inner_text()
            page.fill("#lab-key", "not-the-key-of-this-server")
            page.click("#lab-sign-in-button")
            page.wait_for_selector("#lab-sign-in-alert:not([hidden])")
            page.fill("#lab-key", (tmp_path / ADMIN_KEY_FILE).read_text().strip())
            page.click("#lab-sign-in-button")
            page.wait_for_selector("#lab-start")
            assert "Signed in as admin" in page.locator("#lab-who").inner_text()
            page.fill("#lab-designer-name", "Ada")
            page.click("#lab-issue")
            key = page.locator("#lab-new-key").inner_text()
            page.click("#lab-sign-out")
            page.wait_for_selector("#lab-sign-in:not([hidden])")
            page.fill("#lab-key", key)
            page.click("#lab-sign-in-button")
            page.wait_for_selector("#lab-start")
            assert page.locator("#lab-who").inner_text().startswith("Signed in as Ada")
            assert page.locator("#lab-designers").is_hidden()  # a designer, not an admin
        finally:
            context.close()


def test_the_lab_page_adds_games_to_a_finished_study_and_its_report_covers_them_all(
    new_page: Callable[[], Any], web_server: Server, axe_script: Path
) -> None:
    created = web_server.client.post("/api/lab/studies", json={"game": "towers", "agents": ["easy"], "games": 3})
    assert created.status_code == 201, created.text
    study_id = created.json()["id"]

    def finished_status() -> dict[str, Any] | None:
        status: dict[str, Any] = web_server.client.get(f"/api/lab/studies/{study_id}").json()
        assert status["state"] != "failed", status["error"]
        return status if status["state"] == "finished" else None

    status = wait_for(finished_status)
    records = web_server.log.parent / "lab" / study_id / STUDY_FOLDER / "records"
    first_games = {path.name: path.read_bytes() for path in records.glob("*.json")}
    assert len(first_games) == 3

    page = new_page()
    page.context.add_init_script(path=str(axe_script))
    page.goto("/lab")
    card = page.locator(f'article.lab-study[data-study="{study_id}"]')
    count = card.locator("input.more-games-count")
    count.wait_for()
    assert_no_serious_violations(page, "the Lab page with a finished study's Add games form")
    # the field offers the games the verdict says would settle a question, else as many again
    named = [int(number) for line in status["verdict"] for number in re.findall(r"about (\d+) more games", line)]
    assert status["games_to_settle"] == (max(named) if named else None)
    wanted = status["games_to_settle"] or 3
    assert count.input_value() == str(min(wanted, status["more_games_allowed"]))
    assert "the 3 games played are kept" in card.locator("form.more-games").inner_text()
    count.fill("2")
    card.locator("button.add-games").click()
    page.wait_for_function(
        """id => {
          const card = document.querySelector(`article.lab-study[data-study="${id}"]`);
          return card?.dataset.state === "finished" && card?.querySelector(".count")?.textContent === "5 of 5 games";
        }""",
        arg=study_id,
        timeout=STUDY_SECONDS * 1000,
    )
    assert "5 games per variant" in card.locator("h3").inner_text()
    assert "2 games per variant added since" in card.inner_text()
    assert card.locator("ul.verdict li").count() >= 1
    assert {path.name: path.read_bytes() for path in records.glob("*.json") if path.name in first_games} == first_games
    assert len(list(records.glob("*.json"))) == 5
    card.locator("a.report").click()
    page.wait_for_selector("text=Games to look at")
    assert "5 games in 1 variant(s)" in page.locator("body").inner_text()
    assert f"study id {study_id}." in page.locator("body").inner_text()  # the id the Lab knows it by
    page.click("text=Back to the Lab")
    page.wait_for_function(
        "id => document.getElementById(`study-${id}`)?.querySelector('.count')?.textContent === '5 of 5 games'",
        arg=study_id,
    )
