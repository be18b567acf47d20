"""The lab: computer-vs-computer studies, their metrics, ratings and reports.

The core (plans, executors, studies, metrics) needs only the standard library;
plots (matplotlib), ratings (openskill) and the Ray backend load lazily from the
``lab`` and ``ray`` extras where they are used.
"""

from .executors import ProcessPoolExecutor, RayExecutor, SerialExecutor, make_executor
from .play import PlayedGame, SimulationPlan, game_seed, play_one
from .simulate import simulate
from .stats import GameOutcome, Summary, summarize
from .store import StudyFolder, StudyFolderError
from .study import Study, StudyInterrupted, Variant, option_variants, parse_vary, run_study

__all__ = [
    "GameOutcome",
    "PlayedGame",
    "ProcessPoolExecutor",
    "RayExecutor",
    "SerialExecutor",
    "SimulationPlan",
    "Study",
    "StudyFolder",
    "StudyFolderError",
    "StudyInterrupted",
    "Summary",
    "Variant",
    "game_seed",
    "make_executor",
    "option_variants",
    "parse_vary",
    "play_one",
    "run_study",
    "simulate",
    "summarize",
]
