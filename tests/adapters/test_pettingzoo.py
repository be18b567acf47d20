"""The PettingZoo adapter: PettingZoo's own api_test on every game, masks equal to the legal
moves, whole games to the end, and observations that depend only on the seat's view."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

import boardlab

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test

from boardlab.adapters.pettingzoo import env
from boardlab.core import ActionError, OptionError

GAMES = [g for g in boardlab.game_ids() if boardlab.game_class(g).__module__.startswith("boardlab.games.")]
OPTIONS = {"honor": {"settle": "quick"}}


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api_test_passes(game_id: str) -> None:
    api_test(env(game_id, **OPTIONS.get(game_id, {})), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_masks_are_the_legal_moves_through_a_whole_game(game_id: str) -> None:
    environment = env(game_id, **OPTIONS.get(game_id, {}))
    environment.reset(seed=3)
    encoding = environment.encoding
    rng = np.random.RandomState(3)
    steps = 0
    final: dict[str, float] = {}
    for agent in environment.agent_iter(max_iter=3000):
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            final[agent] = reward
            environment.step(None)
            continue
        state = environment.boardlab_state
        assert environment.seat[agent] == state.current_player()
        legal = set(np.flatnonzero(observation["action_mask"]))
        assert legal == set(encoding.legal_actions(state))
        assert legal == {encoding.action_index(state, move) for move in state.legal_moves()}
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        environment.step(int(rng.choice(sorted(legal))))
        steps += 1
    if environment.boardlab_state.is_over():
        assert [final[a] for a in environment.possible_agents] == list(environment.boardlab_state.returns())
        assert sum(final.values()) == pytest.approx(1.0)
    assert steps > 0


def test_an_illegal_action_is_refused_by_index() -> None:
    environment = env("towers")
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ActionError, match=f"action {illegal} is not legal"):
        environment.step(illegal)


def test_territories_observation_depends_only_on_the_seats_view() -> None:
    environment = env("territories")
    environment.reset(seed=5)
    rng = np.random.RandomState(5)
    while environment.boardlab_state.ply < 150 and not environment.boardlab_state.is_over():
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    real = environment.boardlab_state
    assert real.secrets(1), "seat 0 should hold cards hidden from seat 1"
    resampled = real.resample(1, random.Random(9))
    observer = environment.observer
    assert observer.encode(resampled, 1) == observer.encode(real, 1)


def test_state_is_pettingzoos_global_state_method_not_the_boardlab_state() -> None:
    environment = env("towers")
    environment.reset(seed=1)
    assert environment.boardlab_state.ply == 0
    with pytest.raises(NotImplementedError, match="state\\(\\) method has not been implemented"):
        environment.state()


def test_ansi_render_is_plain_text_that_keeps_the_boards_own_brackets() -> None:
    environment = env("towers", render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert text is not None
    assert "[/" not in text and "[dim]" not in text and "[bold" not in text
    # the castles are drawn "[C]": markup escapes them, and plain text must show them as written
    assert "[C]" in text and "\\[C]" not in text


def test_stepping_none_for_an_agent_still_playing_is_refused_by_name() -> None:
    environment = env("towers")
    environment.reset(seed=1)
    agent = environment.agent_selection
    with pytest.raises(ActionError, match=f"{agent} is to move.*got None"):
        environment.step(None)
    with pytest.raises(ActionError, match=r"got 2\.5"):
        environment.step(2.5)  # type: ignore[arg-type]
    assert environment.boardlab_state.ply == 0 and environment.agent_selection == agent
    environment.step(int(np.flatnonzero(environment.observe(agent)["action_mask"])[0]))
    assert environment.boardlab_state.ply == 1


def test_too_many_actions_names_the_game_and_the_option_briefly() -> None:
    with pytest.raises(OptionError) as caught:
        env("territories", trade_territories=True)
    message = str(caught.value)
    assert re.match(r"territories \(trade_territories=True\): [\d,]+ actions are too many for an action mask", message)
    assert "production" not in message  # the options left at their defaults are not listed
