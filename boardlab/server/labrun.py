"""The Lab's worker: ``python -m boardlab.server.labrun FOLDER`` plays one stored study
(:mod:`boardlab.server.labjobs`) at the lowest CPU priority, one game at a time, until its end
or until it is asked to stop, then writes its report and ``status.json``. Run again on the same
folder, it continues from the stored games, as ``boardlab lab`` does; a study given more games
(``job.json``'s ``games`` grown) is the same study, so it plays only the added ones."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

from ..core.registry import load
from ..lab.executors import SerialExecutor
from ..lab.report import build_report, write_report
from ..lab.store import StudyFolder
from ..lab.study import StudyInterrupted, run_study, stored_outcomes
from ..lab.verdict import build_verdict, verdict_lines
from .labfolder import (
    JOB_FILE,
    REPORTING_FILE,
    STATUS_FILE,
    STUDY_FOLDER,
    build_study,
    ended_state,
    price_of_games_left,
    stop_requested,
    worker_lock,
)
from .labprice import OVERRUN

#: how often the worker looks whether it was asked to stop
STOP_POLL_SECONDS = 0.1
#: CPU seconds a study may spend besides its games (starting, the report's plots)
CPU_ALLOWANCE_SECONDS = 60.0


def _labels(specs: list[str]) -> list[str]:
    return [f"{spec}#{specs[: index + 1].count(spec)}" if specs.count(spec) > 1 else spec for index, spec in enumerate(specs)]


class StopWatch:
    """Ends the study, as Ctrl-C ends ``boardlab lab``, within :data:`STOP_POLL_SECONDS` of the
    designer asking it to stop, or once it has spent ``cpu_budget`` seconds of CPU.

    A thread looks for the ``stop`` file and sends this process SIGINT, so that a search deep in
    one long decision is ended too (Python runs the handler between two steps of the search).
    The handler raises only while games are played: a signal that lands while the report is
    written is dropped, and the study's folder writes hold it back until they are done
    (:mod:`boardlab.lab.store`)."""

    def __init__(self, folder: Path, cpu_budget: float | None) -> None:
        self.folder = folder
        self.cpu_budget = cpu_budget
        self.playing = False
        self.reason = ""
        self._done = threading.Event()

    def __enter__(self) -> StopWatch:
        signal.signal(signal.SIGINT, self._interrupt)
        self.playing = True
        threading.Thread(target=self._watch, name="boardlab-lab-stop", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.playing = False
        self._done.set()

    def _interrupt(self, _number: int, _frame: object) -> None:
        if self.playing:
            raise KeyboardInterrupt

    def _watch(self) -> None:
        while not self._done.wait(STOP_POLL_SECONDS):
            if stop_requested(self.folder):
                self.reason = self.reason or "asked"
            elif self.cpu_budget is not None and time.process_time() > self.cpu_budget:
                self.reason = self.reason or (
                    f"it used {time.process_time():,.0f} s of CPU, more than its budget of {self.cpu_budget:,.0f} s "
                    f"({OVERRUN:g} times its price)"
                )
            if self.reason:
                os.kill(os.getpid(), signal.SIGINT)  # again every poll until the games stop


def play(folder: Path) -> dict[str, object]:
    """Play the study stored in ``folder`` to its end, or until it is asked to stop, and write
    the report of the games played; the status."""
    job = json.loads((folder / JOB_FILE).read_text(encoding="utf-8"))
    study = build_study(job, job.get("decision_seconds"))
    game = study.validate()
    sink = StudyFolder(folder / STUDY_FOLDER, study)
    # this process's CPU starts at nothing: its budget is the price of the games it has left to
    # play (a study continued, or given more games, holds the others already)
    done = sum(1 for _variant, index in sink.done() if index < study.games)
    budget = None if job.get("price_seconds") is None else OVERRUN * price_of_games_left(job, done) + CPU_ALLOWANCE_SECONDS
    state = "finished"
    error = None
    if stop_requested(folder):
        # stopped with no worker playing it (the last one was ended in a search that never
        # returned: labjobs.LabJobs._report_owed): only the report of the stored games is owed
        outcomes, state = stored_outcomes(study, sink), "stopped"
    else:
        watch = StopWatch(folder, budget)
        try:
            with watch:
                outcomes = run_study(study, SerialExecutor(), sink)
        except KeyboardInterrupt as stop:
            # the watch signals again every poll until the games stop, so a second signal can land
            # while the first one's StudyInterrupted is being made: the folder holds the games anyway
            outcomes = stop.outcomes if isinstance(stop, StudyInterrupted) else stored_outcomes(study, sink)
            state = "stopped"
            error = None if watch.reason in ("", "asked") else f"stopped: {watch.reason}"
    # the games have stopped: the server now waits for the report instead of ending this worker
    (folder / REPORTING_FILE).touch()
    if state == "stopped" and not any(outcomes.values()):
        return {"state": state, "verdict": [], "error": error}
    settings = {**sink.settings, "study_id": sink.study_id, "games_per_variant": study.games}
    seat_names = [game.player_name(seat) for seat in range(game.num_players)]
    specs = list(study.variants[0].agents)
    report = build_report(settings, outcomes, seat_names, _labels(specs))
    rules = load(study.game_id, players=study.players, **dict(study.options))
    report["verdict"] = build_verdict(report, rules, command_line=False)  # a web page has no flags to run with
    write_report(sink.folder, report, outcomes)
    return {"state": state, "verdict": verdict_lines(report), "games_to_settle": report["verdict"]["games_to_settle"],
            "error": error}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m boardlab.server.labrun STUDY_FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    # people's games come first: this process takes only the CPU nobody else wants
    # a platform without nice: the single worker is the only bound
    with contextlib.suppress(AttributeError, OSError):
        os.nice(19)
    with worker_lock(folder):
        if ended_state(folder) is not None:  # started twice (two servers' pumps): the first wrote the status
            return 0
        try:
            status = play(folder)
        except Exception as exc:  # a rules or agent failure ends this study, reported on its page
            traceback.print_exc()
            status = {"state": "failed", "error": f"{type(exc).__name__}: {exc}"}
        (folder / STATUS_FILE).write_text(json.dumps(status, indent=1) + "\n", encoding="utf-8")
    return 0 if status["state"] != "failed" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
