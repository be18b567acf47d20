"""The OpenSpiel adapter: every game registered with the right type, OpenSpiel's own random
simulation test, a whole game by OpenSpiel's Python MCTSBot, and no hidden information in
another seat's strings."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import boardlab
from boardlab.core import ActionError

pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
adapter = pytest.importorskip("boardlab.adapters.openspiel")

#: the games that ship with boardlab (test games registered by other tests have no encoding)
GAMES = [g for g in boardlab.game_ids() if boardlab.game_class(g).__module__.startswith("boardlab.games.")]
#: quick physics for Honor keeps the whole-game tests short; the rules are the same
PARAMS = {"honor": {"settle": "quick"}}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_is_registered_with_its_nature(game_id: str) -> None:
    game = pyspiel.load_game(f"boardlab_{game_id}", PARAMS.get(game_id, {}))
    game_class = boardlab.game_class(game_id)
    kind = game.get_type()
    assert kind.chance_mode == (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if game_class.has_chance
                                else pyspiel.GameType.ChanceMode.DETERMINISTIC)
    assert kind.information == (pyspiel.GameType.Information.IMPERFECT_INFORMATION
                                if game_class.has_hidden_information
                                else pyspiel.GameType.Information.PERFECT_INFORMATION)
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.num_players() == game.boardlab_game.num_players
    assert game.num_distinct_actions() == game.boardlab_game.action_encoding().num_actions
    assert game.utility_sum() == 1.0


def test_parameters_reach_the_game() -> None:
    game = pyspiel.load_game("boardlab_towers", {"players": 4, "layout": "blocks"})
    assert game.num_players() == 4
    assert game.boardlab_game.options["layout"] == "blocks"


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_random_simulation_test_passes(game_id: str) -> None:
    game = pyspiel.load_game(f"boardlab_{game_id}", PARAMS.get(game_id, {}))
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_mcts_bot_plays_a_whole_game(game_id: str) -> None:
    game = pyspiel.load_game(f"boardlab_{game_id}", PARAMS.get(game_id, {}))
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=4)
    bots = [mcts.MCTSBot(game, 1.4, 3, evaluator, random_state=rng) for _ in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    assert returns == list(state.boardlab_state.returns())


def test_an_illegal_action_is_refused_by_index() -> None:
    state = pyspiel.load_game("boardlab_towers").new_initial_state()
    illegal = next(a for a in range(state.get_game().num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ActionError, match=f"action {illegal} is not legal"):
        state.apply_action(illegal)


def test_clones_are_independent() -> None:
    state = pyspiel.load_game("boardlab_towers").new_initial_state()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.boardlab_state.ply == 0 and clone.boardlab_state.ply == 1
    assert clone.history() == [*state.history(), clone.history()[-1]]


def test_a_clone_made_after_the_actions_were_listed_lists_and_plays_its_own() -> None:
    """A clone starts with its original's list of actions (the same ply); once each has moved on,
    by moves after which the lists differ, each lists the actions of its own position (Overseer:
    where a piece moved changes what the other side can do)."""
    game = pyspiel.load_game("boardlab_overseer")

    def replayed(history: list[int]) -> list[int]:
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        return list(state.legal_actions())

    state = game.new_initial_state()
    for action in (0, 7):  # two plies in: an opening where the next move's choice matters
        state.apply_action(state.legal_actions()[action])
    first = state.legal_actions()
    clone = state.clone()
    assert clone.legal_actions() == first
    history = state.history()
    other = next(a for a in first[1:] if replayed([*history, a]) != replayed([*history, first[0]]))
    clone.apply_action(first[0])
    state.apply_action(other)
    assert clone.legal_actions() == replayed([*history, first[0]])
    assert state.legal_actions() == replayed([*history, other])
    assert clone.legal_actions() == replayed([*history, first[0]])


def _territories_midgame() -> adapter.BoardlabSpielState:
    game = pyspiel.load_game("boardlab_territories")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.boardlab_state.ply < 150:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_territories_strings_hide_the_other_seats_cards() -> None:
    state = _territories_midgame()
    inner = state.boardlab_state
    for player in (0, 1):
        secrets = inner.secrets(player)
        assert secrets, "the position should hold hidden cards"
        for text in (state.information_state_string(player), state.observation_string(player)):
            assert not [secret for secret in secrets if secret in text]
        view = json.loads(state.observation_string(player))
        assert view == inner.view(player)


def test_territories_information_state_is_the_same_for_a_resampled_opponent() -> None:
    # two positions differing only in seat 0's secrets look the same to seat 1
    state = _territories_midgame()
    inner = state.boardlab_state
    other = state.get_game().from_boardlab_state(inner.resample(1, random.Random(5)))
    assert other.observation_string(1) == state.observation_string(1)
    assert list(other.observation_tensor(1)) == list(state.observation_tensor(1))


def _played(game: Any, plies: int, seed: int) -> Any:
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while len(state.history()) < plies and not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            # Honor's resignation would end the game at once
            actions = [a for a in state.legal_actions() if state.action_to_string(a) != "resign"]
            state.apply_action(int(rng.choice(actions)))
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_games_and_states_pickle_and_play_on(game_id: str) -> None:
    game = pyspiel.load_game(f"boardlab_{game_id}", {**PARAMS.get(game_id, {}), "seed": 4})
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and copy.get_parameters() == game.get_parameters()
    assert copy.boardlab_game == game.boardlab_game
    assert str(copy.new_initial_state()) == str(game.new_initial_state())
    state = _played(game, 12, seed=2)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history() and restored.legal_actions() == state.legal_actions()
    for player in range(game.num_players()):
        assert restored.information_state_string(player) == state.information_state_string(player)
    if not state.is_terminal():
        action = state.legal_actions()[0] if not state.is_chance_node() else state.chance_outcomes()[0][0]
        state.apply_action(action)
        restored.apply_action(action)
        assert str(restored) == str(state)


def test_a_pickled_state_loads_in_a_fresh_interpreter() -> None:
    # the interpreter that unpickles has not imported the adapter, so no game is registered there
    state = _played(pyspiel.load_game("boardlab_territories"), 30, seed=1)
    script = "import pickle, sys; state = pickle.load(sys.stdin.buffer); print(state.history(), state.legal_actions())"
    shown = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(state),
                           capture_output=True, check=True).stdout.decode()
    assert shown.split() == f"{state.history()} {state.legal_actions()}".split()


def test_no_information_state_tensor_is_offered_as_the_game_type_says() -> None:
    game = pyspiel.load_game("boardlab_territories")
    state = game.new_initial_state()
    assert not game.get_type().provides_information_state_tensor
    refusal = "boardlab_territories provides no information-state tensor"
    with pytest.raises(pyspiel.SpielError, match=refusal):
        state.information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError, match=refusal):
        game.information_state_tensor_shape()
    # the observation tensor and the information-state string stay
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() > 0
    assert state.information_state_string(0)
