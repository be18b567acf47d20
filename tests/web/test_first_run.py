"""The README's first run: ``boardlab serve`` started as the README shows it, in an empty folder
(so its data folder is the relative ``./boardlab-data``), and a two-game study started and
finished from the Lab page in Chromium, with no sign-in on this computer's own address."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.serve import free_port

ROOT = Path(__file__).resolve().parents[2]
#: the README's command that starts the server, as its setup block shows it
README_COMMAND = "boardlab serve"
#: a two-game study of easy players: starting the worker, two games and the report's plots
STUDY_SECONDS = 150


def readme_serve_command() -> list[str]:
    """The README's ``boardlab serve``, with the installed ``boardlab`` script where there is one."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f'pip install -e ".[dev]" && {README_COMMAND}' in readme, "the README no longer starts the server this way"
    script = shutil.which("boardlab") or str(Path(sys.executable).parent / "boardlab")
    if Path(script).is_file():
        return [script, *README_COMMAND.split()[1:]]
    return [sys.executable, "-m", "boardlab", *README_COMMAND.split()[1:]]


def port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture
def readme_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The server as the README starts it, in an empty folder; the address it prints. Only
    when its default port is taken (another server on this machine) is ``--port`` added."""
    folder = tmp_path / "first-run"
    folder.mkdir()
    command = readme_serve_command()
    if not port_free(8000):
        command += ["--port", str(free_port())]
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=folder, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            found = re.search(r"serves at (http://[0-9.]+:\d+)/", log.read_text(errors="replace"))
            if found:
                url = found[1]
                try:
                    if httpx.get(f"{url}/api/games", timeout=10).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
            assert process.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.2)
        yield url, folder
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)


def test_the_readmes_first_run_plays_a_two_game_study_from_the_lab_page(chromium: Any, readme_server: tuple[str, Path]) -> None:
    url, folder = readme_server
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, base_url=url)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/lab")
        page.wait_for_selector("#lab-start", timeout=30_000)  # on this computer's address: no sign-in
        page.select_option("#lab-game", "towers")
        page.select_option("#lab-agents", "easy")
        page.fill("#lab-games", "2")
        page.click("#lab-start")
        card = page.locator("article.lab-study").first
        card.locator("text=of 2 games").wait_for(timeout=30_000)
        finished = 'article.lab-study[data-state="finished"], article.lab-study[data-state="failed"]'
        page.wait_for_selector(finished, timeout=STUDY_SECONDS * 1000)
        assert card.get_attribute("data-state") == "finished", card.inner_text()
        assert card.locator(".count").inner_text() == "2 of 2 games"
        assert card.locator("ul.verdict li").count() >= 1
        card.locator("a.report").click()
        page.wait_for_selector("text=Games to look at")
    finally:
        context.close()
    assert not errors, errors
    # everything the server wrote is in the folder it was started in
    studies = list((folder / "boardlab-data" / "lab").iterdir())
    assert len(studies) == 1 and (studies[0] / "study" / "report.json").is_file()
