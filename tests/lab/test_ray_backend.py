"""The Ray backend plays the same games as the process pool for the same seeds (a local Ray)."""

from __future__ import annotations

from pathlib import Path

import pytest
import ray

from boardlab.lab.executors import RayExecutor, SerialExecutor
from boardlab.lab.store import StudyFolder
from boardlab.lab.study import Study, option_variants, parse_vary, run_study

# towers, not the test-only dicenim: Ray's worker processes import only the installed games
STUDY = Study("towers", option_variants(("greedy", "random"), parse_vary(["layout=diagram,pinwheel"])), games=3, seed=9)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_gives_the_same_games_as_this_process(local_ray: None, tmp_path: Path) -> None:
    on_ray = run_study(STUDY, RayExecutor(), StudyFolder(tmp_path, STUDY))
    here = run_study(STUDY, SerialExecutor())
    for name in here:
        assert [(o.index, o.seed, o.seat_agents, o.winners, o.moves, o.branching) for o in on_ray[name]] == [
            (o.index, o.seed, o.seat_agents, o.winners, o.moves, o.branching) for o in here[name]
        ]
    assert len(list(tmp_path.glob("records/towers-layout=*-0000?.json"))) == 6  # the driver stored every record
    assert ray.is_initialized()  # a session the caller started is left running for the caller
