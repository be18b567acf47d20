"""The balance option ``minimum_opening_bid`` (docs/rules/honor.md 7.2, 7.14, 9, 11.1): every
auction opens at M or more, a turn player whose pool is below M can only push, and the ruled
game (M = 0) is unchanged."""

from __future__ import annotations

import json
import random

import pytest

from boardlab.core import IllegalMoveError, PositionError
from boardlab.core.agent import registered_agents
from boardlab.games.honor.moves import Build, Push
from tests.honor.helpers import exact_game, play, with_fields


def test_r7_2_the_opening_bid_starts_at_the_minimum() -> None:
    state = exact_game(2, minimum_opening_bid=2).new_state(seed=1)
    builds = [move for move in state.legal_moves() if isinstance(move, Build)]
    assert {move.bid for move in builds} == set(range(2, 11)), "bids 2..10 for every piece, not 0 or 1"
    assert len(builds) == 30 * 9
    with pytest.raises(IllegalMoveError, match=r"rule 7.2: the opening bid must be 2\.\.10"):
        state.play("build SL1 1")
    play(state, "build SL1 2")
    assert next(str(move) for move in state.legal_moves()) == "raise 3", "raises go on above the opening"
    play(state, "pass")
    assert state.pools == (8, 10) and state.bank == 2, "the slab is no longer free for the first player"


def test_r7_2_a_pool_below_the_minimum_can_only_push() -> None:
    state = with_fields(exact_game(2, minimum_opening_bid=3).new_state(seed=1), pools=[2, 10], bank=8)
    moves = state.legal_moves()
    assert not any(isinstance(move, Build) for move in moves)
    assert sum(isinstance(move, Push) for move in moves) == 30
    with pytest.raises(IllegalMoveError, match="your pool is 2: push a piece instead"):
        state.play("build SL1 2")
    assert state.default_move() == Push("CU1"), "rule 7.14: the timeout pushes the first piece"


def test_r7_14_the_timeout_builds_at_the_minimum() -> None:
    state = exact_game(2, minimum_opening_bid=1).new_state(seed=1)
    assert state.default_move() == Build("CU1", 1)
    ruled = exact_game(2).new_state(seed=1)
    assert ruled.default_move() == Build("CU1", 0)


def test_r11_1_the_option_is_part_of_the_ruleset_and_positions_do_not_cross() -> None:
    ruled = exact_game(2).new_state(seed=1)
    varied = exact_game(2, minimum_opening_bid=2).new_state(seed=1)
    assert "minbid" not in json.loads(ruled.position())["ruleset"], "the ruled game's positions are unchanged"
    assert json.loads(varied.position())["ruleset"].endswith(";minbid=2")
    with pytest.raises(PositionError, match="ruleset"):
        varied.game.state_from_position(ruled.position(), seed=1)
    with pytest.raises(PositionError, match="ruleset"):
        ruled.game.state_from_position(varied.position(), seed=1)


def test_r11_2_an_auction_below_the_minimum_is_refused() -> None:
    state = play(exact_game(2, minimum_opening_bid=2).new_state(seed=1), "build SL1 2")
    record = json.loads(state.position())
    record["auction"][1] = 1
    with pytest.raises(PositionError, match="high bid"):
        state.game.state_from_position(json.dumps(record, sort_keys=True, separators=(",", ":")), seed=1)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_r13_the_agent_opens_at_the_minimum_or_pushes_when_it_cannot(level: str) -> None:
    agent = registered_agents()["honor"](seed=1, level=level)
    state = exact_game(2, minimum_opening_bid=2).new_state(seed=1)
    move = agent.choose(state.resample(0, random.Random(2)))
    state.check_move(move)
    assert isinstance(move, Build) and move.bid >= 2
    poor = with_fields(exact_game(2, minimum_opening_bid=3).new_state(seed=1), pools=[2, 10], bank=8)
    move = agent.choose(poor.resample(0, random.Random(2)))
    assert isinstance(move, Push)
