"""The optional fifth level: ``expert`` exists only in a game that names its spec, above ``hard``
(boardlab/agents/levels.py; docs/levels.md says when a game gets one)."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.agents import game_levels, level_spec, level_table, make_agent, resolve_spec, top_level
from boardlab.lab.ladder import default_pairs, is_rung, ladder_agents, parse_pairs
from boardlab.server.levels import level_table as catalog_levels
from tests.cli.test_commands import run

FOUR = ("beginner", "easy", "normal", "hard")
#: a spec no level of Territories plays, so a mix-up with ``hard`` would show
DEEPER = "mcts:iterations=40000,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=20"


def territories_with_expert(monkeypatch: pytest.MonkeyPatch) -> boardlab.Game:
    """A game without an expert of its own, given one: the mechanism, not a game's table."""
    game = boardlab.load("territories")
    assert "expert" not in type(game).level_specs
    monkeypatch.setattr(type(game), "level_specs", {**type(game).level_specs, "expert": DEEPER})
    return game


def test_a_game_that_names_no_expert_has_four_levels_and_refuses_expert_by_name() -> None:
    without = [boardlab.load(game_id) for game_id in boardlab.game_ids()]
    without = [game for game in without if "expert" not in game.level_specs]
    assert without  # the fallback table has no expert, so such games exist
    for game in without:
        assert game_levels(game) == FOUR and top_level(game) == "hard"
        assert list(level_table(game)) == list(FOUR)
        listed = "its levels: beginner, easy, normal, hard$"
        with pytest.raises(boardlab.OptionError, match=f"{game.id} has no expert level.*{listed}"):
            level_spec(game, "expert")
        with pytest.raises(boardlab.OptionError, match="has no expert level"):
            resolve_spec(game, "expert")


def test_a_game_that_names_expert_gets_a_fifth_level_on_top(monkeypatch: pytest.MonkeyPatch) -> None:
    game = territories_with_expert(monkeypatch)
    assert game_levels(game) == (*FOUR, "expert") and top_level(game) == "expert"
    assert level_spec(game, "expert") == resolve_spec(game, "expert") == DEEPER
    assert level_spec(game, "hard") != DEEPER  # the levels below keep their own specs
    assert make_agent(resolve_spec(game, "expert"), game=game).spec() == make_agent(DEEPER, game=game).spec()
    # the server's catalog lists it last, with its own (longer) deadline
    catalog = catalog_levels(game)
    assert [entry["level"] for entry in catalog] == [*FOUR, "expert"]
    assert catalog[-1]["agent"] == DEEPER and catalog[-1]["deadline_seconds"] > catalog[-2]["deadline_seconds"]


def test_the_ladder_adds_the_rung_from_hard_to_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    game = territories_with_expert(monkeypatch)
    agents = ladder_agents(game)
    assert list(agents)[:6] == ["random", *FOUR, "expert"]
    pairs = default_pairs(agents)
    assert pairs[:5] == [("random", "beginner"), ("beginner", "easy"), ("easy", "normal"), ("normal", "hard"), ("hard", "expert")]
    assert is_rung(("hard", "expert")) and not is_rung(("normal", "expert"))
    assert parse_pairs("hard-expert", agents) == [("hard", "expert")]
    # without it, the ladder has no such pair, and a spec for it is refused by name
    plain = ladder_agents(boardlab.load("honor"))
    assert "expert" not in plain and ("hard", "expert") not in default_pairs(plain)
    with pytest.raises(boardlab.OptionError, match="the levels of honor are beginner, easy, normal, hard"):
        ladder_agents(boardlab.load("honor"), {"expert": DEEPER})


def test_the_command_line_names_the_missing_level() -> None:
    refused = run("simulate", "honor", "--players", "expert,hard", "--games", "1")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "honor has no expert level" in refused.stderr and "beginner, easy, normal, hard" in refused.stderr
