"""Ctrl-C on ``boardlab serve`` stops it quietly: the terminal's interrupt reaches every process
of its group, the computer's worker processes too, and only the server acts on it (it used to
print one KeyboardInterrupt traceback per worker). SIGTERM stops it the same way."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.support.serve import serve_process


def test_ctrl_c_stops_the_server_without_a_traceback(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serve_process(tmp_path, log, options=["--workers", "2"]) as (url, process):
        # a computer search makes sure the workers run (they start with the pool)
        created = httpx.post(f"{url}/api/rooms", json={"game": "towers", "seats": ["computer:beginner", "here"]}, timeout=30)
        assert created.status_code == 201, created.text
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in its terminal sends
        assert process.wait(timeout=30) is not None
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-2000:]


def _group_ended(group: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("to_whole_group", [False, True], ids=["the server alone", "its whole group"])
def test_sigterm_stops_the_server_as_ctrl_c_does(tmp_path: Path, to_whole_group: bool) -> None:
    # `docker stop` sends SIGTERM to the server alone, a service manager to its whole group; either
    # way it ends with status 0, nothing on its log but its own lines, and its workers gone (its
    # pool used to be left to the resource tracker, which reported its semaphores leaked)
    log = tmp_path / "serve.log"
    with serve_process(tmp_path, log, options=["--workers", "2"]) as (url, process):
        created = httpx.post(f"{url}/api/rooms", json={"game": "towers", "seats": ["computer:beginner", "here"]}, timeout=30)
        assert created.status_code == 201, created.text
        if to_whole_group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert _group_ended(process.pid, 15), "a worker of the computer's pool outlived the server"
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "leaked" not in text and "Error" not in text, text[-2000:]
