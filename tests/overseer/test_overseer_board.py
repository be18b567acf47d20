"""The board's geometry (rules 1, 2): the seam between L and A, the edges at index 1 and 8,
blocking, and moves reachable two ways listed once."""

from __future__ import annotations

import pytest

from boardlab.games.overseer import SQUARE_BY_NAME
from boardlab.games.overseer.board import SQUARE_COLOUR
from tests.overseer.helpers import load, moves_from, targets

# the two Overseers (and a Black Soldier, so that rule 7.2 does not end the game at once)
# stand where they block nothing in these tests
KINGS = {"E1": "O", "E8": "o", "H8": "s"}


@pytest.mark.parametrize(
    ("piece", "square", "across"),
    [
        # the ring steps and rays that cross the L|A seam, for every piece that moves round a ring
        ("B", "L4", {"A4"}),
        ("S", "L4", {"A4", "A3", "A5"}),
        ("O", "A4", {"L4", "L3", "L5"}),
        ("C", "L4", {"A4"}),
        ("G", "K4", {"L4", "A4", "B4", "C4"}),
        ("P", "K2", {"L3", "A4", "B5", "C6", "D7"}),
        ("M", "B5", {"A5", "L5", "K5", "A6", "L7", "K8", "A4", "L3", "K2", "J1"}),
    ],
)
def test_r1_3_every_piece_that_goes_round_a_ring_crosses_the_seam(piece: str, square: str, across: set[str]) -> None:
    pieces = {**KINGS, square: piece}
    if piece == "O":
        del pieces["E1"]
    state = load(pieces)
    assert across <= targets(moves_from(state, square))


def test_r1_3_sliders_are_blocked_and_capture_across_the_seam() -> None:
    # the General on K5 runs clockwise L5, A5 and stops before its own Soldier on B5;
    # anticlockwise it runs J5 ... C5 and stops there too: the whole ring but B5
    state = load({**KINGS, "K5": "G", "B5": "S"})
    ring = {t for t in targets(moves_from(state, "K5")) if t.endswith("5")}
    assert ring == {f"{s}5" for s in "LACDEFGHIJ"}
    # an enemy on B5 is reached both ways round: one capture (rule 2.3)
    state = load({**KINGS, "K5": "G", "B5": "s"})
    assert [str(m) for m in state.legal_moves()].count("K5xB5") == 1
    # the Pilot's diagonal from K2 crosses the seam and captures on B5
    state = load({**KINGS, "K2": "P", "B5": "c"})
    assert "K2xB5" in moves_from(state, "K2")
    assert "K2-C6" not in moves_from(state, "K2")


def test_r1_3_the_edges_at_index_1_and_8_have_no_squares_beyond() -> None:
    # an Overseer on the inner ring has 5 neighbours, not 8, and none across the centre
    state = load({"C1": "O", "E8": "o", "H8": "s"})
    assert targets(moves_from(state, "C1")) == {"B1", "D1", "B2", "C2", "D2"}
    state = load({"E1": "O", "C8": "o", "H1": "S"}, to_move="b")
    assert targets(moves_from(state, "C8")) == {"B8", "D8", "B7", "C7", "D7"}
    # a Captain sliding inward stops at index 1: nothing crosses the centre to I1 or beyond
    state = load({**KINGS, "C4": "C"})
    assert targets(moves_from(state, "C4")) == {"B4", "D4", "C5", "C6", "C7", "C8", "C3", "C2", "C1"}


@pytest.mark.parametrize("square", ["A1", "A8"])
def test_r1_3_r2_3_a_commander_on_an_edge_reaches_31_squares(square: str) -> None:
    # along its sector 7, round the ring 11, and 13 diagonal squares: two diagonals of 7
    # that meet after 6 steps (G7 from A1, G2 from A8), counted once
    state = load({"E2": "O", "E7": "o", square: "M"}, to_move="w")
    moves = moves_from(state, square)
    assert len(moves) == 31
    meet = "G7" if square == "A1" else "G2"
    assert meet in targets(moves)


def test_r1_4_a_pilot_stays_on_its_colour() -> None:
    state = load({**KINGS, "D5": "P", "F3": "B", "B7": "b"})
    reached = targets(moves_from(state, "D5"))
    assert len(reached) == 12  # 4 diagonals, two passing a Barricade
    assert {SQUARE_COLOUR[SQUARE_BY_NAME[t]] for t in reached} == {SQUARE_COLOUR[SQUARE_BY_NAME["D5"]]}


def test_r2_2_a_ring_ray_never_comes_back_to_its_own_square() -> None:
    state = load({**KINGS, "A4": "G"})
    ring = [m for m in moves_from(state, "A4") if m[4] == "4"]
    assert len(ring) == 11 and "A4-A4" not in ring
    assert moves_from(state, "A4") >= {"A4-A3", "A4-A5"}


def test_r2_2_a_barricade_of_either_colour_stops_every_slider_but_the_pilot() -> None:
    state = load({**KINGS, "D1": "C", "D4": "b", "H4": "G", "J4": "B", "A3": "M", "C5": "b"})
    # the Captain stops before Black's Barricade on D4 (E1 holds its own Overseer)
    assert targets(moves_from(state, "D1")) == {"C1", "D2", "D3"}
    # the General stops before its own Barricade on J4 and before Black's on D4
    assert targets(moves_from(state, "H4")) == {"H3", "H5", "I4", "G4", "F4", "E4"}
    # the Commander's diagonal stops before C5; the Pilot's would go on (rule 3.5)
    commander = moves_from(state, "A3")
    assert "A3-B4" in commander and "A3-C5" not in commander and "A3-D6" not in commander


@pytest.mark.parametrize(
    ("piece", "square", "meet"),
    [("P", "A1", "G7"), ("P", "A2", "G8"), ("M", "C8", "I2"), ("M", "C7", "I1"), ("P", "L7", "F1")],
)
def test_r2_3_the_square_where_two_diagonals_meet_is_one_move(piece: str, square: str, meet: str) -> None:
    kings = {"K1": "O", "K8": "o"}  # on none of the diagonals tested
    state = load({**kings, square: piece})
    texts = [str(m) for m in state.legal_moves()]
    assert texts.count(f"{square}-{meet}") == 1
    # and as a capture: an enemy piece on the meeting square is captured by one move
    state = load({**kings, square: piece, meet: "s"})
    texts = [str(m) for m in state.legal_moves()]
    assert texts.count(f"{square}x{meet}") == 1
    assert len(texts) == len(set(texts))


def test_r2_3_a_general_on_an_empty_ring_lists_each_square_once() -> None:
    state = load({"E1": "O", "E8": "o", "F4": "G"})
    texts = [str(m) for m in state.legal_moves() if str(m).startswith("F4")]
    assert len(texts) == len(set(texts)) == 13
