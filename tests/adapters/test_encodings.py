"""Each game's action encoding (docs/rules/<id>.md) maps every legal move and chance outcome to
its own index and back, over random games of every game and of the options that change the
move set; the observation has its declared size and range for every seat."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.core import ActionError

#: (game id, options, plies at most): the defaults and the variants whose moves differ
CASES = [
    ("towers", {}, 400),
    ("towers", {"players": 4}, 200),
    ("sovereign", {}, 300),
    ("sovereign", {"build": "multi_level", "contractor_transit": True}, 200),
    ("overseer", {}, 300),
    ("territories", {}, 600),
    # proposals may name territory cards: thousands of legal moves a position, so a shorter game here
    ("territories", {"trade_territories": True, "counter_offers": True}, 120),
    ("honor", {"settle": "quick", "resign": False}, 40),
    ("honor", {"settle": "quick", "players": 3}, 30),
]


def check_round_trips(state: boardlab.State, encoding: boardlab.ActionEncoding) -> dict[int, boardlab.Move]:
    """Every listed move's index names that move here, and no two share an index."""
    if state.is_chance():
        moves = [move for move, _ in state.chance_outcomes()]
        size = encoding.num_chance_outcomes
    else:
        moves = state.legal_moves()
        size = encoding.num_actions
    mapping = encoding.action_map(state)
    assert len(mapping) == len(moves), "two legal moves share an index"
    for move in moves:
        index = encoding.index_of(state, move)
        assert 0 <= index < size
        assert encoding.move_for(state, index) == move
    for index in mapping:
        assert encoding.index_of(state, encoding.move_for(state, index)) == index
    return mapping


def play_random(game_id: str, options: dict, plies: int, seed: int) -> None:
    options = dict(options)
    game = boardlab.load(game_id, players=options.pop("players", None), **options)
    encoding, observation = game.action_encoding(), game.observation_encoding()
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over() and state.ply < plies:
        mapping = check_round_trips(state, encoding)
        for seat in range(game.num_players):
            values = observation.encode(state, seat)
            assert len(values) == observation.size
            assert all(observation.low <= v <= observation.high for v in values)
        state.apply(mapping[rng.choice(sorted(mapping))])


@pytest.mark.parametrize(("game_id", "options", "plies"), CASES, ids=lambda v: str(v))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_move_round_trips_through_its_index(game_id: str, options: dict, plies: int, seed: int) -> None:
    play_random(game_id, options, plies, seed)


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_territory_trades_round_trip_over_long_games(seed: int) -> None:
    play_random("territories", {"trade_territories": True, "counter_offers": True}, 600, seed)


@pytest.mark.parametrize("game_id", ["towers", "sovereign", "overseer", "territories", "honor"])
def test_an_index_that_is_not_legal_names_the_problem(game_id: str) -> None:
    game = boardlab.load(game_id)
    encoding = game.action_encoding()
    state = game.new_state(seed=1)
    if state.is_chance():
        legal = {index for index, _ in encoding.chance_actions(state)}
        size = encoding.num_chance_outcomes
    else:
        legal = set(encoding.legal_actions(state))
        size = encoding.num_actions
    illegal = next(index for index in range(size) if index not in legal)
    with pytest.raises(ActionError, match=f"{illegal} is not legal at ply 0"):
        encoding.move_for(state, illegal)
    with pytest.raises(ActionError, match="whole number"):
        encoding.move_for(state, "3")  # type: ignore[arg-type]


def test_towers_indices_are_the_documented_ones() -> None:
    # docs/rules/towers.md rules 13: build = square, push = 49 + square * 4 + direction
    state = boardlab.load("towers").new_state(seed=1)
    encoding = state.game.action_encoding()
    by_text = {str(move): encoding.action_index(state, move) for move in state.legal_moves()}
    for text, index in by_text.items():
        square = (int(text[1]) - 1) * 7 + "abcdefg".index(text[0])
        expected = square if text.endswith("+") else 49 + square * 4 + "NESW".index(text[-1])
        assert index == expected, text


def test_a_release_off_the_candidate_set_has_no_index() -> None:
    game = boardlab.load("honor", settle="quick", resign=False)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    while not (state.legal_moves() and type(state.legal_moves()[0]).__name__ == "Release"):
        moves = state.legal_moves() or [m for m, _ in state.chance_outcomes()]
        state.apply(rng.choice(moves))
    candidate = state.legal_moves()[0]
    off = type(candidate)(candidate.xq + 1, candidate.thetaq, candidate.hq)
    state.check_move(off)  # legal in play, yet not a candidate
    with pytest.raises(ActionError, match="not in the candidate set"):
        game.action_encoding().action_index(state, off)
