"""Move notation (rule 5.2), the position string SPN (rule 5.4) and what a view shows (rule 7)."""

from __future__ import annotations

import pytest
from rich.console import Console

import boardlab
from boardlab.core import NotationError, PositionError
from boardlab.games.sovereign import ConsultantJump, ContractorMove, Placement, Slide, parse_marks, parse_move_text
from boardlab.games.sovereign.board import SQUARE_BY_NAME as SQ
from tests.sovereign.helpers import load, refusal, spn

GAME = boardlab.load("sovereign")


# --- rule 5.2: moves ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("S@d1", Placement(0, SQ["d1"])),
        ("B@d2^d3", Placement(3, SQ["d2"], SQ["d3"])),
        ("Sd1-c1", Slide(0, SQ["d1"], SQ["c1"])),
        ("Dc2-b2", Slide(1, SQ["c2"], SQ["b2"])),
        ("Bc2-c3^c2", ContractorMove(SQ["c2"], SQ["c3"], SQ["c2"])),
        ("Bc2-c3^^b4", ContractorMove(SQ["c2"], SQ["c3"], SQ["b4"], 2)),
        ("Cb7-c5", ConsultantJump(SQ["b7"], SQ["c5"])),
        ("Cc4xd6", ConsultantJump(SQ["c4"], SQ["d6"], True)),
    ],
)
def test_r5_2_notation_reads_and_writes_each_kind_of_move(text: str, move: object) -> None:
    parsed = parse_move_text(text)
    assert parsed == move and str(parsed) == text and parse_marks(text) == ""
    assert parse_move_text(text + "+") == move and parse_marks(text + "+") == "+"
    assert parse_marks(f" {text}# ") == "#"


def test_r5_1_squares_are_case_insensitive_and_the_canonical_form_is_lowercase() -> None:
    assert str(parse_move_text("s@D1")) == "S@d1"
    assert str(parse_move_text("BC2-C3^C2")) == "Bc2-c3^c2"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Sh1-h2", "h1 is not a square"),  # A1: seven files, a-g
        ("Sd1-d8", "d8 is not a square"),
        ("Bc2-c3", "must build"),
        ("Bc2xc3^c2", "only Consultants capture"),
        ("Sd1xd2", "only Consultants capture"),
        ("Cb7-c5^c4", "only Contractors build"),
        ("S@d1^d2", "only the third Contractor"),
        ("Qd1-d2", "not a piece"),
        ("Bc2-c3^^^^c2", "3 levels"),
        ("d1-d2", "not Sovereign notation"),
    ],
)
def test_r5_2_malformed_moves_are_refused_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        parse_move_text(text)


def test_r5_2_suffixes_are_checked() -> None:
    winning = load("d5:2S d6:3 g1:0s")
    assert str(winning.parse_move("Sd5-d6#")) == "Sd5-d6"
    assert "'#' marks a winning move" in refusal(winning, "Sd5-c5#")
    assert "it wins" in refusal(winning, "Sd5-d6+")
    threat = load("a1:0S d4:0C c7:0s")
    assert str(threat.parse_move("Cd4-b5+")) == "Cd4-b5"  # from b5 the Consultant attacks c7
    assert "'+' marks" in refusal(threat, "Cd4-c2+")


def test_r5_2_move_json_names_the_squares_for_a_browser() -> None:
    state = load("a1:0C b3:2d c2:0B a7:0S g1:0s")
    jump = state.parse_move("Ca1xb3")
    assert jump.to_json() == {
        "type": "consultant_jump", "notation": "Ca1xb3", "piece": "C", "from": "a1", "to": "b3",
        "captures": "b3", "reduces": "b3",
    }
    build = state.parse_move("Bc2-c3^c2")
    assert build.to_json() == {
        "type": "contractor_move", "notation": "Bc2-c3^c2", "piece": "B", "from": "c2", "to": "c3",
        "build": "c2", "levels": 1,
    }
    assert state.move_from_json(jump.to_json()) == jump


# --- rule 5.4: SPN ------------------------------------------------------------------------------
def test_r5_4_the_rulings_example_round_trips() -> None:
    text = "00c03s2d0c0/000b0b0b00/0001000/0000000/0001000/000B0B0B00/00C03S2D0C0 1 p 25/12 0"
    state = GAME.state_from_position(text)
    assert state.position() == text
    assert len(state.legal_moves()) == 84


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (spn("a1:0S g7:0s").replace(" 35/14 ", " 34/14 "), "supply must be 35/14"),
        (spn("a1:0S a3:3C g7:0s"), "Consultant on a3 at height 3"),
        (spn("a1:0S b1:0S g7:0s"), "2 Sovereigns"),
        (spn("a1:0S g7:0s c4:0B c5:0B c6:0B c7:0B"), "4 Contractors"),
        (spn("a1:0S g7:0s").replace("1 p", "3 p"), "player to move"),
        (spn("a1:0S g7:0s").replace(" p ", " s14 "), "14 placements"),
        (spn("a1:0S g7:0s", ply=201), "past the limit"),
        (spn("a1:0S g7:0s").replace("0S000000 ", "0S0000000 "), "rank 1"),
        (spn("a1:0S g7:0s").replace("0s", "0x"), "rank 7"),
        (spn("a1:0S b3:0c g7:0s", to_move=2), "threatened while P2 is to move"),
        (spn("d6:3S d1:3s g1:0"), "both Sovereigns"),
        (spn("a1:0S g7:0s") + " objective", "no Sovereign stands on a winning square"),
        (spn("a1:0S g7:0s") + " move_limit", "needs ply 200"),
        (spn("a1:0S g7:0s") + " no_moves", "does not fit"),
        (spn("a1:0S g7:0s") + " no_legal_move", "does not fit"),  # the code's former name, read as no_moves
        (spn("a1:0S g7:0s") + " resign", "not one of"),
        ("0000000/0000000/0000000/0000000/0000000/0000000/3S2D00000 2 s1 25/12 0", "P1 has placed 1 Sovereign"),
        ("0000000/0000000/0000000/0000000/0000000/0000000/0S000000 2 s1 25/12 0", "at height 3"),
        ("0000000/0000000/0000000/0000000/0000000/0000000/3S000000 1 s1 25/12 0", "P2's turn"),
        ("0000000/0000000/0000000/0000000/0000000/0000000/3S000000 2 s1 35/14 0", "supply is 25/12"),
        ("0000000/0000000/0000000/0000000/0003S000/0000000/0000000 2 s1 25/12 0", "back two ranks"),
    ],
)
def test_r5_4_impossible_positions_are_refused_naming_the_fault(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        GAME.state_from_position(text)


def test_r5_4_a_won_position_reloads_as_won() -> None:
    state = load("d5:2S d6:3 g1:0s")
    state.play("Sd5-d6")
    text = state.position()
    assert text.endswith(" objective")
    again = GAME.state_from_position(text)
    assert again.is_over() and again.result().winners == (0,)
    assert GAME.state_from_position(text.removesuffix(" objective")).result().code == "objective"


# --- rule 7: the view and the terminal board -------------------------------------------------------
def test_r7_the_view_shows_heights_pieces_threats_and_protection() -> None:
    state = load("d1:0S c3:0c e2:2D g7:0s")
    board = state.view(0)["board"]
    assert board["heights"][5][4] == 2 and board["pieces"][6][3] == "S"  # e2, d1: rank 1 is the last row
    assert board["threatened"] == [False, False]  # d1 is protected by the Diplomat on e2
    assert board["protected"][0] == ["d1"]
    assert board == state.view(1)["board"] == state.view(None)["board"]


def test_r7_the_terminal_board_reads_without_colour() -> None:
    state = load("d1:0S c3:0c a2:1C g7:3s g6:2")
    console = Console(no_color=True, width=100, record=True)
    console.print(state.render())
    text = console.export_text()
    assert " ·S! " in text  # P1's Sovereign on open ground, threatened
    assert " 3s " in text and " 1C " in text and " 2  " in text
    assert "a    b    c" in text and " 7 " in text


@pytest.mark.parametrize(
    "make",
    [
        lambda: Placement(0, 49),
        lambda: Placement(3, SQ["d2"], 60),
        lambda: Slide(0, SQ["d1"], -1),
        lambda: Slide(2, SQ["d1"], SQ["d2"]),  # a Consultant does not slide
        lambda: ContractorMove(SQ["c2"], SQ["c3"], SQ["c2"], 4),
        lambda: ConsultantJump(SQ["a1"], 99),
    ],
)
def test_r5_2_move_objects_off_the_board_cannot_be_made(make: object) -> None:
    with pytest.raises(NotationError):
        make()  # type: ignore[operator]
