"""The browser tests' helpers: Debian's Chromium under Playwright (never a downloaded browser),
a real ``boardlab serve`` on a free port, and small steps a test takes through the API."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.support.serve import serve_process

#: what Chromium needs here: no sandbox (containers, root), no GPU, and no network of its own
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: where the screenshots go (a CI artifact; the folder is ignored by git)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def chromium_path() -> str | None:
    """Debian's ``chromium`` (apt-get install chromium), or None."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class Server:
    """A running ``boardlab serve`` and an HTTP client for setting up rooms."""

    def __init__(self, url: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.url = url
        self.process = process
        self.log = log
        self.client = httpx.Client(base_url=url, timeout=30)

    def create(self, game: str, seats: list[str], **fields: Any) -> dict[str, Any]:
        response = self.client.post("/api/rooms", json={"game": game, "seats": seats, **fields})
        assert response.status_code == 201, response.text
        return response.json()

    def state(self, room: str, token: str | None = None, seat: int | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        params = {} if seat is None else {"seat": seat}
        response = self.client.get(f"/api/rooms/{room}", headers=headers, params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def play(self, room: str, token: str, text: str, ply: int) -> dict[str, Any]:
        response = self.client.post(
            f"/api/rooms/{room}/moves", json={"move": text, "ply": ply}, headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 200, response.text
        return response.json()


@contextmanager
def serving(data_dir: Path) -> Iterator[Server]:
    """``boardlab serve`` in a process group of its own (its computer pool goes with it)."""
    log = data_dir / "serve.log"
    with serve_process(data_dir, log, gentle_stop=True) as (url, process):
        server = Server(url, process, log)
        try:
            yield server
        finally:
            server.client.close()
