"""An outage seen from the play page: the server goes away in the middle of a game. The page
says so on the board, offers and sends no move while it is gone, and is live again within about
a second of the server's return, on the same port with the same data."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.support.serve import free_port
from tests.web.steps import PLAY, keys, play_by_clicking, wait_for_moves

CONNECTION = "document.getElementById('connection').dataset.state"
#: how long the server stays away: long enough that a schedule whose pauses grow (0.3, 1, 2,
#: 4, 8 s) is in an 8-second wait when it returns, so that only a quick schedule passes
OUTAGE_S = 8.0
#: "back within about a second": a second for the retry, one more for a busy two-core machine
BACK_WITHIN_S = 2.0


def _start(port: int, data_dir: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "boardlab", "serve", "--port", str(port), "--data-dir", str(data_dir), "--workers", "1"]
    with open(data_dir / "serve.log", "ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        log = data_dir / "serve.log"
        assert process.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.05)


def _kill(process: subprocess.Popen[bytes]) -> None:
    """As a crash would: no goodbye on the sockets."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@contextmanager
def restartable_server(data_dir: Path) -> Iterator[dict[str, Any]]:
    """A ``boardlab serve`` of this test's own (the session's server must stay up for the other
    tests), whose ``process`` the test may kill and start again on the same port and data."""
    server: dict[str, Any] = {"port": free_port(), "data_dir": data_dir}
    server["url"] = f"http://127.0.0.1:{server['port']}"
    server["process"] = _start(server["port"], data_dir)
    try:
        yield server
    finally:
        _kill(server["process"])


def test_an_outage_is_said_on_the_board_stops_moves_and_ends_within_a_second(
    new_page: Callable[[], Any], tmp_path: Path, screenshots: Path
) -> None:
    with restartable_server(tmp_path) as server:
        url = server["url"]
        created = httpx.post(f"{url}/api/rooms", json={"game": "towers", "seats": ["here", "here"]}, timeout=30).json()
        room, token = created["room"], created["token"]
        page = new_page()
        # the seats' token, as the lobby would have kept it (this server's own origin)
        page.goto(f"{url}/favicon.svg")
        page.evaluate(
            """([room, token]) => localStorage.setItem("boardlab.rooms", JSON.stringify(
                {[room]: {game: "towers", identities: [{token, seats: [0, 1]}], invites: [], created: Date.now()}}))""",
            [room, token],
        )
        page.goto(f"{url}/rooms/{room}")
        page.wait_for_function(f"() => {PLAY}.mode === 'live' && {PLAY}.yourTurn === 'true' && {CONNECTION} === 'open'")
        assert page.locator("#offline").is_hidden()
        movable = keys(page, "bl-movable")
        assert movable

        _kill(server["process"])
        down_at = time.monotonic()
        page.wait_for_function(f"() => {CONNECTION} === 'reconnecting'")
        offline = page.locator("#offline")
        assert offline.is_visible() and "Connection lost — reconnecting…" in offline.inner_text()
        assert offline.get_attribute("aria-live") == "assertive"
        assert "Your move" not in page.locator("#banner").inner_text()
        # nothing invites a move: no highlight, the move box refused with its reason, and a click
        # on a piece that could move a moment ago selects nothing and says why
        assert page.evaluate(f"() => {PLAY}.yourTurn") == "false"
        assert keys(page, "bl-movable") == []
        assert page.locator("#notation").is_disabled()
        assert "offline" in (page.locator("#notation").get_attribute("placeholder") or "")
        page.locator(f'#board [data-key="{movable[0]}"]').click()
        assert keys(page, "bl-target") == [] and keys(page, "bl-selected") == []
        assert "not sent" in offline.inner_text()
        # nor does anything else that needs the server: it could only be refused
        assert page.locator("#resign").is_disabled()
        for button in page.locator("#actions button:is(#undo, #offer-draw, #accept-draw, #decline-draw)").all():
            assert button.is_disabled()
        page.screenshot(path=str(screenshots / "towers-offline.png"))

        time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - down_at)))
        server["process"] = _start(server["port"], server["data_dir"])
        back_at = time.monotonic()
        page.wait_for_function(f"() => {CONNECTION} === 'open' && {PLAY}.yourTurn === 'true'", timeout=15_000)
        took = time.monotonic() - back_at
        assert took < BACK_WITHIN_S, f"the page was live again {took:.1f} s after the server"
        assert offline.is_hidden()
        assert "Your move" in page.locator("#banner").inner_text() or "your turn" in page.locator("#banner").inner_text()
        assert page.locator("#resign").is_enabled()

        # the restarted server takes a move made by clicking, and the page shows it
        assert httpx.get(f"{url}/api/rooms/{room}", timeout=30).json()["log"] == []
        play_by_clicking(page, random.Random(5))
        wait_for_moves(page, 1)
        assert len(httpx.get(f"{url}/api/rooms/{room}", timeout=30).json()["log"]) == 1
