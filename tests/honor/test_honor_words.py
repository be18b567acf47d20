"""What people read of Honor's moves and reports: words, never notation, piece codes or
coordinates (rule 10.2.1); records and the notation keep the numbers."""

from __future__ import annotations

import re

import boardlab
from boardlab.games.honor.moves import Tremor
from tests.honor.helpers import exact_game, play

#: a piece code (LG2), the release's notation word, coordinates and engine steps
JARGON = re.compile(r"\b[A-Z]{2}\d\b|\brel\b|\bx \d|\by \d|\bstep\b|\d+\.\d\d")

#: Red: arch, long plank and cube at x 30; Blue: slab and two bricks at x 90 (exact mode)
TOWERS = ["build AR1 0", "pass", "rel 30", "build SL1 0", "pass", "rel 90", "build PL1 0", "pass", "rel 30",
          "build BR1 0", "pass", "rel 90", "build CU1 0", "pass", "rel 30", "build BR2 0", "pass", "rel 90",
          "build LG2 0", "pass"]


def test_a_placement_reads_in_words_for_every_viewer_and_its_notation_is_unchanged() -> None:
    state = play(exact_game().new_state(seed=1), *TOWERS)
    move = state.parse_move("rel 39")
    for viewer in (None, 0, 1):
        text = state.move_text(move, viewer)
        assert not JARGON.search(text), text
        assert text == "release the log, 3 cm past the right end of its tower"
    assert state.move_text(state.parse_move("rel 30"), 0) == "release the log, over the middle of its tower"
    assert state.move_text(state.parse_move("rel 30 90"), 0) == (
        "release the log, turned a quarter turn to the left, over the middle of its tower")
    assert str(move) == "rel 39.00 0.0 0.05", "the notation is the machine's"
    play(state, "rel 39")
    assert state.history_notation()[-1].startswith("rel 39.00 0.0 0.05"), "records keep the notation"


def test_a_foundation_build_push_and_tremor_read_in_words() -> None:
    state = play(boardlab.load("honor").new_state(seed=1), "build SL1 0", "pass")
    assert state.move_text(state.parse_move("rel 30"), 1) == "release the slab, in the middle of its zone"
    assert state.move_text(state.parse_move("rel 27"), 1) == "release the slab, 3 cm left of the middle of its zone"
    play(state, "rel 30")
    text = state.move_text(Tremor(-10, -9), 0)
    assert text == "the hand's tremor: the slab went 0.1 cm to the left and turned 0.9 degrees to the right"
    state.play(state.sample_chance())
    assert state.move_text(state.parse_move("build LG1 2"), 1) == "build with the log, opening the auction at 2 tokens"
    assert state.move_text(state.parse_move("push LG1"), 1) == "push the log to the next player"


def test_the_report_of_a_collapse_is_in_words_and_keeps_the_foundation_of_what_fell() -> None:
    state = play(exact_game().new_state(seed=1), *TOWERS, "rel 39")
    assert state.phase == "OVER"
    report = state.view(0)["board"]["reports"][-1]
    assert not JARGON.search(report["text"]), report["text"]
    assert report["text"].startswith("Red let go of the log, 3 cm past the right end of its tower.")
    assert "Red's tower collapsed" in report["text"] and "Red is out" in report["text"]
    assert report["intended"] == "rel 39.00 0.0 0.05", "the report's data keeps the notation"
    fallen = {piece["pid"]: piece for piece in report["fallen"]}
    assert fallen["AR1"]["foundation"] and not fallen["LG2"]["foundation"]
