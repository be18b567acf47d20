"""What the server's reads cost: a finished room read again, and the lobby's listing.

    python bench/room_reads.py                     # SQLite in a throwaway folder
    python bench/room_reads.py --rooms 20000       # a larger lobby to list

In one process, through FastAPI's test client (no network), with every rate limit off:

* **A finished room read again.** A Towers game of two people here, played by random moves to
  its end (``--plies`` at most, then resigned), then ``--reads`` reads of ``GET /api/rooms/ID``
  with the server's keep of finished rooms as shipped and with it off (each read then rebuilds
  the game from storage, as before the keep): the medians and their ratio, measured in one run.
* **The lobby's listing.** ``--rooms`` rooms waiting for a player, made by ``--addresses``
  addresses (named through a trusted proxy's ``X-Forwarded-For``), then ``Storage.list_rooms``
  timed directly (the service answers it from memory for a second after each read): at most 3 of
  one creator, as the service asks, and with no share, as before it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

# starlette's test client asks for httpx2; httpx (the web extra's) works the same for it
warnings.filterwarnings("ignore", message=".*install `httpx2`.*")

from starlette.testclient import TestClient  # noqa: E402

from boardlab.server import Settings, create_app  # noqa: E402
from boardlab.server.listing import ROOMS_LISTED_PER_CREATOR  # noqa: E402
from boardlab.server.storage import Storage  # noqa: E402

NO_LIMITS: dict[str, Any] = {
    "computer_workers": 0,
    "static_dir": None,
    "rooms_per_minute": 0,
    "rooms_per_day": 0,
    "moves_per_minute": 0,
    "reads_per_minute": 0,
    "max_open_per_address": 0,
    "trusted_proxies": ("testclient",),
}


def median_ms(call: Callable[[], object], times: int) -> float:
    took = []
    for _ in range(times):
        began = time.perf_counter()
        call()
        took.append(time.perf_counter() - began)
    return 1000 * statistics.median(took)


def finished_game(client: TestClient, plies: int, rng: random.Random) -> tuple[str, int]:
    made = client.post("/api/rooms", json={"game": "towers", "seats": ["here", "here"]}).json()
    room, headers = made["room"], {"Authorization": f"Bearer {made['token']}"}
    state = made["state"]
    while state["status"] == "playing" and state["ply"] < plies:
        move = rng.choice(state["legal_moves"])["notation"]
        state = client.post(f"/api/rooms/{room}/moves", json={"move": move, "ply": state["ply"]}, headers=headers).json()
    if state["status"] == "playing":
        state = client.post(f"/api/rooms/{room}/resign", json={}, headers=headers).json()
    return room, state["ply"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=400, help="the finished game's most plies (default 400)")
    parser.add_argument("--reads", type=int, default=100, help="reads timed each way (default 100)")
    parser.add_argument("--rooms", type=int, default=2000, help="rooms in the lobby (default 2000)")
    parser.add_argument("--addresses", type=int, default=20, help="addresses that made them (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder), database_url=f"sqlite:///{folder}/bench.db", **NO_LIMITS)
        storage = Storage(settings.storage_url())
        app = create_app(settings, storage)
        load = os.getloadavg()[0]
        with TestClient(app) as client:
            room, plies = finished_game(client, args.plies, rng)
            finished = app.state.service._finished  # the keep of finished rooms (boardlab/server/finished.py)
            shipped = finished.kept

            def read() -> object:
                return client.get(f"/api/rooms/{room}")

            read()
            kept_ms = median_ms(read, args.reads)
            finished.kept = 0  # as before the keep: every read rebuilds the game
            rebuilt_ms = median_ms(read, args.reads)
            finished.kept = shipped
            print(f"a finished Towers game of {plies} plies, read {args.reads} times each way (median a request):")
            print(f"  kept: {kept_ms:.2f} ms   rebuilt from storage: {rebuilt_ms:.2f} ms   ratio {rebuilt_ms / kept_ms:.1f}")

            for index in range(args.rooms):
                address = f"198.51.100.{index % args.addresses + 1}"
                made = client.post("/api/rooms", json={"game": "towers", "seats": ["here", "invite"]},
                                   headers={"X-Forwarded-For": address})
                assert made.status_code == 201, made.text
            limit = settings.rooms_listed
            fair_ms = median_ms(lambda: storage.list_rooms(("waiting",), None, limit, ROOMS_LISTED_PER_CREATOR), 20)
            plain_ms = median_ms(lambda: storage.list_rooms(("waiting",), None, limit, 0), 20)
            print(f"the lobby's listing of {args.rooms} waiting rooms from {args.addresses} addresses (median of 20):")
            print(f"  at most {ROOMS_LISTED_PER_CREATOR} of one creator: {fair_ms:.2f} ms   no share: {plain_ms:.2f} ms")
        storage.close()
    print(f"load average at the start {load:.2f}, at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
