"""A Lab study's folder on the server (docs/lab.md, "The Lab in the browser"): the files the
server and the study's worker process write and read in ``DATA/lab/<id>/``, the lock that says
a worker plays it, the states the files tell, and the study a request (``job.json``) asks for.

Both sides read only these files, never each other's memory, so that a worker that outlives a
server restart is still seen, and a study's state survives the server. :mod:`.labjobs` runs the
studies; :mod:`.labrun` is the worker.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import OptionError
from ..lab.study import Study, option_text, option_variants

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
#: written by the worker once its games have stopped and it writes their report
REPORTING_FILE = "reporting"
#: the states a study can be in (LabJobs.state)
QUEUED, RUNNING, STOPPING, FINISHED, STOPPED, FAILED = "queued", "running", "stopping", "finished", "stopped", "failed"
ENDED = (FINISHED, STOPPED, FAILED)


def lock_held(path: Path) -> bool:
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


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def ended_state(folder: Path) -> str | None:
    """The state the worker of the study in ``folder`` wrote as it ended (finished, stopped or
    failed); None while it has not."""
    status = read_json(folder / STATUS_FILE)
    return str(status["state"]) if isinstance(status, dict) and status.get("state") in ENDED else None


def count_lines(path: Path) -> int:
    try:
        with path.open("rb") as handle:
            return sum(1 for line in handle if line.endswith(b"\n"))
    except OSError:
        return 0


def write_job(folder: Path, job: Mapping[str, Any]) -> None:
    """Write ``job.json`` whole or not at all: the pump and the worker read it at any moment."""
    temporary = folder / f".{JOB_FILE}.tmp"
    temporary.write_text(json.dumps(job, indent=1) + "\n", encoding="utf-8")
    temporary.replace(folder / JOB_FILE)


def build_study(request: Mapping[str, Any], decision_seconds: float | None = None) -> Study:
    """The lab study a request asks for; BoardlabError names what is wrong. ``decision_seconds``
    caps every decision (the Lab's cap; None: the agents' own budgets only)."""
    vary: Mapping[str, Sequence[Any]] = request.get("vary") or {}
    varied = [(name, [option_text(value) for value in values]) for name, values in vary.items()]
    return Study(
        game_id=request["game"],
        variants=option_variants(tuple(request["agents"]), varied),
        games=int(request["games"]),
        seed=int(request.get("seed", 0)),
        players=request.get("players"),
        rotate=True,
        options={name: option_text(value) for name, value in (request.get("options") or {}).items()},
        decision_seconds=decision_seconds,
    )


def price_of_games_left(job: Mapping[str, Any], done: int) -> float:
    """The CPU seconds the games of ``job`` not yet played cost, once ``done`` are: its price
    shared evenly among its games (every variant seats the same agents, so each game costs the same)."""
    total = int(job["total"])
    return float(job.get("price_seconds", 0.0)) * max(0, total - done) / max(1, total)


def check_request(request: Mapping[str, Any], max_variants: int) -> None:
    """Shape checks the schema cannot express, before any variant is made: each varied option
    lists two or more different values, none is both set and varied, and the variants (the
    product of the lists' lengths) are at most ``max_variants``. OptionError names the problem."""
    vary = request.get("vary") or {}
    variants = 1
    for name, values in vary.items():
        if len(values) < 2 or len({option_text(value) for value in values}) != len(values):
            raise OptionError(f"vary {name}: list at least two different values")
        variants *= len(values)
    if variants > max_variants:
        raise OptionError(f"{variants} variants is more than this server's Lab plays ({max_variants})")
    overlap = set(vary) & set(request.get("options") or {})
    if overlap:
        raise OptionError(f"{sorted(overlap)[0]} is both set and varied")


def stop_requested(folder: Path) -> bool:
    """Whether the designer asked the study in ``folder`` to stop (the worker looks)."""
    return (folder / STOP_FILE).exists()


__all__ = [
    "ENDED",
    "FAILED",
    "FINISHED",
    "JOB_FILE",
    "LOCK_FILE",
    "LOG_FILE",
    "QUEUED",
    "REPORTING_FILE",
    "RUNNING",
    "STATUS_FILE",
    "STOPPED",
    "STOPPING",
    "STOP_FILE",
    "STUDY_FOLDER",
    "build_study",
    "check_request",
    "count_lines",
    "ended_state",
    "lock_held",
    "price_of_games_left",
    "read_json",
    "stop_requested",
    "worker_lock",
    "write_job",
]
