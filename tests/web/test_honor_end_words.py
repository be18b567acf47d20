"""The end of an Honor game lost by a collapse, as a first-time player sees it on the play page:
the move list, the report of the last placements and the banner speak in words (no piece codes
like LG2, no ``rel`` notation, no coordinates, no physics steps), and the board keeps drawing the
collapsed tower, its foundation arch outlined, during the fall and after it, where it lay when it
was taken off the table (rules 5.1, 5.2, 6.1, 14.2)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, honor_room_aiming, wait_for_moves

#: exact mode (no tremor), so the game is the same every time: Red builds arch, long plank and
#: cube at x 30, Blue slab and two bricks at x 90; Red's log, let go 3 cm past the right end of
#: its tower, falls onto the table: Red's tower collapses and Blue wins (rule 8.1)
SCRIPT = [
    "build AR1 0", "pass", "rel 30", "build SL1 0", "pass", "rel 90", "build PL1 0", "pass", "rel 30",
    "build BR1 0", "pass", "rel 90", "build CU1 0", "pass", "rel 30", "build BR2 0", "pass", "rel 90",
    "build LG2 0", "pass",
]
LAST = "rel 39"
#: what a person must not be shown: piece codes, the release notation, coordinates, engine steps
JARGON = [
    re.compile(r"\b[A-Z]{2}\d\b"), re.compile(r"\brel\b"), re.compile(r"\bx \d"), re.compile(r"\by \d"),
    re.compile(r"\bstep\b"), re.compile(r"\d+\.\d\d\d*"),
]
#: records, on every change of the board, a drawing of the falling log without Red's foundation
WATCH = """() => {
  window.__archMissing = 0;
  window.__drawings = 0;
  const board = document.getElementById("board");
  new MutationObserver(() => {
    const log = board.querySelector('.honor-piece[data-pid="LG2"]');
    if (!log) return;
    window.__drawings += 1;
    if (!board.querySelector('.honor-piece[data-pid="AR1"]')) window.__archMissing += 1;
  }).observe(board, { childList: true, subtree: true, attributes: true });
}"""


def jargon_in(text: str) -> list[str]:
    return [found.group(0) for pattern in JARGON for found in pattern.finditer(text)]


def test_an_honor_game_lost_by_a_collapse_ends_in_words_with_the_collapsed_tower_drawn(
        page: Any, web_server: Server, screenshots: Path) -> None:
    room, token, state = honor_room_aiming(page, web_server, [0, 1], SCRIPT)
    page.evaluate(WATCH)

    # the last release, seen live: the page plays the fall from the view's frames
    final = web_server.play(room, token, LAST, state["ply"])
    assert final["status"] == "finished" and final["view"]["result"]["winners"] == [1]
    assert final["log"][-1]["move"]["notation"] == "rel 39.00 0.0 0.05", "the notation is kept for programs"
    wait_for_moves(page, len(SCRIPT) + 1)
    page.wait_for_function(f"() => {PLAY}.status === 'finished'")
    # the animation is over when the fallen pieces are drawn hatched
    page.wait_for_selector('#board .honor-fallen[data-pid="LG2"]', timeout=30_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshots / "honor-end-collapse.png"), full_page=True)

    # the board: the collapsed tower is drawn all through the fall and after it, its arch outlined
    assert page.evaluate("() => window.__drawings") > 0
    assert page.evaluate("() => window.__archMissing") == 0, "Red's arch vanished while its tower fell"
    arch = page.locator('#board .honor-fallen[data-pid="AR1"]')
    assert arch.count() == 1, "the foundation arch is drawn where it lay when the tower was taken off"
    assert arch.locator("polygon").first.get_attribute("stroke") == "#111", "the arch is outlined as a foundation"
    assert "Red's tower collapsed" in (page.locator("#board .honor-table").text_content() or "")
    # and where the rules leave it: on the table (resting), not in mid-air
    fallen = {piece["pid"]: piece for piece in final["view"]["board"]["reports"][-1]["fallen"]}
    assert set(fallen) == {"AR1", "PL1", "CU1", "LG2"} and fallen["AR1"]["foundation"]
    assert fallen["LG2"]["y"] < 1.6, "the log lies on the table"

    # the words: the move list, the report of the last placements and the banner
    moves = page.locator("#moves").inner_text()
    reports = page.locator("#board .honor-reports").inner_text()
    banner = page.locator("#banner").inner_text()
    for what, text in (("the move list", moves), ("the last placements", reports), ("the banner", banner)):
        assert not jargon_in(text), f"{what} holds jargon {jargon_in(text)}: {text!r}"
    assert "release the log, 3 cm past the right end of its tower" in moves
    assert "build with the arch" in moves
    assert "Red let go of the log" in reports and "Red's tower collapsed" in reports and "Red is out" in reports
    assert "Blue wins" in banner
