"""The honor agent and the renderers (docs/rules/honor.md, section 13)."""

from __future__ import annotations

import random

import pytest

from boardlab.core import OptionError
from boardlab.core.agent import registered_agents
from boardlab.games.honor.moves import Accept, Pass, PassOn, Release

from tests.honor.helpers import exact_game, play


def agent(level: str = "easy"):
    return registered_agents()["honor"](seed=1, level=level)


def test_r13_agent_places_a_legal_release_on_its_tower() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass",
                 "rel 90", "build CU1 0", "pass")
    move = agent().choose(state.resample(0, random.Random(2)))
    assert isinstance(move, Release)
    state.check_move(move)
    state.play(move)
    assert state.standing == (True, True), "a cube on a slab is an easy, safe placement"


def test_r13_agent_passes_a_dangerous_piece_and_accepts_a_safe_one_when_passing_costs_more() -> None:
    start = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass",
                 "rel 90", "build BR2 0", "pass", "rel 30")
    state = play(start.copy(), "push RF1")
    assert agent().choose(state) == PassOn(), "a roof on a tower is worth a token to avoid"
    state = play(start.copy(), "push CU1", "passon")
    assert state.current_player() == 1 and state.push.fee == 2
    assert agent().choose(state) == Accept(), "a cube on a brick is not worth 2 tokens"


def test_r13_agent_bids_for_a_good_foundation_only() -> None:
    state = exact_game(2).new_state(seed=1)
    play(state, "build SL1 0")
    assert str(agent().choose(state)) == "raise 1"
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build CU1 0")
    assert agent().choose(state) == Pass()


def test_agent_levels_are_checked() -> None:
    with pytest.raises(OptionError, match="level"):
        registered_agents()["honor"](level="superhuman")


def test_text_view_draws_towers_and_the_piece_in_hand() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build AR1 0", "pass")
    text = state.render(1)
    assert "▓" in text and "░" in text and "AR1" in text and "Red" in text


def test_png_renderer_writes_a_picture(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30")
    path = tmp_path / "table.png"
    state.game.render_image(state.view(None), str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_r13_agent_never_reads_the_seed() -> None:
    """Two states that differ only in their (hidden) seed get the same decision."""
    moves = ["build SL1 0", "pass", "rel 30", "build BR1 0", "pass", "rel 90", "build PL1 0", "pass"]
    decisions = []
    for seed in (11, 2**255 + 3):
        state = play(exact_game(2).new_state(seed=seed), *moves)
        decisions.append(agent("normal").choose(state.resample(0, random.Random(5))))
    assert decisions[0] == decisions[1]
