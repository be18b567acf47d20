"""The game object: player counts, options and layouts (rules 2, 11), views, evaluation, play."""

from __future__ import annotations

import json
import random

import pytest

import boardlab
from boardlab.core import OptionError
from tests.towers.helpers import cells, load


def test_r11_catalog_lists_every_option_with_help() -> None:
    entry = boardlab.game_class("towers").describe()
    assert entry["min_players"] == 2 and entry["max_players"] == 4
    options = {o["name"]: o for o in entry["options"]}
    assert set(options) == {"layout", "random_first", "no_progress_limit", "ply_cap"}
    assert all(o["help"] for o in options.values())


def test_three_players_are_refused_with_a_clear_message() -> None:
    with pytest.raises(OptionError, match="players=3 not allowed; 2 or 4 players"):
        boardlab.load("towers", players=3)


@pytest.mark.parametrize(("players", "layout"), [(2, "four_each"), (2, "blocks"), (4, "pinwheel"), (4, "split_sides")])
def test_r2_4_a_layout_for_the_other_player_count_is_refused(players: int, layout: str) -> None:
    with pytest.raises(OptionError, match=f"layout='{layout}' is not a {players}-player layout"):
        boardlab.load("towers", players=players, layout=layout)


@pytest.mark.parametrize(
    ("players", "layout", "towers", "reserve"),
    [
        (2, "diagram", {"W": ["a6", "b7", "f1", "g2"], "B": ["a2", "b1", "f7", "g6"]}, 67),
        (2, "split_sides", {"W": ["a6", "b7", "f7", "g6"], "B": ["a2", "b1", "f1", "g2"]}, 67),
        (2, "pinwheel", {"W": ["a2", "b7", "f1", "g6"], "B": ["a6", "b1", "f7", "g2"]}, 67),
        (4, "diagram", {"W": ["a6", "b7"], "U": ["f7", "g6"], "R": ["f1", "g2"], "B": ["a2", "b1"]}, 46),
        (4, "four_each", {"W": ["a5", "a6", "b7", "c7"], "U": ["e7", "f7", "g5", "g6"],
                          "R": ["e1", "f1", "g2", "g3"], "B": ["a2", "a3", "b1", "c1"]}, 42),
        (4, "blocks", {"W": ["a6", "a7", "b6", "b7"], "U": ["f6", "f7", "g6", "g7"],
                       "R": ["f1", "f2", "g1", "g2"], "B": ["a1", "a2", "b1", "b2"]}, 42),
    ],
)
def test_r2_layouts_place_two_piece_towers_and_the_five_castles(
    players: int, layout: str, towers: dict[str, list[str]], reserve: int
) -> None:
    state = boardlab.load("towers", players=players, layout=layout).new_state(seed=1)
    board = cells(state)
    for letter, squares in towers.items():
        assert sorted(sq for sq, stack in board.items() if stack == letter * 2) == squares
    assert sorted(sq for sq, stack in board.items() if stack == "C") == ["b4", "d2", "d4", "d6", "f4"]
    assert state.view()["board"]["reserves"] == [reserve] * players


def test_r2_2_sixteen_first_moves_for_each_side_in_the_default_layout() -> None:
    state = boardlab.load("towers").new_state(seed=1)
    moves = state.legal_moves()
    assert len(moves) == 16 and sum(str(m).endswith("+") for m in moves) == 4
    black = boardlab.load("towers").state_from_position(state.position().replace(" W", " B"))
    assert len(black.legal_moves()) == 16


def test_r2_5_white_starts_and_four_players_go_clockwise() -> None:
    state = boardlab.load("towers", players=4).new_state(seed=1)
    order = []
    for move in ("b7+", "f7+", "g2+", "b1+", "a6+"):
        order.append(state.current_player())
        state.play(move)
    assert order == [0, 1, 2, 3, 0]
    game = boardlab.load("towers", players=4)
    assert [game.player_name(p) for p in range(4)] == ["White", "Blue", "Red", "Black"]
    assert [boardlab.load("towers").player_name(p) for p in range(2)] == ["White", "Black"]


def test_r2_5_random_first_comes_from_the_seed() -> None:
    game = boardlab.load("towers", players=4, random_first=True)
    firsts = {game.new_state(seed=s).current_player() for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert game.new_state(seed=7).current_player() == game.new_state(seed=7).current_player()
    assert boardlab.load("towers").new_state(seed=7).current_player() == 0


def test_view_is_json_safe_and_complete() -> None:
    state = load({"g1": "B", "d4": "CWWWW", "c5": "BW"})
    envelope = state.view(0)
    view = envelope["board"]
    assert view == state.view(None)["board"] == state.view(1)["board"]  # nothing is hidden
    json.dumps(envelope)
    assert view["crowned"] == {"d4": 0}
    assert view["controllers"]["c5"] == 0 and view["controllers"]["g1"] == 1
    assert envelope["to_move"] == 0 and envelope["result"] is None
    assert view["position"] == state.position()


def test_render_draws_labels_colours_castles_and_crowns() -> None:
    state = load({"g1": "B", "d4": "CWWWW", "c5": "BW"})
    text = state.render()
    assert " 7 " in text and "a" in text.splitlines()[0] and "g" in text.splitlines()[0]
    assert "[bold yellow]" in text  # the crowned castle
    assert "[bold green]" in text  # bare castles
    assert "White" in text and "Black" in text and "reserve" in text
    from rich.console import Console

    console = Console(record=True, width=100, color_system=None)
    console.print(text)
    plain = console.export_text()
    assert "{CWWWW}" in plain and "BW" in plain  # a crowned castle in braces (rule 7.3)


def test_evaluate_is_a_distribution_and_favours_castles() -> None:
    state = load({"g1": "B", "b4": "CW", "d2": "CW", "a1": "W"})
    values = state.evaluate()
    assert len(values) == 2 and abs(sum(values) - 1) < 1e-9 and all(0 <= v <= 1 for v in values)
    assert values[0] > 0.75
    four = boardlab.load("towers", players=4).new_state(seed=1).evaluate()
    assert len(four) == 4 and max(four) - min(four) < 1e-9  # the symmetric start


def test_evaluate_counts_threats_to_castles() -> None:
    quiet = load({"g1": "B", "a6": "WW"}).evaluate()[0]
    threatening = load({"g1": "B", "a4": "WW"}).evaluate()[0]  # a4E lands on b4
    assert threatening > quiet


def test_evaluate_at_the_end_is_the_result() -> None:
    state = load({"g1": "B", "b4": "CW", "d2": "CW", "d6": "CW", "g4": "WW"})
    state.play("g4W")
    assert tuple(state.evaluate()) == (1.0, 0.0)


def test_random_games_end_within_the_bound_in_both_player_counts() -> None:
    rng = random.Random(11)
    for players, layout in ((2, "diagram"), (2, "pinwheel"), (4, "diagram"), (4, "four_each")):
        game = boardlab.load("towers", players=players, layout=layout)
        for seed in range(3):
            state = game.new_state(seed)
            while not state.is_over():
                state.apply(rng.choice(state.legal_moves()))
                assert state.ply <= game.max_moves
            assert abs(sum(state.returns()) - 1) < 1e-9


def test_a_full_random_game_runs_through_the_match_driver() -> None:
    from boardlab.agents import make_agent

    match = boardlab.Match(boardlab.load("towers"), [make_agent("random", seed=s) for s in (1, 2)], seed=3)
    result = match.play_out()
    assert result.code in boardlab.load("towers").result_codes
    record = match.record()
    assert record.moves and record.result == result
    assert record.replay().position() == record.final_position
