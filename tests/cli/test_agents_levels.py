"""``boardlab agents GAME``: the game's levels with their measured rating, the seconds the computer
takes a move (typical, longest, and the level's cap), then each level's spec and what it plays."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from rich.console import Console

import boardlab
import boardlab.lab.ladder_docs as ladder_docs
from boardlab.agents import level_spec
from boardlab.cli.info import agents_command
from tests.cli.test_commands import run


def agents_output(game: str | None) -> str:
    out = Console(record=True, width=250)
    assert agents_command(argparse.Namespace(game=game), out, Console(stderr=True)) == 0
    return out.export_text()


def test_a_levels_spec_wraps_between_its_parameters_in_a_narrow_terminal() -> None:
    out = Console(record=True, width=80)
    assert agents_command(argparse.Namespace(game="towers"), out, Console(stderr=True)) == 0
    lines = out.export_text().splitlines()
    start = next(index for index, line in enumerate(lines) if line.strip().startswith("spec: mcts:iterations=46000"))
    assert lines[start].rstrip().endswith(",") and lines[start + 1].startswith("    "), "no parameter is cut in two"


def test_the_levels_show_the_measured_rating_and_cpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    towers = boardlab.load("towers")
    ladder = tmp_path / "ladder.json"
    ladder.write_text(json.dumps({
        "format": "boardlab-ladder/1", "game": "towers", "measured": "2026-11-26", "command": [],
        "ratings": {"hard": {"spec": level_spec(towers, "hard"), "elo": 1587.0, "low": 1480.0, "high": 1690.0,
                             "games": 200, "cpu_median": 0.85, "cpu_max": 2.25}},
    }))
    monkeypatch.setattr(ladder_docs, "ladder_path", lambda game_id: ladder)
    text = agents_output("towers")
    hard = next(line for line in text.splitlines() if line.strip("│┃ ").startswith("hard"))
    assert "about 1600" in hard and "1480 - 1690" in hard and "850 ms" in hard and "2.2 s" in hard
    assert hard.rstrip(" │").endswith("8 s")  # hard's spec caps a move at 8 seconds
    assert "measured 2026-11-26" in text and "a busy machine takes longer, up to the cap" in text
    easy = next(line for line in text.splitlines() if line.strip("│┃ ").startswith("easy "))
    assert "about" not in easy
    # then each level's spec and what it plays, in words
    assert "hard: a search of 20,000 positions, judging where it stops" in text
    spec = next(line.strip() for line in text.splitlines() if line.strip().startswith("spec: mcts:iterations=20000"))
    assert boardlab.agents.parse_spec(spec.removeprefix("spec: ")) == boardlab.agents.parse_spec(level_spec(towers, "hard"))
    # the game's agents follow; another game's own agent does not
    assert "│ mcts " in text and "│ honor " not in text and "│ honor " in agents_output(None)


def test_a_levels_cap_shows_where_its_spec_leaves_it_to_the_level() -> None:
    # Honor's levels cap a decision at 4, 15 and 30 s by the level (docs/rules/honor.md 13),
    # which their specs do not say; greedy, its beginner, has no cap at all
    text = agents_output("honor")
    rows = {line.strip("│┃ ").split()[0]: line.rstrip(" │") for line in text.splitlines()
            if line.strip("│┃ ").split()[:1] in (["beginner"], ["easy"], ["normal"], ["hard"]) and "about" in line}
    assert rows["easy"].endswith("4 s") and rows["normal"].endswith("15 s") and rows["hard"].endswith("30 s")
    assert rows["beginner"].endswith("-")


def test_a_game_without_measurements_and_the_plain_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ladder_docs, "ladder_path", lambda game_id: tmp_path / "none.json")
    text = agents_output("overseer")
    assert "not measured yet" in text and "about" not in text
    assert "the computer's levels" in text and "the computer's levels" not in agents_output(None)
    unknown = run("agents", "chess")
    assert unknown.returncode == 2 and "unknown game 'chess'" in unknown.stderr
