"""An analysis costs seconds of the server's one analysis thread, so it is bounded twice: each
client address may ask for analyses only so often, and only so many rooms' analyses may wait
for the thread at once. Either refusal is ``429 rate_limited`` with ``Retry-After``, and the
analyses already under way are not disturbed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardlab.server import analysis as analysis_module
from boardlab.server.analysis_slices import AnalysisStep, AnalysisWork
from boardlab.server.ratelimits import ANALYSES, MOVES, READS, request_kind
from tests.server.harness import Harness, make_harness
from tests.server.test_analysis_routes import finished_towers
from tests.server.test_rate_limits import OFF, assert_limited


@pytest.fixture
def limited(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Harness]:
    overrides: dict[str, Any] = {**OFF, "analyses_per_minute": 0, **getattr(request, "param", {})}
    with make_harness(f"sqlite:///{tmp_path / 'b.sqlite3'}", tmp_path, **overrides) as server:
        yield server


def test_only_the_analysis_route_is_counted_as_an_analysis() -> None:
    def kind(method: str, path: str) -> str | None:
        return request_kind({"type": "http", "method": method, "path": path})

    assert kind("GET", "/api/rooms/abc123/analysis") == ANALYSES
    assert kind("GET", "/api/rooms/abc123/analysis/") == ANALYSES
    assert kind("GET", "/api/rooms/abc123/record") == READS  # every other reading has a bucket of its own
    assert kind("GET", "/api/rooms/abc123/analysis/extra") == READS
    assert kind("POST", "/api/rooms/abc123/analysis") == MOVES  # every other action draws on the actions' bucket


@pytest.mark.parametrize("limited", [{"analyses_per_minute": 2}], indirect=True)
def test_analyses_per_address(limited: Harness) -> None:
    room, _token = finished_towers(limited)
    for _ in range(2):
        assert limited.client.get(f"/api/rooms/{room}/analysis").status_code == 200
    refused = limited.client.get(f"/api/rooms/{room}/analysis")
    assert_limited(refused)
    assert "analyses" in refused.json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) <= 30  # a token comes back every 30 s at 2 a minute
    assert limited.client.get(f"/api/rooms/{room}/record").status_code == 200  # other reading goes on


def test_rooms_beyond_the_waiting_bound_are_refused_not_queued(
    limited: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    started = threading.Event()

    def held(work: AnalysisWork) -> AnalysisStep:
        started.set()
        release.wait(30)
        return AnalysisStep(work, {"game": work.record.game_id})

    monkeypatch.setattr(analysis_module, "analyse_slice", held)
    analyses = limited.app.state.analyses
    analyses.waiting_rooms = 1
    first, _ = finished_towers(limited)
    second, _ = finished_towers(limited)
    answers: list[Any] = []
    waiter = threading.Thread(target=lambda: answers.append(limited.client.get(f"/api/rooms/{first}/analysis")))
    waiter.start()
    assert started.wait(10)
    refused = limited.client.get(f"/api/rooms/{second}/analysis")
    assert_limited(refused)
    assert "analyses are being worked out" in refused.json()["error"]["message"]
    release.set()
    waiter.join(30)
    assert answers and answers[0].status_code == 200 and answers[0].json()["room"] == first
    # the pool is free again: the refused room is analysed now
    assert limited.client.get(f"/api/rooms/{second}/analysis").status_code == 200


@pytest.mark.parametrize("limited", [{"trusted_proxies": ("testclient",)}], indirect=True)
def test_one_address_cannot_take_every_analysis_place(limited: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def held(work: AnalysisWork) -> AnalysisStep:
        release.wait(30)
        return AnalysisStep(work, {"game": work.record.game_id})

    monkeypatch.setattr(analysis_module, "analyse_slice", held)
    analyses = limited.app.state.analyses
    share = analysis_module.ROOMS_PER_ADDRESS
    analyses.waiting_rooms = share + 1  # room for the attacker's share and one other visitor's
    attacker, visitor = {"X-Forwarded-For": "203.0.113.66"}, {"X-Forwarded-For": "198.51.100.7"}
    rooms = [finished_towers(limited)[0] for _ in range(share + 2)]
    answers: dict[str, Any] = {}

    def ask(room: str, headers: dict[str, str]) -> None:
        answers[room] = limited.client.get(f"/api/rooms/{room}/analysis", headers=headers)

    waiting = [threading.Thread(target=ask, args=(room, attacker)) for room in rooms[:share]]
    for thread in waiting:
        thread.start()
    deadline = time.monotonic() + 10
    while len(analyses._running) < share:
        assert time.monotonic() < deadline, "the attacker's analyses did not start"
        time.sleep(0.01)
    refused = limited.client.get(f"/api/rooms/{rooms[share]}/analysis", headers=attacker)
    assert_limited(refused)
    assert "the most one address may have at once" in refused.json()["error"]["message"]
    # the other visitor, who asked once, is not turned away for the attacker's analyses
    other = threading.Thread(target=ask, args=(rooms[-1], visitor))
    other.start()
    while rooms[-1] not in answers and len(analyses._running) < share + 1:
        assert time.monotonic() < deadline + 10, "the visitor's analysis did not start"
        time.sleep(0.01)
    release.set()
    for thread in [*waiting, other]:
        thread.join(30)
    assert [answers[room].status_code for room in [*rooms[:share], rooms[-1]]] == [200] * (share + 1)
    # asking for an analysis under way, or made, is never refused: it costs nothing more
    assert limited.client.get(f"/api/rooms/{rooms[0]}/analysis", headers=attacker).status_code == 200
