"""The seven pieces (rules 3) and capturing (rules 4)."""

from __future__ import annotations

import pytest

from boardlab.core import IllegalMoveError
from tests.overseer.helpers import load, moves_from, targets

# Overseers (and a Black Soldier against rule 7.2) out of the way of every test below
KINGS = {"K1": "O", "K8": "o", "J8": "s"}


# --- 3.1 Barricade -----------------------------------------------------------------
def test_r3_1_a_barricade_steps_four_ways_onto_empty_squares_only() -> None:
    state = load({**KINGS, "D4": "B", "D5": "s", "E4": "b", "E5": "s"})
    # D5 (enemy Soldier) and E4 (a Barricade) are taken; no diagonal (E5); so C4 and D3
    assert moves_from(state, "D4") == {"D4-C4", "D4-D3"}


def test_r3_1_r4_3_a_barricade_never_captures() -> None:
    state = load({**KINGS, "D4": "B", "D5": "s"})
    with pytest.raises(IllegalMoveError, match=r"a Barricade never captures.*rules 3.1, 4.3"):
        state.play("D4xD5")


# --- 3.2 Soldier ---------------------------------------------------------------------
def test_r3_2_a_soldier_steps_one_square_in_eight_directions() -> None:
    state = load({**KINGS, "E4": "S"})
    assert targets(moves_from(state, "E4")) == {"E5", "E3", "F4", "D4", "F5", "D5", "F3", "D3"}


def test_r3_2_a_soldier_jumps_over_a_barricade_in_each_of_the_eight_directions() -> None:
    # Barricades of both colours all round E4: no step is possible, every jump is
    ring = {"E5": "B", "E3": "b", "F4": "B", "D4": "b", "F5": "b", "D5": "B", "F3": "B", "D3": "b"}
    state = load({**KINGS, "E4": "S", **ring})
    assert targets(moves_from(state, "E4")) == {"E6", "E2", "G4", "C4", "G6", "C6", "G2", "C2"}


def test_r3_2_a_jump_captures_but_never_lands_on_own_pieces_or_barricades() -> None:
    state = load({**KINGS, "E4": "S", "E5": "B", "E6": "p", "F4": "b", "G4": "C", "D4": "B", "C4": "b"})
    moves = moves_from(state, "E4")
    assert "E4xE6" in moves  # over the Barricade onto an enemy Pilot
    assert not {"E4-G4", "E4xG4", "E4-C4", "E4xC4"} & moves  # own Captain, a Barricade


def test_r3_2_a_soldier_jumps_only_over_a_barricade() -> None:
    state = load({**KINGS, "E4": "S", "E5": "s", "F4": "C"})
    moves = moves_from(state, "E4")
    assert "E4xE5" in moves and "E4-E6" not in moves  # an enemy Soldier is not jumped
    assert "E4-G4" not in moves  # nor its own Captain
    with pytest.raises(IllegalMoveError, match=r"jumps only over a Barricade, and E5 holds Black's Soldier \(rule 3.2\)"):
        state.play("E4-E6")


@pytest.mark.parametrize(
    ("soldier", "barricade", "landing"),
    [
        ("C8", "C7", "C6"),  # from the rim inwards: fine
        ("C7", "C8", None),  # outwards over the rim: no square beyond
        ("C1", "C2", "C3"),  # from the centre ring outwards
        ("C2", "C1", None),  # inwards over index 1: nothing crosses the centre (rule 1.3)
        ("D7", "C8", None),  # diagonally over the rim
        ("D2", "C1", None),  # diagonally over the inner edge
        ("L4", "A4", "B4"),  # round the ring across the seam
        ("B6", "A7", "L8"),  # diagonally across the seam to the rim
    ],
)
def test_r3_2_jumps_at_the_rim_the_centre_and_the_seam(soldier: str, barricade: str, landing: str | None) -> None:
    state = load({**KINGS, soldier: "S", barricade: "B"})
    jumps = {m for m in moves_from(state, soldier) if not _adjacent(m)}
    assert jumps == ({f"{soldier}-{landing}"} if landing else set())


def _adjacent(move: str) -> bool:
    sectors = "ABCDEFGHIJKL"
    a, b = move[:2], move[3:]
    ds = (sectors.index(a[0]) - sectors.index(b[0])) % 12
    return min(ds, 12 - ds) <= 1 and abs(int(a[1]) - int(b[1])) <= 1


# --- 3.3 Captain, 3.4 General -------------------------------------------------------
def test_r3_3_a_captain_steps_round_the_ring_and_slides_along_its_sector() -> None:
    state = load({**KINGS, "F3": "C", "F6": "s", "F1": "G"})
    assert targets(moves_from(state, "F3")) == {"E3", "G3", "F4", "F5", "F6", "F2"}
    assert "F3xF6" in moves_from(state, "F3")
    with pytest.raises(IllegalMoveError, match=r"Captain on F3 cannot reach H3.*\(rule 3.3\)"):
        state.play("F3-H3")
    with pytest.raises(IllegalMoveError, match=r"Captain on F3 is blocked by Black's Soldier on F6 \(rules 2.2, 3.3\)"):
        state.play("F3-F7")


def test_r3_4_a_general_steps_along_its_sector_and_slides_round_the_ring() -> None:
    state = load({**KINGS, "F3": "G", "B3": "s", "I3": "B"})
    assert targets(moves_from(state, "F3")) == {"F4", "F2", "G3", "H3", "E3", "D3", "C3", "B3"}
    with pytest.raises(IllegalMoveError, match=r"General on F3 cannot reach F5"):
        state.play("F3-F5")


# --- 3.5 Pilot, 3.6 Commander ---------------------------------------------------------
def test_r3_5_a_pilot_passes_over_own_and_enemy_barricades_but_never_stops_on_them() -> None:
    # B2 (White) and D4 (Black) Barricades lie on the diagonal from A1 to H8
    state = load({**KINGS, "A1": "P", "B2": "B", "D4": "b", "L2": "S"})
    diagonal = {t for t in targets(moves_from(state, "A1")) if t[0] in "BCDEFGH"}
    assert diagonal == {"C3", "E5", "F6", "G7", "H8"}
    assert not {"A1-B2", "A1xB2", "A1-D4", "A1xD4"} & moves_from(state, "A1")
    with pytest.raises(IllegalMoveError, match=r"D4 holds a Barricade.*\(rule 4.2\)"):
        state.play("A1xD4")


def test_r3_5_a_pilot_captures_beyond_barricades_and_is_stopped_by_other_pieces() -> None:
    state = load({**KINGS, "A1": "P", "B2": "b", "C3": "B", "D4": "g", "L2": "S"})
    moves = moves_from(state, "A1")
    assert "A1xD4" in moves and "A1-E5" not in moves  # the General stops it, and is captured
    assert not {m for m in moves if m[3] in "KJIH"}  # its own Soldier on L2 blocks that way


def test_r3_6_a_commander_is_stopped_by_barricades_where_a_pilot_is_not() -> None:
    state = load({**KINGS, "A1": "M", "B2": "b", "L2": "S"})
    moves = moves_from(state, "A1")
    assert not {m for m in moves if m[3:] in ("B2", "C3", "D4")}
    assert {"A1-A2", "A1-B1", "A1-J1"} <= moves  # along the sector, round the ring both ways (K1 own)


# --- 3.7 Overseer --------------------------------------------------------------------
def test_r3_7_r6_2_the_overseer_steps_anywhere_even_into_attack() -> None:
    state = load({"E4": "O", "E8": "o", "G6": "c", "A8": "s"})
    assert targets(moves_from(state, "E4")) == {"E5", "E3", "F4", "D4", "F5", "D5", "F3", "D3"}
    state.play("E4-E5")
    state.play("G6-G5")
    state.play("E5-F5")  # next to the Captain, which steps round the ring: legal, there is no check (rule 6.2)
    assert "G5xF5" in {str(m) for m in state.legal_moves()}


# --- 4 Capturing -----------------------------------------------------------------------
def test_r4_1_a_capture_removes_the_piece_and_nobody_captures_his_own() -> None:
    state = load({**KINGS, "F3": "C", "F6": "s", "F2": "S"})
    assert "F3xF2" not in {str(m) for m in state.legal_moves()}
    with pytest.raises(IllegalMoveError, match=r"F2 holds White's own Soldier: nobody captures his own pieces \(rule 4.1\)"):
        state.play("F3xF2")
    state.play("F3xF6")
    assert state.piece_at("F6") == "C" and state.piece_at("F3") == ""
    assert state.counts[8 + 2] == 1  # one Black Soldier left (J8)


def test_r4_2_barricades_are_never_captured_or_landed_on() -> None:
    # every White piece next to (or with a line to) Black's Barricade on E5
    pieces = {**KINGS, "E5": "b", "E4": "S", "E3": "C", "D5": "G", "C3": "P", "F6": "M", "F5": "O"}
    del pieces["K1"]
    state = load(pieces)
    assert not [m for m in state.legal_moves() if str(m)[3:] == "E5"]
    for mover in ("E4", "E3", "D5", "C3", "F6", "F5"):
        with pytest.raises(IllegalMoveError, match=r"E5 holds a Barricade: Barricades are never captured"):
            state.play(f"{mover}xE5")
