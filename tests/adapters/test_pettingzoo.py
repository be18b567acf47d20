"""The PettingZoo adapter: PettingZoo's own api_test on every game, masks equal to the legal
moves, whole games to the end, and observations that depend only on the seat's view."""

from __future__ import annotations

import random

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
        state = environment.state
        assert environment.seat[agent] == state.current_player()
        legal = set(np.flatnonzero(observation["action_mask"]))
        assert legal == set(encoding.legal_actions(state))
        assert legal == {encoding.action_index(state, move) for move in state.legal_moves()}
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        environment.step(int(rng.choice(sorted(legal))))
        steps += 1
    if environment.state.is_over():
        assert [final[a] for a in environment.possible_agents] == list(environment.state.returns())
        assert sum(final.values()) == pytest.approx(1.0)
    assert steps > 0


def test_an_illegal_action_is_refused_by_index() -> None:
    environment = env("towers")
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ActionError, match=f"action {illegal} is not legal"):
        environment.step(illegal)


def test_too_many_actions_for_a_mask_is_refused_with_the_reason() -> None:
    with pytest.raises(OptionError, match="too many for an action mask"):
        env("territories", trade_territories=True)


def test_territories_observation_depends_only_on_the_seats_view() -> None:
    environment = env("territories")
    environment.reset(seed=5)
    rng = np.random.RandomState(5)
    while environment.state.ply < 150 and not environment.state.is_over():
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    real = environment.state
    assert real.secrets(1), "seat 0 should hold cards hidden from seat 1"
    resampled = real.resample(1, random.Random(9))
    observer = environment.observer
    assert observer.encode(resampled, 1) == observer.encode(real, 1)
