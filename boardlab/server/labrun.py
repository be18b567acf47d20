"""The Lab's worker: ``python -m boardlab.server.labrun FOLDER`` plays one stored study
(:mod:`boardlab.server.labjobs`) at the lowest CPU priority, one game at a time, until its end
or until it is asked to stop, then writes its report and ``status.json``. Run again on the same
folder, it continues from the stored games, as ``boardlab lab`` does."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import traceback
from pathlib import Path

from ..core.registry import load
from ..lab.executors import SerialExecutor
from ..lab.report import build_report, write_report
from ..lab.store import StudyFolder
from ..lab.study import StudyInterrupted, run_study
from ..lab.verdict import build_verdict, verdict_lines
from .labjobs import JOB_FILE, STATUS_FILE, STUDY_FOLDER, build_study, stop_requested, worker_lock

#: how often a playing study looks whether it was asked to stop
STOP_POLL_SECONDS = 0.5


def _labels(specs: list[str]) -> list[str]:
    return [f"{spec}#{specs[: index + 1].count(spec)}" if specs.count(spec) > 1 else spec for index, spec in enumerate(specs)]


class StopWatch:
    """Ends the study (as Ctrl-C ends ``boardlab lab``) once the designer asks it to stop;
    it looks at every move, at most every :data:`STOP_POLL_SECONDS`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._next_look = 0.0

    def __call__(self, progress: object) -> None:
        now = time.monotonic()
        if now < self._next_look:
            return
        self._next_look = now + STOP_POLL_SECONDS
        if stop_requested(self.folder):
            raise KeyboardInterrupt


def play(folder: Path) -> dict[str, object]:
    """Play the study stored in ``folder`` to its end, or until it is asked to stop, and write
    the report of the games played; the status."""
    job = json.loads((folder / JOB_FILE).read_text(encoding="utf-8"))
    study = build_study(job)
    game = study.validate()
    sink = StudyFolder(folder / STUDY_FOLDER, study)
    state = "finished"
    try:
        outcomes = run_study(study, SerialExecutor(), sink, on_progress=StopWatch(folder))
    except StudyInterrupted as stop:
        outcomes, state = stop.outcomes, "stopped"
        if not any(outcomes.values()):
            return {"state": state, "verdict": []}
    settings = {**sink.settings, "study_id": sink.study_id, "games_per_variant": study.games}
    seat_names = [game.player_name(seat) for seat in range(game.num_players)]
    specs = list(study.variants[0].agents)
    report = build_report(settings, outcomes, seat_names, _labels(specs))
    report["verdict"] = build_verdict(report, load(study.game_id, players=study.players, **dict(study.options)))
    write_report(sink.folder, report, outcomes)
    return {"state": state, "verdict": verdict_lines(report)}


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
        try:
            status = play(folder)
        except Exception as exc:  # a rules or agent failure ends this study, reported on its page
            traceback.print_exc()
            status = {"state": "failed", "error": f"{type(exc).__name__}: {exc}"}
        (folder / STATUS_FILE).write_text(json.dumps(status, indent=1) + "\n", encoding="utf-8")
    return 0 if status["state"] != "failed" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
