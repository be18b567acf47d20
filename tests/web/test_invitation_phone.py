"""The invitation page (/rooms/ROOM?invite=CODE) on a phone: the join card right under the
"An invitation" banner (no board's height of blank between them while nothing is drawn yet), and
no empty grey badge in the header while no live connection is open; once joined, the board and
the "live" badge are there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY

PHONE = {"width": 390, "height": 844}
#: the most blank between the banner's foot and the join card's top (the page's gaps are ~10 px)
MOST_GAP = 120
BARE = {"", "-", "\u2013", "\u2014", "\u2012", "\u2212"}


def test_the_invitation_on_a_phone(new_page: Callable[..., Any], web_server: Server, screenshots: Any) -> None:
    created = web_server.create("towers", ["here", "invite"])
    invite = created["invites"][0]
    page = new_page(PHONE, is_mobile=True, has_touch=True)
    page.goto(f"/rooms/{created['room']}?invite={invite['code']}")
    page.wait_for_selector("#join:not([hidden]) #join-button")
    page.wait_for_timeout(300)  # nothing more comes while the guest has not joined
    page.screenshot(path=str(screenshots / "invitation-phone.png"))
    problems = []
    banner = page.locator("#banner").bounding_box()
    card = page.locator("#join").bounding_box()
    assert banner and card
    gap = card["y"] - (banner["y"] + banner["height"])
    if not 0 <= gap <= MOST_GAP:
        problems.append(f"{gap:.0f} px between the banner and the join card")
    # the card's Join button on the first screen
    join = page.locator("#join-button").bounding_box()
    if not join or join["y"] + join["height"] > PHONE["height"]:
        problems.append(f"the Join button is off the first screen: {join}")
    # the header's connection badge: nothing, or words, never a bare dash
    badge = page.locator("#connection")
    if badge.is_visible():
        box = badge.bounding_box()
        text = badge.inner_text().strip()
        if text in BARE or not box or box["height"] < 10:
            problems.append(f"the connection badge shows {text!r} in a box of {box}")
    # no empty column under the card either: the page ends soon after it
    height = page.evaluate("() => document.documentElement.scrollHeight")
    if height > max(PHONE["height"], card["y"] + card["height"] + MOST_GAP):
        problems.append(f"the page is {height} px tall, the card ends at {card['y'] + card['height']:.0f}")
    assert not problems, problems

    # joined: the board is drawn, the badge says "live"
    page.locator("#join-button").click()
    page.wait_for_function(f"() => {PLAY}.mode === 'live'")
    page.wait_for_selector("#board svg.bl-board-svg")
    board = page.locator("#board").bounding_box()
    assert board and board["width"] > 300 and board["height"] > 200, board
    page.wait_for_function("() => document.getElementById('connection').dataset.state === 'open'")
    assert page.locator("#connection").inner_text().strip() == "live"
    assert page.locator("#connection").is_visible()
    page.screenshot(path=str(screenshots / "invitation-phone-joined.png"))
