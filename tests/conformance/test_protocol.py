"""The conformance suite: every registered game obeys the protocol of docs/api.md.

Parametrized over ``boardlab.game_ids()`` (see conftest.py), so a new game is
checked as soon as it registers. Budgets per game: conftest.BUDGETS.
"""

from __future__ import annotations

import json
import math
import random

import pytest

import boardlab
from boardlab.core import CHANCE, TERMINAL, GameOverError, IllegalMoveError, OptionError, PositionError
from tests.conformance.helpers import (
    Budget,
    Config,
    check_returns,
    checked,
    leaked,
    playthrough,
    random_move,
    sample_moves,
)

GARBAGE_MOVES = ["", "   ", "zz-not-a-move", "!!!", "\x00", "999999999999999999999", "a" * 300, "help me"]


def seeds(budget: Budget) -> range:
    return range(1, budget.random_games + 1)


# --- the catalog ------------------------------------------------------------------
def test_catalog_entry_describes_the_game(game_id: str) -> None:
    entry = next(e for e in boardlab.catalog() if e["id"] == game_id)
    assert entry["name"].strip()
    assert 1 <= entry["min_players"] <= entry["max_players"]
    game = boardlab.load(game_id)
    for option in entry["options"]:
        assert game.options[option["name"]] == option["default"]
    assert game.max_moves > 0


def test_bad_player_counts_and_options_name_the_problem(game_id: str) -> None:
    cls = boardlab.game_class(game_id)
    with pytest.raises(OptionError, match=str(cls.max_players + 1)):
        boardlab.load(game_id, players=cls.max_players + 1)
    with pytest.raises(OptionError, match="no_such_option"):
        boardlab.load(game_id, no_such_option="1")


# --- whole games -----------------------------------------------------------------
def test_random_games_end_within_the_bound(config: Config, budget: Budget) -> None:
    game = config.load()
    count = budget.random_games if config == Config(config.game_id, game.num_players) else budget.variant_games
    for seed in range(1, count + 1):
        for state in playthrough(game, seed):
            player = state.current_player()
            moves = state.legal_moves()
            if player == TERMINAL:
                assert moves == [] and state.chance_outcomes() == []
                assert state.ply <= game.max_moves
                check_returns(state)
            elif player == CHANCE:
                outcomes = state.chance_outcomes()
                assert moves == [] and outcomes, f"seed {seed} ply {state.ply}: a chance node without outcomes"
                assert all(p > 0 for _, p in outcomes)
                assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
                assert state.result() is None
            else:
                assert 0 <= player < game.num_players
                assert moves, f"seed {seed} ply {state.ply}: player {player} to move without legal moves"
                assert len(set(moves)) == len(moves), "legal_moves() lists a move twice"
                assert state.result() is None


def test_the_same_seed_gives_the_same_game(game: boardlab.Game, budget: Budget) -> None:
    for seed in seeds(budget)[:3]:
        first = [(s.position(), s.current_player()) for s in playthrough(game, seed)]
        second = [(s.position(), s.current_player()) for s in playthrough(game, seed)]
        assert first == second
        assert game.new_state(seed).position() == game.new_state(seed).position()


def test_undo_walks_back_to_the_start_exactly(game: boardlab.Game, budget: Budget) -> None:
    for seed in seeds(budget)[:3]:
        positions = []
        for state in playthrough(game, seed):
            positions.append(state.position())
        final = state
        history = list(final.history)
        for ply in range(len(history), 0, -1):
            assert final.undo() == history[ply - 1]
            assert final.position() == positions[ply - 1], f"seed {seed}: undo to ply {ply - 1}"
        with pytest.raises(IllegalMoveError):
            final.undo()


# --- per position ------------------------------------------------------------------
def test_every_legal_move_applies_parses_back_and_undoes(game: boardlab.Game, budget: Budget) -> None:
    rng = random.Random(7)
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget) or state.is_over():
                continue
            before = state.position()
            player = state.current_player()
            for move in sample_moves(state, budget, rng):
                text = str(move)
                assert state.parse_move(text) == move, f"{text!r} parses to another move"
                state.play(move)
                assert state.history[-1] == move
                state.undo()
                assert state.position() == before, f"seed {seed}: undo of {text!r} changed the position"
                assert state.current_player() == player


def test_positions_round_trip_mid_game(game: boardlab.Game, budget: Budget) -> None:
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            text = state.position()
            rebuilt = game.state_from_position(text, seed=state.seed)
            assert rebuilt.position() == text
            assert rebuilt.current_player() == state.current_player()
            assert sorted(map(str, rebuilt.legal_moves())) == sorted(map(str, state.legal_moves()))
            assert [(str(m), p) for m, p in rebuilt.chance_outcomes()] == [
                (str(m), p) for m, p in state.chance_outcomes()
            ]


def test_json_round_trips_mid_game(game: boardlab.Game, budget: Budget) -> None:
    for seed in seeds(budget)[:4]:
        for state in playthrough(game, seed):
            # rebuilding replays the whole history: check at plies 0, 1, 2, 4, 8 ... and the end
            if not (state.is_over() or state.ply & (state.ply - 1) == 0):
                continue
            data = json.loads(json.dumps(state.to_json()))
            rebuilt = game.state_from_json(data)
            assert rebuilt.position() == state.position()
            assert [str(m) for m in rebuilt.history] == [str(m) for m in state.history]
            if rebuilt.ply:
                rebuilt.undo()  # history survives the round trip


def test_copies_are_independent(game: boardlab.Game, budget: Budget) -> None:
    rng = random.Random(3)
    for seed in seeds(budget)[:4]:
        for state in playthrough(game, seed):
            if not checked(state, budget) or state.is_over():
                continue
            before, ply = state.position(), state.ply
            clone = state.copy()
            clone.play(random_move(clone, rng))
            assert state.position() == before and state.ply == ply, "playing on a copy changed the original"
            state.play(random_move(state, random.Random(ply)))
            clone_position = clone.position()
            state.undo()
            assert clone.position() == clone_position, "undo on the original changed the copy"
            clone.undo()
            assert clone.position() == before
            assert state.position() == before


def test_views_are_json_and_hide_each_players_secrets(game: boardlab.Game, budget: Budget) -> None:
    viewers = [None, *range(game.num_players)]
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            for viewer in viewers:
                view = state.view(viewer)
                json.dumps(view)
                assert not leaked(view, state.secrets(viewer)), f"seed {seed} ply {state.ply}: view({viewer}) leaks"
                assert isinstance(state.render(viewer), str)


def test_resample_keeps_the_players_view(game: boardlab.Game, budget: Budget) -> None:
    rng = random.Random(11)
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget) or state.is_over():
                continue
            before = state.position()
            for player in range(game.num_players):
                sampled = state.resample(player, rng)
                assert sampled.view(player) == state.view(player), f"seed {seed} ply {state.ply} player {player}"
                assert sampled.current_player() == state.current_player()
                assert sampled.ply == state.ply
                assert sampled.seed != state.seed, "resample must replace the seed: agents may not foresee chance"
                if not sampled.is_over():
                    sampled.play(random_move(sampled, rng))
                assert state.position() == before, "playing on a resampled state changed the original"


# --- bad input ---------------------------------------------------------------------
def test_illegal_text_raises_and_changes_nothing(game: boardlab.Game, budget: Budget) -> None:
    for seed in seeds(budget)[:3]:
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            before, ply = state.position(), state.ply
            error = GameOverError if state.is_over() else IllegalMoveError
            for text in GARBAGE_MOVES:
                with pytest.raises(error):
                    state.play(text)
                assert state.position() == before and state.ply == ply
            with pytest.raises(IllegalMoveError):
                state.play(12345)  # type: ignore[arg-type]


def test_moves_from_other_positions_are_refused_with_a_reason(game: boardlab.Game, budget: Budget) -> None:
    if game.continuous_moves:
        pytest.skip("candidate lists of continuous games are not every legal move")
    rng = random.Random(5)
    for seed in seeds(budget)[:3]:
        seen: set[str] = set()
        for state in playthrough(game, seed):
            here = {str(m) for m in state.legal_moves()} | {str(m) for m, _ in state.chance_outcomes()}
            seen |= here
            if not checked(state, budget) or state.is_over():
                continue
            before = state.position()
            for text in rng.sample(sorted(seen - here), min(5, len(seen - here))):
                with pytest.raises(IllegalMoveError) as caught:
                    state.play(text)
                assert str(caught.value).strip(), "the error must say why"
                assert state.position() == before


def test_malformed_positions_raise_position_error(game: boardlab.Game) -> None:
    start = game.new_state(1).position()
    for text in ["", "@@@@", "\x00", f"{start} {start}", "not a position"]:
        with pytest.raises(PositionError):
            game.state_from_position(text)
    with pytest.raises(PositionError):
        game.state_from_position(None)  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        game.state_from_json("{not json")


@pytest.mark.slow
def test_many_random_games_end_within_the_bound(game: boardlab.Game, budget: Budget) -> None:
    """The long version of the termination check (`python -m pytest -m slow`): 20x the games."""
    for seed in range(1000, 1000 + 20 * budget.random_games):
        for state in playthrough(game, seed):
            pass
        assert state.ply <= game.max_moves
        check_returns(state)
