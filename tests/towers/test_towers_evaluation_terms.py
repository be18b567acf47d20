"""The terms Towers' fitted evaluation weighs (boardlab/games/towers/evaluation.py) that are not
the hand-set evaluation's: the first seat's share of the board filled, and the pieces in reserve
(docs/rules/towers.md 1.7, 2.2, 2.5, 3, 5). A push moves pieces without taking any from a
reserve, so the two can tell a game of builds from a game of pushes where castles cannot."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.fitted import shipped_evaluation
from boardlab.games.towers.evaluation import TERMS, seat_terms


def terms_by_name(state: boardlab.State) -> list[dict[str, float]]:
    seats = seat_terms(state)  # type: ignore[arg-type]
    assert seats is not None
    return [dict(zip(TERMS, values)) for values in seats]


def test_r1_7_in_hand_counts_the_reserve_a_build_takes_from_and_a_push_does_not() -> None:
    state = boardlab.load("towers").new_state(1)
    white, black = terms_by_name(state)
    assert white["in_hand"] == black["in_hand"] == 67.0, "rule 2.2: 8 pieces on the board and 67 in reserve"
    state.play("a6+")  # White builds: one piece from his reserve
    white, black = terms_by_name(state)
    assert (white["in_hand"], black["in_hand"]) == (66.0, 67.0)
    state.play("a2N")  # Black pushes: pieces move, no reserve changes
    white, black = terms_by_name(state)
    assert (white["in_hand"], black["in_hand"]) == (66.0, 67.0)


@pytest.mark.parametrize("players", [2, 4])
def test_r2_5_first_seat_late_is_the_share_of_the_board_filled_for_white_alone(players: int) -> None:
    state = boardlab.load("towers", players=players).new_state(3)
    for _ply in range(12):
        filled = state.placed_share()
        seats = terms_by_name(state)
        assert seats[0]["first_seat_late"] == filled
        assert all(seat["first_seat_late"] == 0.0 for seat in seats[1:])
        builds = [move for move in state.legal_moves() if str(move).endswith("+")]
        state.play(builds[0] if builds else state.legal_moves()[0])
    assert state.placed_share() > 0.11, "the builds filled the board"


def test_the_shipped_weights_give_white_less_of_an_edge_as_the_board_fills() -> None:
    """White, moving first, wins most games of the searches the weights were fitted to; in
    the games that go long that edge is gone. The same position, read earlier and later."""
    game = boardlab.load("towers")
    model = shipped_evaluation(game)
    assert model is not None
    terms = seat_terms(game.new_state(1))  # type: ignore[arg-type]
    assert terms is not None
    late = [list(seat) for seat in terms]
    late[0][TERMS.index("first_seat_late")] = 0.4
    assert model.chances(late)[0] < model.chances(terms)[0]
