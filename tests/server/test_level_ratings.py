"""The catalog's levels carry the ladder's ratings ("hard, about 1600") where a game has them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import boardlab
import boardlab.lab.ladder_docs as ladder_docs
from boardlab.agents import game_levels, level_spec
from boardlab.agents.levels import describe_spec
from boardlab.server.levels import level_table
from tests.server.harness import Harness


@pytest.fixture
def towers_ladder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ladder.json for Towers: hard measured with the spec it plays, easy with an old one."""
    towers = boardlab.load("towers")
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps({
        "format": "boardlab-ladder/1", "game": "towers", "measured": "2026-11-26", "command": ["python bench/levels.py towers"],
        "ratings": {
            "random": {"spec": "random", "elo": 0.0, "low": 0.0, "high": 0.0, "games": 100},
            "hard": {"spec": level_spec(towers, "hard"), "elo": 1612.4, "low": 1500.0, "high": 1720.0, "games": 200,
                     "cpu_median": 0.8, "cpu_max": 2.5},
            "easy": {"spec": "greedy:temperature=0.9", "elo": 700.0, "low": 600.0, "high": 800.0, "games": 200},
        },
    }))
    # the other games: as if they had no ladder.json, whatever the checkout ships
    monkeypatch.setattr(ladder_docs, "ladder_path", lambda game_id: path if game_id == "towers" else tmp_path / "absent.json")
    return path


def test_a_measured_level_reads_about_its_rating(towers_ladder: Path) -> None:
    levels = {entry["level"]: entry for entry in level_table(boardlab.load("towers"))}
    assert levels["hard"]["rating"] == "about 1600" and levels["hard"]["elo"] == 1612.4
    # measured with a spec the level no longer plays: not its rating
    assert levels["easy"]["rating"] is None and levels["easy"]["elo"] is None
    assert levels["normal"]["rating"] is None
    assert all(entry["rating"] is None for entry in level_table(boardlab.load("overseer")))


def test_the_catalog_route_carries_the_ratings(towers_ladder: Path, sqlite_server: Harness) -> None:
    towers = sqlite_server.client.get("/api/games/towers").json()
    # expert is not in this file, so it reads its name alone
    assert [entry["rating"] for entry in towers["levels"]] == [None, None, None, "about 1600", None]
    every = {game["id"]: game for game in sqlite_server.client.get("/api/games").json()}
    assert every["towers"]["levels"][3]["rating"] == "about 1600"
    assert every["sovereign"]["levels"][3]["rating"] is None


def test_a_broken_ladder_file_shows_no_ratings(towers_ladder: Path) -> None:
    towers_ladder.write_text("{not json")
    assert all(entry["rating"] is None for entry in level_table(boardlab.load("towers")))


def test_each_level_says_what_it_plays_in_that_game() -> None:
    # Territories' normal is plain greedy (docs/levels.md) where Towers' is a search: the words
    # come from the spec the level plays, not from the level's name
    towers = {entry["level"]: entry["about"] for entry in level_table(boardlab.load("towers"))}
    territories = {entry["level"]: entry["about"] for entry in level_table(boardlab.load("territories"))}
    assert "a search of 300 positions" in towers["normal"]
    assert "one move ahead" in territories["normal"] and "search" not in territories["normal"]
    # a player reads how often a level errs, in words; its temperature is the spec's (the Lab's)
    assert territories["easy"].endswith("now and then a plausible but weaker one")
    assert territories["beginner"].endswith("often a plausible but weaker one")
    assert not any("temperature" in about for about in (*towers.values(), *territories.values()))
    honor = {entry["level"]: entry["about"] for entry in level_table(boardlab.load("honor"))}
    assert "tries 100 placements" in honor["hard"] and "levels easy/normal/hard" not in honor["hard"]
    assert describe_spec("alphabeta:depth=3,nodes=60000") == "looks up to 3 moves ahead, as far as 60,000 positions allow"
    assert describe_spec("ismcts:iterations=1000").endswith("over many guesses of the hidden cards")


#: what a player must never read in a level's words: the engine's settings and their names
ENGINE_WORDS = re.compile(
    r"\b(positions?|iterations?|ply|plies|tremor|evaluation|nodes?|simulat\w*|temperature|mcts|greedy|alphabeta)\b", re.I)


def test_the_catalog_says_every_level_to_players_in_words_without_engine_settings(sqlite_server: Harness) -> None:
    games = {game["id"]: game for game in sqlite_server.client.get("/api/games").json()}
    assert set(games) >= {"towers", "sovereign", "overseer", "territories", "honor"}
    for game_id, game in games.items():
        assert [entry["level"] for entry in game["levels"]] == list(game_levels(boardlab.load(game_id)))
        assert set(boardlab.load(game_id).level_words) <= set(game_levels(boardlab.load(game_id)))  # no stray level
        for entry in game["levels"]:
            words = entry["for_players"]
            where = f"{game_id} {entry['level']}: {words!r}"
            assert isinstance(words, str) and len(words) > 20, where
            assert not any(character.isdigit() for character in words), where
            assert ENGINE_WORDS.search(words) is None, where
            # the API and the Lab keep the spec and what it plays, in the engine's terms
            assert entry["agent"] == level_spec(boardlab.load(game_id), entry["level"])
            assert describe_spec(entry["agent"]) in entry["about"]
    # a level that plays differently is worded so: Honor's hands, Territories' plain normal
    honor = {entry["level"]: entry["for_players"] for entry in games["honor"]["levels"]}
    assert "shaky hand" in honor["easy"] and "steady hand" in honor["hard"]
    territories = {entry["level"]: entry["for_players"] for entry in games["territories"]["levels"]}
    towers = {entry["level"]: entry["for_players"] for entry in games["towers"]["levels"]}
    assert territories["normal"] != towers["normal"] and "never misses a win" in territories["normal"]
    assert towers["beginner"].startswith("the gentlest opponent, for a first game")
