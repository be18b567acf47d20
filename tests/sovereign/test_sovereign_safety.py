"""Diplomat protection and the pin, the Sovereign's safety and the win (docs/rules/sovereign.md,
rules 1.8-1.10)."""

from __future__ import annotations

from tests.sovereign.helpers import load, moves, piece_at, refusal, targets

FAR = "g7:0s"


# --- rule 1.8: protection and the pin -------------------------------------------------------
PROTECTED = "a7:0S d4:2d c5:0b d5:0b c4:1 b3:0C b6:0C g1:0s"


def test_r1_8_1_a_diplomat_at_level_two_protects_its_neighbours_but_not_itself() -> None:
    state = load(PROTECTED)
    assert "Cb3xc5" not in moves(state) and "Cb6xd5" not in moves(state)
    assert "Cb3xd4" in moves(state)  # A19: the Diplomat does not protect itself
    assert "Cb6-c4" in moves(state)  # an empty square beside it is no shelter: the tower is reduced
    assert "rule 1.8.1" in refusal(state, "Cb3xc5")


def test_r1_8_1_protection_is_off_while_the_diplomat_stands_at_level_one() -> None:
    state = load(PROTECTED.replace("d4:2d", "d4:1d"))
    assert {"Cb3xc5", "Cb6xd5"} <= moves(state)


def test_r1_8_1_protection_is_recomputed_when_the_diplomat_climbs_back() -> None:
    # P2's Diplomat steps from level 1 (d4) up to e4 (height 2), next to the Contractor on d5
    state = load("a7:0S d4:1d e4:2 d5:0b b6:0C g1:0s", to_move=2)
    assert "Cb6xd5" not in moves(load("a7:0S e4:2d d5:0b b6:0C g1:0s"))
    state.play("Dd4-e4")
    assert "Cb6xd5" not in moves(state)
    state.undo()
    state.play("Sg1-f1")
    assert "Cb6xd5" in moves(state)


PINNED = "d1:0S e2:2D d2:1 c2:2 c3:0c g7:0s"


def test_r1_8_2_a_diplomat_shielding_its_sovereign_may_not_move_at_all() -> None:
    state = load(PINNED)
    assert not state.threatened  # the Consultant on c3 reaches d1, but the Diplomat protects it
    assert not moves(state, "D")
    assert "pinned" in refusal(state, "De2-c2") and "rule 1.8.2" in refusal(state, "De2-c2")


def test_r1_8_2_no_pin_when_the_consultant_could_not_reach_the_sovereign() -> None:
    # the same shape, but the Sovereign stands on a 3-level tower that a ground Consultant cannot reach
    state = load("d1:3S e2:2D d2:1 c2:2 c3:0c g7:0s")
    assert "De2-c2" in moves(state)


# --- rule 1.9: the Sovereign's safety -----------------------------------------------------------
ATTACKED = "d1:0S c3:0c a2:0C g1:0B g7:0s"


def test_r1_9_2_a_threatened_sovereign_must_move() -> None:
    state = load(ATTACKED)
    assert state.threatened
    # capturing the attacker (a2xc3) or moving the Contractor is not allowed (A21)
    assert moves(state) == {"Sd1-c1", "Sd1-d2", "Sd1-d3", "Sd1-d4", "Sd1-e1", "Sd1-f1"}
    assert "rule 1.9.2" in refusal(state, "Ca2xc3")
    assert "rule 1.9.2" in refusal(state, "Bg1-g2^g1")


def test_r1_9_3_the_sovereign_may_not_end_on_a_threatened_square() -> None:
    state = load(ATTACKED)
    assert "b1" not in targets(state, "d1") and "d5" not in targets(state, "d1")
    assert "rule 1.9.3" in refusal(state, "Sd1-b1")


def test_r1_9_4_the_path_may_not_cross_a_square_a_consultant_can_reach() -> None:
    state = load(f"d1:0S c5:0c {FAR}")
    assert "d4" not in targets(state, "d1") and "d5" not in targets(state, "d1")
    message = refusal(state, "Sd1-d5")
    assert "d3" in message and "rule 1.9.4" in message


def test_r1_9_4_a_protected_banned_square_is_a_place_to_stop_but_not_to_pass() -> None:
    state = load(f"d1:0S c5:0c e2:2D {FAR}")
    assert "d3" in targets(state, "d1")  # the Diplomat shelters the Sovereign on d3
    assert "d4" not in targets(state, "d1")  # but the path ban has no such exception


def test_r1_9_4_the_ban_also_covers_the_walk_through_a_castle() -> None:
    state = load(f"a3:0S b3:1 c3:2 d3:1 e4:0c {FAR}")
    assert "d3" not in targets(state, "a3")
    assert "c3" in refusal(state, "Sa3-d3")


def test_r1_9_4_no_ban_where_the_consultant_could_not_climb() -> None:
    # the designer's exception: c3 is 3 levels tall and the Consultant stands on the ground
    state = load(f"a3:0S b3:1 c3:3 d3:1 e4:0c {FAR}")
    assert "d3" in targets(state, "a3")
    raised = load(f"a3:0S b3:1 c3:3 d3:1 e4:1c {FAR}")  # from level 1 it reaches height 3
    assert "d3" not in targets(raised, "a3")


def test_r1_9_4_the_ban_does_not_bind_the_diplomat() -> None:
    state = load(f"a3:0D a1:0S b3:1 c3:2 d3:1 e4:0c {FAR}")
    assert "d3" in targets(state, "a3")


# --- rule 1.10: winning -------------------------------------------------------------------------
WINNING = "d5:2S d6:3 f5:1c g1:0s"


def test_r1_10_the_winning_move_may_end_on_an_attacked_square() -> None:
    state = load(WINNING)
    assert "Sd5-d6" in moves(state)
    state.play("Sd5-d6")
    result = state.result()
    assert result is not None and result.code == "objective" and result.winners == (0,)
    assert piece_at(state, "d6") == "S"


def test_r1_10_the_same_square_outside_the_goal_ranks_is_refused() -> None:
    state = load("d4:2S d5:3 f4:1c g1:0s")
    assert "Sd4-d5" not in moves(state)
    assert "rule 1.9.3" in refusal(state, "Sd4-d5")


def test_r1_10_the_path_ban_still_applies_to_a_winning_move() -> None:
    state = load("d4:2S d5:2 d6:3 f4:0c g1:0s")
    assert "Sd4-d6" not in moves(state)
    assert "d5" in refusal(state, "Sd4-d6")


def test_r1_10_a_win_needs_height_three_in_the_goal_ranks() -> None:
    state = load("d5:2S d6:2 e6:3 g1:0s")
    state.play("Sd5-d6")  # height 2 in the goal ranks: play goes on
    assert not state.is_over()
    second = load("c2:2s c1:3 a7:0S", to_move=2)
    second.play("Sc2-c1")  # P2's goal ranks are 1-2
    assert second.result().winners == (1,)


def test_r1_10_only_the_sovereign_wins() -> None:
    state = load("d5:2D d6:3 a1:0S g1:0s")
    state.play("Dd5-d6")
    assert not state.is_over()
