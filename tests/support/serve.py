"""A real ``boardlab serve`` process for the tests that need one (the restart test, the browser tests)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve_process(
    data_dir: Path,
    log: Path,
    database_url: str | None = None,
    *,
    gentle_stop: bool = False,
    options: Sequence[str] = (),
    python: str = sys.executable,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``boardlab serve`` in a session of its own (so that its whole process group, the
    computer's pool included, can be stopped) once it answers; yields its URL and process.

    At the end it is killed with SIGKILL, or with ``gentle_stop`` first asked with SIGTERM.
    ``options`` go on its command line (``--log-level info``); ``python`` is the interpreter
    that runs it (another installation's, for the wheel test)."""
    port = free_port()
    command = [python, "-m", "boardlab", "serve", "--port", str(port), "--data-dir", str(data_dir), "--workers", "1"]
    # one browser (or test) is one address for the whole session: the per-address limits
    # would refuse its later rooms and sockets; their own tests are tests/server/test_rate_limits.py
    limits = (
        "--rooms-per-minute", "--rooms-per-day", "--moves-per-minute", "--websockets-per-minute", "--messages-per-minute",
        "--analyses-per-minute", "--reads-per-minute", "--max-open-per-address", "--max-computer-only-rooms-per-address",
    )
    for limit in limits:
        command += [limit, "0"]
    if database_url is not None:
        command += ["--database-url", database_url]
    command += options
    with open(log, "ab") as output:
        # unbuffered: a server stopped the hard way (SIGKILL on a busy machine) still leaves its log
        environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True, env=environment)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_it_answers(url, process, log)
        yield url, process
    finally:
        if process.poll() is None:
            _stop(process, gentle_stop)
        process.wait(timeout=30)


def _wait_until_it_answers(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    with httpx.Client(base_url=url, timeout=30) as client:
        while True:
            try:
                if client.get("/api/games").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"boardlab serve did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes], gentle: bool) -> None:
    if gentle:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
            return
        except subprocess.TimeoutExpired:
            pass
    os.killpg(process.pid, signal.SIGKILL)
