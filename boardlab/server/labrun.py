"""The Lab's worker: ``python -m boardlab.server.labrun FOLDER`` plays one stored study
(:mod:`boardlab.server.labjobs`) at the lowest CPU priority, one game at a time, then writes
its report and ``status.json``. Run again on the same folder, it continues from the stored
games, as ``boardlab lab`` does."""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path

from ..core.registry import load
from ..lab.executors import SerialExecutor
from ..lab.report import build_report, write_report
from ..lab.store import StudyFolder
from ..lab.study import run_study
from ..lab.verdict import build_verdict, verdict_lines
from .labjobs import JOB_FILE, STATUS_FILE, STUDY_FOLDER, build_study, worker_lock


def _labels(specs: list[str]) -> list[str]:
    return [f"{spec}#{specs[: index + 1].count(spec)}" if specs.count(spec) > 1 else spec for index, spec in enumerate(specs)]


def play(folder: Path) -> dict[str, object]:
    """Play the study stored in ``folder`` to its end and write its report; the status."""
    job = json.loads((folder / JOB_FILE).read_text(encoding="utf-8"))
    study = build_study(job)
    game = study.validate()
    sink = StudyFolder(folder / STUDY_FOLDER, study)
    outcomes = run_study(study, SerialExecutor(), sink)
    settings = {**sink.settings, "study_id": sink.study_id, "games_per_variant": study.games}
    seat_names = [game.player_name(seat) for seat in range(game.num_players)]
    specs = list(study.variants[0].agents)
    report = build_report(settings, outcomes, seat_names, _labels(specs))
    report["verdict"] = build_verdict(report, load(study.game_id, players=study.players, **dict(study.options)))
    write_report(sink.folder, report, outcomes)
    return {"state": "finished", "verdict": verdict_lines(report)}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m boardlab.server.labrun STUDY_FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    # people's games come first: this process takes only the CPU nobody else wants
    try:
        os.nice(19)
    except (AttributeError, OSError):  # a platform without nice: the single worker is the only bound
        pass
    with worker_lock(folder):
        try:
            status = play(folder)
        except Exception as exc:  # a rules or agent failure ends this study, reported on its page
            traceback.print_exc()
            status = {"state": "failed", "error": f"{type(exc).__name__}: {exc}"}
        (folder / STATUS_FILE).write_text(json.dumps(status, indent=1) + "\n", encoding="utf-8")
    return 0 if status["state"] == "finished" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
