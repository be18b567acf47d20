"""A real ``boardlab serve`` process, killed with SIGKILL mid-game and started again on the same
storage, loses nothing: every room comes back exactly as its players and spectators last
saw it, and a computer move that was being thought about when the server died is played."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.harness import auth
from tests.server.postgres import empty_postgres
from tests.support.serve import serve_process


@contextmanager
def serving(
    data_dir: Path, database_url: str | None, log: Path, durability: str = "machine"
) -> Iterator[tuple[httpx.Client, subprocess.Popen[bytes]]]:
    """A ``boardlab serve`` process (killed with SIGKILL at the end) and a client for it."""
    options = ["--durability", durability]
    with serve_process(data_dir, log, database_url, options=options) as (url, process), httpx.Client(
        base_url=url, timeout=30
    ) as client:
        yield client, process


def kill_hard(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the server and its pool: no shutdown code runs."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def state(client: httpx.Client, room: str, token: str | None) -> dict[str, Any]:
    response = client.get(f"/api/rooms/{room}", headers=auth(token))
    assert response.status_code == 200, response.text
    message = response.json()
    message["view"]["match"].pop("seconds_left")
    return message


def wait_for(client: httpx.Client, room: str, token: str | None, ply: int, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = state(client, room, token)
        if message["ply"] >= ply and not message["thinking"]:
            return message
        assert time.monotonic() < deadline, f"room {room} stayed at ply {message['ply']}"
        time.sleep(0.05)


def create(client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def move(client: httpx.Client, room: str, token: str, message: dict[str, Any]) -> dict[str, Any]:
    text = message["legal_moves"][0]["notation"]
    response = client.post(f"/api/rooms/{room}/moves", json={"move": text, "ply": message["ply"]}, headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize(
    ("storage", "durability"),
    [("sqlite", "machine"), ("sqlite", "process"), ("postgresql", "machine"), ("postgresql", "process")],
)
def test_a_server_killed_mid_game_resumes_every_room_exactly(
    request: pytest.FixtureRequest, tmp_path: Path, storage: str, durability: str
) -> None:
    # --durability process: commits do not wait for the disk, and a killed process still
    # loses nothing it acknowledged (the database's own process, or the system, holds it)
    url = None if storage == "sqlite" else empty_postgres(request.getfixturevalue("postgres_url"))
    log = tmp_path / "serve.log"
    with serving(tmp_path, url, log, durability) as (client, process):
        # a person against the computer (the reply came from the pool)
        versus = create(client, {"game": "towers", "seats": ["here", "computer:easy"]})
        mine = move(client, versus["room"], versus["token"], versus["state"])
        wait_for(client, versus["room"], versus["token"], mine["ply"] + 1)
        # hidden cards and chance, between a person here and an invited one
        cards = create(client, {"game": "territories", "seats": ["here", "invite"]})
        guest = client.post(f"/api/rooms/{cards['room']}/join", json={"code": cards["invites"][0]["code"]}).json()
        tokens = {0: cards["token"], 1: guest["token"]}
        for _ in range(6):
            seen = state(client, cards["room"], cards["token"])
            seat = seen["to_move"]
            move(client, cards["room"], tokens[seat], state(client, cards["room"], tokens[seat]))
        # the computer opens with a long think: the server dies in the middle of it
        thinking = create(client, {"game": "towers", "seats": ["computer:hard", "here"]})
        assert state(client, thinking["room"], thinking["token"])["thinking"]
        watched = {
            versus["room"]: [None, versus["token"]],
            cards["room"]: [None, *tokens.values()],
            thinking["room"]: [None, thinking["token"]],
        }
        before = {room: [state(client, room, token) for token in held] for room, held in watched.items()}
        kill_hard(process)

    with serving(tmp_path, url, log, durability) as (client, _process):
        for room, held in watched.items():
            if room == thinking["room"]:
                continue
            assert [state(client, room, token) for token in held] == before[room]
        resumed = wait_for(client, thinking["room"], thinking["token"], 1)
        assert [entry["by"] for entry in resumed["log"]] == [0] and resumed["legal_moves"]
        # and play goes on
        again = move(client, versus["room"], versus["token"], state(client, versus["room"], versus["token"]))
        wait_for(client, versus["room"], versus["token"], again["ply"] + 1)


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                found.add(int(entry.name))
    return found


def test_the_computers_workers_leave_with_a_killed_server(tmp_path: Path) -> None:
    with serving(tmp_path, None, tmp_path / "serve.log") as (client, process):
        create(client, {"game": "towers", "seats": ["computer:hard", "here"]})  # a worker is searching
        workers = children(process.pid)
        assert workers, "the computer's pool has no process"
        os.kill(process.pid, signal.SIGKILL)  # the server alone: its workers are orphaned
        process.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(running(pid) for pid in workers):
            assert time.monotonic() < deadline, "orphaned workers are still running"
            time.sleep(0.2)


def running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_serve_takes_what_it_loaded_at_start_out_of_the_collectors_full_passes() -> None:
    # a full pass over the code and tables stopped every room for 100 to 230 ms under load
    # (docs/server.md, Load); rooms made later stay collectable
    script = (
        "import gc, sys\n"
        "from boardlab.cli.serve import freeze_what_was_loaded\n"
        "freeze_what_was_loaded()\n"
        "print(gc.get_freeze_count(), 'boardlab.games.overseer.game' in sys.modules, gc.isenabled())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    frozen, overseer_loaded, enabled = done.stdout.split()
    assert int(frozen) > 20_000 and overseer_loaded == "True" and enabled == "True"
