"""simulate(): seeds per game, seat rotation, worker processes, records."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from boardlab.core import OptionError
from boardlab.core.records import Record
from boardlab.lab.simulate import SimulationPlan, game_seed, seat_agents, simulate

PLAN = SimulationPlan(game_id="dicenim", agents=("random", "greedy"), games=8, seed=5, rotate=True)


def test_game_seeds_are_stable_and_distinct() -> None:
    assert game_seed(5, 0) == game_seed(5, 0)
    assert len({game_seed(5, i) for i in range(1000)}) == 1000
    assert game_seed(5, 0) != game_seed(6, 0)


def test_rotation_puts_every_agent_in_every_seat() -> None:
    assert [seat_agents(PLAN, 2, i) for i in range(3)] == [(0, 1), (1, 0), (0, 1)]
    fixed = replace(PLAN, rotate=False)
    assert {seat_agents(fixed, 2, i) for i in range(5)} == {(0, 1)}
    four = replace(PLAN, agents=("a", "b"))
    assert seat_agents(four, 4, 1) == (1, 0, 1, 0)  # two agents repeat around a table of four


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    serial = simulate(PLAN, jobs=1)
    parallel = simulate(PLAN, jobs=2)
    strip = lambda outcomes: [(o.index, o.seed, o.seat_agents, o.winners, o.moves) for o in outcomes]  # noqa: E731
    assert strip(serial) == strip(parallel)
    assert [o.index for o in parallel] == list(range(8))


def test_each_game_is_saved_as_a_replayable_record(tmp_path: Path) -> None:
    seen: list[int] = []
    outcomes = simulate(replace(PLAN, games=3, records_dir=str(tmp_path / "records")), on_outcome=lambda o: seen.append(o.index))
    assert sorted(seen) == [0, 1, 2]
    for result in outcomes:
        assert result.record_path is not None
        record = Record.load(result.record_path)
        assert record.seed == result.seed and record.meta["game_index"] == result.index
        assert len(record.moves) == result.moves
        assert record.replay().result().winners == result.winners


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (replace(PLAN, agents=("random", "random", "random")), "1 to 2 agents"),
        (replace(PLAN, agents=("nobody",)), "unknown agent 'nobody'"),
        (replace(PLAN, games=0), "at least 1"),
        (replace(PLAN, options={"pile": 0}), "pile"),
    ],
)
def test_bad_plans_fail_before_any_game(plan: SimulationPlan, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        simulate(plan)


def test_a_decision_cut_by_a_levels_own_cap_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    # Honor's levels cap each decision by the level, not by the spec's ``seconds``: a level whose
    # cap (shrunk here to half a millisecond) ends its placement searches has those decisions
    # counted as cut, as a spec's own cap has; the same level told ``seconds=0`` has no cap
    from boardlab.games.honor import agent as honor_agent
    from boardlab.lab.play import play_one

    monkeypatch.setitem(honor_agent.LEVELS, "easy", replace(honor_agent.LEVELS["easy"], seconds=0.0005))
    plan = SimulationPlan("honor", ("honor:level=easy", "honor:level=easy,seconds=0"), games=1, seed=3,
                          time_decisions=True)
    played = play_one(plan, 0)
    capped = played.outcome.seat_agents.index(0)
    assert 0 < played.decisions_cut[capped] <= len(played.decision_cpu[capped])
    assert played.decisions_cut[1 - capped] == 0
