"""Turn procedures of Honor: auctions, pushes, turn order, tokens (docs/rules/honor.md, section 7)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import IllegalMoveError
from tests.honor.helpers import exact_game, play, with_fields


def three_foundations() -> boardlab.State:
    """Three players with a foundation each: slab at 30, brick at 90, cube at 150."""
    state = exact_game(3).new_state(seed=1)
    return play(state, "build SL1 0", "pass", "pass", "rel 30", "build BR1 0", "pass", "pass", "rel 90",
                "build CU1 0", "pass", "pass", "rel 150")


def test_r7_3_auction_starts_with_the_next_player_and_the_opener_bids_again() -> None:
    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 1")
    assert state.current_player() == 1
    play(state, "raise 2", "raise 3")
    assert state.current_player() == 0, "the opener acts again when someone else is high"
    play(state, "raise 4")
    assert state.current_player() == 1


def test_r7_5_passes_are_final() -> None:
    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 0", "pass", "raise 1", "raise 2")
    assert state.current_player() == 2, "player 1 passed and may not bid again on this piece"
    with pytest.raises(IllegalMoveError, match=r"7.3"):
        state.play("raise 2")
    play(state, "pass")
    assert state.phase == "PLACE" and state.placing.placer == 0
    assert state.pools == (8, 10, 10) and state.bank == 2, "only the winner pays, to the bank"


def test_r7_4_a_player_who_cannot_raise_passes_automatically() -> None:
    state = exact_game(3).new_state(seed=1)
    state = with_fields(state, pools=[10, 3, 10], bank=7)
    play(state, "build SL1 3")
    assert state.current_player() == 2, "player 1 holds 3 tokens and cannot outbid 3"
    play(state, "pass")
    assert state.phase == "PLACE" and state.placing.placer == 0 and state.pools[0] == 7


def test_r7_10_an_outbid_turn_player_chooses_again() -> None:
    state = exact_game(2).new_state(seed=1)
    play(state, "build CU1 0", "raise 1", "pass")
    assert state.placing.placer == 1
    play(state, "rel 90")
    assert state.phase == "CHOOSE" and state.current_player() == 0 and state.turn_no == 1
    assert state.pools == (10, 9)


def test_r7_7_push_fees_rise_and_wrap_round_to_the_pusher() -> None:
    state = exact_game(2).new_state(seed=1)
    play(state, "push LG1", "passon")
    assert state.current_player() == 0 and state.push.fee == 2, "the chain returns to the pusher"
    play(state, "passon", "passon")
    assert state.pools == (8, 6) and state.bank == 6
    assert state.current_player() == 0 and state.push.fee == 4


def test_r7_8_a_holder_who_cannot_pay_must_accept() -> None:
    state = with_fields(exact_game(2).new_state(seed=1), pools=[10, 0], bank=10)
    play(state, "push LG1")
    assert state.phase == "PLACE" and state.placing.placer == 1, "no move: the holder places it"
    with pytest.raises(IllegalMoveError):
        state.play("passon")


def test_r7_10_after_a_push_the_turn_passes_from_the_pusher() -> None:
    state = three_foundations()
    assert state.turn_player == 0
    play(state, "push CU2", "passon", "acc")
    assert state.placing.placer == 2
    play(state, "rel 150")
    assert state.turn_player == 1, "the player after the pusher, not after the placer (H-16)"


def test_r7_12_collapse_before_choosing_returns_pieces_at_once() -> None:
    state = three_foundations()
    play(state, "build CU2 0", "raise 1", "pass", "pass")
    assert state.placing.placer == 1
    play(state, "rel 84")  # misses the brick (87..93) and lands on the table
    assert state.standing == (True, False, True)
    assert state.phase == "CHOOSE" and state.current_player() == 0 and state.turn_no == 4
    assert "BR1" in state.supply and "CU2" in state.supply
    state.play("build BR1 0")  # a returned piece may be chosen at once


def test_r7_11_tokens_always_add_up_in_random_play() -> None:
    game = boardlab.load("honor", players=3)
    rng = random.Random(4)
    state = game.new_state(seed=4)
    while not state.is_over():
        move = state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_moves())
        before = state.pools
        state.play(move)
        assert sum(state.pools) + state.bank == 30
        assert all(b >= a for a, b in zip(state.pools, before)), "pools never increase"


def test_r7_13_resigning_returns_the_piece_in_hand_and_keeps_fees_in_the_bank() -> None:
    state = three_foundations()
    play(state, "push CU2", "passon", "resign")
    assert state.standing == (True, True, False)
    assert "CU2" in state.supply and "CU1" in state.supply
    assert state.bank == 11 and state.pools == (10, 9, 0)
    assert state.phase == "CHOOSE" and state.current_player() == 0


def test_r7_2_opening_bid_must_fit_the_pool() -> None:
    state = with_fields(exact_game(2).new_state(seed=1), pools=[2, 10], bank=8)
    with pytest.raises(IllegalMoveError, match=r"7.2"):
        state.play("build SL1 3")
    state.play("build SL1 2")


def test_r10_4_discrete_choices_are_listed_in_full() -> None:
    state = with_fields(exact_game(2).new_state(seed=1), pools=[4, 10], bank=6)
    moves = [str(m) for m in state.legal_moves()]
    assert len(moves) == 30 * 5 + 30 + 1, "every piece with every opening bid 0..4, every push, resign"
    assert "build LG2 4" in moves and "push AR1" in moves and "resign" in moves
    play(state, "build SL1 1")
    assert [str(m) for m in state.legal_moves()] == [f"raise {b}" for b in range(2, 11)] + ["pass", "resign"]
