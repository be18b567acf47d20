"""Fitted evaluations (boardlab.core.fitted): the model, its weights files, and which evaluation judges."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import threading
from pathlib import Path

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core.errors import BoardlabError, OptionError
from boardlab.core.fitted import (
    FITTED,
    HAND,
    SEARCH,
    SEARCH_FILE_NAME,
    EvaluationChoice,
    EvaluationFileError,
    FittedEvaluation,
    evaluation_choice,
    evaluation_in_force,
    evaluation_name,
    evaluation_terms,
    judging_by,
    read_evaluations,
    shipped_evaluation,
    softmax,
    terms_of,
    write_evaluation,
)

GAMES = ("towers", "sovereign", "overseer", "territories", "honor")


def model_for(game: boardlab.Game, weights: list[float] | None = None, bias: list[float] | None = None) -> FittedEvaluation:
    names = terms_of(game).names
    rng = random.Random(len(names))
    return FittedEvaluation(
        game_id=game.id,
        players=game.num_players,
        options=dict(game.options),
        rules_version=str(game.rules_version),
        terms=names,
        weights=tuple(weights if weights is not None else [rng.uniform(-0.5, 0.5) for _ in names]),
        seat_bias=tuple(bias if bias is not None else [0.1 * seat for seat in range(game.num_players)]),
    )


def test_chances_are_the_softmax_of_the_seats_scores_and_a_seat_that_is_out_gets_nothing() -> None:
    model = FittedEvaluation("g", 3, {}, "1", ("a", "b"), (1.0, -2.0), (0.5, 0.0, 0.0))
    chances = model.chances([[1.0, 0.0], [0.0, 1.0], None])
    first, second = 0.5 + 1.0, -2.0
    assert chances[2] == 0.0
    assert chances[0] == pytest.approx(1 / (1 + math.exp(second - first)))
    assert sum(chances) == pytest.approx(1.0)
    # two seats: the logistic curve of the difference of the scores
    assert softmax([3.0, 1.0]) == pytest.approx((1 / (1 + math.exp(-2.0)), 1 - 1 / (1 + math.exp(-2.0))))
    # far apart: 0 and 1, not an overflow
    assert softmax([0.0, 5000.0]) == (0.0, 1.0)


def test_a_weights_file_round_trips_and_an_entry_for_the_same_game_setting_is_replaced(tmp_path: Path) -> None:
    towers = boardlab.load("towers")
    four = boardlab.load("towers", players=4)
    path = tmp_path / "evaluation.json"
    write_evaluation(path, model_for(towers))
    write_evaluation(path, model_for(four))
    newer = model_for(towers, bias=[0.3, 0.0])
    write_evaluation(path, newer)
    entries = read_evaluations(path)
    assert [entry.players for entry in entries] == [4, 2]
    assert entries[1] == newer and entries[1].holds_for(towers) and not entries[1].holds_for(four)
    assert not entries[1].holds_for(boardlab.load("towers", layout="pinwheel"))
    with pytest.raises(EvaluationFileError, match="another game"):
        write_evaluation(path, model_for(boardlab.load("overseer")))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "not JSON"),
        ('{"format": "other"}', "not a weights file"),
        ('{"format": "boardlab-evaluation/1", "game": "towers"}', "lists its 'evaluations'"),
        ('{"format": "boardlab-evaluation/1", "game": "towers", "evaluations": [{"players": 2}]}', "lacks options"),
        (
            '{"format": "boardlab-evaluation/1", "game": "towers", "evaluations": [{"players": 2, "options": {}, '
            '"rules_version": "1", "terms": {"castles": "x"}, "seat_bias": [0, 0]}]}',
            "'terms' must map",
        ),
        (
            '{"format": "boardlab-evaluation/1", "game": "towers", "evaluations": [{"players": 2, "options": {}, '
            '"rules_version": "1", "terms": {"castles": 1}, "seat_bias": [0]}]}',
            "2 numbers, one per seat",
        ),
    ],
)
def test_a_broken_weights_file_is_refused_with_what_is_wrong(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(EvaluationFileError, match=problem) as caught:
        read_evaluations(path)
    assert str(path) in str(caught.value)
    with pytest.raises(BoardlabError):
        evaluation_choice(str(path))


def test_evaluate_judges_by_hand_unless_told_and_by_the_model_in_force_inside_judging_by(tmp_path: Path) -> None:
    game = boardlab.load("towers")
    state = game.new_state(3)
    for move in ("a6+", "b1+", "g2+"):
        state.play(move)
    hand = tuple(state.evaluate())
    assert evaluation_name() == HAND and evaluation_in_force(game) is None
    # a model that sees only whose move it is: it must give the mover exactly the logistic of 1
    names = terms_of(game).names
    mover_only = model_for(game, [1.0 if name == "to_move" else 0.0 for name in names], [0.0, 0.0])
    path = tmp_path / "mover.json"
    write_evaluation(path, mover_only)
    with judging_by(str(path)):
        judged = tuple(state.evaluate())
        with judging_by(HAND):
            assert tuple(state.evaluate()) == hand
        assert evaluation_name() == str(path)
    assert judged[state.current_player()] == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert tuple(state.evaluate()) == hand  # the block's end restores the hand-set evaluation


def test_another_thread_judges_by_hand_while_this_one_judges_by_a_model() -> None:
    game = boardlab.load("towers")
    state = game.new_state(5)
    state.play("a6+")
    hand = tuple(state.evaluate())
    model = model_for(game, [0.0] * len(terms_of(game).names), [3.0, 0.0])
    seen: list[tuple[float, ...]] = []
    with judging_by(EvaluationChoice("test", model)):
        worker = threading.Thread(target=lambda: seen.append(tuple(state.evaluate())))
        worker.start()
        worker.join()
        assert state.evaluate()[0] == pytest.approx(1 / (1 + math.exp(-3.0)))
    assert seen == [hand]


def test_weights_for_other_options_are_refused_by_name_and_a_game_without_weights_is_judged_by_hand(tmp_path: Path) -> None:
    towers = boardlab.load("towers")
    path = tmp_path / "two.json"
    write_evaluation(path, model_for(towers))
    four = boardlab.load("towers", players=4)
    state = four.new_state(1)
    with judging_by(str(path)), pytest.raises(OptionError, match="players 2, not 4"):
        state.evaluate()
    # a variant the shipped file holds no weights for: "fitted" falls back to the hand-set evaluation
    variant = boardlab.load("towers", layout="pinwheel")
    assert shipped_evaluation(variant) is None
    start = variant.new_state(2)
    start.play(start.legal_moves()[0])
    with judging_by(FITTED):
        fitted = tuple(start.evaluate())
    assert fitted == tuple(start.evaluate())


def test_weights_fitted_before_the_games_terms_changed_are_refused_by_name(tmp_path: Path) -> None:
    """Weights are read by position: a file from before a term was added, or with the terms in
    another order, would weigh the wrong quantities. It is refused, naming the difference, and
    a shipped file like it would not hold (the game is judged by hand, not wrongly)."""
    game = boardlab.load("towers")
    today = model_for(game)
    older = dataclasses.replace(today, terms=today.terms[:-2], weights=today.weights[:-2])
    reordered = dataclasses.replace(today, terms=(today.terms[1], today.terms[0], *today.terms[2:]))
    assert older.mismatch(game) == f"terms: no weight for {today.terms[-2]}, {today.terms[-1]}"
    assert "in another order" in reordered.mismatch(game)
    assert not older.holds_for(game) and not reordered.holds_for(game) and today.holds_for(game)
    path = tmp_path / "older.json"
    write_evaluation(path, older)
    state = game.new_state(1)
    with judging_by(str(path)), pytest.raises(OptionError, match=f"no weight for {today.terms[-2]}"):
        state.evaluate()


def test_an_agent_names_the_evaluation_it_judges_by_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    game = boardlab.load("towers")
    assert make_agent("greedy:evaluation=fitted", game=game).judge.name == FITTED
    assert make_agent("mcts:iterations=5", game=game).judge.name == HAND
    with pytest.raises(OptionError, match="give hand, fitted, search or the path"):
        make_agent("alphabeta:evaluation=bogus", game=game)
    path = tmp_path / "overseer.json"
    write_evaluation(path, model_for(boardlab.load("overseer")))
    # weights of another game are refused when the agent is made for a game, before any decision
    with pytest.raises(OptionError, match=r"do not hold for this game \(game 'overseer', not 'towers'"):
        make_agent(f"greedy:evaluation={path}", game=game)
    with pytest.raises(OptionError, match=r"do not hold for this game \(game 'overseer', not 'towers'"):
        make_agent(f"greedy:evaluation={path}", game="towers")
    towers = tmp_path / "towers.json"
    write_evaluation(towers, model_for(game))
    assert make_agent(f"mcts:iterations=5,evaluation={towers}", game=game).judge.model is not None
    with pytest.raises(OptionError, match=r"options .*'pinwheel'"):  # the same game, other rules
        make_agent(f"mcts:iterations=5,evaluation={towers}", game=boardlab.load("towers", layout="pinwheel"))
    # made for no game, it finds out at its first decision
    agent = make_agent(f"greedy:evaluation={path}")
    with pytest.raises(OptionError, match="do not hold for this game"):
        agent.choose(game.new_state(1))


def test_an_evaluation_naming_no_file_says_so_and_still_lists_the_words(tmp_path: Path) -> None:
    game = boardlab.load("towers")
    missing = tmp_path / "nofile.json"
    with pytest.raises(OptionError, match=f"no file {missing} exists; give hand, fitted, search or the path of a weights file"):
        make_agent(f"mcts:iterations=5,evaluation={missing}", game=game)
    with pytest.raises(OptionError, match=f"{tmp_path} is a folder, not a weights file; give hand, fitted, search"):
        evaluation_choice(str(tmp_path))


def test_weights_that_cannot_be_written_are_refused_by_name_not_by_a_traceback(tmp_path: Path) -> None:
    model = model_for(boardlab.load("towers"))
    with pytest.raises(EvaluationFileError, match=f"there is no folder {tmp_path / 'nonexist'} to write it in"):
        write_evaluation(tmp_path / "nonexist" / "w.json", model)
    with pytest.raises(EvaluationFileError, match="is a folder; give the path of a weights file"):
        write_evaluation(tmp_path, model)
    assert list(tmp_path.iterdir()) == []  # no half-written file left behind


def test_a_search_judges_by_the_games_search_weights_and_the_analysis_by_its_judge_on_the_same_game_object() -> None:
    """Sovereign ships two fits: the judge (evaluation.json, the analysis's chances) and the
    weights fitted to its alpha-beta's games (search-evaluation.json, its expert's). Both are
    read off one Game object: neither may hide the other, and a game without search weights
    is judged by hand under ``search``."""
    sovereign = boardlab.load("sovereign")
    judge, search = shipped_evaluation(sovereign), shipped_evaluation(sovereign, SEARCH_FILE_NAME)
    assert judge is not None and search is not None and judge.weights != search.weights
    state = sovereign.new_state(4)
    for _ in range(12):
        state.play(state.legal_moves()[0])
    terms = terms_of(sovereign).read(state)
    with judging_by(FITTED):
        by_judge = tuple(state.evaluate())
    with judging_by(SEARCH):
        by_search = tuple(state.evaluate())
    with judging_by(FITTED):
        assert tuple(state.evaluate()) == by_judge  # the search's read did not replace the judge's
    assert by_search == pytest.approx(search.chances(terms)) and by_judge == pytest.approx(judge.chances(terms))
    assert by_search != pytest.approx(by_judge)
    assert make_agent("alphabeta:depth=2,evaluation=search", game=sovereign).judge.name == SEARCH
    towers = boardlab.load("towers")
    assert shipped_evaluation(towers, SEARCH_FILE_NAME) is None
    start = towers.new_state(2)
    start.play(start.legal_moves()[0])
    with judging_by(SEARCH):
        searched = tuple(start.evaluate())
    assert searched == tuple(start.evaluate())  # by hand, as outside any setting


@pytest.mark.parametrize(("game_id", "players"), [(game_id, 2) for game_id in GAMES] + [("towers", 4)])
def test_each_games_fitted_evaluate_is_the_models_softmax_of_the_terms_it_offers(game_id: str, players: int) -> None:
    """The compiled kernels compute the fitted chances themselves; they must agree with the
    model applied to the terms the game registers, position after position."""
    game = boardlab.load(game_id, players=players)
    model = model_for(game)
    rng = random.Random(7)
    state = game.new_state(11)
    checked = 0
    moves = 12 if game.continuous_moves else 60
    for _ply in range(moves):
        if state.is_over():
            break
        if state.current_player() >= 0:
            terms = evaluation_terms(state)
            with judging_by(EvaluationChoice("test", model)):
                judged = tuple(state.evaluate())
            if terms is not None:
                assert judged == pytest.approx(_squeezed(game_id, model.chances(terms)), abs=1e-9), state.position()
                checked += 1
        state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_moves()))
    assert checked >= 3


def _squeezed(game_id: str, chances: tuple[float, ...]) -> tuple[float, ...]:
    """Overseer keeps every estimate strictly between a lost and a won Overseer (its SPREAD)."""
    if game_id != "overseer":
        return chances
    from boardlab.games.overseer.kernel import SPREAD

    white = 0.5 + SPREAD * (chances[0] - 0.5)
    return (white, 1.0 - white)


def test_the_shipped_weights_files_hold_for_their_games_and_name_their_terms_in_order() -> None:
    for game_id in GAMES:
        game = boardlab.load(game_id)
        shipped = shipped_evaluation(game)
        assert shipped is not None, f"{game_id}'s evaluation.json holds no weights for its default game"
        assert shipped.terms == terms_of(game).names
        assert json.loads(json.dumps(shipped.to_json()))["players"] == game.num_players
