"""Honor on a phone: a finger only aims (rule 14.5). A touch drag moves the piece in the hand and
lifting the finger leaves it aimed there, not let go, so a slip of the finger is not a move; the
player drags again to adjust and lets go with the "Drop the log here" button right under the table
(a fingertip large). A mouse still lets go on release (tests/web/test_territories_and_honor.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.web.browser import Server
from tests.web.steps import HONOR_TO_AIMING, honor_room_aiming, steady_box, wait_for_moves

PHONE = {"width": 390, "height": 844}
FINGER = 44


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
    """A real finger on the screen: touchStart at ``start``, moves to ``end``, touchEnd (the
    browser makes the pointer events, pointerType "touch", from them)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_finger_aims_the_piece_and_the_drop_button_lets_go(new_page: Callable[..., Any], web_server: Server) -> None:
    page = new_page(PHONE, is_mobile=True, has_touch=True)
    room, token, state = honor_room_aiming(page, web_server, [0])
    ply, logged = state["ply"], len(state["log"])
    hand = page.locator("#board [data-hand]")
    hand.scroll_into_view_if_needed()
    start = float(hand.get_attribute("data-x") or "nan")

    # a finger drags the log to the left and lifts: it stays aimed there, nothing is played
    x, y = centre(steady_box(page, "#board [data-hand]"))
    touch_drag(page, (x, y), (x - 60, y))
    page.wait_for_timeout(800)  # time for a release to reach the server, were one sent
    after = web_server.state(room, token)
    assert after["ply"] == ply and len(after["log"]) == logged, "lifting the finger let go of the piece"
    aimed = float(hand.get_attribute("data-x") or "nan")
    assert aimed < start - 3, f"the hand shows the new aim ({start} -> {aimed})"
    hint = page.locator("#board .honor-place .bl-hint").inner_text()
    assert hint.startswith("Drag to aim, then tap Drop"), hint

    # the button that lets go: in words, a fingertip large, right under the table
    drop = page.locator("#board #honor-drop")
    assert drop.inner_text().strip() == "Drop the log here"
    button = drop.bounding_box()
    table = page.locator("#board svg.honor-table").bounding_box()
    assert button is not None and table is not None
    assert button["width"] >= FINGER - 0.5 and button["height"] >= FINGER - 0.5, button
    assert 0 <= button["y"] - (table["y"] + table["height"]) <= 40, ("the drop button is not next to the table", button, table)

    # dragging again adjusts the aim, still without playing anything
    x, y = centre(steady_box(page, "#board [data-hand]"))
    touch_drag(page, (x, y), (x + 25, y))
    page.wait_for_timeout(500)
    assert web_server.state(room, token)["ply"] == ply, "the second lift let go of the piece"
    adjusted = float(hand.get_attribute("data-x") or "nan")
    assert aimed < adjusted, f"the second drag moved the aim ({aimed} -> {adjusted})"

    # tapping the button plays the release where the hand is
    drop.tap()
    wait_for_moves(page, len(HONOR_TO_AIMING) + 1)
    played = web_server.state(room, token)
    assert len(played["log"]) == logged + 1
    assert played["log"][-1]["move"]["notation"] == f"rel {adjusted:.2f} 0.0 0.05"
