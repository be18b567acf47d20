"""Pebbles (tests/plugin_game) is a game in a package of its own: installed, it plays by its
rules (tests/plugin_game/boardlab_pebbles/rules.md, cited as P1-P4) and shows up wherever a game
of boardlab's own does: ``boardlab games``, ``rules``, ``check``, the server's lobby and rules
page, and the lab."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core.errors import IllegalMoveError, OptionError, PositionError
from boardlab.server.settings import STATIC_DIR
from boardlab.testing import run_conformance
from tests.plugins.site import PEBBLES_PROJECT, environment, install_project, installed, write_distribution
from tests.server.harness import make_harness

RULES = PEBBLES_PROJECT / "boardlab_pebbles" / "rules.md"


def boardlab_command(site: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``boardlab ARGS`` in a new interpreter that has the plugin installed."""
    return subprocess.run(
        [sys.executable, "-m", "boardlab", *args], capture_output=True, text=True, env=environment(site), timeout=timeout
    )


# --- the rules -------------------------------------------------------------------------
def test_a_turn_takes_one_to_max_take_from_one_pile_and_no_more_than_it_holds(pebbles: Path) -> None:
    state = boardlab.load("pebbles", piles="2,5", max_take=3).new_state(seed=1)
    # P2: pile a holds 2, so a1 and a2; pile b allows up to max_take
    assert [str(move) for move in state.legal_moves()] == ["a1", "a2", "b1", "b2", "b3"]
    with pytest.raises(IllegalMoveError, match=r"pile a holds 2 pebbles \(rule P2\)"):
        state.play("a3")
    with pytest.raises(IllegalMoveError, match=r"1 to 3 pebbles \(rule P2\)"):
        state.play("b4")
    with pytest.raises(IllegalMoveError, match=r"no pile c.*\(rule P1\)"):
        state.play("c1")
    assert state.ply == 0
    state.play("b3")
    assert state.current_player() == 1  # P3: the players alternate


def test_whoever_takes_the_last_pebble_wins(pebbles: Path) -> None:
    state = boardlab.load("pebbles", piles="1,2").new_state(seed=1)
    for text in ("b1", "a1", "b1"):
        state.play(text)
    result = state.result()
    assert state.is_over() and result is not None
    assert (result.winner, result.code) == (0, "last_pebble")  # P4: First took the last one


def test_the_evaluation_is_exact_for_the_player_to_move(pebbles: Path) -> None:
    game = boardlab.load("pebbles", piles="4,4", max_take=3)
    # 4 mod 4 = 0 on both piles: the mover loses whatever it takes
    assert game.state_from_position("4,4 0").evaluate() == (0.0, 1.0)
    assert game.state_from_position("4,3 1").evaluate() == (0.0, 1.0)  # 0 xor 3 != 0: Second wins


def test_bad_options_and_positions_are_refused_with_the_reason(pebbles: Path) -> None:
    with pytest.raises(OptionError, match=r"1 to 6 piles of 1 to 20 pebbles \(rule P1\)"):
        boardlab.load("pebbles", piles="3,0")
    with pytest.raises(OptionError, match="whole numbers separated by commas"):
        boardlab.load("pebbles", piles="three")
    game = boardlab.load("pebbles")
    with pytest.raises(PositionError, match="pile b must hold 0 to 4"):
        game.state_from_position("3,9,5 0")
    with pytest.raises(PositionError, match="2 piles, this game has 3"):
        game.state_from_position("3,4 0")


def test_the_encodings_number_each_pile_and_count(pebbles: Path) -> None:
    game = boardlab.load("pebbles", piles="2,3", max_take=2)
    state = game.new_state(seed=1)
    actions = game.action_encoding()
    assert actions.num_actions == 4
    assert {str(actions.move_for(state, index)): index for index in actions.legal_actions(state)} == {
        "a1": 0, "a2": 1, "b1": 2, "b2": 3,
    }
    state.play("b2")
    # Second to move; pile a still full, pile b down to 1 of 3
    assert game.observation_encoding().encode(state, 1) == [1.0, 0.0, 0.0, 0.0, 1.0, 1 / 3]


# --- where it shows up -------------------------------------------------------------------
def test_the_command_line_lists_it_prints_its_rules_and_checks_it(pebbles_site: Path) -> None:
    listed = boardlab_command(pebbles_site, "games", "pebbles")
    assert listed.returncode == 0, listed.stderr
    assert "Pebbles" in listed.stdout and "max_take" in listed.stdout
    rules = boardlab_command(pebbles_site, "rules", "pebbles", "--plain")
    assert rules.returncode == 0, rules.stderr
    assert rules.stdout == RULES.read_text(encoding="utf-8")
    checked = boardlab_command(pebbles_site, "check", "pebbles", "--quick", "--no-fuzz")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "action_encoding" in checked.stdout and "observation_encoding" in checked.stdout
    assert "All" in checked.stdout and "checks passed" in checked.stdout


def test_the_lab_plays_it(pebbles_site: Path) -> None:
    players = ["--players", "greedy,random"]
    done = boardlab_command(pebbles_site, "simulate", "pebbles", *players, "-n", "4", "--jobs", "2", "--rotate")
    assert done.returncode == 0, done.stderr
    assert "Endings: last_pebble: 4." in " ".join(done.stdout.split())


def test_the_lobby_lists_it_shows_its_rules_and_plays_it_against_the_computer(pebbles: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with make_harness(url, tmp_path, static_dir=STATIC_DIR) as server:
        games = {entry["id"]: entry for entry in server.client.get("/api/games").json()}
        assert {"pebbles", "towers"} <= set(games)
        entry = games["pebbles"]
        assert entry["name"] == "Pebbles" and entry["rules_page"] == "/rules/pebbles"
        assert entry["description"].startswith("Two players take turns removing pebbles")  # the rules' first paragraph
        page = server.client.get("/rules/pebbles")
        assert page.status_code == 200 and "P2. A turn." in page.text
        created = server.create("pebbles", ["here", "computer:easy"])
        first = created.state["legal_moves"][0]["notation"]
        assert server.move(created.room, created.token, first, created.state["ply"]).status_code == 200
        after = server.wait(created.room, created.token, lambda state: state["ply"] >= 2 and not state["thinking"])
        assert after["ply"] == 2


def can_build_wheels() -> bool:
    """setuptools is present, and builds wheels itself (70.1+) or with the wheel package
    (pyproject's dev extra installs wheel)."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    from importlib.metadata import version

    own = tuple(int(part) for part in version("setuptools").split(".")[:2] if part.isdigit())
    return own >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.mark.skipif(not can_build_wheels(), reason="pip needs setuptools (and wheel before setuptools 70.1) to build it")
def test_pip_installs_the_package_with_the_same_entry_point(tmp_path: Path) -> None:
    """What site.py lays out by hand is what a real installation gives: built and installed by
    pip from its pyproject.toml (offline, into a folder of its own), the game lists and finds
    its rules document inside the installed package."""
    source = tmp_path / "source"
    shutil.copytree(PEBBLES_PROJECT, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    found = subprocess.run(
        [sys.executable, "-c", "import boardlab; print(boardlab.game_class('pebbles').name, boardlab.rules_document('pebbles'))"],
        capture_output=True, text=True, env=environment(target), timeout=120,
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == ["Pebbles", str(target / "boardlab_pebbles" / "rules.md")]


def test_the_whole_conformance_suite_passes(pebbles: Path) -> None:
    report = run_conformance("pebbles")
    assert report.passed, [(outcome.name, outcome.failure) for outcome in report.failures]
    names = {outcome.name for outcome in report.outcomes}
    assert {"check_action_encoding", "check_observation_encoding", "check_fuzz_parse_move"} <= names


def solved(piles: tuple[int, ...], max_take: int, memo: dict[tuple[int, ...], bool]) -> bool:
    """Whether the player to move wins from ``piles`` with best play, by trying every take (P2, P4)."""
    if piles not in memo:
        memo[piles] = any(
            not solved((*piles[:pile], pebbles - count, *piles[pile + 1:]), max_take, memo)
            for pile, pebbles in enumerate(piles)
            for count in range(1, min(max_take, pebbles) + 1)
        )
    return memo[piles]


# the installation is only read, so one for all examples is right
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    piles=st.lists(st.integers(min_value=0, max_value=7), min_size=1, max_size=3).filter(any),
    max_take=st.integers(min_value=1, max_value=4),
    to_move=st.integers(min_value=0, max_value=1),
)
def test_the_evaluation_agrees_with_an_exhaustive_search(pebbles: Path, piles: list[int], max_take: int, to_move: int) -> None:
    game = boardlab.load("pebbles", piles=",".join(str(max(1, pebbles)) for pebbles in piles), max_take=max_take)
    state = game.state_from_position(f"{','.join(map(str, piles))} {to_move}")
    winner = to_move if solved(tuple(piles), max_take, {}) else 1 - to_move
    assert state.evaluate() == tuple(1.0 if seat == winner else 0.0 for seat in range(2))


def test_a_broken_plugin_leaves_the_lobby_listing_the_others_and_answers_with_its_cause(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_project(PEBBLES_PROJECT, site)
    (site / "broken_game_pkg.py").write_text("raise ImportError('needs pymunk 99')\n", encoding="utf-8")
    write_distribution(site, "broken-dist", "0.3", {"broken": "broken_game_pkg"})
    with installed(site), make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path) as server:
        listed = {entry["id"] for entry in server.client.get("/api/games").json()}
        assert {"pebbles", "towers"} <= listed and "broken" not in listed
        answer = server.client.get("/api/games/broken")
        assert answer.status_code == 404
        error = answer.json()["error"]
        assert error["code"] == "unknown_game" and "broken-dist 0.3" in error["message"] and "needs pymunk 99" in error["message"]


def test_a_picture_beside_a_plugins_rules_document_is_served(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_project(PEBBLES_PROJECT, site)
    picture = b"\x89PNG\r\n\x1a\n pebbles"
    (site / "boardlab_pebbles" / "pebbles-piles.png").write_bytes(picture)
    with installed(site), make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, static_dir=STATIC_DIR) as server:
        served = server.client.get("/rules/files/pebbles-piles.png")
        assert served.status_code == 200 and served.content == picture
        assert server.client.get("/rules/files/towers.md").status_code == 404  # pictures only
    with make_harness(f"sqlite:///{tmp_path / 'db2.sqlite3'}", tmp_path, static_dir=STATIC_DIR) as server:
        assert server.client.get("/rules/files/pebbles-piles.png").status_code == 404  # uninstalled: gone
