"""How pieces move and climb (docs/rules/sovereign.md, rules 1.3-1.7), from positions a careless
implementation gets wrong."""

from __future__ import annotations

from tests.sovereign.helpers import height_at, load, moves, piece_at, refusal, targets

# P2's Sovereign sits out of the way in every position below unless a test says otherwise
FAR = "g7:0s"


# --- rule 1.4 and 1.5: climbing, sliding, walking through castles ------------------------------
def test_r1_4_crossing_open_ground_resets_the_climb_to_the_ground() -> None:
    # the Sovereign starts on a 3-level tower; after crossing b1 and c1 it climbs from the
    # ground, so d1 (height 1) is fine but e1 (height 2, joined to d1) is not, although
    # e1 is lower than where it started (a relative-height reading would allow it)
    state = load(f"a1:3S d1:1 e1:2 {FAR}")
    assert {"b1", "c1", "d1"} <= targets(state, "a1")
    assert "e1" not in targets(state, "a1")
    assert "rule 1.4" in refusal(state, "Sa1-e1")


def test_r1_4_inside_its_castle_a_piece_climbs_one_level_from_where_it_stands() -> None:
    low = load(f"b4:1S c4:2 d4:3 {FAR}")
    assert targets(low, "b4") == {"c4", "a4", "b1", "b2", "b3", "b5", "b6", "b7"}
    high = load(f"c4:2S b4:1 d4:3 {FAR}")
    assert {"b4", "d4"} <= targets(high, "c4")  # from level 2 the 3-level square is in reach


def test_r1_5_a_slide_may_step_into_the_first_tower_but_not_out_of_it() -> None:
    state = load(f"a4:0S c4:1 {FAR}")
    assert targets(state, "a4") == {"b4", "c4", "a1", "a2", "a3", "a5", "a6", "a7"}  # not d4-g4


def test_r1_5_a_slide_into_a_castle_walks_round_its_corners() -> None:
    state = load(f"a1:0S b1:1 c1:1 c2:1 c3:1 {FAR}")
    assert {"b1", "c1", "c2", "c3"} <= targets(state, "a1")
    assert "d1" not in targets(state, "a1")  # the castle ends the move: no leaving onto open ground


def test_r1_5_an_occupied_tower_square_blocks_the_walk() -> None:
    state = load(f"a1:0S b1:1 c1:1 c2:1B c3:1 {FAR}")
    assert "c3" not in targets(state, "a1")
    assert "c1" in targets(state, "a1")


def test_r1_5_entering_from_the_ground_ends_at_height_one_even_through_taller_squares() -> None:
    # the walk may pass over c4 (height 3) but may only stop at height 1 or less
    state = load(f"a4:0S b4:1 c4:3 d4:1 {FAR}")
    assert {"b4", "d4"} <= targets(state, "a4")
    assert "c4" not in targets(state, "a4")


def test_r1_5_a_piece_on_a_tower_moves_to_a_joined_tower_by_a_castle_move() -> None:
    # from level 1, b2 (height 2) is a castle move; from the ground it would be too high
    state = load(f"b1:1S b2:2 {FAR}")
    assert "b2" in targets(state, "b1")
    ground = load(f"a2:0S b2:2 {FAR}")
    assert "b2" not in targets(ground, "a2")


def test_r1_3_sliding_pieces_end_on_empty_squares() -> None:
    state = load(f"a1:0S a3:0B {FAR}")
    assert "a3" not in targets(state, "a1") and "a4" not in targets(state, "a1")
    assert "rule 1.3.2" in refusal(state, "Sa1-a3")


# --- rule 1.6: the Contractor ---------------------------------------------------------------
def test_r1_6_a_contractor_may_build_on_the_square_it_just_left() -> None:
    state = load(f"c2:0B a1:0S {FAR}")
    assert "Bc2-c3^c2" in moves(state)
    state.play("Bc2-c3^c2")
    assert height_at(state, "c2") == 1 and piece_at(state, "c3") == "B"


def test_r1_6_a_contractor_climbs_one_level_diagonally_and_descends_freely() -> None:
    state = load(f"c2:1B d3:2 b1:0 d1:3 a1:0S {FAR}")
    steps = {m[4:6] for m in moves(state, "Bc2")}
    assert "d3" in steps  # up one level, diagonally, with no castle joining c2 and d3
    assert "d1" not in steps  # two levels up
    assert "b1" in steps  # down is free
    assert "rule 1.6.1" in refusal(state, "Bc2-d1^c2")


def test_r1_6_each_build_adds_one_level_and_uses_the_right_piece() -> None:
    state = load(f"c2:0B d3:2 a1:0S {FAR}")
    lower, top = state.pool_lower, state.pool_top
    state.play("Bc2-c3^d3")  # d3 becomes 3 high: a top piece
    assert height_at(state, "d3") == 3 and (state.pool_lower, state.pool_top) == (lower, top - 1)
    state.undo()
    state.play("Bc2-c3^b3")
    assert height_at(state, "b3") == 1 and (state.pool_lower, state.pool_top) == (lower - 1, top)
    assert "Bc2-c3^^b3" not in moves(load(f"c2:0B a1:0S {FAR}"))


def test_r1_6_no_build_on_occupied_or_full_squares() -> None:
    state = load(f"c2:0B b3:3 d3:0b a1:0S {FAR}")
    builds = {m[7:] for m in moves(state, "Bc2-c3")}
    assert "b3" not in builds and "d3" not in builds and "c2" in builds
    assert "rule 1.1.3" in refusal(state, "Bc2-c3^b3")


def test_r1_6_3_with_no_lower_pieces_left_only_third_levels_can_be_built() -> None:
    # supply_lower=11 with 11 lower pieces on the board: the supply holds none
    state = load(f"c2:0B d3:2 e5:2 f5:2 e6:2 f6:2 a7:1 a1:0S {FAR}", supply_lower=11)
    assert state.pool_lower == 0 and state.pool_top == 14
    builds = {m[7:] for m in moves(state, "B")}
    assert builds == {"d3"}  # the only 2-level tower next to a square the Contractor can reach
    assert "1.6.3" in refusal(state, "Bc2-c3^b3")


def test_r1_6_3_with_no_top_pieces_left_no_third_level() -> None:
    state = load(f"c2:0B d3:2 e7:3 f7:3 a1:0S {FAR}", supply_top=2)
    assert state.pool_top == 0
    assert not any(m.endswith("d3") for m in moves(state, "B"))
    assert any(m.endswith("b3") for m in moves(state, "B"))


def test_r1_6_3_an_empty_supply_freezes_the_contractors() -> None:
    state = load(f"c2:0B a2:2 a3:2 a4:2 a5:2 b7:2 e7:3 f7:3 a1:0S {FAR}", supply_lower=14, supply_top=2)
    assert (state.pool_lower, state.pool_top) == (0, 0)
    assert not moves(state, "B")


# --- rule 1.7: the Consultant --------------------------------------------------------------
def test_r1_7_2_consultant_height_is_checked_before_the_removal() -> None:
    ground = load(f"a1:0C b3:3 a7:0S {FAR}")
    assert "b3" not in targets(ground, "a1")  # 3 > 0 + 2, although the tower would drop to 2
    assert "rule 1.7.2" in refusal(ground, "Ca1-b3")
    raised = load(f"a1:1C b3:3 a7:0S {FAR}")
    top = raised.pool_top
    raised.play("Ca1-b3")
    assert height_at(raised, "b3") == 2 and piece_at(raised, "b3") == "C"  # it stands on the lowered tower
    assert raised.pool_top == top + 1  # a third level goes back as a top piece


def test_r1_7_3_capture_then_removal_then_the_consultant_stands_lower() -> None:
    state = load(f"a1:0C b3:2d a7:0S {FAR}")
    lower = state.pool_lower
    assert "D" not in state.view()["board"]["captured"][1]
    state.play("Ca1xb3")
    assert piece_at(state, "b3") == "C" and height_at(state, "b3") == 1
    assert state.pool_lower == lower + 1
    assert "D" in state.view()["board"]["captured"][1]  # the Diplomat is gone for good


def test_r1_7_5_consultants_reduce_any_unoccupied_tower_even_their_own_sides() -> None:
    state = load(f"a1:0C b3:1 c2:1 a7:0S {FAR}")
    assert {"b3", "c2"} <= targets(state, "a1")
    state.play("Ca1-c2")
    assert height_at(state, "c2") == 0


def test_r1_7_2_never_onto_your_own_piece_and_the_x_must_match() -> None:
    state = load(f"a1:0C b3:0B c2:0b a7:0S {FAR}")
    assert "Ca1xc2" in moves(state) and "Ca1-c2" not in moves(state)
    assert "b3" not in targets(state, "a1")
    assert "write the capture" in refusal(state, "Ca1-c2")
    assert "rule 1.7.2" in refusal(state, "Ca1xb3")
