"""The lab's presets (boardlab/lab/presets.py, docs/lab.md "Presets"): each names a setting
measured for its purpose, and a game whose moves cost far more names its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.lab.presets import PRESETS, expand, expand_all, preset_seats
from tests.cli.test_commands import run
from tests.support.bench import load_bench


@pytest.mark.parametrize("game_id", boardlab.game_ids())
def test_every_preset_builds_an_agent_that_moves_in_every_game(game_id: str) -> None:
    game = boardlab.load(game_id)
    assert set(type(game).lab_presets) <= set(PRESETS), "a game names a preset the lab does not have"
    state = game.new_state(seed=3)
    while state.is_chance():
        state.apply(state.chance_outcomes()[0][0])
    for preset in PRESETS:
        spec = expand(preset, game)
        assert spec not in PRESETS  # expanded to a real setting
        move = make_agent(spec, seed=1, game=game).choose(state.copy())
        assert move in state.legal_moves()


def test_a_game_without_its_own_presets_gets_the_labs_and_one_with_them_gets_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    towers = boardlab.load("towers")
    assert type(towers).lab_presets == {}
    perfect, _hidden = PRESETS["quick"]
    assert expand("quick", towers) == perfect
    monkeypatch.setattr(type(towers), "lab_presets", {"quick": "random"})
    assert expand("quick", towers) == "random"
    assert expand("strong", towers) == PRESETS["strong"][0]  # the preset the game leaves out is the lab's
    assert preset_seats("quick", towers) == ["random", "random"]
    assert expand_all(["quick", "greedy"], towers) == ["random", "greedy"]  # a plain spec is left alone


def test_honor_presets_do_not_search_every_release_by_physics() -> None:
    """Honor's releases are physics simulations: the lab's search simulates every release of a
    node and its greedy every release under each tremor outcome, so Honor names cheaper settings
    (docs/lab.md, "Presets", has their cost)."""
    honor = boardlab.load("honor")
    quick, strong = expand("quick", honor), expand("strong", honor)
    assert quick.startswith("greedy:") and "exact_chance=0" in quick and "chance_samples=1" in quick
    assert strong == "honor:level=normal"
    assert quick != PRESETS["quick"][0] and strong != PRESETS["strong"][0]


def test_the_lab_command_records_the_games_own_preset(tmp_path: Path) -> None:
    out = tmp_path / "honor-quick"
    done = run("lab", "honor", "--preset", "quick", "-n", "2", "--jobs", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert "greedy:exact_chance=0,chance_samples=1" in json.dumps(report)


def test_the_preset_bench_scores_each_setting_against_the_games_quick_one_with_a_wilson_interval() -> None:
    lab_speed = load_bench("lab_speed")
    mean, low, high = lab_speed.score_against("towers", "greedy", "random", 6, seed=4, jobs=1)
    assert mean == 1.0  # greedy won all six, in either seat: the points are the setting's, not a seat's
    assert 0.5 < low < 1.0 and high == pytest.approx(1.0)  # Wilson's interval, never past 100%
