"""``boardlab analyse RECORD``: the table, the graph, the worst moves, --json, --budget, errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import boardlab
from boardlab import Record
from boardlab.cli import main
from boardlab.cli.analyse import sparkline
from tests.cli.test_commands import run

#: Black to move; d4S lets White win at once with b2N (tests/agents/test_analysis.py)
BLUNDER_POSITION = (
    "-,WW,-,-,-,B,-/W,W,W,CW,-,BB,B/-,-,-,-,-,BB,B/-,C,BB,CWB,-,CB,-/-,B,B,WW,-,W,-/"
    "B,BWW,W,CW,W,W,W/B,B,-,-,-,W,- B 2"
)


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # one line per message, as on a wide terminal


@pytest.fixture
def blunder_file(tmp_path: Path) -> Path:
    state = boardlab.load("towers").state_from_position(BLUNDER_POSITION, 0)
    for move in ("d4S", "b2N"):
        state.play(move)
    return Record.for_state(state).save(tmp_path / "game.json")


def test_the_table_the_graph_and_the_worst_move_with_the_engines_choice(
    blunder_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", str(blunder_file), "--budget", "40"]) == 0
    out = capsys.readouterr().out
    assert "Chances after each move" in out and "White" in out and "Black" in out
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert any("(start)" in row for row in rows)
    blunder_row = next(row for row in rows if "d4S" in row)
    assert "0%" in blunder_row and "??" in blunder_row  # White's chance 100%, Black's 0%, flagged
    assert "Chances over the game" in out
    graph = [line for line in out.splitlines() if line.startswith(("White ", "Black "))]
    assert len(graph) == 2 and graph[0].endswith("→ 100%") and graph[1].endswith("→ 0%")
    worst = out[out.index("Worst moves") :]
    assert "move 1: Black played d4S" in worst and "the engine preferred" in worst
    assert "d4S" not in worst.split("the engine preferred")[1].split("\n")[0]
    assert "40 iterations per position, seed 0" in out
    assert "The judge: a search of" in " ".join(out.split())  # the engine in words, not its spec


def test_json_is_the_analysis_and_the_same_seed_gives_the_same_numbers(blunder_file: Path) -> None:
    runs = [run("analyse", str(blunder_file), "--budget", "30", "--seed", "7", "--json") for _ in range(2)]
    for done in runs:
        assert done.returncode == 0, done.stderr
    first, second = (json.loads(done.stdout) for done in runs)
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    assert first["game"] == "towers" and first["iterations"] == 30 and first["seed"] == 7
    assert first["worst"] == [1] and first["moves"][0]["move"] == "d4S"
    assert first["moves"][0]["preferred"] not in (None, "d4S") and first["moves"][0]["loss"] > 0.3
    for point in [first["start"], *(move["chances"] for move in first["moves"])]:
        assert math.isclose(sum(point), 1.0, abs_tol=1e-3)


def test_a_missing_or_broken_record_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(tmp_path / "nothing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert main(["analyse", str(broken)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_a_budget_below_one_is_refused(blunder_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(blunder_file), "--budget", "0"]) == 2
    assert "--budget 0" in capsys.readouterr().err


def test_a_sparkline_fits_its_width_by_averaging_moves() -> None:
    assert sparkline([0.0, 0.5, 1.0], 10) == "▁▅█"
    long = sparkline([0.0] * 50 + [1.0] * 50, 10)
    assert long == "▁" * 5 + "█" * 5
    assert len(sparkline([0.3] * 1000, 37)) <= 37
