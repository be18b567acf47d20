"""Load on the game server: many concurrent games of two people over loopback.

    python bench/serve_load.py                          # 200 games for 60 s, SQLite
    python bench/serve_load.py --postgres               # the same on a throwaway PostgreSQL
    python bench/serve_load.py --database-url postgresql://user@host/db
    python bench/serve_load.py --server http://127.0.0.1:8000   # a server already running
    python bench/serve_load.py --postgres --processes 2  # two server processes on one PostgreSQL
    python bench/serve_load.py --profile out/serve      # each server under cProfile: out/serve-0.prof ...
    python bench/serve_load.py --catch-up               # a move's CPU on one service and on two sharing PostgreSQL

Starts a real ``boardlab serve`` process (unless ``--server``), opens ``--games`` rooms of
two people (one here, one invited who joins), and keeps that many games going for
``--seconds``: each player holds a WebSocket to its room, waits for its turn, "thinks"
``--think`` seconds (uniformly 0.5x to 1.5x), then posts a random legal move. A finished
game is replaced by a new one. Printed: moves per second, and the median, 99th percentile
and maximum latency of a person's move (from sending the POST to its acknowledgement,
which comes after the move is stored); the computer is not involved. With
``--processes N`` (PostgreSQL only) N servers share the database and the two people of a
game sit on different ones, so every move reaches the other player through LISTEN/NOTIFY.
Target: 200
concurrent games with p99 under 100 ms. The client runs on the same machine as the
server, so the figures include its load: compare runs made on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
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
#: ``--profile``: the server under cProfile, timed in the CPU time of its event loop's thread (wall
#: time would count the waits for the machine's other jobs, and the pauses of suspended coroutines);
#: the profile is written when the server ends (SIGINT: uvicorn raises it again as KeyboardInterrupt)
PROFILED = """
import cProfile, runpy, sys, time
sys.argv[0] = "boardlab"
profiler = cProfile.Profile(time.thread_time)
try:
    profiler.runcall(runpy.run_module, "boardlab", run_name="__main__")
except (KeyboardInterrupt, SystemExit):
    pass
finally:
    profiler.dump_stats({path!r})
"""
sys.path.insert(0, str(ROOT))  # for tests.server.postgres (the throwaway PostgreSQL of --postgres)

from boardlab.server.settings import DEFAULT_DURABILITY, DURABILITIES  # noqa: E402


@dataclass
class Tally:
    #: (when it was sent, seconds since the start; how long it took)
    latencies: list[tuple[float, float]] = field(default_factory=list)
    #: (when it was sent, seconds since the start; how long until the other player's socket had it)
    seen: list[tuple[float, float]] = field(default_factory=list)
    #: moves sent and not yet seen by the other player: (room, ply after it) -> when sent (perf_counter)
    in_flight: dict[tuple[str, int], float] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    games_done: int = 0
    started: float = 0.0
    #: (the server's CPU seconds or None, this client's CPU seconds) after the warm-up and at the end
    cpu_at_warmup: tuple[float | None, float] = (None, 0.0)
    cpu_at_end: tuple[float | None, float] = (None, 0.0)
    #: each server process's CPU seconds after the warm-up and at the end
    each_at_warmup: list[float | None] = field(default_factory=list)
    each_at_end: list[float | None] = field(default_factory=list)

    def refuse(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


async def player(
    base: str, room: str, token: str, seat: int, think: float, rng: random.Random, tally: Tally, stop: float
) -> None:
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
            except TimeoutError:
                return
            if message.get("type") != "state":
                continue
            arrived = (room, message["ply"])
            if arrived in tally.in_flight and message["log"] and message["log"][-1]["by"] != seat:
                took = time.perf_counter() - tally.in_flight.pop(arrived)
                tally.seen.append((time.monotonic() - tally.started - took, took))
            if message["status"] == "finished":
                return
            if message["to_move"] != seat or not message["legal_moves"]:
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            choices = [move for move in message["legal_moves"] if move["type"] != "resign"] or message["legal_moves"]
            # with the revision the state is known to be current, so the answer may leave out the log it holds
            body = {"move": rng.choice(choices)["notation"], "ply": message["ply"], "revision": message["revision"]}
            held_log = message["log_start"] + len(message["log"])
            began = time.perf_counter()
            tally.in_flight[(room, message["ply"] + 1)] = began
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


async def table(bases: list[str], game: str, think: float, seed: int, tally: Tally, stop: float) -> None:
    """One table: a game after another, for as long as the run lasts. With several servers
    the two people of a table use neighbouring ones."""
    base, other = bases[seed % len(bases)], bases[(seed + 1) % len(bases)]
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, RAMP_SECONDS))  # people arrive over a few seconds, not all at once
    while time.monotonic() < stop:
        async with httpx.AsyncClient(base_url=base, timeout=60, verify=TLS) as client:
            created = (await client.post("/api/rooms", json={"game": game, "seats": ["here", "invite"]})).json()
            room = created["room"]
        async with httpx.AsyncClient(base_url=other, timeout=60, verify=TLS) as client:
            joined = (await client.post(f"/api/rooms/{room}/join", json={"code": created["invites"][0]["code"]})).json()
        await asyncio.gather(
            player(base, room, created["token"], 0, think, rng, tally, stop),
            player(other, room, joined["token"], 1, think, rng, tally, stop),
        )
        tally.games_done += 1


async def run_load(
    bases: list[str], games: int, game: str, think: float, seconds: float, warmup: float, server_pids: list[int]
) -> Tally:
    tally = Tally()
    tally.started = time.monotonic()
    stop = tally.started + seconds

    async def measure_cpu() -> None:
        await asyncio.sleep(warmup)
        tally.cpu_at_warmup = (cpu_seconds(server_pids), time.process_time())
        tally.each_at_warmup = [cpu_seconds([pid]) for pid in server_pids]

    watch = asyncio.get_running_loop().create_task(measure_cpu())
    await asyncio.gather(*(table(bases, game, think, index, tally, stop) for index in range(games)))
    await watch
    tally.cpu_at_end = (cpu_seconds(server_pids), time.process_time())
    tally.each_at_end = [cpu_seconds([pid]) for pid in server_pids]
    return tally


def cpu_seconds(pids: list[int]) -> float | None:
    """CPU time the server processes have used together (Linux /proc), to report the
    server's cost per move whatever else the machine runs."""
    if not pids:
        return None
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def start_server(
    port: int, data_dir: Path, database_url: str | None, log: Path, profile: Path | None = None,
    durability: str = DEFAULT_DURABILITY,
) -> subprocess.Popen[bytes]:
    program = ["-m", "boardlab"] if profile is None else ["-c", PROFILED.format(path=str(profile))]
    command = [sys.executable, *program, "serve", "--port", str(port), "--data-dir", str(data_dir), "--workers", "1"]
    command += ["--durability", durability]
    # every simulated player is one address here: the per-address limits would throttle the load itself
    limits = (
        "--rooms-per-minute", "--rooms-per-day", "--moves-per-minute", "--websockets-per-minute", "--messages-per-minute",
        "--reads-per-minute",
    )
    for limit in (*limits, "--max-open-per-address"):
        command += [limit, "0"]
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


class CollectorPauses:
    """This client's own garbage-collector passes (``gc.callbacks``): they stop its event loop,
    and a move acknowledged during one is timed late, so the report says how long they were."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._began)

    def summary(self) -> str:
        long = sorted(pause for pause in self.pauses if pause >= 0.01)
        if not long:
            return "this client's garbage collector: no pass of 10 ms or more"
        return (f"this client's garbage collector: {len(long)} passes of 10 ms or more, the longest "
                f"{long[-1] * 1000:.0f} ms (moves acknowledged meanwhile are timed late by as much)")


def report(tally: Tally, games: int, seconds: float, warmup: float, label: str) -> None:
    """Figures for the moves sent after ``warmup`` seconds (the tables opening is not the load)."""
    samples = sorted(elapsed for sent, elapsed in tally.latencies if sent >= warmup)
    measured = seconds - warmup
    if not samples:
        print(f"{label}: no move was acknowledged after the warm-up; refusals {tally.refused}")
        return
    p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))]
    seen = sorted(elapsed for sent, elapsed in tally.seen if sent >= warmup)
    print(
        f"{label}: {games} concurrent games, {len(samples)} moves in {measured:.0f} s after a {warmup:.0f} s warm-up "
        f"= {len(samples) / measured:.1f} moves/s; "
        f"move latency median {statistics.median(samples) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {samples[-1] * 1000:.1f} ms; {tally.games_done} games finished; refusals {tally.refused or 'none'}"
    )
    (server_before, client_before), (server_after, client_after) = tally.cpu_at_warmup, tally.cpu_at_end
    if server_before is None or server_after is None:
        server = ""
    else:
        server = f"server {(server_after - server_before) / len(samples) * 1000:.2f} ms, "
        if len(tally.each_at_end) > 1:  # each process's share: the one that took a move and the one that caught up
            shares = [
                f"{(after - before) / len(samples) * 1000:.2f}"
                for before, after in zip(tally.each_at_warmup, tally.each_at_end)
                if before is not None and after is not None
            ]
            server += f"(per process: {', '.join(shares)} ms), "
    print(f"CPU per move: {server}client {(client_after - client_before) / len(samples) * 1000:.2f} ms")
    if seen:
        seen_p99 = seen[min(len(seen) - 1, int(0.99 * len(seen)))]
        print(
            f"a move seen on the other player's WebSocket after: median {statistics.median(seen) * 1000:.1f} ms, "
            f"p99 {seen_p99 * 1000:.1f} ms, max {seen[-1] * 1000:.1f} ms ({len(seen)} moves)"
        )
    print("load average (1, 5, 15 min) at the end: " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))


def catch_up_costs(url: str, rooms: int = 30, turns: int = 12) -> None:
    """``--catch-up``: the CPU of a move with both players on one service, and with each player on
    a service of its own sharing ``url`` (every move caught up by the other through NOTIFY), both
    services in this process and no HTTP; each one run after the other, twice."""
    from boardlab.server.computer import ComputerPlayers
    from boardlab.server.service import NewRoom, RoomService
    from boardlab.server.storage import Storage
    from tests.server.harness import test_settings
    from tests.server.postgres import empty_postgres

    async def run(two: bool) -> float:
        opened: list[tuple[RoomService, Storage]] = []

        async def open_service() -> RoomService:
            settings = test_settings(empty_url, Path(tempfile.mkdtemp()))
            storage = Storage(settings.storage_url())
            service = RoomService(settings, storage, ComputerPlayers(0))
            await service.start()
            if service.listener is not None:
                await asyncio.wait_for(service.listener.listening.wait(), 30)
            opened.append((service, storage))
            return service

        async def drain(watcher: Any) -> None:
            while True:
                await watcher.next_message()

        first = await open_service()
        second = await open_service() if two else first
        tables = []
        for _ in range(rooms):
            created = await first.create(NewRoom("towers", None, {}, ["here", "here"], None, None, None))
            room_id = created.room.id
            watchers = [await first.watch(room_id, created.token, 0), await second.watch(room_id, created.token, 1)]
            tables.append((room_id, created.token, watchers))
        drains = [asyncio.ensure_future(drain(watcher)) for _room, _token, watchers in tables for watcher in watchers]
        await asyncio.sleep(0.5)
        rng = random.Random(1)
        began, moves = time.process_time(), 0
        for turn in range(turns):
            for room_id, token, _watchers in tables:
                mover, other = (first, second) if turn % 2 == 0 else (second, first)
                room = await mover.room(room_id)
                legal = [move.to_json()["notation"] for move in room.match.legal_moves(turn % 2)]
                await mover.play(room_id, token, rng.choice(legal), room.match.ply, None, turn % 2)
                moves += 1
                while (await other.room(room_id)).revision < room.revision:
                    await asyncio.sleep(0.001)
        spent = (time.process_time() - began) / moves
        for task in drains:
            task.cancel()
        for service, storage in opened:
            await service.close()
            storage.close()
        return spent

    for _ in range(2):
        for two in (False, True):
            empty_url = empty_postgres(url)
            spent = asyncio.run(run(two))
            label = "two services, each player on its own" if two else "one service, both players"
            print(f"{label}: {spent * 1000:.2f} ms of CPU a move (every thread of this process)")
    print("load average (1, 5, 15 min) at the end: " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))


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
    parser.add_argument(
        "--port", type=int, default=8765, help="port of the server started here (default 8765; more take the next)"
    )
    parser.add_argument(
        "--catch-up",
        action="store_true",
        help="instead of the load: the CPU a move costs on one service and on two sharing a throwaway PostgreSQL",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes sharing the database (PostgreSQL only; default 1)"
    )
    parser.add_argument(
        "--durability",
        choices=DURABILITIES,
        default=DEFAULT_DURABILITY,
        help="the servers' --durability: commits wait for the disk (machine) or not (process) (default machine)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="run each server under cProfile and write its profile to PROFILE-N.prof (N: the process's number)",
    )
    args = parser.parse_args(argv)
    if args.catch_up:
        from tests.server.postgres import TemporaryPostgres, server_programs

        programs = server_programs()
        if programs is None:
            raise SystemExit("--catch-up needs PostgreSQL's initdb (Debian: apt-get install postgresql)")
        database = TemporaryPostgres(programs, durable=True)
        try:
            catch_up_costs(database.start())
        finally:
            database.stop()
        return
    if not 0 <= args.warmup < args.seconds:
        parser.error("--warmup must be shorter than --seconds")
    if args.processes < 1:
        parser.error(f"--processes {args.processes}: at least one")
    if args.processes > 1 and args.server:
        parser.error("--processes starts servers; with --server nothing is started")
    shared = args.postgres or (args.database_url or "").startswith("postgres")
    if args.processes > 1 and not shared:
        parser.error(
            f"--processes {args.processes}: SQLite serves one process (a second boardlab serve on one SQLite file "
            "is refused); add --postgres or --database-url postgresql://... for several"
        )
    print("load average (1, 5, 15 min) at the start: " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))

    postgres: Any = None
    processes: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="boardlab-load-") as folder:
        try:
            bases = [args.server] if args.server else []
            url = args.database_url
            if not bases:
                if args.postgres:
                    from tests.server.postgres import TemporaryPostgres, server_programs

                    programs = server_programs()
                    if programs is None:
                        raise SystemExit("--postgres needs PostgreSQL's initdb (Debian: apt-get install postgresql)")
                    postgres = TemporaryPostgres(programs, durable=True)
                    url = postgres.start()
                for index in range(args.processes):
                    data = Path(folder) / f"server-{index}"
                    profile = None if args.profile is None else args.profile.with_name(f"{args.profile.name}-{index}.prof")
                    processes.append(
                        start_server(
                            args.port + index, data, url, Path(folder) / f"serve-{index}.log", profile, args.durability
                        )
                    )
                    bases.append(f"http://127.0.0.1:{args.port + index}")
            label = "PostgreSQL" if url and url.startswith("postgres") else ("SQLite" if not args.server else bases[0])
            if len(processes) > 1:
                label += f", {len(processes)} processes"
            if processes:
                label += f", --durability {args.durability}"
            pids = [process.pid for process in processes]
            # the client's own collector passes stop its event loop, and every move acknowledged
            # meanwhile would be timed late by as much (with it on: 70 passes of 10 ms or more a
            # minute, up to 200 ms): it is off while the load runs (a minute's garbage fits in
            # memory), and any pass that still happens is reported
            gc.collect()
            gc.freeze()
            pauses = CollectorPauses()
            gc.callbacks.append(pauses)
            gc.disable()
            try:
                tally = asyncio.run(run_load(bases, args.games, args.game, args.think, args.seconds, args.warmup, pids))
            finally:
                gc.enable()
                gc.callbacks.remove(pauses)
            report(tally, args.games, args.seconds, args.warmup, label)
            print(pauses.summary())
        finally:
            for process in processes:
                # uvicorn raises the signal again once it has stopped: SIGINT ends in a KeyboardInterrupt,
                # which lets cProfile write its profile (SIGTERM would end the process first)
                process.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
            for process in processes:
                process.wait(timeout=30)
            if postgres is not None:
                postgres.stop()


if __name__ == "__main__":
    main()
