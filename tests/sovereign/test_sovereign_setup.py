"""The setup as moves (docs/rules/sovereign.md, rule 1.2)."""

from __future__ import annotations

import pytest

import boardlab
from tests.sovereign.helpers import height_at, moves, piece_at, refusal

# the sample setup of the ruling's game record (rule 5.3)
SAMPLE = ["S@d1", "S@d7", "D@e1", "D@e7", "C@b1", "C@b7", "C@f1", "C@f7", "B@c2", "B@c6", "B@e2", "B@e6", "B@d2^d3", "B@d6^d5"]
SAMPLE_SPN = "00c03s2d0c0/000b0b0b00/0001000/0000000/0001000/000B0B0B00/00C03S2D0C0 1 p 25/12 0"


def new_state() -> boardlab.State:
    return boardlab.load("sovereign").new_state(seed=1)


def test_r1_2_the_sample_setup_gives_the_rulings_start_position() -> None:
    state = new_state()
    for move in SAMPLE:
        assert state.view()["board"]["supply"] == {"lower": 25, "top": 12}  # rule 1.2.1: towers in hand
        state.play(move)
    assert state.position() == SAMPLE_SPN
    assert state.current_player() == 0  # rule 1.2.6: P1 moves first
    assert state.view()["board"]["phase"] == "play"


def test_r1_2_1_sovereign_and_diplomat_come_with_their_towers() -> None:
    state = new_state()
    state.play("S@d1")
    state.play("S@d7")
    state.play("D@e1")
    assert (height_at(state, "d1"), piece_at(state, "d1")) == (3, "S")
    assert (height_at(state, "d7"), piece_at(state, "d7")) == (3, "s")
    assert (height_at(state, "e1"), piece_at(state, "e1")) == (2, "D")


def test_r1_2_3_placements_alternate_in_the_fixed_order() -> None:
    state = new_state()
    assert moves(state) == {f"S@{f}{r}" for f in "abcdefg" for r in (1, 2)}  # rule 1.2.4: back two ranks
    assert "rule 1.2.3" in refusal(state, "D@e1")
    state.play("S@d1")
    assert all(m.startswith("S@") and m[3] in "67" for m in moves(state))  # P2 on ranks 6-7
    assert "rule 1.2.4" in refusal(state, "S@d5")
    state.play("S@d7")
    assert "taken" in refusal(state, "D@d1")


def test_r1_2_3_play_moves_are_refused_during_setup() -> None:
    state = new_state()
    assert "setup" in refusal(state, "Sd1-d2")


def test_r1_2_5_the_third_contractor_brings_the_one_level_tower() -> None:
    state = new_state()
    for move in SAMPLE[:12]:
        state.play(move)
    third = moves(state)
    assert all("^" in m for m in third)
    assert "B@d2^d3" in third  # rank 3 is allowed for the tower
    assert "B@d2^d1" not in third  # occupied
    assert "B@a1^a2" in third and "B@a2^a3" in third
    assert "B@a2^a4" not in third  # not next to the Contractor
    assert "rule 1.2.5" in refusal(state, "B@d2")
    assert "rule 1.2.5" in refusal(state, "B@a2^a4")
    state.play("B@d2^d3")
    assert "B@d6^d5" in moves(state) and "B@d6^d4" not in moves(state)  # rank 4 is nobody's


def test_r1_2_5_only_the_third_contractor_has_a_tower() -> None:
    state = new_state()
    for move in SAMPLE[:8]:
        state.play(move)
    assert "rule 1.2.5" in refusal(state, "B@c2^c3")


def test_r1_2_5_a_square_with_no_free_neighbour_cannot_take_the_third_contractor() -> None:
    state = new_state()
    for move in ["S@a2", "S@a7", "D@b1", "D@b7", "C@b2", "C@c7", "C@c1", "C@d7", "B@c2", "B@e7", "B@g1", "B@f7"]:
        state.play(move)
    assert not any(m.startswith("B@a1") for m in moves(state))  # a2, b1 and b2 are all taken
    assert any(m.startswith("B@d1") for m in moves(state))


@pytest.mark.parametrize("placements", range(0, 15, 3))
def test_r1_2_positions_during_setup_round_trip(placements: int) -> None:
    state = new_state()
    for move in SAMPLE[:placements]:
        state.play(move)
    again = state.game.state_from_position(state.position())
    assert again.position() == state.position()
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, state.legal_moves()))
