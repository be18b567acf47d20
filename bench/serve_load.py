"""Load on the game server: many concurrent games of two people over loopback.

    python bench/serve_load.py                          # 200 games for 60 s, SQLite
    python bench/serve_load.py --postgres               # the same on a throwaway PostgreSQL
    python bench/serve_load.py --database-url postgresql://user@host/db
    python bench/serve_load.py --server http://127.0.0.1:8000   # a server already running

Starts a real ``boardlab serve`` process (unless ``--server``), opens ``--games`` rooms of
two people (one here, one invited who joins), and keeps that many games going for
``--seconds``: each player holds a WebSocket to its room, waits for its turn, "thinks"
``--think`` seconds (uniformly 0.5x to 1.5x), then posts a random legal move. A finished
game is replaced by a new one. Printed: moves per second, and the median, 99th percentile
and maximum latency of a person's move (from sending the POST to its acknowledgement,
which comes after the move is stored); the computer is not involved. Target: 200
concurrent games with p99 under 100 ms. The client runs on the same machine as the
server, so the figures include its load: compare runs made on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
#: the tables open over this many seconds at the start
RAMP_SECONDS = 5.0
#: one TLS context for every client: building one per client (httpx's default) costs more than the moves
TLS = ssl.create_default_context()
sys.path.insert(0, str(ROOT))  # for tests.server.postgres (the throwaway PostgreSQL of --postgres)


@dataclass
class Tally:
    #: (when it was sent, seconds since the start; how long it took)
    latencies: list[tuple[float, float]] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    games_done: int = 0
    started: float = 0.0
    #: (the server's CPU seconds or None, this client's CPU seconds) after the warm-up and at the end
    cpu_at_warmup: tuple[float | None, float] = (None, 0.0)
    cpu_at_end: tuple[float | None, float] = (None, 0.0)

    def refuse(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


async def player(base: str, room: str, token: str, seat: int, think: float, rng: random.Random, tally: Tally, stop: float) -> None:
    """One person: on each state where they decide, think, then move; until the game ends.
    Like a browser, each person has a connection of their own and a WebSocket."""
    headers = {"Authorization": f"Bearer {token}"}
    ws_base = base.replace("http", "ws", 1)
    async with (
        httpx.AsyncClient(base_url=base, limits=httpx.Limits(max_connections=1), timeout=60, verify=TLS) as client,
        connect(f"{ws_base}/api/rooms/{room}/live", max_size=2**24, open_timeout=60, compression=None) as socket,
    ):
        # the token goes in the first message, never the address (the spectators' state before
        # its answer has no legal moves: the loop below passes over it)
        await socket.send(json.dumps({"type": "auth", "token": token, "seat": seat}))
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), timeout=max(0.1, stop - time.monotonic())))
            except asyncio.TimeoutError:
                return
            if message.get("type") != "state":
                continue
            if message["status"] == "finished":
                return
            if message["to_move"] != seat or not message["legal_moves"]:
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            choices = [move for move in message["legal_moves"] if move["type"] != "resign"] or message["legal_moves"]
            # with the revision the state is known to be current, so the answer may leave out the log it holds
            body = {"move": rng.choice(choices)["text"], "ply": message["ply"], "revision": message["revision"]}
            held_log = message["log_start"] + len(message["log"])
            began = time.perf_counter()
            try:
                response = await client.post(
                    f"/api/rooms/{room}/moves", json=body, headers=headers, params={"log_from": held_log}
                )
            except httpx.TransportError as exc:
                tally.refuse(f"transport: {type(exc).__name__}")
                return
            elapsed = time.perf_counter() - began
            if response.status_code == 200:
                tally.latencies.append((time.monotonic() - tally.started - elapsed, elapsed))
            else:
                tally.refuse(response.json().get("error", {}).get("code", str(response.status_code)))


async def table(base: str, game: str, think: float, seed: int, tally: Tally, stop: float) -> None:
    """One table: a game after another, for as long as the run lasts."""
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, RAMP_SECONDS))  # people arrive over a few seconds, not all at once
    while time.monotonic() < stop:
        async with httpx.AsyncClient(base_url=base, timeout=60, verify=TLS) as client:
            created = (await client.post("/api/rooms", json={"game": game, "seats": ["here", "invite"]})).json()
            room = created["room"]
            joined = (await client.post(f"/api/rooms/{room}/join", json={"code": created["invites"][0]["code"]})).json()
        await asyncio.gather(
            player(base, room, created["token"], 0, think, rng, tally, stop),
            player(base, room, joined["token"], 1, think, rng, tally, stop),
        )
        tally.games_done += 1


async def run_load(base: str, games: int, game: str, think: float, seconds: float, warmup: float, server_pid: int | None) -> Tally:
    tally = Tally()
    tally.started = time.monotonic()
    stop = tally.started + seconds

    async def measure_cpu() -> None:
        await asyncio.sleep(warmup)
        tally.cpu_at_warmup = (cpu_seconds(server_pid), time.process_time())

    watch = asyncio.get_running_loop().create_task(measure_cpu())
    await asyncio.gather(*(table(base, game, think, index, tally, stop) for index in range(games)))
    await watch
    tally.cpu_at_end = (cpu_seconds(server_pid), time.process_time())
    return tally


def cpu_seconds(pid: int | None) -> float | None:
    """CPU time a process has used (Linux /proc), to report the server's cost per move
    whatever else the machine runs."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(port: int, data_dir: Path, database_url: str | None, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "boardlab", "serve", "--port", str(port), "--data-dir", str(data_dir), "--workers", "1"]
    # every simulated player is one address here: the per-address limits would throttle the load itself
    command += ["--rooms-per-minute", "0", "--moves-per-minute", "0", "--websockets-per-minute", "0", "--max-open-per-address", "0"]
    if database_url:
        command += ["--database-url", database_url]
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text(errors='replace')[-2000:]}")


def report(tally: Tally, games: int, seconds: float, warmup: float, label: str) -> None:
    """Figures for the moves sent after ``warmup`` seconds (the tables opening is not the load)."""
    samples = sorted(elapsed for sent, elapsed in tally.latencies if sent >= warmup)
    measured = seconds - warmup
    if not samples:
        print(f"{label}: no move was acknowledged after the warm-up; refusals {tally.refused}")
        return
    p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))]
    print(
        f"{label}: {games} concurrent games, {len(samples)} moves in {measured:.0f} s after a {warmup:.0f} s warm-up "
        f"= {len(samples) / measured:.1f} moves/s; "
        f"move latency median {statistics.median(samples) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {samples[-1] * 1000:.1f} ms; {tally.games_done} games finished; refusals {tally.refused or 'none'}"
    )
    (server_before, client_before), (server_after, client_after) = tally.cpu_at_warmup, tally.cpu_at_end
    server = "" if server_before is None or server_after is None else f"server {(server_after - server_before) / len(samples) * 1000:.2f} ms, "
    print(f"CPU per move: {server}client {(client_after - client_before) / len(samples) * 1000:.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--game", default="towers", help="game id (default towers)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks before moving (default 1)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load runs (default 60)")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds at the start left out of the figures (default 10)")
    parser.add_argument("--database-url", help="PostgreSQL URL for the server (default: SQLite in a temporary folder)")
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL for the server")
    parser.add_argument("--server", help="the URL of a server already running (nothing is started)")
    parser.add_argument("--port", type=int, default=8765, help="port for the server started here (default 8765)")
    args = parser.parse_args(argv)
    if not 0 <= args.warmup < args.seconds:
        parser.error("--warmup must be shorter than --seconds")

    postgres: Any = None
    process = None
    with tempfile.TemporaryDirectory(prefix="boardlab-load-") as folder:
        try:
            base = args.server
            url = args.database_url
            if base is None:
                if args.postgres:
                    from tests.server.postgres import TemporaryPostgres, server_programs

                    programs = server_programs()
                    if programs is None:
                        raise SystemExit("--postgres needs PostgreSQL's initdb (Debian: apt-get install postgresql)")
                    postgres = TemporaryPostgres(programs, durable=True)
                    url = postgres.start()
                process = start_server(args.port, Path(folder), url, Path(folder) / "serve.log")
                base = f"http://127.0.0.1:{args.port}"
            label = "PostgreSQL" if url and url.startswith("postgres") else ("SQLite" if not args.server else base)
            pid = None if process is None else process.pid
            tally = asyncio.run(run_load(base, args.games, args.game, args.think, args.seconds, args.warmup, pid))
            report(tally, args.games, args.seconds, args.warmup, label)
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
            if postgres is not None:
                postgres.stop()


if __name__ == "__main__":
    main()
