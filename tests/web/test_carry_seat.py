"""A player's seat carried to another device: the play page's "Play on another device" gives a
link that another browser opens to hold the same seats (this one keeps them). The token rides
in the link's fragment, which never reaches a server, and leaves the address bar as soon as the
page has read it; a link whose token the room does not know says so and leaves a spectator."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room, play_by_clicking, wait_for_moves, wait_for_turn

#: a phone, the other device
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: the room ids this browser holds a token of, and for which seats
HELD = """() => Object.entries(JSON.parse(localStorage.getItem('boardlab.rooms') || '{}'))
  .map(([room, entry]) => [room, entry.identities.map((identity) => identity.seats)])"""


def test_a_seat_opened_from_its_link_on_another_device_plays_there_and_here(
    new_page: Callable[..., Any], web_server: Server, screenshots: Path
) -> None:
    created = web_server.create("towers", ["here", "here"])
    room, token = created["room"], created["token"]
    laptop = new_page()
    hold_seats(laptop, room, "towers", token, [0, 1])
    open_room(laptop, room)
    panel = laptop.locator("#carry")
    assert panel.is_visible() and not panel.locator("textarea").is_visible(), "closed until asked for"
    panel.locator("summary").click()
    field = panel.locator("textarea")
    assert field.get_attribute("aria-label") == "link to play for White and Black"
    link = field.input_value()
    assert link.startswith(f"{web_server.url}/rooms/{room}#seat="), link
    assert "Anyone who has the link can play as you" in panel.inner_text()

    phone = new_page(**PHONE)
    phone.goto(link)
    phone.wait_for_function(f"() => {PLAY}.mode === 'live'")
    assert "#seat" not in phone.url and token not in phone.url, "the token leaves the address bar"
    assert phone.evaluate(HELD) == [[room, [[0, 1]]]], "the phone holds the same seats now"
    assert wait_for_turn(phone) == "playing"
    play_by_clicking(phone, random.Random(7))
    wait_for_moves(laptop, 1)  # the laptop sees the phone's move live, and keeps its seats
    assert laptop.evaluate(HELD) == [[room, [[0, 1]]]]
    assert wait_for_turn(laptop) == "playing"
    assert panel.locator("textarea").is_visible(), "the panel stays open across the page's redraws"
    laptop.screenshot(path=str(screenshots / "carry-seat.png"), full_page=True)


def test_a_link_with_a_token_the_room_does_not_know_leaves_a_spectator_and_says_so(
    new_page: Callable[..., Any], web_server: Server
) -> None:
    room = web_server.create("towers", ["here", "here"])["room"]
    page = new_page()
    page.goto(f"/rooms/{room}#seat=not-a-token-of-this-room")
    page.wait_for_function(f"() => {PLAY}.mode === 'live'")
    notice = page.locator("#notice")
    notice.wait_for()
    assert notice.inner_text() == (
        "This link to a seat does not work for this room (the game may have been deleted): you can watch the game."
    )
    assert "#seat" not in page.url
    assert page.evaluate(HELD) == [] and page.evaluate(f"() => {PLAY}.yourTurn") == "false"
    assert page.locator("#carry").is_hidden(), "nothing to carry: this browser holds no seat"
