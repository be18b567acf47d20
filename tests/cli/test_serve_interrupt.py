"""Ctrl-C on ``boardlab serve`` stops it quietly: the terminal's interrupt reaches every process
of its group, the computer's worker processes too, and only the server acts on it (it used to
print one KeyboardInterrupt traceback per worker)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx

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
