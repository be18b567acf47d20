"""bench/adapter_steps.py: a few random steps through each adapter give a row per adapter and
game, with the ratio to Towers and the load (speed is not asserted: that is the bench's)."""

from __future__ import annotations

import pytest

from tests.support.bench import load_bench

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

bench = load_bench("adapter_steps")


def test_a_row_per_adapter_and_game_with_the_ratio_to_towers_and_the_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--steps", "5", "--repeats", "1", "--games", "towers,overseer"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    games = {(row[0], row[1]) for row in rows if len(row) == 4 and row[0] in ("PettingZoo", "OpenSpiel")}
    assert games == {(adapter, game) for adapter in ("PettingZoo", "OpenSpiel") for game in ("towers", "overseer")}
    assert all(row[3] == "1.0" for row in rows if len(row) == 4 and row[1] == "towers")
    assert "load average" in " ".join(rows[-1])
