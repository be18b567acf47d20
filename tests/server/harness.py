"""Driving an app through FastAPI's test client: create rooms, act, wait for the computer."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response
from starlette.testclient import WebSocketTestSession

from boardlab.core.agent import Agent
from boardlab.core.decisions import Decision
from boardlab.server import Settings, create_app
from boardlab.server import computer as computer_module
from boardlab.server.rooms import Room
from boardlab.server.rows import StoredRoom
from boardlab.server.storage import Storage

Message = dict[str, Any]


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


@dataclass
class Seated:
    """A new room as its creator sees it."""

    room: str
    token: str | None
    state: Message
    invites: list[dict[str, Any]]


class Harness:
    def __init__(self, client: TestClient, app: FastAPI, storage: Storage) -> None:
        self.client = client
        self.app = app
        self.storage = storage

    def create(self, game: str, seats: list[str] | None = None, **fields: Any) -> Seated:
        body: dict[str, Any] = {"game": game, **fields}
        if seats is not None:
            body["seats"] = seats
        response = self.client.post("/api/rooms", json=body)
        assert response.status_code == 201, response.text
        data = response.json()
        return Seated(data["room"], data["token"], data["state"], data["invites"])

    def join(self, room: str, code: str, name: str | None = None) -> Response:
        body = {"code": code} if name is None else {"code": code, "name": name}
        return self.client.post(f"/api/rooms/{room}/join", json=body)

    def move(self, room: str, token: str | None, text: str, ply: int, **extra: Any) -> Response:
        return self.client.post(f"/api/rooms/{room}/moves", json={"move": text, "ply": ply, **extra}, headers=auth(token))

    def act(self, room: str, token: str | None, action: str, body: dict[str, Any] | None = None) -> Response:
        return self.client.post(f"/api/rooms/{room}/{action}", json=body or {}, headers=auth(token))

    def state(self, room: str, token: str | None = None, seat: int | None = None) -> Message:
        params = {} if seat is None else {"seat": seat}
        response = self.client.get(f"/api/rooms/{room}", headers=auth(token), params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def wait(self, room: str, token: str | None, until: Callable[[Message], bool], timeout: float = 30.0) -> Message:
        """Poll the room's state until ``until`` holds (the computer thinks in the background)."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(room, token)
            if until(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"room {room}: condition not reached in {timeout} s; last state ply {state['ply']}")
            time.sleep(0.02)

    def settled(self, room: str, token: str | None = None) -> Message:
        """The state once no computer is thinking."""
        return self.wait(room, token, lambda state: not state["thinking"])

    def stored(self, room: str) -> StoredRoom:
        stored = self.storage.load_room(room)
        assert stored is not None
        return stored

    def live_room(self, room: str) -> Room:
        """The room in memory (for checks against the real match)."""
        return self.app.state.service.loaded(room)


@contextmanager
def watch(client: TestClient, room: str, token: str | None = None, seat: int | None = None) -> Iterator[WebSocketTestSession]:
    """The room's WebSocket as the page opens it: the token (and seat) in the first message, never
    in the address. The spectators' state that comes before the answer is read here, so the
    socket's next message is the first one for the token's seat."""
    with client.websocket_connect(f"/api/rooms/{room}/live") as socket:
        if token is not None:
            first = socket.receive_json()
            assert first["type"] == "state" and first["seat"] is None, first
            socket.send_json({"type": "auth", "token": token, "seat": seat})
        yield socket


def test_settings(url: str, data_dir: Path, **overrides: Any) -> Settings:
    seeds = itertools.count(1001)
    base: dict[str, Any] = {
        "data_dir": data_dir,
        "database_url": url,
        "computer_workers": 0,
        "seed_source": lambda: next(seeds),
        "static_dir": None,
        # the tests' clocks run out in fractions of a second, under any real server's floor
        "min_move_seconds": 0.0,
        # every test client is one address ("testclient"): the limits' own tests turn them on
        "rooms_per_minute": 0,
        "rooms_per_day": 0,
        "moves_per_minute": 0,
        "websockets_per_minute": 0,
        "messages_per_minute": 0,
        "messages_per_socket_per_minute": 0,
        "reads_per_minute": 0,
        "max_open_per_address": 0,
        "max_computer_only_rooms_per_address": 0,
    }
    base.update(overrides)
    return Settings(**base)


@contextmanager
def make_harness(url: str, data_dir: Path, **overrides: Any) -> Iterator[Harness]:
    settings = test_settings(url, data_dir, **overrides)
    storage = Storage(settings.storage_url())
    app = create_app(settings, storage)
    try:
        with TestClient(app) as client:
            yield Harness(client, app, storage)
    finally:
        storage.close()


test_settings.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


class SlowThinker:
    """Stands in for the worker's search: holds every search until released (or for ``hold`` s)."""

    def __init__(self, hold: float = 30.0) -> None:
        self.release = threading.Event()
        self.hold = hold
        self.started = threading.Event()
        self.real = computer_module.think

    def __call__(self, decision: Decision) -> tuple[str, Agent]:
        self.started.set()
        self.release.wait(self.hold)
        return self.real(decision)
