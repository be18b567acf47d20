"""Lab studies started from the browser (the Lab page): stored on the server, played by one
worker process at a time at the lowest CPU priority, resumed after a restart.

A study lives in ``DATA/lab/<id>/``: ``job.json`` (what was asked: game, agents, options,
variants, games, seed, when), the study folder ``study/`` that ``boardlab lab`` would write
(study.json, games.jsonl, records/, report.*), ``status.json`` (written by the worker when it
ends: finished, stopped, or failed with the error), ``worker.log``, ``stop`` while the
designer has asked it to stop, and ``reporting`` once its worker's games have stopped.

**Stopping.** A study can be stopped at any time (:meth:`LabJobs.stop`): the ``stop`` file
asks its worker to end within about a second, in the middle of a game if need be (that game is
dropped; the finished ones stay), and to write the report of the games played so far. A
worker still playing a few seconds later is killed and a new one writes that report; one
already writing it is left to finish. A stopped study frees the worker for the next one and
can be continued later
(:meth:`LabJobs.resume`) from its stored games.

**More games.** A finished study can be given more games per variant (:meth:`LabJobs.extend`):
the same game, rules, agents and seed, so the study folder is the same one (its id leaves out the
number of games) and its worker plays only the games it does not hold yet, as ``boardlab lab``
run again with a larger ``-n`` does; the report it then writes covers them all. The added games
are priced, limited and queued as a new study of that many games would be.

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
import shutil
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import BoardlabError
from ..core.game import Game
from ..lab.study import Study, option_text
from .designers import Designer
from .errors import NotOwnerError, ServerError
from .labfolder import (
    ENDED,
    FAILED,
    FINISHED,
    JOB_FILE,
    LOCK_FILE,
    LOG_FILE,
    QUEUED,
    REPORTING_FILE,
    RUNNING,
    STATUS_FILE,
    STOP_FILE,
    STOPPED,
    STOPPING,
    STUDY_FOLDER,
    build_study,
    count_lines,
    ended_state,
    lock_held,
    price_of_games_left,
    read_json,
    write_job,
)
from .labprice import decision_seconds, study_seconds

#: how often the pump looks for a study to start
PUMP_SECONDS = 1.0
#: a worker still playing this long after it was asked to stop is killed
STOP_GRACE_SECONDS = 3.0
#: a worker writing the report of its games is killed only after this long: it runs at the lowest
#: priority, so on a busy machine a report of a few seconds' CPU can take minutes
REPORT_GRACE_SECONDS = 600.0


class LabStudyNotFound(ServerError):
    code = "not_found"


class LabRefused(ServerError):
    """A study the server will not play (too large, or bad settings)."""

    code = "bad_request"


class LabStudyEnded(ServerError):
    """Stopping a study that has ended, continuing one that was not stopped, or adding games to
    one that has not finished."""

    code = "refused"


class LabQuotaError(ServerError):
    """A designer's queued studies would ask more games or CPU than their quota."""

    code = "lab_quota"


class LabFullError(ServerError):
    """The Lab (or the designer's share of it) keeps as many studies as it may."""

    code = "lab_full"


@dataclass(frozen=True)
class LabLimits:
    """The share of the computer the Lab may take (docs/lab.md, "The Lab in the browser"):
    the size of one study; per designer, the games and the CPU (priced: :mod:`.labprice`) their
    queued studies may ask and the studies they may keep; the cap on one decision."""

    max_games_per_variant: int = 400
    max_variants: int = 6
    max_total_games: int = 1200
    max_running: int = 1
    max_stored: int = 200
    max_stored_per_designer: int = 50
    queued_games_per_designer: int = 2400
    cpu_seconds_per_designer: float = 4 * 3600.0
    decision_seconds: float = 10.0

    def to_json(self) -> dict[str, float]:
        return dict(self.__dict__)





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
        # adding games reads job.json, checks it and writes it again: two at once would lose one
        self._extending = threading.Lock()

    # --- asking ---------------------------------------------------------------------------
    def create(self, request: Mapping[str, Any], owner: Designer) -> dict[str, Any]:
        """Store a new study of ``owner`` (validated, priced, within the limits and the owner's
        quotas) and queue it; its status."""
        limits = self.limits
        study = build_study(request, limits.decision_seconds)
        try:
            game = study.validate()
        except BoardlabError as exc:
            raise LabRefused(str(exc)) from None
        total = study.games * len(study.variants)
        if study.games > limits.max_games_per_variant:
            raise LabRefused(
                f"{study.games} games per variant is more than this server's Lab plays "
                f"({limits.max_games_per_variant}); run boardlab lab for a larger study"
            )
        if len(study.variants) > limits.max_variants:
            raise LabRefused(f"{len(study.variants)} variants is more than this server's Lab plays ({limits.max_variants})")
        if total > limits.max_total_games:
            raise LabRefused(
                f"{total} games in all is more than this server's Lab plays ({limits.max_total_games}); fewer games or variants"
            )
        prices = self._prices(game, study)
        price = study_seconds(study, study.games, prices)
        self._check_share(owner, total, price)
        job_id = secrets.token_hex(6)
        folder = self.root / job_id
        folder.mkdir(parents=True)
        job = {
            **dict(request),
            "id": job_id,
            "created": time.time(),
            "variants": [v.name for v in study.variants],
            "total": total,
            "owner": owner.id,
            "owner_name": owner.name,
            "price_seconds": round(price, 3),
            "decision_seconds": limits.decision_seconds,
        }
        write_job(folder, job)
        self.pump()
        return self.status(job_id, owner)

    def _prices(self, game: Game, study: Study) -> dict[str, float]:
        """Each spec's CPU per decision; LabRefused for one priced over the cap."""
        cap = self.limits.decision_seconds
        prices = {}
        for spec in {spec for variant in study.variants for spec in variant.agents}:
            price = decision_seconds(game, spec, cap)
            if price > cap:
                raise LabRefused(
                    f"{spec} asks for about {price:,.1f} s of CPU a decision; this server's Lab allows "
                    f"{cap:g} s (--lab-decision-seconds): a smaller budget, or boardlab lab on your own machine"
                )
            prices[spec] = price
        return prices

    def _check_share(self, owner: Designer, games: int, price: float, besides: str | None = None) -> None:
        """Refuse a study the Lab has no room for, or that would take ``owner`` past their quotas
        of queued games and CPU (``besides``: a study being continued, not counted twice)."""
        limits = self.limits
        ids = self._ids()
        if besides is None and len(ids) >= limits.max_stored:
            raise LabFullError(f"the Lab keeps at most {limits.max_stored} studies and is full; delete finished ones")
        jobs = [(job_id, read_json(self.root / job_id / JOB_FILE)) for job_id in ids if job_id != besides]
        own = [(job_id, job) for job_id, job in jobs if isinstance(job, dict) and job.get("owner") == owner.id]
        if besides is None and len(own) >= limits.max_stored_per_designer:
            raise LabFullError(f"{owner.name} keeps {len(own)} studies, the most one designer may; delete finished ones")
        queued_games, queued_seconds = 0, 0.0
        for job_id, job in own:
            if self.state(job_id) in (QUEUED, RUNNING, STOPPING):
                done = count_lines(self.root / job_id / STUDY_FOLDER / "games.jsonl")
                queued_games += max(0, int(job["total"]) - done)
                queued_seconds += price_of_games_left(job, done)
        if queued_games + games > limits.queued_games_per_designer:
            raise LabQuotaError(
                f"{owner.name} has {queued_games} games waiting to be played; with these {games} that is more than "
                f"one designer's {limits.queued_games_per_designer}: wait for them, or stop a study"
            )
        if queued_seconds + price > limits.cpu_seconds_per_designer:
            raise LabQuotaError(
                f"this study costs about {price / 60:,.0f} CPU minutes and {owner.name}'s queued studies "
                f"{queued_seconds / 60:,.0f}; one designer may queue {limits.cpu_seconds_per_designer / 60:,.0f}: "
                "fewer games, cheaper agents, or wait for the queue"
            )

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
        job = read_json(self.folder(job_id) / JOB_FILE)
        if not isinstance(job, dict):
            raise LabStudyNotFound(f"lab study {job_id!r}: its job.json is unreadable")
        return job

    def state(self, job_id: str) -> str:
        """``queued``, ``running``, ``stopping`` (asked to stop, its worker still ending),
        ``finished``, ``stopped`` or ``failed``."""
        folder = self.folder(job_id)
        ended = ended_state(folder)
        if ended is not None:
            return ended
        process = self._processes.get(job_id)
        if lock_held(folder / LOCK_FILE) or (process is not None and process.poll() is None):
            return STOPPING if (folder / STOP_FILE).exists() else RUNNING
        if (folder / STOP_FILE).exists():  # asked to stop before its turn, or its worker died
            return STOPPED
        return QUEUED

    def status(self, job_id: str, viewer: Designer | None = None) -> dict[str, Any]:
        """What the page shows: the request, its owner, the state, games done of the total,
        and once it is finished the verdict's sentences; ``may_manage``: whether ``viewer``
        may stop, continue, add games to or delete it; ``added_games``: the games per variant
        added since it was made; ``more_games_allowed``: how many more per variant the Lab's
        limits leave it; ``games_to_settle``: the most games per variant the verdict says
        would settle a question (None: it names none)."""
        job = self.job(job_id)
        folder = self.folder(job_id)
        state = self.state(job_id)
        status = read_json(folder / STATUS_FILE) or {}
        done = count_lines(folder / STUDY_FOLDER / "games.jsonl")
        answer = {
            "id": job_id,
            "game": job["game"],
            "agents": job["agents"],
            "options": job.get("options") or {},
            "vary": job.get("vary") or {},
            "games": job["games"],
            "variants": job["variants"],
            "seed": job.get("seed", 0),
            "created": job["created"],
            "state": state,
            "done": min(done, job["total"]),
            "total": job["total"],
            "owner": job.get("owner_name"),
            "price_seconds": job.get("price_seconds"),
            "may_manage": viewer is not None and may_manage(job, viewer),
            "error": status.get("error"),
            "verdict": [],
            "games_to_settle": None,
            "report": None,
            "added_games": sum(int(added["games"]) for added in job.get("added", [])),
            "more_games_allowed": _room_per_variant(self.limits, int(job["games"]), len(job["variants"])),
        }
        if state in (FINISHED, STOPPED):
            report = read_json(folder / STUDY_FOLDER / "report.json") or {}
            answer["verdict"] = list(status.get("verdict") or [])
            answer["games_to_settle"] = status.get("games_to_settle")
            answer["report"] = f"/lab/{job_id}/report" if report else None
        return answer

    def all(self, viewer: Designer | None = None) -> list[dict[str, Any]]:
        """Every study, the newest first."""
        statuses = []
        for job_id in self._ids():
            with contextlib.suppress(LabStudyNotFound):  # deleted while listed
                statuses.append(self.status(job_id, viewer))
        return sorted(statuses, key=lambda status: -status["created"])

    # --- stopping, continuing, deleting ---------------------------------------------------
    def _managed(self, job_id: str, by: Designer) -> dict[str, Any]:
        job = self.job(job_id)
        if not may_manage(job, by):
            owner = job.get("owner_name") or "nobody on record"
            raise NotOwnerError(f"lab study {job_id} is {owner}'s: only its owner or an admin may change it")
        return job

    def stop(self, job_id: str, by: Designer) -> dict[str, Any]:
        """Ask the study to stop: at once when it waits, within about a second when it plays
        (its worker writes the report of the games played so far). Its status."""
        self._managed(job_id, by)
        folder = self.folder(job_id)
        state = self.state(job_id)
        if state in ENDED:
            raise LabStudyEnded(f"lab study {job_id} has already {'ended' if state == FAILED else state}; nothing to stop")
        (folder / STOP_FILE).touch()
        return self.status(job_id, by)

    def resume(self, job_id: str, by: Designer) -> dict[str, Any]:
        """Queue a stopped study again (within its owner's quotas); it continues from the games
        it holds. Its status."""
        job = self._managed(job_id, by)
        folder = self.folder(job_id)
        state = self.state(job_id)
        if state not in (STOPPED, STOPPING):
            raise LabStudyEnded(f"lab study {job_id} is {state}, not stopped; only a stopped study can continue")
        if state == STOPPING:
            raise LabStudyEnded(f"lab study {job_id} is still stopping; continue it once it has stopped")
        done = count_lines(folder / STUDY_FOLDER / "games.jsonl")
        left = max(0, int(job["total"]) - done)
        self._check_share(_owner(job, by), left, price_of_games_left(job, done), besides=job_id)
        self._queue_again(folder)
        return self.status(job_id, by)

    def extend(self, job_id: str, games: int, by: Designer) -> dict[str, Any]:
        """Add ``games`` games per variant to a finished study and queue them: the same game,
        rules, agents and seed, so its worker keeps the games it holds and plays only the new ones
        (as ``boardlab lab`` run again with a larger ``-n``); its report then covers them all. The
        added games are checked against the Lab's limits, priced, and charged to the study's owner
        as a new study of that many games would be. Its status, with ``added_games`` and
        ``added_price_seconds``."""
        with self._extending:
            job = self._managed(job_id, by)
            folder = self.folder(job_id)
            state = self.state(job_id)
            if state != FINISHED:
                raise LabStudyEnded(_not_extendable(job_id, state))
            limits = self.limits
            if isinstance(games, bool) or not isinstance(games, int) or games < 1:
                raise LabRefused(f"games: {games!r} is not a whole number of games to add (1 or more)")
            now = int(job["games"])
            variants = len(job["variants"])
            room = _room_per_variant(limits, now, variants)
            if games > room:
                raise LabRefused(
                    f"{games} more games per variant would make {now + games} per variant and {(now + games) * variants} "
                    f"in all, more than this server's Lab plays ({limits.max_games_per_variant} per variant, "
                    f"{limits.max_total_games} in all); this study may take {room} more per variant"
                    + ("" if room else ": run boardlab lab for a larger study")
                )
            grown = {**job, "games": now + games}
            study = build_study(grown, limits.decision_seconds)
            try:
                game = study.validate()
            except BoardlabError as exc:
                raise LabRefused(str(exc)) from None
            price = study_seconds(study, games, self._prices(game, study))
            self._check_share(_owner(job, by), games * variants, price, besides=job_id)
            added = {"games": games, "price_seconds": round(price, 3), "by": by.name, "at": time.time()}
            grown.update(
                total=(now + games) * variants,
                price_seconds=round(float(job.get("price_seconds", 0.0)) + price, 3),
                # queued behind the studies already waiting, as a new study would be
                queued=added["at"],
                added=[*job.get("added", []), added],
            )
            write_job(folder, grown)
            self._queue_again(folder)
        return {**self.status(job_id, by), "added_games": games, "added_price_seconds": added["price_seconds"]}

    def _queue_again(self, folder: Path) -> None:
        """Clear what ended the study's last run, so that the pump plays it again from its games."""
        for ended in (STOP_FILE, STATUS_FILE, REPORTING_FILE):
            (folder / ended).unlink(missing_ok=True)
        self.pump()

    def delete(self, job_id: str, by: Designer) -> None:
        """Remove the study, its games and report (a playing one is stopped first, at once)."""
        self._managed(job_id, by)
        folder = self.folder(job_id)
        if self.state(job_id) in (RUNNING, STOPPING):
            (folder / STOP_FILE).touch()
            process = self._processes.pop(job_id, None)
            if process is None:
                raise LabStudyEnded(f"lab study {job_id} is played by a worker of an earlier server; stop it, then delete it")
            process.kill()
            process.wait(timeout=10)
        for path in [path for path in self.replays if folder in path.parents]:
            del self.replays[path]
        shutil.rmtree(folder)

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
            else:
                self._end_if_stuck(job_id, process)
        states = {job_id: self.state(job_id) for job_id in self._ids()}
        running = sum(1 for state in states.values() if state in (RUNNING, STOPPING))
        # a stopped study whose worker was killed before its report, first: its games are played
        owed = [job_id for job_id, state in states.items() if state == STOPPED and self._report_owed(job_id)]
        waiting = sorted((job_id for job_id, state in states.items() if state == QUEUED), key=self._queued_at)
        for job_id in [*owed, *waiting]:
            if running >= self.limits.max_running:
                break
            if job_id in owed:  # said before the worker starts, or the stop's grace would end it
                (self.root / job_id / REPORTING_FILE).touch()
            self._launch(job_id)
            running += 1

    def _queued_at(self, job_id: str) -> float:
        """When the study joined the queue: made, or given more games (which wait behind the
        studies already waiting)."""
        job = self.job(job_id)
        return float(job.get("queued", job["created"]))

    def _end_if_stuck(self, job_id: str, process: subprocess.Popen[bytes]) -> None:
        """A worker asked to stop ends its games within about a second (labrun.py); one still
        playing :data:`STOP_GRACE_SECONDS` later (a search that never returns to Python) is
        killed: its finished games stay, a new worker writes their report (:meth:`_report_owed`),
        and it can be continued. One writing its report is given :data:`REPORT_GRACE_SECONDS`."""
        folder = self.root / job_id
        try:
            deadline = (folder / STOP_FILE).stat().st_mtime + STOP_GRACE_SECONDS
        except OSError:
            return
        with contextlib.suppress(OSError):
            deadline = (folder / REPORTING_FILE).stat().st_mtime + REPORT_GRACE_SECONDS
        if time.time() > deadline:
            process.kill()

    def _report_owed(self, job_id: str) -> bool:
        """Whether a stopped study holds games but no report: its worker was killed while playing
        (or ended unseen by this server). Its worker, started again, writes the report and plays
        nothing (labrun.py); one that began a report and died is not started again."""
        folder = self.root / job_id
        return (
            job_id not in self._processes
            and not (folder / STATUS_FILE).exists()
            and not (folder / REPORTING_FILE).exists()
            and count_lines(folder / STUDY_FOLDER / "games.jsonl") > 0
        )

    def _note_crash(self, job_id: str, code: int) -> None:
        """A worker that ended without its status (killed, or failed before it could write one)
        fails its study with the end of its log, rather than leaving it to start again and
        again with nothing on the page."""
        folder = self.root / job_id
        status = read_json(folder / STATUS_FILE)
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
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=str(folder),
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


def may_manage(job: Mapping[str, Any], designer: Designer) -> bool:
    """Whether ``designer`` may stop, continue, add games to or delete the study ``job``: its
    owner, or an admin."""
    return designer.admin or (job.get("owner") is not None and job.get("owner") == designer.id)


def _owner(job: Mapping[str, Any], by: Designer) -> Designer:
    """The designer whose quotas a study's games are charged to: its owner, even when an admin acts."""
    return Designer(str(job.get("owner", by.id)), str(job.get("owner_name", by.name)), admin=False)


def _room_per_variant(limits: LabLimits, games: int, variants: int) -> int:
    """How many games per variant a study of ``games`` per variant may still be given."""
    return max(0, min(limits.max_games_per_variant, limits.max_total_games // max(1, variants)) - games)


def _not_extendable(job_id: str, state: str) -> str:
    """Why a study in ``state`` takes no more games, and what to do instead."""
    if state in (QUEUED, RUNNING, STOPPING):
        doing = {QUEUED: "still waiting its turn", RUNNING: "still playing", STOPPING: "still stopping"}[state]
        return f"lab study {job_id} is {doing}; add games once it has finished"
    if state == STOPPED:
        return f"lab study {job_id} is stopped; continue it to play the games it was asked for, then add more"
    return f"lab study {job_id} failed; it takes no more games: start a new study"


__all__ = [
    "LabFullError",
    "LabJobs",
    "LabLimits",
    "LabQuotaError",
    "LabRefused",
    "LabStudyEnded",
    "LabStudyNotFound",
    "may_manage",
    "option_text",
    "price_of_games_left",
]
