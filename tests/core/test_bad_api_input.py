"""The Python API answers bad arguments with BoardlabError subclasses, never raw
Python errors, and each names the problem."""

from __future__ import annotations

import json
import random

import pytest

import boardlab
from boardlab import BoardlabError, OptionError, Record, RecordError
from boardlab.agents import make_agent
from tests.support.play import played_record


@pytest.fixture
def record() -> Record:
    game = boardlab.load("dicenim", pile=6)
    return played_record(game, [make_agent("random", seed=1), make_agent("random", seed=2)], seed=3)


def test_a_seed_must_be_a_whole_number() -> None:
    game = boardlab.load("towers")
    for seed in ("x", 1.5, True, [1]):
        with pytest.raises(OptionError, match=r"seed=.* is not a whole number"):
            game.new_state(seed=seed)  # type: ignore[arg-type]
        with pytest.raises(OptionError, match="not a whole number"):
            game.state_from_position(game.new_state(1).position(), seed=seed)  # type: ignore[arg-type]


def test_record_calls_with_wrong_types(record: Record) -> None:
    with pytest.raises(RecordError, match="must be text"):
        Record.load(None)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="a move number is a whole number"):
        record.state_at("1")  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="JSON text, not"):
        Record.loads(b"{}")  # type: ignore[arg-type]


def test_a_result_that_is_text_is_named(record: Record) -> None:
    data = record.to_json()
    data["result"] = "White won"
    with pytest.raises(RecordError, match="'result' is malformed: a result must be an object, not str"):
        Record.loads(json.dumps(data))


def test_agents_and_resampling_with_wrong_arguments() -> None:
    with pytest.raises(OptionError, match="an agent spec is text"):
        make_agent(None)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="seed='x' is not a whole number"):
        make_agent("random", seed="x")  # type: ignore[arg-type]
    state = boardlab.load("towers").new_state(1)
    with pytest.raises(BoardlabError, match="9 is not a seat of this 2-player game"):
        state.resample(9, random.Random(1))
    with pytest.raises(BoardlabError, match=r"rng must be a random.Random, not NoneType"):
        state.resample(0, None)  # type: ignore[arg-type]


def test_unknown_games_and_odd_ids() -> None:
    for game_id in (None, 3, "x" * 500):
        with pytest.raises(boardlab.UnknownGameError, match="unknown game"):
            boardlab.load(game_id)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"players=2.5 is not a whole number"):
        boardlab.load("towers", players=2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", ["towers", "sovereign", "overseer", "territories", "honor"])
@pytest.mark.parametrize("viewer", [5, 2, -1, "0", True, 1.0])
def test_a_view_for_no_seat_is_refused_naming_the_viewer_never_shown_as_one(game_id: str, viewer: object) -> None:
    game = boardlab.load(game_id)
    state = game.new_state(seed=1)
    with pytest.raises(BoardlabError, match=rf"{game_id}: viewer {viewer!r} is not a seat \(0 to 1\) nor None"):
        state.view(viewer)
    with pytest.raises(BoardlabError, match="is not a seat"):
        game.observation_encoding().encode(state, viewer)  # type: ignore[arg-type]
    assert state.view(None)["viewer"] is None and state.view(1)["viewer"] == 1


def test_an_agent_for_an_unknown_game_is_refused_naming_the_games() -> None:
    with pytest.raises(boardlab.UnknownGameError, match=r"unknown game 'chess'; known games: .*towers"):
        make_agent("random", seed=1, game="chess")


@pytest.mark.parametrize("game_id", ["towers", "territories"])
@pytest.mark.parametrize("player", [True, 2, -1, "0"])
def test_a_resample_for_no_seat_is_refused_naming_it(game_id: str, player: object) -> None:
    state = boardlab.load(game_id).new_state(seed=1)
    with pytest.raises(BoardlabError, match=rf"resample: {player!r} is not a seat of this 2-player game"):
        state.resample(player, random.Random(1))
