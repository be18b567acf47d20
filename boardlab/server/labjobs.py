"""Lab studies started from the browser (the Lab page): stored on the server, played by one
worker process at a time at the lowest CPU priority, resumed after a restart.

A study lives in ``DATA/lab/<id>/``: ``job.json`` (what was asked: game, agents, options,
variants, games, seed, when), the study folder ``study/`` that ``boardlab lab`` would write
(study.json, games.jsonl, records/, report.*), ``status.json`` (written by the worker when it
ends: finished, stopped, or failed with the error), ``worker.log``, and ``stop`` while the
designer has asked it to stop.

**Stopping.** A study can be stopped at any time (:meth:`LabJobs.stop`): the ``stop`` file
asks its worker to end within about a second, in the middle of a game if need be (that game is
dropped; the finished ones stay), and to write the report of the games played so far. A
stopped study frees the worker for the next one and can be continued later
(:meth:`LabJobs.resume`) from its stored games.

**Fair share.** People's games come first: a study is played by a separate process
(:mod:`boardlab.server.labrun`) that lowers its own priority to the least (nice 19) and plays
one game at a time, and at most ``max_running`` studies run at once (the others wait in
order). Its size is capped (``max_games_per_variant``, ``max_variants``); with its
computers spending only idle CPU, a study never slows a person's game; it only waits.

**State** is read from the folder, never kept only in memory: a worker holds an exclusive
lock on ``worker.lock`` while it plays, so "running" is "the lock is held" (also by a
worker that outlived a server restart); a study neither finished, failed nor running waits,
and is started again by the pump (resuming from its stored games, as ``boardlab lab`` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import BoardlabError, OptionError
from ..lab.study import Study, Variant
from .errors import ServerError

try:  # the lock that says "a worker plays this study"; POSIX only
    import fcntl
except ImportError:  # pragma: no cover - Windows: a study counts as running while its process lives
    fcntl = None  # type: ignore[assignment]

JOB_FILE = "job.json"
STATUS_FILE = "status.json"
STUDY_FOLDER = "study"
LOCK_FILE = "worker.lock"
LOG_FILE = "worker.log"
STOP_FILE = "stop"
#: the states a study can be in (LabJobs.state)
QUEUED, RUNNING, STOPPING, FINISHED, STOPPED, FAILED = "queued", "running", "stopping", "finished", "stopped", "failed"
ENDED = (FINISHED, STOPPED, FAILED)
#: how often the pump looks for a study to start
PUMP_SECONDS = 1.0


class LabStudyNotFound(ServerError):
    code = "not_found"


class LabRefused(ServerError):
    """A study the server will not play (too large, or bad settings)."""

    code = "bad_request"


class LabStudyEnded(ServerError):
    """Stopping a study that has ended, or continuing one that was not stopped."""

    code = "refused"


@dataclass(frozen=True)
class LabLimits:
    """The share of the computer the Lab may take (docs/lab.md, "The Lab in the browser")."""

    max_games_per_variant: int = 400
    max_variants: int = 6
    max_total_games: int = 1200
    max_running: int = 1
    max_stored: int = 200

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


def build_study(request: Mapping[str, Any]) -> Study:
    """The lab study a request asks for; BoardlabError names what is wrong."""
    game_id = request["game"]
    agents = tuple(request["agents"])
    vary: Mapping[str, Sequence[str]] = request.get("vary") or {}
    names = list(vary)
    variants: list[Variant] = []
    if names:
        import itertools

        for values in itertools.product(*(vary[name] for name in names)):
            label = ",".join(f"{name}={value}" for name, value in zip(names, values))
            variants.append(Variant(label, dict(zip(names, values)), agents))
    else:
        variants.append(Variant("", {}, agents))
    return Study(
        game_id=game_id,
        variants=tuple(variants),
        games=int(request["games"]),
        seed=int(request.get("seed", 0)),
        players=request.get("players"),
        rotate=True,
        options=dict(request.get("options") or {}),
    )


def _lock_held(path: Path) -> bool:
    """Whether a worker holds ``path``'s lock now."""
    if fcntl is None or not path.exists():
        return False
    with path.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


@contextlib.contextmanager
def worker_lock(folder: Path) -> Iterator[None]:
    """Held by the worker for as long as it plays the study in ``folder``."""
    with (folder / LOCK_FILE).open("a") as handle:
        if fcntl is not None:
            # blocking: the server's look at the lock (a moment) must not make a starting worker fail
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _count_lines(path: Path) -> int:
    try:
        with path.open("rb") as handle:
            return sum(1 for line in handle if line.endswith(b"\n"))
    except OSError:
        return 0


class LabJobs:
    """The Lab's studies in ``root``; :meth:`start` runs the pump that plays them in turn."""

    def __init__(self, root: Path, limits: LabLimits | None = None, python: str = sys.executable) -> None:
        # absolute: a worker runs in its study's folder, where a relative data folder
        # (``boardlab serve``'s default, ./boardlab-data) would name nothing
        self.root = Path(root).absolute()
        self.limits = limits or LabLimits()
        self.python = python
        self._processes: dict[str, subprocess.Popen[bytes]] = {}
        self._pump_task: asyncio.Task[None] | None = None
        #: the replays the Lab's pages looked at last (routers/lab.py): path -> (views, log, game)
        self.replays: OrderedDict[Path, Any] = OrderedDict()
        self.replay_lock = asyncio.Lock()
        # the pump runs in a thread and after each new study: one at a time, or a study starts twice
        self._pumping = threading.Lock()

    # --- asking ---------------------------------------------------------------------------
    def create(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Store a new study (validated, within the limits) and queue it; its status."""
        study = build_study(request)
        try:
            study.validate()
        except BoardlabError as exc:
            raise LabRefused(str(exc)) from None
        limits = self.limits
        if study.games > limits.max_games_per_variant:
            raise LabRefused(f"{study.games} games per variant is more than this server's Lab plays "
                             f"({limits.max_games_per_variant}); run boardlab lab for a larger study")
        if len(study.variants) > limits.max_variants:
            raise LabRefused(f"{len(study.variants)} variants is more than this server's Lab plays ({limits.max_variants})")
        if study.games * len(study.variants) > limits.max_total_games:
            raise LabRefused(f"{study.games * len(study.variants)} games in all is more than this server's Lab plays "
                             f"({limits.max_total_games}); fewer games or variants")
        if len(self._ids()) >= limits.max_stored:
            raise LabRefused(f"the Lab keeps at most {limits.max_stored} studies; this server is full")
        job_id = secrets.token_hex(6)
        folder = self.root / job_id
        folder.mkdir(parents=True)
        job = {**dict(request), "id": job_id, "created": time.time(), "variants": [v.name for v in study.variants],
               "total": study.games * len(study.variants)}
        (folder / JOB_FILE).write_text(json.dumps(job, indent=1) + "\n", encoding="utf-8")
        self.pump()
        return self.status(job_id)

    # --- reading --------------------------------------------------------------------------
    def _ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return [path.name for path in self.root.iterdir() if (path / JOB_FILE).is_file()]

    def folder(self, job_id: str) -> Path:
        """The study's folder; LabStudyNotFound for an id that is not one."""
        if not job_id.isalnum() or not (self.root / job_id / JOB_FILE).is_file():
            raise LabStudyNotFound(f"no lab study {job_id[:40]!r} on this server")
        return self.root / job_id

    def job(self, job_id: str) -> dict[str, Any]:
        job = _read_json(self.folder(job_id) / JOB_FILE)
        if not isinstance(job, dict):
            raise LabStudyNotFound(f"lab study {job_id!r}: its job.json is unreadable")
        return job

    def state(self, job_id: str) -> str:
        """``queued``, ``running``, ``stopping`` (asked to stop, its worker still ending),
        ``finished``, ``stopped`` or ``failed``."""
        folder = self.folder(job_id)
        status = _read_json(folder / STATUS_FILE)
        if isinstance(status, dict) and status.get("state") in ENDED:
            return str(status["state"])
        process = self._processes.get(job_id)
        if _lock_held(folder / LOCK_FILE) or (process is not None and process.poll() is None):
            return STOPPING if (folder / STOP_FILE).exists() else RUNNING
        if (folder / STOP_FILE).exists():  # asked to stop before its turn, or its worker died
            return STOPPED
        return QUEUED

    def status(self, job_id: str) -> dict[str, Any]:
        """What the page shows: the request, the state, games done of the total, and once it
        is finished the verdict's sentences."""
        job = self.job(job_id)
        folder = self.folder(job_id)
        state = self.state(job_id)
        status = _read_json(folder / STATUS_FILE) or {}
        done = _count_lines(folder / STUDY_FOLDER / "games.jsonl")
        answer = {
            "id": job_id, "game": job["game"], "agents": job["agents"], "options": job.get("options") or {},
            "vary": job.get("vary") or {}, "games": job["games"], "variants": job["variants"], "seed": job.get("seed", 0),
            "created": job["created"], "state": state, "done": min(done, job["total"]), "total": job["total"],
            "error": status.get("error"), "verdict": [], "report": None,
        }
        if state in (FINISHED, STOPPED):
            report = _read_json(folder / STUDY_FOLDER / "report.json") or {}
            answer["verdict"] = list(status.get("verdict") or [])
            answer["report"] = f"/lab/{job_id}/report" if report else None
        return answer

    def all(self) -> list[dict[str, Any]]:
        """Every study, the newest first."""
        statuses = [self.status(job_id) for job_id in self._ids()]
        return sorted(statuses, key=lambda status: -status["created"])

    # --- stopping and continuing ----------------------------------------------------------
    def stop(self, job_id: str) -> dict[str, Any]:
        """Ask the study to stop: at once when it waits, within about a second when it plays
        (its worker writes the report of the games played so far). Its status."""
        folder = self.folder(job_id)
        state = self.state(job_id)
        if state in ENDED:
            raise LabStudyEnded(f"lab study {job_id} has already {'ended' if state == FAILED else state}; nothing to stop")
        (folder / STOP_FILE).touch()
        return self.status(job_id)

    def resume(self, job_id: str) -> dict[str, Any]:
        """Queue a stopped study again; it continues from the games it holds. Its status."""
        folder = self.folder(job_id)
        state = self.state(job_id)
        if state not in (STOPPED, STOPPING):
            raise LabStudyEnded(f"lab study {job_id} is {state}, not stopped; only a stopped study can continue")
        if state == STOPPING:
            raise LabStudyEnded(f"lab study {job_id} is still stopping; continue it once it has stopped")
        (folder / STOP_FILE).unlink(missing_ok=True)
        (folder / STATUS_FILE).unlink(missing_ok=True)
        self.pump()
        return self.status(job_id)

    # --- playing --------------------------------------------------------------------------
    def pump(self) -> None:
        """Start waiting studies, oldest first, while fewer than ``max_running`` run."""
        with self._pumping:
            self._pump()

    def _pump(self) -> None:
        for job_id, process in list(self._processes.items()):
            code = process.poll()
            if code is not None:
                del self._processes[job_id]
                if code != 0:
                    self._note_crash(job_id, code)
        states = {job_id: self.state(job_id) for job_id in self._ids()}
        running = sum(1 for state in states.values() if state in (RUNNING, STOPPING))
        waiting = sorted((job_id for job_id, state in states.items() if state == QUEUED),
                         key=lambda job_id: self.job(job_id)["created"])
        for job_id in waiting:
            if running >= self.limits.max_running:
                break
            self._launch(job_id)
            running += 1

    def _note_crash(self, job_id: str, code: int) -> None:
        """A worker that ended without its status (killed, or failed before it could write one)
        fails its study with the end of its log, rather than leaving it to start again and
        again with nothing on the page."""
        folder = self.root / job_id
        status = _read_json(folder / STATUS_FILE)
        if (isinstance(status, dict) and status.get("state") in ENDED) or (folder / STOP_FILE).exists():
            return
        try:
            lines = (folder / LOG_FILE).read_text(encoding="utf-8", errors="replace").strip().splitlines()
        except OSError:
            lines = []
        last = lines[-1] if lines else "no output"
        error = f"the study's worker ended with exit status {code} before finishing: {last[:300]}"
        (folder / STATUS_FILE).write_text(json.dumps({"state": FAILED, "error": error}) + "\n", encoding="utf-8")

    def _launch(self, job_id: str) -> None:
        folder = self.folder(job_id)
        with (folder / LOG_FILE).open("ab") as log:
            self._processes[job_id] = subprocess.Popen(
                [self.python, "-m", "boardlab.server.labrun", str(folder)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=str(folder),
            )

    async def start(self) -> None:
        """Start the pump (a task of the server's loop); the folder is made by the first study."""

        async def loop() -> None:
            while True:
                # a folder removed by hand while looked at: the next turn sees it gone
                with contextlib.suppress(OSError):
                    await asyncio.to_thread(self.pump)
                await asyncio.sleep(PUMP_SECONDS)

        self._pump_task = asyncio.create_task(loop())

    async def close(self) -> None:
        """Stop the pump and the workers; their studies resume at the next start."""
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump_task
        for process in self._processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self._processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
        self._processes.clear()


def check_request(request: Mapping[str, Any]) -> None:
    """Shape checks the schema cannot express; OptionError names the problem."""
    for name, values in (request.get("vary") or {}).items():
        if len(values) < 2 or len(set(values)) != len(values):
            raise OptionError(f"vary {name}: list at least two different values")
    overlap = set(request.get("vary") or {}) & set(request.get("options") or {})
    if overlap:
        raise OptionError(f"{sorted(overlap)[0]} is both set and varied")


def stop_requested(folder: Path) -> bool:
    """Whether the designer asked the study in ``folder`` to stop (the worker looks)."""
    return (folder / STOP_FILE).exists()


__all__ = [
    "LabJobs", "LabLimits", "LabRefused", "LabStudyEnded", "LabStudyNotFound", "build_study", "check_request",
    "stop_requested", "worker_lock",
]
