"""Games and agents from installed packages (the entry-point groups ``boardlab.games`` and
``boardlab.agents``, where boardlab declares its own): a good plugin is a game or an agent like
any other, and a broken one is named with its cause while every other plays on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import boardlab
from boardlab.agents import agent_class, agent_names, make_agent
from boardlab.core.agent import agent_failures
from boardlab.core.entry_points import AGENT_GROUP, GAME_GROUP, declared, is_own
from boardlab.core.errors import GamePluginError, OptionError, UnknownGameError
from boardlab.core.registry import plugin_failures, plugin_of, rules_document
from tests.plugins.site import PEBBLES_PROJECT, environment, install_project, installed, write_distribution

OWN_GAMES = {"honor", "overseer", "sovereign", "territories", "towers"}


def module(site: Path, name: str, text: str) -> None:
    (site / f"{name}.py").write_text(text, encoding="utf-8")


TINY_GAME = '''
from boardlab.core import Game, register
from boardlab.core.registry import game_class

@register
class {cls}(Game):
    id = "{game_id}"
    name = "{cls}"
    result_codes = ("done",)
{tail}
'''


def test_a_plugin_game_joins_the_registry_and_leaves_it_when_uninstalled(tmp_path: Path) -> None:
    install_project(PEBBLES_PROJECT, tmp_path)
    assert "pebbles" not in boardlab.game_ids()
    with installed(tmp_path):
        assert OWN_GAMES | {"pebbles"} <= set(boardlab.game_ids())
        assert plugin_of("pebbles") == "pebbles" and plugin_of("towers") is None
        state = boardlab.load("pebbles", piles="2,1").new_state(seed=1)
        state.play("a2")
        assert state.position() == "0,1 1"
        assert rules_document("pebbles") == tmp_path / "boardlab_pebbles" / "rules.md"
        assert plugin_failures() == []
    assert "pebbles" not in boardlab.game_ids()
    with pytest.raises(UnknownGameError):
        boardlab.load("pebbles")


def test_a_plugin_that_fails_to_import_is_named_with_its_cause_and_the_others_play(tmp_path: Path) -> None:
    module(tmp_path, "broken_game_pkg", "import a_module_nobody_installed\n")
    write_distribution(tmp_path, "broken-dist", "0.3", {"broken": "broken_game_pkg"})
    install_project(PEBBLES_PROJECT, tmp_path)
    with installed(tmp_path):
        assert {"pebbles", *OWN_GAMES} <= set(boardlab.game_ids())
        assert "broken" not in boardlab.game_ids()
        [failure] = plugin_failures()
        assert (failure.name, failure.target, failure.distribution) == ("broken", "broken_game_pkg", "broken-dist 0.3")
        assert "a_module_nobody_installed" in failure.reason
        with pytest.raises(GamePluginError) as refused:
            boardlab.load("broken")
        message = str(refused.value)
        assert "'broken'" in message and "broken-dist 0.3" in message and "a_module_nobody_installed" in message
        assert refused.value.code == "unknown_game"  # the server answers it as it answers an unknown game
        boardlab.load("towers").new_state(seed=1)


def test_a_plugin_may_not_take_the_id_of_an_existing_game(tmp_path: Path) -> None:
    module(tmp_path, "fake_towers", TINY_GAME.format(cls="FakeTowers", game_id="towers", tail=""))
    write_distribution(tmp_path, "fake-towers", "1.0", {"towers": "fake_towers:FakeTowers"})
    with installed(tmp_path):
        [failure] = plugin_failures()
        assert "taken by boardlab.games.towers" in failure.reason
        assert boardlab.game_class("towers").__module__.startswith("boardlab.games.towers")
        assert "fake_towers" not in sys.modules  # never imported: it could not be used anyway


def test_an_entry_point_must_be_named_after_its_game(tmp_path: Path) -> None:
    module(tmp_path, "misnamed_game", TINY_GAME.format(cls="Misnamed", game_id="misnamed", tail=""))
    write_distribution(tmp_path, "misnamed", "1.0", {"other_name": "misnamed_game:Misnamed"})
    with installed(tmp_path):
        [failure] = plugin_failures()
        assert failure.name == "other_name"
        assert "named 'other_name' but names the game 'misnamed'" in failure.reason
        # the module's own @register ran before the check failed: it is not left half-installed
        assert "misnamed" not in boardlab.game_ids()


def test_a_module_that_registers_its_game_then_fails_leaves_nothing_behind(tmp_path: Path) -> None:
    module(tmp_path, "half_game", TINY_GAME.format(cls="Half", game_id="half", tail='\nraise RuntimeError("disk full")'))
    write_distribution(tmp_path, "half", "1.0", {"half": "half_game"})
    with installed(tmp_path):
        [failure] = plugin_failures()
        assert failure.reason == "RuntimeError: disk full"
        assert "half" not in boardlab.game_ids()
        with pytest.raises(GamePluginError, match="disk full"):
            boardlab.game_class("half")


def test_an_entry_point_that_names_neither_a_game_nor_a_module_is_refused(tmp_path: Path) -> None:
    module(tmp_path, "not_a_game", "VALUE = 42\n")
    write_distribution(tmp_path, "not-a-game", "1.0", {"value": "not_a_game:VALUE"})
    with installed(tmp_path):
        [failure] = plugin_failures()
        assert "neither a Game subclass nor a module" in failure.reason


def test_a_module_plugin_that_registers_no_such_game_says_how_to_fix_it(tmp_path: Path) -> None:
    module(tmp_path, "empty_plugin", "")
    write_distribution(tmp_path, "empty", "1.0", {"empty": "empty_plugin"})
    with installed(tmp_path):
        [failure] = plugin_failures()
        assert "registered no game with the id 'empty'" in failure.reason and "@boardlab.register" in failure.reason


def test_the_games_command_warns_about_a_broken_plugin_and_lists_the_rest(tmp_path: Path) -> None:
    module(tmp_path, "broken_game_pkg", "raise ImportError('needs pymunk 99')\n")
    write_distribution(tmp_path, "broken-dist", "0.3", {"broken": "broken_game_pkg"})
    install_project(PEBBLES_PROJECT, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "boardlab", "games"], capture_output=True, text=True, env=environment(tmp_path), timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "pebbles" in done.stdout and "towers" in done.stdout
    assert "broken" not in done.stdout
    warning = " ".join(done.stderr.split())
    assert "game plugin 'broken'" in warning and "broken-dist 0.3" in warning and "needs pymunk 99" in warning


def test_the_rules_document_of_an_own_game_is_found_in_the_given_folders(tmp_path: Path) -> None:
    checkout = Path(__file__).resolve().parents[2] / "docs" / "rules"
    assert rules_document("towers") == checkout / "towers.md"  # a source checkout reads docs/rules
    assert rules_document("towers", [None, tmp_path]) is None  # an installation without the documents
    (tmp_path / "towers.md").write_text("# Towers\n", encoding="utf-8")
    assert rules_document("towers", [tmp_path, checkout]) == tmp_path / "towers.md"  # the first folder that has it
    with pytest.raises(UnknownGameError):
        rules_document("no_such_game", [checkout])


def test_a_plugin_ships_its_rules_in_its_own_folder_before_any_other(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_project(PEBBLES_PROJECT, site)
    elsewhere = tmp_path / "rules"
    elsewhere.mkdir()
    (elsewhere / "pebbles.md").write_text("# Another Pebbles\n", encoding="utf-8")
    with installed(site):
        assert rules_document("pebbles", [elsewhere]) == site / "boardlab_pebbles" / "rules.md"


TINY_AGENT = '''
from boardlab.core import Agent

class {cls}(Agent):
    name = "{name}"
    summary = "plays the first legal move"

    def choose(self, state):
        return state.legal_moves()[0]
{tail}
'''


def test_an_agent_from_another_package_plays_and_leaves_when_uninstalled(tmp_path: Path) -> None:
    module(tmp_path, "first_move_agent", TINY_AGENT.format(cls="FirstMove", name="first_move", tail=""))
    write_distribution(tmp_path, "first-move", "2.0", {}, {"first_move": "first_move_agent:FirstMove"})
    assert "first_move" not in agent_names()
    with installed(tmp_path):
        assert "first_move" in agent_names() and {"mcts", "greedy", "honor"} <= set(agent_names())
        state = boardlab.load("towers").new_state(seed=1)
        assert make_agent("first_move", seed=1).choose(state) == state.legal_moves()[0]
    assert "first_move" not in agent_names()
    with pytest.raises(OptionError, match="unknown agent 'first_move'"):
        make_agent("first_move")


def test_an_agent_that_fails_to_load_is_named_with_its_cause_and_may_not_take_a_name(tmp_path: Path) -> None:
    module(tmp_path, "broken_agent", "import a_module_nobody_installed\n")
    module(tmp_path, "fake_mcts", TINY_AGENT.format(cls="FakeMcts", name="mcts", tail=""))
    write_distribution(
        tmp_path, "odd-agents", "0.1", {}, {"broken": "broken_agent:Broken", "mcts": "fake_mcts:FakeMcts"}
    )
    with installed(tmp_path):
        failures = agent_failures()
        assert set(failures) == {"broken", "mcts"}
        assert "odd-agents 0.1" in failures["broken"] and "a_module_nobody_installed" in failures["broken"]
        assert "taken by boardlab.agents.mcts" in failures["mcts"] and "fake_mcts" not in sys.modules
        assert agent_class("mcts").__module__ == "boardlab.agents.mcts"
        with pytest.raises(OptionError, match="failed to load") as refused:
            make_agent("broken")
        assert "a_module_nobody_installed" in str(refused.value)
    assert agent_failures() == {}


def test_a_stale_copy_of_boardlabs_metadata_ahead_on_the_path_hides_none_of_its_games(tmp_path: Path) -> None:
    # what a build leaves in a source checkout: boardlab.egg-info from before the games were
    # declared, first on sys.path when a command runs in the checkout
    stale = tmp_path / "boardlab.egg-info"
    stale.mkdir()
    (stale / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: boardlab\nVersion: 0.0.1\n", encoding="utf-8")
    (stale / "entry_points.txt").write_text("[console_scripts]\nboardlab = boardlab.cli:main\n", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        assert {point.name for point in declared(GAME_GROUP) if is_own(point)} == OWN_GAMES
        assert {"alphabeta", "greedy", "honor", "ismcts", "mcts", "random"} <= {
            point.name for point in declared(AGENT_GROUP) if is_own(point)
        }
    finally:
        sys.path.remove(str(tmp_path))
