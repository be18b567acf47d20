"""What a person sees (docs/rules/honor.md, rules 4.2-4.5, 10.2, 11.5, 11.6 and 14): aiming a
release with a preview at the true drop height, the legal window at each resting rotation,
the close-up with its ruler, the resolutions in words, and the seed's commitment and check."""

from __future__ import annotations

import json
import random
import re

import pytest

import boardlab
from boardlab.core import NotationError
from boardlab.games.honor import drawing
from boardlab.games.honor.moves import Release, Tremor
from boardlab.games.honor.position import PieceOnTable
from boardlab.games.honor.report import describe, resolution_report
from tests.honor.helpers import exact_game, play


def slab_and_brick(players: int = 2, **options):
    state = exact_game(players, **options).new_state(seed=1)
    return play(state, "build SL1 0", "pass", "rel 30", "build BR1 0", "pass", "rel 90")


def plain(text: str) -> str:
    return re.sub(r"\[[^\]]*\]", "", text)


# --- aiming: rules 4.2-4.4 and 10.2 --------------------------------------------------------
def test_r4_4_a_preview_shows_the_release_at_its_true_drop_height_without_playing_it() -> None:
    """The previewed piece hangs where the hand lets go: the first-contact height (the slab's
    top, 3 cm, plus the cube's half height) plus the clearance; playing the same release
    then uses exactly that height, and the preview changed nothing."""
    state = play(slab_and_brick(), "build CU1 0", "pass")
    before = state.position()
    aim = state.preview("31 90 0.5").view(0)["board"]["placing"]["aim"]
    assert state.position() == before and state.phase == "PLACE"
    assert aim["preview"] and aim["legal"] and aim["lands_on"] == ["SL1"]
    assert aim["contact_y"] == pytest.approx(4.5, abs=0.05) and aim["y"] == pytest.approx(aim["contact_y"] + 0.5,
                                                                                        abs=1e-3)
    play(state, "rel 31 90 0.5")
    assert state.last["release_y"] == round(aim["y"] * 1e4)


def test_r4_4_a_preview_that_misses_the_tower_says_it_would_touch_the_table() -> None:
    """Rule 5.2: a tower piece that reaches the table is a collapse; the preview names it."""
    state = play(slab_and_brick(), "build CU1 0", "pass")
    view = state.preview("rel 19.50").view(0)
    assert view["board"]["placing"]["aim"]["lands_on"] == ["table"]
    assert "a collapse" in plain(boardlab.load("honor").render_view(view))


def test_r4_3_the_view_gives_the_legal_window_of_every_resting_rotation() -> None:
    state = play(slab_and_brick(), "build PL1 0", "pass")
    placing = state.view(0)["board"]["placing"]
    rotations = {entry["rotation"]: entry["window"] for entry in placing["rotations"]}
    assert set(rotations) == {0.0, 270.0}, "a plank rests flat or on its end"
    for rotation, window in rotations.items():
        assert tuple(window) == state.release_window(0, "PL1", round(rotation * 10))
    text = plain(state.render(0))
    assert "counter-clockwise" in text and "270°: x" in text


def test_r10_2_a_bare_number_is_a_release_only_while_a_piece_is_to_be_placed() -> None:
    state = play(slab_and_brick(), "build CU1 0")
    with pytest.raises(NotationError):
        state.parse_move("3")  # an auction: "raise 3", never a release
    play(state, "pass")
    assert state.parse_move("31.5 90") == Release(3150, 900, 5)
    assert str(state.parse_move("31.5")) == "rel 31.50 0.0 0.05"


def test_r4_4_a_match_previews_from_a_resampled_state_and_plays_nothing() -> None:
    match = boardlab.Match(exact_game(2), seed=1)
    for text in ("build SL1 0", "pass"):
        match.play(match.to_move(), text)
    ply = match.ply
    view = match.preview(0, "rel 30 90")
    assert view["board"]["placing"]["aim"]["release"] == "rel 30.00 90.0 0.05" and match.ply == ply


def test_r4_4_the_preview_option_outcome_shows_the_table_after_the_release_settles() -> None:
    """Option ``preview=outcome``: the table after the release, settled without tremor."""
    state = play(slab_and_brick(players=2, preview="outcome"), "build CU1 0", "pass")
    before = state.position()
    after = state.preview("rel 30")
    assert state.position() == before
    assert after.phase == "CHOOSE" and any(p.pid == "CU1" for p in after.table)
    assert "Every tower stands" in after.view(0)["board"]["reports"][-1]["text"]
    with_tremor = play(boardlab.load("honor", preview="outcome").new_state(seed=1), "build SL1 0", "pass")
    assert with_tremor.preview("rel 30").last["executed"] == [3000, 0], "no tremor in the preview"


# --- the close-up and its ruler --------------------------------------------------------------
def test_zoom_draws_the_slab_six_pixels_thick_with_a_centimetre_ruler_and_the_window() -> None:
    """0.5 cm per pixel: the 3 cm slab is 3 rows of full blocks, a 1.5 cm plank 3 pixels."""
    state = play(slab_and_brick(), "build PL1 0", "pass")
    lines = drawing.zoom(state.view(0)["board"], 0)
    slab_rows = [line for line in lines if "[red3]" in line and "█" in line]
    assert len(slab_rows) == 3
    text = "\n".join(plain(line) for line in lines)
    assert "┴" in text and "╵" in text and "25" in text and "30" in text and "35" in text
    assert "▲" in text and "legal x 19.50-40.50 at 0°" in text
    assert drawing.GHOST in text, "the plank in hand hangs over the slab"


def test_zoom_cuts_a_tall_tower_at_the_fine_scale_and_the_heading_says_the_scale(monkeypatch) -> None:
    """A tower taller than the close-up keeps 0.5 cm pixels: its top is drawn above a cut line
    that names the cut's height, instead of shrinking every piece."""
    from boardlab.games.honor import render

    state = play(slab_and_brick(), "build PL1 0", "pass")
    envelope = state.view(0)
    monkeypatch.setattr(drawing, "MAX_ZOOM_ROWS", 3)
    lines = [plain(line) for line in drawing.zoom(envelope["board"], 0)]
    cut = [line for line in lines if "cut at y" in line]
    assert len(cut) == 1 and "cut at y 2 cm" in cut[0], lines
    assert not any(line.startswith("▀▀▀") for line in lines), "the table is below the cut"
    assert sum(1 for line in lines if drawing.GHOST in line) >= 1, "the plank in hand is above the cut"
    text = plain(render.render_view(envelope))
    assert "close up (0.5 cm per column and per half row" in text


def test_r7_the_terminal_names_the_supply_by_kind_and_says_what_each_decision_types() -> None:
    """A newcomer reads the pieces by name with the ids a move names, and each phase says its
    commands: build and push (7.1, 7.2, 7.7), raise and pass (7.3), acc and passon (7.7)."""
    state = exact_game(2).new_state(seed=1)
    choosing = plain(state.render(0))
    assert "supply 30: arch AR1 AR2; brick BR1 BR2 BR3 BR4;" in " ".join(choosing.split())
    assert "slab SL1" in choosing and "build PIECE BID" in choosing and "push PIECE" in choosing
    assert "at most 10" in choosing
    auction = " ".join(plain(play(state, "build CU1 2").render(0)).split())
    assert "Blue to raise (raise B, B above 2) or pass" in auction
    assert "supply 29" in auction and "cube CU2" not in auction, "the ids are listed where a piece is chosen"
    pushed = " ".join(plain(play(exact_game(2).new_state(seed=1), "push CU1").render(1)).split())
    assert "Blue accepts it (acc) or pays 1 to pass it on (passon)" in pushed


def test_r4_4_the_aim_names_the_piece_it_lands_on_by_its_owner_and_kind_before_its_id() -> None:
    state = play(slab_and_brick(), "build CU1 0", "pass")
    text = " ".join(plain(boardlab.load("honor").render_view(state.preview("31 90 0.5").view(0))).split())
    assert "it first touches Red's slab (SL1) at y" in text


# --- feedback after a release: rules 4.5, 5, 6 --------------------------------------------------
def test_r5_2_a_collapse_is_said_in_words_with_its_step_and_what_fell() -> None:
    state = play(slab_and_brick(), "build CU1 0", "pass", "rel 19.50")
    report = state.view(1)["board"]["reports"][-1]
    step = state.last["collapses"][0][0]
    assert step > 0 and "Red's tower collapsed" in report["text"] and "Red is out" in report["text"]
    assert {piece["pid"] for piece in report["fallen"]} == {"SL1", "CU1"}
    assert "×" in plain(state.render(1)), "what fell is drawn where it lay"


def test_r6_1_a_chain_collapse_reports_both_towers_in_order() -> None:
    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 0", "pass", "pass", "rel 52", "build PL1 0", "pass", "pass", "rel 70",
         "build BR1 0", "pass", "pass", "rel 150", "build CO1 0", "pass", "pass", "rel 58",
         "build PL2 0", "pass", "pass", "rel 64", "push CU1", "acc", "rel 41.6")
    text = state.view(2)["board"]["reports"][-1]["text"]
    assert text.index("Red's tower collapsed") < text.index("Blue's tower collapsed")


def test_words_for_a_piece_that_slid_and_for_the_tremor() -> None:
    """A standing tower's moved pieces are named; the tremor's shift and the executed pose too."""
    before = [PieceOnTable("SL1", 1, True, 0, 900000, 15000, 0), PieceOnTable("BR1", 0, True, 1, 300000, 15000, 0)]
    poses = [("SL1", 908000, 15000, 0), ("BR1", 300000, 15000, 0), ("CU1", 300000, 45000, 0)]
    last = {"index": 2, "placer": 0, "pid": "CU1", "intended": [3010, 0, 5], "executed": [3000, 3595],
            "release_y": 45500, "collapses": [], "timed_out": 0, "steps": 480, "resigned": None}
    report = resolution_report(before, poses, [], {"SL1": 1, "BR1": 0, "CU1": 0}, last, tremor=True)
    text = describe(report, ("Red", "Blue"))
    assert "Blue's slab slid 0.8 cm, but Blue's tower stands." in text
    assert "the hand shook and it went 0.1 cm to the left and turned 0.5 degrees to the right" in text


def test_r4_5_the_tremor_reads_as_the_executed_release() -> None:
    state = play(boardlab.load("honor").new_state(seed=1), "build SL1 0", "pass", "rel 30")
    assert state.move_text(Tremor(-10, -9), 0) == (
        "the hand's tremor: the slab went 0.1 cm to the left and turned 0.9 degrees to the right")


# --- the seed: rule 11.5 ---------------------------------------------------------------------
def test_r11_5_the_board_shows_the_commitment_and_at_the_end_the_seed_and_its_check() -> None:
    state = play(slab_and_brick(), "build CU1 0", "pass")
    commit = state.view(0)["board"]["seed_commit"]
    assert f"seed commitment (SHA-256): {commit}" in plain(state.render(0))
    play(state, "rel 19.50")
    text = plain(state.render(0))
    assert "seed revealed:" in text and "matches the commitment ✓" in text
    envelope = state.view(0)
    envelope["board"]["seed"] = "00" * 32
    assert "does NOT match" in plain(state.game.render_view(envelope))


def test_r11_6_views_stay_json_and_twins_see_the_same_reports() -> None:
    state = play(boardlab.load("honor").new_state(seed=2), "build SL1 0", "pass", "rel 30")
    state.play(state.sample_chance())
    twin = state.resample(0, random.Random(1))
    assert twin.view(1) == state.view(1)
    json.dumps(state.view(None))


def test_table_picture_after_a_collapse_and_with_a_piece_in_hand(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    state = play(slab_and_brick(), "build CU1 0", "pass")
    state.game.render_image(state.preview("31 90").view(0), str(tmp_path / "aim.png"))
    play(state, "rel 19.50")
    state.game.render_image(state.view(1), str(tmp_path / "fell.png"))
    for name in ("aim.png", "fell.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_10_2_1_people_read_a_release_accept_and_pass_on_in_words_and_records_keep_the_notation() -> None:
    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 0", "pass", "pass")
    assert state.move_text(state.parse_move("rel 30 90"), 0) == (
        "release the slab, turned a quarter turn to the left, in the middle of its zone")
    assert state.move_text(state.parse_move("rel 30 0 0.5"), None) == "release the slab, in the middle of its zone"
    play(state, "rel 30", "build BR1 0", "pass", "pass", "rel 64", "push CU1")
    assert state.move_text(state.parse_move("acc"), 1) == "accept"
    assert state.move_text(state.parse_move("passon"), 2) == "pass it on"
    assert state.history_notation()[3].startswith("rel 30.00 0.0 0.05"), "records keep the notation"
