"""``boardlab rules GAME`` prints the rules for players and names where the notation is;
``--programs`` prints the part for programs; ``--plain`` the whole document as it is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.learn.documents import split_rules

ROOT = Path(__file__).resolve().parents[2]


def test_the_rules_for_players_then_the_part_for_programs(capsys: pytest.CaptureFixture[str]) -> None:
    document = (ROOT / "docs" / "rules" / "overseer.md").read_text(encoding="utf-8")
    players, programs = split_rules(document)
    assert programs is not None and "3.5 Pilot" in players
    assert main(["rules", "overseer"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "3.5 Pilot" in shown and "13. Action encoding" not in shown and "10. Position string" not in shown
    assert "boardlab rules overseer --programs" in shown
    assert main(["rules", "overseer", "--programs"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "Action encoding" in shown and "3.5 Pilot" not in shown
    assert main(["rules", "overseer", "--plain"]) == 0
    assert capsys.readouterr().out == document


#: what belongs to the project's files and its engine, not to a player's reading of the rules:
#: a path in the repository, a module, an agent's spec or the names of its searches, and the
#: programming interface (the protocol's classes, the match driver, the view's fields)
NOT_FOR_PLAYERS = re.compile(
    r"docs/|\.py\b|\b(mcts|ismcts|alphabeta|greedy):|\bISMCTS\b|\bMCTS\b|leaf_eval|information-set search"
    r"|\b(State|Game|Result)\.[a-z_]+|\bboardlab\.[A-Za-z]|\bthe match driver\b|\bthe view's\b"
)


@pytest.mark.parametrize("game", ["towers", "sovereign", "overseer", "territories", "honor"])
def test_the_rules_for_players_name_no_file_of_the_project_and_no_engine_setting(game: str) -> None:
    players, _programs = split_rules((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))
    found = [line.strip() for line in players.splitlines() if NOT_FOR_PLAYERS.search(line)]
    assert found == []
