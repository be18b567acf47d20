"""The setups (rules 5), notation (rules 9) and the position string (rules 10)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import IllegalMoveError, NotationError, PositionError
from boardlab.games.overseer import SQUARE_BY_NAME, Marks, PieceMove, parse_marks, parse_move_text
from boardlab.games.overseer.board import PILOT
from boardlab.games.overseer.moves import CAPTURE, QUIET
from tests.overseer.helpers import load, position_text

START = "opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 1"


# --- 5 setups -----------------------------------------------------------------------
@pytest.mark.parametrize(("setup", "first_moves"), [("concentric", 32), ("chess_sized", 36), ("diametric", 32)])
def test_r5_no_capture_on_the_first_move_or_the_reply(setup: str, first_moves: int) -> None:
    state = boardlab.load("overseer", setup=setup).new_state(seed=1)
    assert len(state.legal_moves()) == first_moves
    for move in state.legal_moves():
        assert not move.capture
        state.apply(move)
        replies = state.legal_moves()
        assert len(replies) == first_moves  # White's first move touches none of Black's
        assert not any(reply.capture for reply in replies), (setup, str(move))
        state.undo()


def test_r5_1_black_is_whites_mirror_image() -> None:
    state = boardlab.load("overseer").new_state(seed=1)
    white = {str(m) for m in state.legal_moves()}
    flipped = START.replace(" w ", " b ")
    black = {str(m) for m in boardlab.load("overseer").state_from_position(flipped).legal_moves()}

    def mirror(text: str) -> str:
        return f"{text[0]}{9 - int(text[1])}{text[2]}{text[3]}{9 - int(text[4])}"

    assert {mirror(m) for m in white} == black
    assert {"F1-F3", "F1-H3", "G1-G3", "G1-E3"} <= white  # the jumps over F2 and G2


# --- 9 notation -----------------------------------------------------------------------
def test_r9_2_notation_of_moves_and_captures() -> None:
    f1, h3, b1, h7 = (SQUARE_BY_NAME[n] for n in ("F1", "H3", "B1", "H7"))
    assert str(QUIET[f1][h3]) == "F1-H3" and repr(QUIET[f1][h3]) == "PieceMove(F1-H3)"
    assert str(CAPTURE[b1][h7]) == "B1xH7"
    assert CAPTURE[b1][h7].to_json() == {"type": "piece_move", "notation": "B1xH7", "from": "B1", "to": "H7", "captured": "H7"}
    assert QUIET[f1][h3].to_json()["captured"] is None


def test_r9_notation_round_trips_for_every_legal_move_along_random_games() -> None:
    rng = random.Random(3)
    state = boardlab.load("overseer").new_state(seed=1)
    for _ in range(150):
        if state.is_over():
            break
        for move in state.legal_moves():
            assert state.parse_move(str(move)) is move  # the shared move objects
            assert state.move_from_json(move.to_json()) is move
        state.apply(rng.choice(state.legal_moves()))


def test_r9_1_r9_2_lower_case_piece_letters_and_the_overseer_mark() -> None:
    state = load({"D4": "O", "E5": "o", "B1": "P", "H7": "s", "A8": "g"})
    assert str(state.parse_move("b1xh7")) == "B1xH7"
    assert str(state.parse_move("PB1xH7")) == "B1xH7"
    assert str(state.parse_move(" pb1xH7 ")) == "B1xH7"
    assert str(state.parse_move("D4xE5#")) == "D4xE5"
    assert str(state.parse_move("OD4xE5#")) == "D4xE5"
    with pytest.raises(IllegalMoveError, match=r"B1 holds White's Pilot, not a General \('G', rule 9.2\)"):
        state.parse_move("GB1xH7")
    with pytest.raises(IllegalMoveError, match=r"'#' marks the capture of the enemy Overseer, and H7 holds Black's Soldier"):
        state.parse_move("B1xH7#")


def test_r9_2_the_capture_mark_must_fit_the_board() -> None:
    state = load({"D4": "O", "E5": "o", "B1": "P", "H7": "s", "A8": "g"})
    with pytest.raises(IllegalMoveError, match=r"H7 holds Black's Soldier: moving there captures it, written B1xH7 \(rule 9.2\)"):
        state.play("B1-H7")
    with pytest.raises(IllegalMoveError, match=r"G6 is empty, so there is nothing to capture: the move is written B1-G6"):
        state.play("B1xG6")
    assert state.ply == 0


def test_r9_2_the_option_reads_both_marks_alike() -> None:
    state = load({"D4": "O", "E5": "o", "B1": "P", "H7": "s", "A8": "g"}, loose_capture_marks=True)
    assert str(state.parse_move("B1-H7")) == "B1xH7"
    assert str(state.parse_move("B1xG6")) == "B1-G6"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A9-A8", "A9 is no square"),
        ("M1-A1", "M1 is no square"),
        ("A10-A1", "A10 is no square"),
        ("A1A2", "not Overseer notation"),
        ("A1-", "not Overseer notation"),
        ("XA1-A2", "'X' is no piece letter"),
        ("A1-A1", "from one square to another"),
        ("", "not Overseer notation"),
    ],
)
def test_r9_malformed_text_is_a_notation_error(text: str, message: str) -> None:
    state = boardlab.load("overseer").new_state(seed=1)
    with pytest.raises(NotationError, match=message):
        state.parse_move(text)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("D4-D5", "D4 is empty: there is no piece to move (rule 6.1)"),
        ("A7-A6", "A7 holds Black's Soldier; White moves only White's pieces (rule 6.1)"),
        ("D2-D3", None),
        ("D1-D3", "the Captain on D1 is blocked by White's Barricade on D2 (rules 2.2, 3.3)"),
        ("C1-C3", "the General on C1 cannot reach C3: a General moves one square forward or backward"),
        ("B1-C2", "C2 holds White's own Soldier: nobody captures his own pieces (rule 4.1)"),
        ("F1-F4", "the Soldier on F1 cannot reach F4: a Soldier moves one square in any direction"),
        ("B2-D4", "the Soldier on B2 jumps only over a Barricade, and C3 holds an empty square (rule 3.2)"),
    ],
)
def test_r9_3_refusals_name_the_rule(move: str, message: str | None) -> None:
    state = boardlab.load("overseer").new_state(seed=1)
    if message is None:
        state.play(move)
        return
    with pytest.raises(IllegalMoveError, match=message.replace("(", r"\(").replace(")", r"\)")):
        state.play(move)
    assert state.position() == START


# --- 10 position string -------------------------------------------------------------------
def test_r10_1_counters_and_the_move_number_go_on() -> None:
    state = boardlab.load("overseer").new_state(seed=1)
    state.play("A2-A3")
    assert state.position().endswith(" b 1 1")
    state.play("A7-A6")
    assert state.position().endswith(" w 2 2")
    loaded = boardlab.load("overseer").state_from_position(state.position())
    loaded.play("B2-B3")
    assert loaded.position() == boardlab.load("overseer").state_from_position(loaded.position()).position()
    assert loaded.position().endswith(" b 3 2")


def test_r10_1_custom_positions_round_trip() -> None:
    text = position_text({"A1": "O", "L8": "o", "F4": "M", "G4": "m", "A4": "B", "L4": "b"}, "b", 17, 42)
    assert text == "11o/12/12/12/B4Mm4b/12/12/O11 b 17 42"
    assert load({"A1": "O", "L8": "o", "F4": "M", "G4": "m", "A4": "B", "L4": "b"}, "b", 17).position() == (
        "11o/12/12/12/B4Mm4b/12/12/O11 b 17 1"
    )
    assert boardlab.load("overseer").state_from_position(text).position() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS w 0 1", "expected 8 rings"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPMS w 0 1", "describes 13 squares"),
        ("opgccssccgpm/sssbsbbsbsss/11/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 1", "describes 11 squares"),
        ("opgccssccgpm/sssbsbbsbsss/012/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 1", "counts of empty squares are 1 to 12"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPX w 0 1", "ring 1 has 'X'"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM x 0 1", "not 'w' or 'b'"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 101 1", "between 0 and 100"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 0", "between 1 and 1000000"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w -1 1", "not a whole number"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0", "expected 4 fields"),
        ("opgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPO w 0 1", "White has 2 Overseers"),
        ("1pgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/OPGCCSSCCGPM w 0 1", "Black has no Overseer but White is to move"),
        ("1pgccssccgpm/sssbsbbsbsss/12/12/12/12/SSSBSBBSBSSS/1PGCCSSCCGPM b 0 1", "neither side has an Overseer"),
    ],
)
def test_r10_3_malformed_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        boardlab.load("overseer").state_from_position(text)


def test_r9_2_the_parser_reads_the_move_and_returns_the_marks_apart() -> None:
    """``parse_move_text`` gives the move the squares and ``x`` write; the piece letter and
    ``#`` are marks only the position can confirm (``parse_marks``), as in every game."""
    move = parse_move_text(" pB1xh7# ")
    assert move == PieceMove(SQUARE_BY_NAME["B1"], SQUARE_BY_NAME["H7"], True) and str(move) == "B1xH7"
    assert parse_marks(" pB1xh7# ") == Marks(PILOT, True)
    assert parse_marks("F1-H3") == Marks(0, False)
    with pytest.raises(NotationError, match="no piece letter"):
        parse_marks("QB1xH7")
