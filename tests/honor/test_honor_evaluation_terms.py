"""The terms Honor's fitted evaluation weighs (boardlab/games/honor/evaluation.py), on positions
where reading the pools alone would judge wrongly: tokens owed but not yet paid, a push held,
a pool too small to pass a piece on (docs/rules/honor.md, section 7)."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core.fitted import shipped_evaluation
from boardlab.games.honor.agent import rise_cm
from boardlab.games.honor.catalogue import ALL_PIECES
from boardlab.games.honor.evaluation import HEIGHT_SCALE_CM, TERMS, seat_terms, terms_after_placement
from tests.honor.helpers import exact_game, play, with_fields


def terms_by_name(state: boardlab.State) -> list[dict[str, float]]:
    seats = seat_terms(state)  # type: ignore[arg-type]
    assert seats is not None
    return [dict(zip(TERMS, values)) for values in seats if values is not None]


def test_r7_6_the_high_bid_is_owed_by_the_bidder_before_it_leaves_the_pool() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 1", "raise 3")
    assert state.pools == (10, 10), "only the winner pays, when the auction ends"
    opener, bidder = terms_by_name(state)
    assert bidder["owes_bid"] == 0.3 and opener["owes_bid"] == 0.0
    assert bidder["tokens"] == opener["tokens"] == 1.0


def test_r7_7_the_holder_of_a_push_faces_its_rising_fee() -> None:
    state = play(exact_game(2).new_state(seed=1), "push LG1", "passon")
    assert state.current_player() == 0 and state.push.fee == 2
    holder, other = terms_by_name(state)
    assert (holder["holds_push"], holder["push_fee"]) == (1.0, 0.2)
    assert (other["holds_push"], other["push_fee"]) == (0.0, 0.0)
    assert other["tokens"] == 0.9, "the first holder paid its fee of 1"


def test_r7_8_a_pools_first_tokens_are_counted_again_up_to_five() -> None:
    state = with_fields(exact_game(2).new_state(seed=1), pools=[0, 3], bank=17)
    empty, three = terms_by_name(state)
    assert [empty[f"tokens_up_to_{k}"] for k in (1, 2, 3, 5)] == [0.0, 0.0, 0.0, 0.0]
    assert [three[f"tokens_up_to_{k}"] for k in (1, 2, 3, 5)] == [0.1, 0.2, 0.3, 0.3]


def test_the_shipped_weights_count_an_owed_bid_against_the_bidder() -> None:
    model = shipped_evaluation(boardlab.load("honor"))
    assert model is not None
    state = play(exact_game(2).new_state(seed=1), "build SL1 1", "raise 3")
    owed = seat_terms(state)  # type: ignore[arg-type]
    assert owed is not None
    not_owed = [list(seat) for seat in owed if seat is not None]
    not_owed[1][TERMS.index("owes_bid")] = 0.0
    assert model.chances(owed)[1] < model.chances(not_owed)[1]


def slab_brick_and_brick() -> boardlab.State:
    """Both towers founded: Red a slab with a brick on it, Blue a brick; Red's turn ended."""
    return play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass",
                "rel 90", "build BR2 0", "pass", "rel 30")


def test_r7_10_the_terms_one_placement_ahead_are_those_of_the_next_turn() -> None:
    """Looking ahead from a push held: the placer gains a piece and height, the supply one piece
    less, no push is held any more and the turn passes on from the turn player (rule 7.10),
    as the real placement shows."""
    state = play(slab_brick_and_brick(), "push CU1")
    holder = state.current_player()
    assert (holder, state.turn_player) == (0, 1)
    ahead = terms_after_placement(state, holder, "CU1", state.pools, rise_cm(state, holder, "CU1"), True)  # type: ignore[arg-type]
    placed = play(state.copy(), "acc", "rel 30")
    assert placed.phase == "CHOOSE" and placed.standing == (True, True)
    real = seat_terms(placed)  # type: ignore[arg-type]
    assert real is not None
    for predicted, seen in zip(ahead, real):
        assert predicted is not None and seen is not None
        for name, guess, value in zip(TERMS, predicted, seen):
            if name in ("height", "height_late"):
                assert abs(guess - value) < 1.5 / HEIGHT_SCALE_CM, name  # within 1.5 cm
            else:
                assert guess == pytest.approx(value), name
    assert dict(zip(TERMS, ahead[0]))["turn"] == 1.0, "Blue pushed, so Red's turn comes next"


def test_r6_1_a_fallen_placer_is_out_and_its_pieces_return_to_the_supply() -> None:
    state = play(slab_brick_and_brick(), "push LG1")
    left = len(state.supply)
    ahead = terms_after_placement(state, 0, "LG1", state.pools, 0.0, False)  # type: ignore[arg-type]
    assert ahead[0] is None
    other = dict(zip(TERMS, ahead[1]))  # type: ignore[arg-type]
    back_in_supply = left + 3  # the pushed log has left the supply; it comes back with the slab and brick
    assert other["tokens_late"] == pytest.approx(other["tokens"] * (1 - back_in_supply / len(ALL_PIECES)))
    model = shipped_evaluation(boardlab.load("honor"))
    assert model is not None
    assert model.chances(ahead) == (0.0, 1.0), "with two players the one left standing wins (rule 8.1)"
